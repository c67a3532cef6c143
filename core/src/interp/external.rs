//! Calls to functions the interpreter cannot run (the module's own, other
//! modules', any called through a pointer), modelled as an opaque,
//! deterministic oracle.
//!
//! The reference run records each such call: the callee's address, the
//! argument registers with their values, the outgoing stack arguments and
//! every byte of memory written so far that the callee could read (not
//! the free stack below the stack pointer, which its own frame takes). The
//! callee returns values hashed from all that and the call's position, in
//! the registers the call defines, extended as the caller relies on (see
//! [`ResultReg`]); it writes no memory. The run under test
//! replays the reference: its `n`-th call must refine the reference's
//! `n`-th call (the same callee, each bit the reference defines in an
//! argument, the stack arguments or memory alike) and gets the values the
//! reference got, so that undefined bits the reference passed cannot make
//! the two disagree later. A call that does not match stops the run with
//! [`InterpError::Diverged`].

use super::InterpError;
use super::memory::{Byte, Memory, splitmix64};
use super::value::Value;
use crate::apint::ApInt;
use std::fmt;

/// One call as the caller made it, with what it returned.
#[derive(Clone, Debug)]
pub struct ExternalCall {
    /// What was called: the callee's address.
    pub callee: Value,
    /// The callee's name, when the call or the address names a symbol.
    pub name: Option<String>,
    /// The argument registers with their values, in operand order.
    pub args: Vec<(String, Value)>,
    /// The outgoing stack arguments: the call frame's bytes from the stack
    /// pointer up, `None` without a call frame.
    pub stack_args: Option<Value>,
    /// The stack pointer at the call: the stack below it is the callee's,
    /// whatever was left there.
    pub stack_pointer: u64,
    /// Every byte written before the call (kept by the reference run only).
    pub memory: Vec<(u64, Byte)>,
    /// The registers the call returned in, with their values.
    pub results: Vec<(String, Value)>,
}

impl fmt::Display for ExternalCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name}(")?,
            None => write!(f, "*{}(", self.callee)?,
        }
        for (i, (reg, value)) in self.args.iter().enumerate() {
            let comma = if i > 0 { ", " } else { "" };
            write!(f, "{comma}${reg}={value}")?;
        }
        if let Some(stack) = &self.stack_args {
            write!(f, "; stack {stack}")?;
        }
        write!(f, ")")
    }
}

/// A register a call returns a value in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultReg {
    /// The register (`x10`, `w0`).
    pub name: String,
    /// Its width in bits.
    pub bits: u32,
    /// The value is a narrower one sign-extended (`Some((true, n))`) or
    /// zero-extended from `n` bits, as the calling convention promises for
    /// a `signext` or `zeroext` result.
    pub extended_from: Option<(bool, u32)>,
}

/// The calls of one run: recorded, or replayed against a reference run's.
#[derive(Debug)]
pub struct Oracle<'r> {
    reference: Option<&'r [ExternalCall]>,
    made: Vec<ExternalCall>,
}

impl<'r> Oracle<'r> {
    /// An oracle for a reference run: each call's results are hashed from
    /// the call.
    pub fn recording() -> Oracle<'static> {
        Oracle { reference: None, made: Vec::new() }
    }

    /// An oracle for a run under test, which must make `reference`'s calls.
    pub fn replaying(reference: &'r [ExternalCall]) -> Oracle<'r> {
        Oracle { reference: Some(reference), made: Vec::new() }
    }

    /// The calls made so far.
    pub fn into_calls(self) -> Vec<ExternalCall> {
        self.made
    }

    /// Makes `call` (its `memory` and `results` not filled in yet) with the
    /// memory as it is, to return in `result_regs`; returns the results.
    pub fn call(
        &mut self,
        mut call: ExternalCall,
        memory: &Memory,
        result_regs: &[ResultReg],
    ) -> Result<Vec<(String, Value)>, InterpError> {
        let index = self.made.len();
        call.results = match self.reference {
            None => {
                call.memory = memory.written_above(call.stack_pointer);
                let seed = call_hash(&call, index);
                result_regs.iter().map(|reg| (reg.name.clone(), hashed_value(seed, reg))).collect()
            }
            Some(reference) => {
                let expected = reference.get(index).ok_or_else(|| {
                    InterpError::Diverged(format!("call #{index} {call} is one the reference does not make"))
                })?;
                if let Some(why) = mismatch(expected, &call, memory, result_regs) {
                    return Err(InterpError::Diverged(format!(
                        "call #{index}: before {expected}, after {call}: {why}"
                    )));
                }
                expected.results.clone()
            }
        };
        let results = call.results.clone();
        self.made.push(call);
        Ok(results)
    }
}

