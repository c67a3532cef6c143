//! Target-specific generic opcodes that legalized code contains: RISC-V's
//! `*W` word operations on RV64 (`G_DIVW`, `G_SLLW`, `G_CLZW`,
//! `G_FCVT_W_RV64`, ...), RISC-V's `G_READ_VLENB`, AArch64's
//! `G_UADDLV`, and X86's immediate moves (`$al = MOV8ri 0` before a
//! variadic call), with the hardware's semantics. Every input bit must be
//! defined, or the result is undefined.

use super::InterpError;
use super::abi::Abi;
use super::eval::{Ctx, VSCALE};
use super::softfloat::{self, Class, Format};
use super::value::Value;
use crate::apint::ApInt;
use std::cmp::Ordering;

type Out = Result<Option<Vec<Value>>, InterpError>;

fn word(v: &ApInt) -> ApInt {
    v.zext_or_trunc(32)
}

fn riscv_word(name: &str, ctx: &Ctx<'_>, w: u32) -> Result<Option<Value>, InterpError> {
    let args: Vec<&Value> = ctx.args.iter().collect();
    if args.iter().any(|a| !a.is_defined()) {
        return Ok(Some(Value::undef(w)));
    }
    let v: Vec<&ApInt> = args.iter().filter_map(|a| a.get()).collect();
    let arg = |i: usize| v.get(i).copied().ok_or_else(|| InterpError::Malformed(format!("{name}: missing operand")));
    let shamt = |i: usize| arg(i).map(|x| (x.low_u64() & 31) as u32);
    let r32 = match name {
        "G_DIVW" | "G_DIVUW" | "G_REMUW" | "G_REMW" => {
            let (a, b) = (word(arg(0)?), word(arg(1)?));
            let signed = matches!(name, "G_DIVW" | "G_REMW");
            let rem = name.starts_with("G_REM");
            if b.is_zero() {
                if rem { a } else { ApInt::all_ones(32) }
            } else if signed && a == ApInt::signed_min(32) && b.is_all_ones() {
                if rem { ApInt::zero(32) } else { a }
            } else {
                let (q, r) = if signed { a.sdivrem(&b) } else { a.udivrem(&b) }
                    .ok_or_else(|| InterpError::Undefined("division by zero".into()))?;
                if rem { r } else { q }
            }
        }
        "G_SLLW" => word(arg(0)?).shl(shamt(1)?),
        "G_SRLW" => word(arg(0)?).lshr(shamt(1)?),
        "G_SRAW" => word(arg(0)?).ashr(shamt(1)?),
        "G_ROLW" | "G_RORW" => {
            let a = word(arg(0)?);
            let n = shamt(1)?;
            let n = if name == "G_RORW" { (32 - n) % 32 } else { n };
            if n == 0 { a } else { a.shl(n).or(&a.lshr(32 - n)) }
        }
        "G_CLZW" => return Ok(Some(Value::from_u128(w, u128::from(word(arg(0)?).leading_zeros())))),
        "G_CTZW" => return Ok(Some(Value::from_u128(w, u128::from(word(arg(0)?).trailing_zeros())))),
        "G_FCVT_W_RV64" | "G_FCVT_WU_RV64" => {
            let rm = ctx.imm(0)?;
            if rm != 1 {
                return Err(InterpError::Unsupported(format!("{name} with rounding mode {rm}")));
            }
            let src = ctx.arg_ty(0)?.size_in_bits() as u32;
            let f = Format::for_width(src).ok_or_else(|| InterpError::Unsupported(format!("{name} on s{src}")))?;
            let signed = name == "G_FCVT_W_RV64";
            let bits = arg(0)?;
            match softfloat::to_int(f, bits, 32, signed) {
                Some(v) => v,
                None => {
                    let negative =
                        matches!(softfloat::decode(f, bits), Class::Inf(true) | Class::Finite { sign: true, .. });
                    match (signed, negative) {
                        (true, true) => ApInt::signed_min(32),
                        (true, false) => ApInt::signed_max(32),
                        (false, true) => ApInt::zero(32),
                        (false, false) => ApInt::all_ones(32),
                    }
                }
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(Value::defined(r32.sext_or_trunc(w))))
}

/// Evaluates target instruction `name`; `Ok(None)` when it is not modelled.
pub fn eval(abi: &Abi, name: &str, ctx: &Ctx<'_>) -> Out {
    if ctx.def_tys.len() != 1 {
        return Ok(None);
    }
    let w = ctx.def_width(0)?;
    if abi.name.starts_with("riscv") {
        if name == "G_READ_VLENB" {
            // A vector block is 64 bits: VLENB is vscale * 8 bytes.
            return Ok(Some(vec![Value::from_u128(w, u128::from(VSCALE) * 8)]));
        }
        return Ok(riscv_word(name, ctx, w)?.map(|v| vec![v]));
    }
    if abi.is_x86() && matches!(name, "MOV8ri" | "MOV16ri" | "MOV32ri" | "MOV64ri" | "MOV64ri32") {
        // The vector-register count `$al` carries into a variadic call.
        return Ok(Some(vec![Value::from_i128(w, i128::from(ctx.imm(0)?))]));
    }
    if name == "G_FPTRUNC_ODD" {
        return Ok(Some(vec![truncate_to_odd(ctx)?]));
    }
    if name == "G_UADDLV" {
        let (src, ty) = (ctx.arg(0)?, ctx.arg_ty(0)?);
        let lane = ty.scalar_size_in_bits();
        let dst_lane = ctx.def_ty(0)?.scalar_size_in_bits();
        let Some(bits) = src.get() else { return Ok(Some(vec![Value::undef(w)])) };
        let mut sum = ApInt::zero(dst_lane);
        for i in 0..ty.num_elements() {
            sum = sum.add(&bits.extract(i * lane, lane).zext_or_trunc(dst_lane));
        }
        return Ok(Some(vec![Value::defined(sum.zext_or_trunc(w))]));
    }
    Ok(None)
}

/// AArch64's `G_FPTRUNC_ODD` (`FCVTXN`): each double lane narrowed to a
/// float rounding to odd, i.e. toward zero with the last bit set when the
/// result is inexact, so that a second rounding (to half) cannot round
/// twice.
fn truncate_to_odd(ctx: &Ctx<'_>) -> Result<Value, InterpError> {
    let (src, ty) = (ctx.arg(0)?, ctx.arg_ty(0)?);
    let (from, to) = (Format::for_width(64).expect("double"), Format::for_width(32).expect("float"));
    if ty.scalar_size_in_bits() != 64 {
        return Err(InterpError::Unsupported("G_FPTRUNC_ODD of other than doubles".into()));
    }
    let lanes = if ty.is_vector() { ty.num_elements() } else { 1 };
    let mut parts = Vec::with_capacity(lanes as usize);
    for lane in 0..lanes {
        let x = src.extract(lane * 64, 64);
        let Some(bits) = x.get() else {
            parts.push(Value::undef(32));
            continue;
        };
        let Some(nearest) = softfloat::convert(from, to, bits) else {
            parts.push(to.nan());
            continue;
        };
        let back = softfloat::convert(to, from, &nearest).expect("a float widens exactly");
        if back == *bits {
            parts.push(Value::defined(nearest));
            continue;
        }
        // Inexact: the neighbour toward zero, with its last bit set.
        let magnitude = |v: &ApInt| v.and(&ApInt::signed_max(64));
        let rounded_away =
            matches!(softfloat::compare(from, &magnitude(&back), &magnitude(bits)), Some(Ordering::Greater));
        let toward_zero = if rounded_away { nearest.sub(&ApInt::from_u128(32, 1)) } else { nearest };
        parts.push(Value::defined(toward_zero.or(&ApInt::from_u128(32, 1))));
    }
    Ok(Value::concat(&parts))
}
