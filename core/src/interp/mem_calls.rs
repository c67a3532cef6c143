//! The C library's memory functions (`memcpy`, `memmove`, `memset`,
//! `bzero`), as calls and as the generic opcodes that become them. A length
//! beyond [`MAX_LENGTH`] bytes ends the run as too long (the input is
//! skipped); overlapping `memcpy` operands are undefined behaviour.

use super::InterpError;
use super::mem_ops::address;
use super::memory::Memory;
use super::value::Value;
use crate::opcode::Opcode;

/// The longest block the interpreter copies or fills, in bytes.
pub const MAX_LENGTH: u64 = 4096;

/// A memory function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemFn {
    /// `memcpy(dst, src, len)`: the blocks must not overlap.
    Copy,
    /// `memmove(dst, src, len)`.
    Move,
    /// `memset(dst, byte, len)`.
    Set,
    /// `bzero(dst, len)`.
    Zero,
}

impl MemFn {
    /// The function a call symbol names.
    pub fn for_symbol(name: &str) -> Option<MemFn> {
        Some(match name {
            "memcpy" => MemFn::Copy,
            "memmove" => MemFn::Move,
            "memset" => MemFn::Set,
            "bzero" => MemFn::Zero,
            _ => return None,
        })
    }

    /// The function a generic opcode performs.
    pub fn for_opcode(op: Opcode) -> Option<MemFn> {
        Some(match op {
            Opcode::G_MEMCPY | Opcode::G_MEMCPY_INLINE => MemFn::Copy,
            Opcode::G_MEMMOVE => MemFn::Move,
            Opcode::G_MEMSET => MemFn::Set,
            Opcode::G_BZERO => MemFn::Zero,
            _ => return None,
        })
    }

    /// How many arguments it takes (`bzero` two, the others three).
    pub fn arity(self) -> usize {
        if self == MemFn::Zero { 2 } else { 3 }
    }

    /// Whether it returns its destination (all but `bzero`).
    pub fn returns_destination(self) -> bool {
        self != MemFn::Zero
    }

    /// Runs the function on its arguments (destination first).
    pub fn run(self, mem: &mut Memory, args: &[Value]) -> Result<(), InterpError> {
        let missing = || InterpError::Malformed(format!("{self:?} needs {} arguments", self.arity()));
        let dst = address(args.first().ok_or_else(missing)?)?;
        let len = args.get(self.arity() - 1).ok_or_else(missing)?;
        let len = len.get().ok_or_else(|| InterpError::Undefined("a memory function's length is undefined".into()))?;
        let len = len.to_u128().filter(|l| *l <= u128::from(MAX_LENGTH)).ok_or(InterpError::StepLimit)? as u64;
        if len == 0 {
            return Ok(());
        }
        let block = match self {
            MemFn::Copy | MemFn::Move => {
                let src = address(&args[1])?;
                if self == MemFn::Copy && src.abs_diff(dst) < len {
                    return Err(InterpError::Undefined("memcpy of overlapping blocks".into()));
                }
                mem.read(src, len)
            }
            MemFn::Set => Value::concat(&vec![args[1].extract(0, 8); len as usize]),
            MemFn::Zero => Value::from_u128(len as u32 * 8, 0),
        };
        mem.write(dst, &block);
        Ok(())
    }
}