/// Why `call`, made with `memory` and returning in `result_regs`, does not
/// refine the reference's `expected`.
fn mismatch(
    expected: &ExternalCall,
    call: &ExternalCall,
    memory: &Memory,
    result_regs: &[ResultReg],
) -> Option<String> {
    if !expected.callee.refined_by(&call.callee) {
        return Some("another callee".into());
    }
    if expected.args.len() != call.args.len() || expected.args.iter().zip(&call.args).any(|(e, c)| e.0 != c.0) {
        return Some("other argument registers".into());
    }
    if let Some((reg, _)) = expected.args.iter().zip(&call.args).find(|(e, c)| !e.1.refined_by(&c.1)) {
        return Some(format!("${} differs", reg.0));
    }
    let stack_refined = match (&expected.stack_args, &call.stack_args) {
        (None, None) => true,
        (Some(e), Some(c)) => e.width() == c.width() && e.refined_by(c),
        _ => false,
    };
    if !stack_refined {
        return Some("the stack arguments differ".into());
    }
    if let Some((addr, before, after)) = memory.first_unrefined(&expected.memory, call.stack_pointer) {
        return Some(format!(
            "memory at {addr:#x}: before {:#04x} (undef {:#04x}), after {:#04x} (undef {:#04x})",
            before.0, before.1, after.0, after.1
        ));
    }
    let same_results = expected.results.len() == result_regs.len()
        && expected.results.iter().zip(result_regs).all(|((name, v), r)| *name == r.name && v.width() == r.bits);
    (!same_results).then(|| "results in other registers".into())
}

/// A hash of everything the callee sees.
fn call_hash(call: &ExternalCall, index: usize) -> u64 {
    let mut h = splitmix64(index as u64);
    let mut mix = |v: &Value| {
        for i in 0..v.width().div_ceil(64) {
            let bits = v.bits().extract(i * 64, 64.min(v.width() - i * 64)).low_u64();
            let undef = v.undef_mask().extract(i * 64, 64.min(v.width() - i * 64)).low_u64();
            h = splitmix64(h ^ bits);
            h = splitmix64(h ^ undef);
        }
    };
    mix(&call.callee);
    for (_, value) in &call.args {
        mix(value);
    }
    if let Some(stack) = &call.stack_args {
        mix(stack);
    }
    for (addr, (value, undef)) in &call.memory {
        h = splitmix64(h ^ addr ^ (u64::from(*value) << 56) ^ (u64::from(*undef) << 48));
    }
    h
}

