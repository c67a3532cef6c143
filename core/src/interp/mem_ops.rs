//! Loads and stores through the memory operand's type.
//!
//! The memory type (not the register type) decides how many bytes move:
//! a memory type that is not a whole number of bytes (`s1`, `s7`, `s20`)
//! occupies its size rounded up to bytes, as LLVM's legalizer assumes: a
//! store writes the value zero-extended to those bytes, a load reads them
//! and is undefined unless the padding bits are defined zeros (LLVM leaves
//! a load of `iN` from memory not written by a store of `iN` undefined). A
//! memory type narrower than the register makes a truncating store or an
//! extending load (`G_LOAD`: any-extension, high bits undefined).

use super::InterpError;
use super::memory::Memory;
use super::value::Value;
use crate::ir::MemOperand;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// The address an operand value holds; an undefined address is undefined
/// behaviour.
pub fn address(v: &Value) -> Result<u64, InterpError> {
    v.get().map(|a| a.low_u64()).ok_or_else(|| InterpError::Undefined("access through an undefined pointer".into()))
}

fn memory_bits(mmo: Option<&MemOperand>, op: Opcode) -> Result<u32, InterpError> {
    let ty = mmo
        .and_then(MemOperand::memory_type)
        .ok_or_else(|| InterpError::Unsupported(format!("{} without a sized memory operand", op.name())))?;
    u32::try_from(ty.size_in_bits())
        .ok()
        .filter(|b| *b > 0)
        .ok_or_else(|| InterpError::Unsupported(format!("{} of unsized memory type {ty}", op.name())))
}

/// `G_LOAD`, `G_SEXTLOAD`, `G_ZEXTLOAD` of a `def_ty` value from `addr`.
pub fn load(
    mem: &Memory,
    op: Opcode,
    addr: &Value,
    mmo: Option<&MemOperand>,
    def_ty: Llt,
) -> Result<Value, InterpError> {
    let m = memory_bits(mmo, op)?;
    big_endian_vector(mem, mmo)?;
    let bytes = m.div_ceil(8);
    let raw = mem.read(address(addr)?, u64::from(bytes));
    let value = if m % 8 == 0 {
        raw
    } else {
        let padding = raw.extract(m, bytes * 8 - m);
        if padding.get().is_some_and(|p| p.is_zero()) { raw.extract(0, m) } else { Value::undef(m) }
    };
    let w = def_ty.size_in_bits() as u32;
    if let Some(mem_ty) = mmo.and_then(MemOperand::memory_type).filter(|&t| per_element(def_ty, t)) {
        // A vector loaded from narrower elements, extended one by one.
        let (from, to) = (mem_ty.scalar_size_in_bits(), def_ty.scalar_size_in_bits());
        let elements: Vec<Value> = (0..def_ty.num_elements())
            .map(|i| {
                let element = value.extract(i * from, from);
                match op {
                    Opcode::G_SEXTLOAD => element.sext(to),
                    Opcode::G_ZEXTLOAD => element.zext(to),
                    _ => element.anyext(to),
                }
            })
            .collect();
        return Ok(Value::concat(&elements));
    }
    Ok(match op {
        Opcode::G_SEXTLOAD => value.sext(w),
        Opcode::G_ZEXTLOAD => value.zext(w),
        _ => value.anyext(w),
    })
}

/// `G_STORE` of `value` (of type `value_ty`) at `addr`. A vector stored
/// as a vector of narrower elements is truncated element by element.
pub fn store(
    mem: &mut Memory,
    value: &Value,
    value_ty: Llt,
    addr: &Value,
    mmo: Option<&MemOperand>,
) -> Result<(), InterpError> {
    let m = memory_bits(mmo, Opcode::G_STORE)?;
    big_endian_vector(mem, mmo)?;
    let at = address(addr)?;
    let value = match mmo.and_then(MemOperand::memory_type) {
        Some(mem_ty) if per_element(value_ty, mem_ty) => {
            let (from, to) = (value_ty.scalar_size_in_bits(), mem_ty.scalar_size_in_bits());
            let elements: Vec<Value> = (0..value_ty.num_elements()).map(|i| value.extract(i * from, to)).collect();
            Value::concat(&elements)
        }
        _ => value.clone(),
    };
    let stored = value.extract(0, m).zext(m.div_ceil(8) * 8);
    mem.write(at, &stored);
    Ok(())
}

/// Vectors in big-endian memory (element 0 first, each element
/// big-endian) are not modelled.
fn big_endian_vector(mem: &Memory, mmo: Option<&MemOperand>) -> Result<(), InterpError> {
    match mmo.and_then(MemOperand::memory_type) {
        Some(ty) if mem.is_big_endian() && ty.is_vector() && ty.num_elements() > 1 => {
            Err(InterpError::Unsupported(format!("a {ty} access in big-endian memory")))
        }
        _ => Ok(()),
    }
}

/// Whether a `value_ty` register meets memory of `mem_ty` element by
/// element: two vectors of as many elements, of different widths.
fn per_element(value_ty: Llt, mem_ty: Llt) -> bool {
    value_ty.is_vector()
        && mem_ty.is_vector()
        && value_ty.num_elements() == mem_ty.num_elements()
        && value_ty.scalar_size_in_bits() != mem_ty.scalar_size_in_bits()
}

/// The `bits`-wide value (a whole number of bytes) at `addr`.
pub fn read_exact(mem: &Memory, addr: &Value, bits: u32) -> Result<Value, InterpError> {
    Ok(mem.read(address(addr)?, u64::from(bits.div_ceil(8))).extract(0, bits))
}

/// Writes `value` (a whole number of bytes) at `addr`.
pub fn write_exact(mem: &mut Memory, addr: &Value, value: &Value) -> Result<(), InterpError> {
    mem.write(address(addr)?, value);
    Ok(())
}

/// `G_VAARG` of a `bits`-wide value aligned to `align` bytes through the
/// `va_list` at `list`, a pointer to the next argument slot of
/// `slot_bytes`: the slot is rounded up to `align` when that is larger,
/// the value read from it, and the list advanced by the value's size in
/// whole slots.
pub fn va_arg(
    mem: &mut Memory,
    list: &Value,
    pointer_bits: u32,
    bits: u32,
    align: u64,
    slot_bytes: u64,
) -> Result<Value, InterpError> {
    let wrap = |a: u64| if pointer_bits >= 64 { a } else { a & ((1 << pointer_bits) - 1) };
    let head = read_exact(mem, list, pointer_bits)?;
    let mut slot = address(&head)?;
    if align > slot_bytes {
        slot = wrap(slot.wrapping_add(align - 1) & !(align - 1));
    }
    let bytes = u64::from(bits.div_ceil(8));
    let value = mem.read(slot, bytes).extract(0, bits);
    let next = wrap(slot.wrapping_add(bytes.next_multiple_of(slot_bytes)));
    write_exact(mem, list, &Value::from_u128(pointer_bits, u128::from(next)))?;
    Ok(value)
}
