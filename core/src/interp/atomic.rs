//! Atomic read-modify-write and compare-exchange, run single-threaded: the
//! old value is read through the memory operand's type, the new one is
//! written back, and the old one is the result. A register wider than the
//! memory type (after widening) holds the old value in its low bits; the
//! rest are undefined, as for an any-extending load.

use super::InterpError;
use super::mem_ops;
use super::memory::Memory;
use super::value::Value;
use crate::ir::MemOperand;
use crate::opcode::Opcode;
use crate::ty::Llt;
use std::cmp::Ordering;

/// The memory operand and the register type of one atomic access.
pub struct Access<'a> {
    /// The memory operand (its type decides how many bits move).
    pub mmo: Option<&'a MemOperand>,
    /// The type of the loaded (old) value's register.
    pub def_ty: Llt,
}

fn read_old(mem: &Memory, addr: &Value, access: &Access<'_>) -> Result<Value, InterpError> {
    let bits = access.mmo.and_then(MemOperand::memory_type).map_or(0, |t| t.size_in_bits() as u32);
    if bits == 0 {
        return Err(InterpError::Unsupported("an atomic access without a sized memory operand".into()));
    }
    mem_ops::load(mem, Opcode::G_LOAD, addr, access.mmo, Llt::scalar(bits))
}

/// `G_ATOMICRMW_<op>` of `operand` at `addr`; returns the old value.
pub fn rmw(
    mem: &mut Memory,
    op: Opcode,
    addr: &Value,
    operand: &Value,
    access: &Access<'_>,
) -> Result<Value, InterpError> {
    use Opcode::*;
    let old = read_old(mem, addr, access)?;
    let w = old.width();
    let operand = operand.extract(0, w);
    let new = match op {
        G_ATOMICRMW_XCHG => operand,
        _ => Value::strict(w, &[&old, &operand], |v| {
            let (a, b) = (v[0], v[1]);
            let pick = |ord: Ordering, want: Ordering| if ord == want { a.clone() } else { b.clone() };
            match op {
                G_ATOMICRMW_ADD => a.add(b),
                G_ATOMICRMW_SUB => a.sub(b),
                G_ATOMICRMW_AND => a.and(b),
                G_ATOMICRMW_NAND => a.and(b).not(),
                G_ATOMICRMW_OR => a.or(b),
                G_ATOMICRMW_XOR => a.xor(b),
                G_ATOMICRMW_MIN => pick(a.scmp(b), Ordering::Less),
                G_ATOMICRMW_MAX => pick(a.scmp(b), Ordering::Greater),
                G_ATOMICRMW_UMIN => pick(a.ucmp(b), Ordering::Less),
                _ => pick(a.ucmp(b), Ordering::Greater),
            }
        }),
    };
    mem_ops::store(mem, &new, addr, access.mmo)?;
    Ok(old.anyext(access.def_ty.size_in_bits() as u32))
}

/// `G_ATOMIC_CMPXCHG(_WITH_SUCCESS)`: stores `new` when the old value
/// equals `expected`; returns the old value and whether they were equal
/// (undefined when either is).
pub fn cmpxchg(
    mem: &mut Memory,
    addr: &Value,
    expected: &Value,
    new: &Value,
    access: &Access<'_>,
) -> Result<(Value, Option<bool>), InterpError> {
    let old = read_old(mem, addr, access)?;
    let w = old.width();
    let equal = match (old.get(), expected.extract(0, w).get()) {
        (Some(a), Some(b)) => Some(a == b),
        _ => None,
    };
    match equal {
        Some(true) => mem_ops::store(mem, new, addr, access.mmo)?,
        Some(false) => {}
        None => return Err(InterpError::Undefined("compare-exchange against an undefined value".into())),
    }
    Ok((old.anyext(access.def_ty.size_in_bits() as u32), equal))
}
