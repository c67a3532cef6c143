//! Where a libcall's arguments and results are: handed out in order from
//! the registers the call instruction names (its implicit uses or defs),
//! floating-point values to floating-point registers where the call names
//! them, and arguments to the outgoing stack area where the target passes
//! them there (every argument on i386, `x86_fp80` on x86-64) or once the
//! registers are used up (X86, Arm). Mips follows O32 itself (see
//! [`super::o32_args`]), the named registers only checked against it.

use super::InterpError;
use super::abi::{Abi, RegClass};
use super::libcall::Kind;
use super::o32_args::O32;
use std::collections::VecDeque;

/// Where one part of a value travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The low `bits` of a register.
    Reg(String, u32),
    /// `bytes` bytes of the outgoing stack area, at this offset from the
    /// stack pointer.
    Stack {
        /// Offset in bytes from the stack pointer at the call.
        offset: u64,
        /// Size of the slot in bytes.
        bytes: u64,
    },
}

/// Hands out a call's argument or result places to parameters in order.
pub struct Assigner<'a> {
    abi: &'a Abi,
    int: VecDeque<(String, u32)>,
    float: VecDeque<(String, u32)>,
    /// The next free offset of the outgoing stack area; `None` for results,
    /// which never travel on the stack.
    stack: Option<u64>,
    /// On Mips, where O32 puts each value.
    o32: Option<O32>,
}

fn unsupported(what: String) -> InterpError {
    InterpError::Unsupported(what)
}

impl<'a> Assigner<'a> {
    /// The places of a call's arguments (`arguments`) or results, `regs`
    /// being the registers the call names for them.
    pub fn new(abi: &'a Abi, regs: Vec<String>, arguments: bool) -> Result<Self, InterpError> {
        let mut a = Assigner {
            abi,
            int: VecDeque::new(),
            float: VecDeque::new(),
            stack: arguments.then_some(0),
            o32: abi.is_o32().then(|| O32::new(abi, arguments)),
        };
        for r in regs {
            let view = abi.view(&r).ok_or_else(|| unsupported(format!("physical register ${r}")))?;
            match view.class {
                RegClass::Int => a.int.push_back((r, view.bits)),
                RegClass::Float => a.float.push_back((r, view.bits)),
            }
        }
        Ok(a)
    }

    /// The places of the next value, of `kind`.
    pub fn take(&mut self, kind: Kind, callee: &str) -> Result<Vec<Place>, InterpError> {
        if let Some(o32) = &mut self.o32 {
            let places = o32.take(kind);
            for place in &places {
                if let Place::Reg(r, _) = place {
                    self.int.retain(|(named, _)| named != r);
                    self.float.retain(|(named, _)| named != r);
                }
            }
            return Ok(places);
        }
        let on_stack = self.stack.is_some() && self.abi.always_on_stack(kind);
        if !on_stack {
            if let Kind::Float(bits) = kind
                && bits <= self.abi.float_reg_bits
                && let Some((r, bits)) = self.float.pop_front()
            {
                return Ok(vec![Place::Reg(r, bits)]);
            }
            let available: u32 = self.int.iter().map(|(_, bits)| bits).sum();
            if available >= kind.bits() {
                let mut out = Vec::new();
                let mut have = 0;
                while have < kind.bits() {
                    let Some((r, bits)) = self.int.pop_front() else { break };
                    have += bits;
                    out.push(Place::Reg(r, bits));
                }
                return Ok(out);
            }
        }
        let slot = self.stack.zip(self.abi.stack_slot(kind));
        let Some((next, (bytes, align))) = slot else {
            return Err(unsupported(format!("call to {callee}: arguments not in registers")));
        };
        let offset = next.next_multiple_of(align);
        self.stack = Some(offset + bytes);
        Ok(vec![Place::Stack { offset, bytes }])
    }

    /// Checks that every named register was handed out.
    pub fn finish(&self, callee: &str) -> Result<(), InterpError> {
        if self.int.is_empty() && self.float.is_empty() {
            Ok(())
        } else {
            Err(unsupported(format!("call to {callee}: register operands do not match its signature")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regs(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn i386_passes_everything_on_the_stack() {
        let abi = Abi::i386();
        let mut a = Assigner::new(&abi, Vec::new(), true).expect("no registers");
        assert_eq!(a.take(Kind::Int(8), "f"), Ok(vec![Place::Stack { offset: 0, bytes: 4 }]));
        assert_eq!(a.take(Kind::Int(64), "f"), Ok(vec![Place::Stack { offset: 4, bytes: 8 }]));
        assert_eq!(a.take(Kind::Float(80), "f"), Ok(vec![Place::Stack { offset: 12, bytes: 12 }]));
        assert_eq!(a.take(Kind::Float(128), "f"), Ok(vec![Place::Stack { offset: 32, bytes: 16 }]));
        assert!(a.finish("f").is_ok());
    }

    #[test]
    fn x86_64_registers_then_the_stack() {
        let abi = Abi::x86_64();
        let mut a = Assigner::new(&abi, regs(&["rdi", "rsi", "xmm0"]), true).expect("registers");
        assert_eq!(a.take(Kind::Int(128), "f"), Ok(vec![Place::Reg("rdi".into(), 64), Place::Reg("rsi".into(), 64)]));
        assert_eq!(a.take(Kind::Float(80), "f"), Ok(vec![Place::Stack { offset: 0, bytes: 16 }]));
        assert_eq!(a.take(Kind::Float(64), "f"), Ok(vec![Place::Reg("xmm0".into(), 128)]));
        assert_eq!(a.take(Kind::Int(32), "f"), Ok(vec![Place::Stack { offset: 16, bytes: 8 }]));
        assert_eq!(a.take(Kind::Int(128), "f"), Ok(vec![Place::Stack { offset: 32, bytes: 16 }]), "16-aligned");
        // Results come back in registers only.
        let mut r = Assigner::new(&abi, regs(&["fp0"]), false).expect("registers");
        assert_eq!(r.take(Kind::Float(80), "f"), Ok(vec![Place::Reg("fp0".into(), 80)]));
        assert!(Assigner::new(&abi, Vec::new(), false).expect("none").take(Kind::Int(32), "f").is_err());
    }

    #[test]
    fn arm_soft_float_double_after_the_core_registers() {
        let abi = Abi::arm();
        let mut a = Assigner::new(&abi, regs(&["r0", "r1", "r2", "r3"]), true).expect("registers");
        for _ in 0..2 {
            assert_eq!(a.take(Kind::Float(64), "fma").map(|p| p.len()), Ok(2));
        }
        assert_eq!(a.take(Kind::Float(64), "fma"), Ok(vec![Place::Stack { offset: 0, bytes: 8 }]));
        let mut a = Assigner::new(&abi, regs(&["r0", "r1"]), true).expect("registers");
        assert!(a.take(Kind::Int(32), "f").is_ok());
        assert!(a.finish("f").is_err(), "r1 was named but not used");
    }
}
