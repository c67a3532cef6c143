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
use std::cmp::Ordering;

/// The width in bits an atomic access moves: its memory operand's type.
pub fn memory_bits(mmo: Option<&MemOperand>) -> Result<u32, InterpError> {
    let bits = mmo.and_then(MemOperand::memory_type).map_or(0, |t| t.size_in_bits() as u32);
    if bits == 0 {
        return Err(InterpError::Unsupported("an atomic access without a sized memory operand".into()));
    }
    Ok(bits)
}

/// `G_ATOMICRMW_<op>` of `operand` on the `bits`-wide value at `addr`;
/// returns the old value in a `def_width` register.
pub fn rmw(
    mem: &mut Memory,
    op: Opcode,
    addr: &Value,
    operand: &Value,
    bits: u32,
    def_width: u32,
) -> Result<Value, InterpError> {
    use Opcode::*;
    let old = mem_ops::read_exact(mem, addr, bits)?;
    let operand = operand.extract(0, bits);
    let new = match op {
        G_ATOMICRMW_XCHG => operand,
        _ => Value::strict(bits, &[&old, &operand], |v| {
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
    mem_ops::write_exact(mem, addr, &new)?;
    Ok(old.anyext(def_width))
}

/// `G_ATOMIC_CMPXCHG(_WITH_SUCCESS)` on the `bits`-wide value at `addr`:
/// stores `new` when the old value equals `expected`; returns the old value
/// in a `def_width` register and whether they were equal.
pub fn cmpxchg(
    mem: &mut Memory,
    addr: &Value,
    expected: &Value,
    new: &Value,
    bits: u32,
    def_width: u32,
) -> Result<(Value, bool), InterpError> {
    let old = mem_ops::read_exact(mem, addr, bits)?;
    let equal = match (old.get(), expected.extract(0, bits).get()) {
        (Some(a), Some(b)) => a == b,
        _ => return Err(InterpError::Undefined("compare-exchange of an undefined value".into())),
    };
    if equal {
        mem_ops::write_exact(mem, addr, &new.extract(0, bits))?;
    }
    Ok((old.anyext(def_width), equal))
}

/// What an AArch64 outline-atomics helper does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outline {
    /// `cas`: compare-exchange.
    CompareExchange,
    /// `swp`, `ldadd`, `ldset`, `ldeor`: this read-modify-write.
    Rmw(Opcode),
    /// `ldclr`: clears the operand's bits (an AND with its complement).
    Clear,
}

/// An AArch64 outline-atomics helper (`__aarch64_cas4_acq`,
/// `__aarch64_ldclr2_relax`, ...): what it does and its access size in
/// bits.
pub fn outline_helper(name: &str) -> Option<(Outline, u32)> {
    let rest = name.strip_prefix("__aarch64_")?;
    let (rest, _order) = rest.split_once('_')?;
    let digits = rest.trim_start_matches(|c: char| c.is_ascii_lowercase());
    let bytes: u32 = digits.parse().ok().filter(|b| matches!(b, 1 | 2 | 4 | 8 | 16))?;
    let what = match &rest[..rest.len() - digits.len()] {
        "cas" => Outline::CompareExchange,
        "swp" => Outline::Rmw(Opcode::G_ATOMICRMW_XCHG),
        "ldadd" => Outline::Rmw(Opcode::G_ATOMICRMW_ADD),
        "ldclr" => Outline::Clear,
        "ldset" => Outline::Rmw(Opcode::G_ATOMICRMW_OR),
        "ldeor" => Outline::Rmw(Opcode::G_ATOMICRMW_XOR),
        _ => return None,
    };
    Some((what, bytes * 8))
}
