//! Merges, splits and vector element operations: `G_MERGE_VALUES`,
//! `G_UNMERGE_VALUES`, `G_EXTRACT`, `G_INSERT`, `G_BUILD_VECTOR(_TRUNC)`,
//! `G_CONCAT_VECTORS`, `G_SPLAT_VECTOR`, `G_EXTRACT_VECTOR_ELT`,
//! `G_INSERT_VECTOR_ELT`, `G_SHUFFLE_VECTOR`, `G_BITCAST` and the integer
//! `G_VECREDUCE_*`. Values are bit vectors with lane 0 in the low bits, so
//! all of these are slicing and concatenation, and undefined bits travel
//! exactly.

use super::InterpError;
use super::eval::Ctx;
use super::float;
use super::fparith;
use super::int::{bitwise, low_precise};
use super::softfloat::Format;
use super::value::Value;
use crate::apint::ApInt;
use crate::opcode::Opcode;
use std::cmp::Ordering;

type Out = Result<Option<Vec<Value>>, InterpError>;

/// A lane index in `0..lanes`, `None` (poison) when undefined or out of range.
fn lane_index(v: &Value, lanes: u32) -> Option<u32> {
    v.get()?.to_u32_below(lanes)
}

fn offset(ctx: &Ctx<'_>, width: u32, part: u32) -> Result<u32, InterpError> {
    let off = u32::try_from(ctx.imm(0)?).ok().filter(|o| o.checked_add(part).is_some_and(|end| end <= width));
    off.ok_or_else(|| InterpError::Malformed(format!("{}: offset out of range", ctx.op.name())))
}

/// Reduces `lanes` with `op`'s operation, tracking undefined bits as the
/// operation itself does: sums and products keep the low bits below the
/// first undefined one, bitwise operations every bit they do not depend
/// on; minimum and maximum need every bit.
fn reduce(op: Opcode, lanes: &[Value]) -> Option<Value> {
    let (first, rest) = lanes.split_first()?;
    let mut acc = first.clone();
    for x in rest {
        acc = match op {
            Opcode::G_VECREDUCE_ADD => low_precise(&acc, x, ApInt::add),
            Opcode::G_VECREDUCE_MUL => low_precise(&acc, x, ApInt::mul),
            Opcode::G_VECREDUCE_AND => bitwise(&acc, x, Opcode::G_AND),
            Opcode::G_VECREDUCE_OR => bitwise(&acc, x, Opcode::G_OR),
            Opcode::G_VECREDUCE_XOR => bitwise(&acc, x, Opcode::G_XOR),
            _ => {
                let (a, b) = (acc.get()?, x.get()?);
                let take_x = match op {
                    Opcode::G_VECREDUCE_SMAX => a.scmp(b) == Ordering::Less,
                    Opcode::G_VECREDUCE_SMIN => a.scmp(b) == Ordering::Greater,
                    Opcode::G_VECREDUCE_UMAX => a.ucmp(b) == Ordering::Less,
                    _ => a.ucmp(b) == Ordering::Greater,
                };
                if take_x { x.clone() } else { acc }
            }
        };
    }
    Some(acc)
}

/// Splits `v` into lanes of `lane_bits` bits.
pub fn lanes(v: &Value, lane_bits: u32) -> Vec<Value> {
    (0..v.width() / lane_bits.max(1)).map(|i| v.extract(i * lane_bits, lane_bits)).collect()
}