/// A defined value for result register `reg` of a call hashed to `seed`.
fn hashed_value(seed: u64, reg: &ResultReg) -> Value {
    let mut h = reg.name.bytes().fold(seed, |h, b| splitmix64(h ^ u64::from(b)));
    let words: Vec<u64> = (0..reg.bits.div_ceil(64))
        .map(|_| {
            h = splitmix64(h);
            h
        })
        .collect();
    let value = Value::defined(ApInt::from_words(reg.bits, &words));
    match reg.extended_from {
        Some((true, n)) if n < reg.bits => value.extract(0, n).sext(reg.bits),
        Some((false, n)) if n < reg.bits => value.extract(0, n).zext(reg.bits),
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(arg: Value) -> ExternalCall {
        ExternalCall {
            callee: Value::from_u128(64, 0x1000),
            name: Some("f".into()),
            args: vec![("x0".into(), arg)],
            stack_args: None,
            stack_pointer: 0,
            memory: Vec::new(),
            results: Vec::new(),
        }
    }

    #[test]
    fn replays_give_the_reference_results() {
        let memory = Memory::new(1, 64);
        let regs = [ResultReg { name: "x0".into(), bits: 64, extended_from: None }];
        let mut reference = Oracle::recording();
        let first = reference.call(call(Value::undef(64)), &memory, &regs).expect("records");
        let second = reference.call(call(Value::from_u128(64, 5)), &memory, &regs).expect("records");
        assert_ne!(first, second, "the position and the arguments change the results");
        assert!(first[0].1.is_defined());
        let calls = reference.into_calls();
        let mut replay = Oracle::replaying(&calls);
        // Any value refines an undefined argument.
        assert_eq!(replay.call(call(Value::from_u128(64, 7)), &memory, &regs), Ok(first));
        let err = replay.call(call(Value::from_u128(64, 6)), &memory, &regs).unwrap_err();
        assert!(matches!(&err, InterpError::Diverged(why) if why.contains("$x0 differs")), "{err}");
        let mut extra = Oracle::replaying(&calls[..0]);
        assert!(matches!(extra.call(call(Value::from_u128(64, 7)), &memory, &regs), Err(InterpError::Diverged(_))));
    }

    #[test]
    fn results_are_extended_as_promised() {
        let memory = Memory::new(1, 64);
        let regs = [
            ResultReg { name: "x10".into(), bits: 64, extended_from: Some((true, 32)) },
            ResultReg { name: "x11".into(), bits: 64, extended_from: Some((false, 8)) },
        ];
        for arg in 0..8 {
            let results = Oracle::recording().call(call(Value::from_u128(64, arg)), &memory, &regs).expect("records");
            let (sext, zext) = (&results[0].1, &results[1].1);
            assert_eq!(sext, &sext.extract(0, 32).sext(64));
            assert_eq!(zext, &zext.extract(0, 8).zext(64));
        }
    }

    #[test]
    fn memory_the_callee_could_read_must_agree() {
        let regs = [ResultReg { name: "x0".into(), bits: 64, extended_from: None }];
        let mut written = Memory::new(1, 64);
        written.write(0x100, &Value::from_u128(8, 1));
        let mut reference = Oracle::recording();
        reference.call(call(Value::from_u128(64, 5)), &written, &regs).expect("records");
        let calls = reference.into_calls();
        let untouched = Memory::new(1, 64);
        let err = Oracle::replaying(&calls).call(call(Value::from_u128(64, 5)), &untouched, &regs).unwrap_err();
        assert!(err.to_string().contains("memory at 0x100"), "{err}");
    }

    /// What is left on the stack below the stack pointer (an earlier
    /// call's arguments, a libcall the legalizer added) is the callee's
    /// to overwrite: it need not agree, while the stack above must.
    #[test]
    fn the_free_stack_below_the_stack_pointer_is_not_compared() {
        let regs = [ResultReg { name: "x0".into(), bits: 64, extended_from: None }];
        let (stack, _) = crate::interp::memory::stack_region(64);
        let sp = stack + 0x1000;
        let at_sp = |memory: &mut Memory, below: u8, above: u8| {
            memory.write(sp - 8, &Value::from_u128(8, u128::from(below)));
            memory.write(sp + 8, &Value::from_u128(8, u128::from(above)));
        };
        let at = |stack_pointer| ExternalCall { stack_pointer, ..call(Value::from_u128(64, 5)) };
        let mut reference_memory = Memory::new(1, 64);
        at_sp(&mut reference_memory, 1, 1);
        let mut reference = Oracle::recording();
        reference.call(at(sp), &reference_memory, &regs).expect("records");
        let calls = reference.into_calls();
        let mut other_below = Memory::new(1, 64);
        at_sp(&mut other_below, 2, 1);
        assert!(Oracle::replaying(&calls).call(at(sp), &other_below, &regs).is_ok());
        let mut other_above = Memory::new(1, 64);
        at_sp(&mut other_above, 1, 2);
        let err = Oracle::replaying(&calls).call(at(sp), &other_above, &regs).unwrap_err();
        assert!(err.to_string().contains(&format!("memory at {:#x}", sp + 8)), "{err}");
    }
}
