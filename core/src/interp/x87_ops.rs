//! X86's generic opcodes for the x87's integer loads and stores, which
//! legalized integer-to-float and float-to-integer conversions use:
//! `G_FILD` loads a signed integer as wide as its memory operand and
//! converts it to the result's format (exactly, or rounded to nearest);
//! `G_FIST` converts a value to a signed integer as wide as its memory
//! operand, toward zero as `G_FPTOSI` does, and stores it. An
//! out-of-range or NaN value stores undefined bytes (`G_FPTOSI` gives
//! poison there).

use super::InterpError;
use super::mem_ops::{read_exact, write_exact};
use super::memory::Memory;
use super::softfloat::{self, Format};
use super::value::Value;
use crate::ir::MemOperand;

/// The width in bits of the integer in memory.
fn memory_bits(name: &str, mmo: Option<&MemOperand>) -> Result<u32, InterpError> {
    mmo.and_then(MemOperand::memory_type)
        .and_then(|ty| u32::try_from(ty.size_in_bits()).ok())
        .filter(|bits| matches!(bits, 16 | 32 | 64))
        .ok_or_else(|| InterpError::Unsupported(format!("{name} without a 16-, 32- or 64-bit memory operand")))
}

fn format(name: &str, bits: u32) -> Result<Format, InterpError> {
    Format::for_width(bits).ok_or_else(|| InterpError::Unsupported(format!("{name} on s{bits}")))
}

/// `G_FILD`: the signed integer at `addr` as a `def_bits`-wide float.
pub fn fild(memory: &Memory, addr: &Value, mmo: Option<&MemOperand>, def_bits: u32) -> Result<Value, InterpError> {
    let f = format("G_FILD", def_bits)?;
    let int = read_exact(memory, addr, memory_bits("G_FILD", mmo)?)?;
    Ok(int.get().map_or_else(|| Value::undef(def_bits), |v| Value::defined(softfloat::from_int(f, v, true))))
}

/// `G_FIST`: `value` (a `value.width()`-bit float) stored at `addr` as a
/// signed integer.
pub fn fist(memory: &mut Memory, value: &Value, addr: &Value, mmo: Option<&MemOperand>) -> Result<(), InterpError> {
    let f = format("G_FIST", value.width())?;
    let bits = memory_bits("G_FIST", mmo)?;
    let int = value.get().and_then(|v| softfloat::to_int(f, v, bits, true));
    write_exact(memory, addr, &int.map_or_else(|| Value::undef(bits), Value::defined))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::MemFlags;
    use crate::ty::Llt;

    fn mmo(bits: u32) -> MemOperand {
        MemOperand::new(MemFlags::STORE, Llt::scalar(bits))
    }

    #[test]
    fn integers_in_and_out_of_x87_registers() {
        let mut memory = Memory::new(1, 32);
        let addr = Value::from_u128(32, 0x1000);
        memory.write(0x1000, &Value::from_i128(16, -3));
        let x = fild(&memory, &addr, Some(&mmo(16)), 80).expect("loads");
        assert_eq!(x, Value::from_u128(80, 0xc000_c000_0000_0000_0000), "-3 as x86_fp80");
        let half = Value::from_u128(32, u128::from((-2.75f32).to_bits()));
        fist(&mut memory, &half, &addr, Some(&mmo(32))).expect("stores");
        assert_eq!(memory.read(0x1000, 4), Value::from_i128(32, -2), "toward zero");
        let big = Value::from_u128(32, u128::from(1e10f32.to_bits()));
        fist(&mut memory, &big, &addr, Some(&mmo(32))).expect("stores");
        assert!(!memory.read(0x1000, 4).is_defined(), "out of range");
        assert!(fild(&memory, &addr, Some(&mmo(8)), 80).is_err());
    }
}