/// Evaluates the vector and merge family; `Ok(None)` for other opcodes.
pub fn eval(ctx: &Ctx<'_>) -> Out {
    use Opcode::*;
    let op = ctx.op;
    let out = match op {
        G_MERGE_VALUES | G_CONCAT_VECTORS | G_BUILD_VECTOR => Value::concat(&ctx.args),
        G_BUILD_VECTOR_TRUNC => {
            let elt = ctx.def_ty(0)?.scalar_size_in_bits();
            let parts: Vec<Value> = ctx.args.iter().map(|a| a.extract(0, elt)).collect();
            Value::concat(&parts)
        }
        G_SPLAT_VECTOR => {
            let ty = ctx.def_ty(0)?;
            let elt = ctx.arg(0)?.extract(0, ty.scalar_size_in_bits());
            Value::concat(&vec![elt; ty.num_elements() as usize])
        }
        G_UNMERGE_VALUES => {
            let a = ctx.arg(0)?;
            let mut outs = Vec::with_capacity(ctx.def_tys.len());
            let mut lo = 0;
            for i in 0..ctx.def_tys.len() {
                let w = ctx.def_width(i)?;
                outs.push(a.extract(lo, w));
                lo += w;
            }
            if lo != a.width() {
                return Err(InterpError::Malformed("G_UNMERGE_VALUES: sizes do not add up".into()));
            }
            return Ok(Some(outs));
        }
        G_EXTRACT => {
            let a = ctx.arg(0)?;
            let w = ctx.def_width(0)?;
            a.extract(offset(ctx, a.width(), w)?, w)
        }
        G_INSERT => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            a.inserted(offset(ctx, a.width(), b.width())?, b)
        }
        G_BITCAST => ctx.arg(0)?.clone(),
        G_EXTRACT_VECTOR_ELT => {
            let (v, ty) = (ctx.arg(0)?, ctx.arg_ty(0)?);
            let w = ctx.def_width(0)?;
            match lane_index(ctx.arg(1)?, ty.num_elements()) {
                Some(i) => v.extract(i * w, w),
                None => Value::undef(w),
            }
        }
        G_EXTRACT_SUBVECTOR => {
            let (v, ty) = (ctx.arg(0)?, ctx.arg_ty(0)?);
            let w = ty.scalar_size_in_bits();
            let first = u32::try_from(ctx.imm(0)?).map_err(|_| InterpError::Malformed("negative index".into()))?;
            v.extract(first * w, ctx.def_width(0)?)
        }
        G_INSERT_SUBVECTOR => {
            let (v, sub) = (ctx.arg(0)?, ctx.arg(1)?);
            let w = ctx.def_ty(0)?.scalar_size_in_bits();
            let first = u32::try_from(ctx.imm(0)?).map_err(|_| InterpError::Malformed("negative index".into()))?;
            v.inserted(first * w, sub)
        }
        G_INSERT_VECTOR_ELT => {
            let (v, elt) = (ctx.arg(0)?, ctx.arg(1)?);
            let ty = ctx.def_ty(0)?;
            let w = ty.scalar_size_in_bits();
            match lane_index(ctx.arg(2)?, ty.num_elements()) {
                Some(i) => v.inserted(i * w, &elt.extract(0, w)),
                None => v.to_undef(),
            }
        }
        G_SHUFFLE_VECTOR => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let src = ctx.arg_ty(0)?;
            let w = src.scalar_size_in_bits();
            let n = src.num_elements();
            let mut parts = Vec::new();
            for m in ctx.shuffle_mask()? {
                parts.push(match m {
                    Some(i) if *i < n => a.extract(i * w, w),
                    Some(i) if *i < 2 * n => b.extract((i - n) * w, w),
                    _ => Value::undef(w),
                });
            }
            Value::concat(&parts)
        }
        G_VECREDUCE_SEQ_FADD | G_VECREDUCE_SEQ_FMUL => {
            let ty = ctx.arg_ty(1)?;
            let w = ctx.def_width(0)?;
            let lanes =
                if ty.is_vector() { lanes(ctx.arg(1)?, ty.scalar_size_in_bits()) } else { vec![ctx.arg(1)?.clone()] };
            let op = if op == G_VECREDUCE_SEQ_FADD { fparith::Op::Add } else { fparith::Op::Mul };
            let format =
                Format::for_width(w).ok_or_else(|| InterpError::Unsupported(format!("{} on s{w}", ctx.op.name())))?;
            let mut acc = ctx.arg(0)?.clone();
            for lane in lanes {
                acc = match (acc.get(), lane.get()) {
                    (Some(a), Some(b)) => float::compute(format, op, &[a.clone(), b.clone()]),
                    _ => Value::undef(w),
                };
            }
            acc
        }
        // A floating-point reduction of one lane is that lane, in any order.
        G_VECREDUCE_FADD | G_VECREDUCE_FMUL | G_VECREDUCE_FMAX | G_VECREDUCE_FMIN | G_VECREDUCE_FMAXIMUM
        | G_VECREDUCE_FMINIMUM
            if !ctx.arg_ty(0)?.is_vector() || ctx.arg_ty(0)?.num_elements() == 1 =>
        {
            ctx.arg(0)?.clone()
        }
        G_VECREDUCE_ADD | G_VECREDUCE_MUL | G_VECREDUCE_AND | G_VECREDUCE_OR | G_VECREDUCE_XOR | G_VECREDUCE_SMAX
        | G_VECREDUCE_SMIN | G_VECREDUCE_UMAX | G_VECREDUCE_UMIN => {
            let ty = ctx.arg_ty(0)?;
            let w = ctx.def_width(0)?;
            let parts = lanes(ctx.arg(0)?, ty.scalar_size_in_bits());
            match reduce(op, &parts) {
                Some(v) if v.width() >= w => v.extract(0, w),
                Some(v) => v.zext(w),
                None => Value::undef(w),
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(vec![out]))
}
