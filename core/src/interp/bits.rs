//! Bit counting and bit permutation: `G_CTLZ`, `G_CTTZ`, `G_CTPOP` (and the
//! `_ZERO_UNDEF` forms), `G_BSWAP`, `G_BITREVERSE`, rotates, funnel shifts,
//! `G_ABDS`/`G_ABDU` and three-way compares.
//!
//! Permutations move the undefined mask with the bits, so a byte swap of a
//! value with undefined high bits has exactly the matching undefined bytes.
//! Counting zeros from one end is defined when a defined one bit is met
//! before any undefined bit.

use super::InterpError;
use super::eval::Ctx;
use super::int::shift_amount;
use super::value::Value;
use crate::apint::ApInt;
use crate::opcode::Opcode;
use std::cmp::Ordering;

type Out = Result<Option<Vec<Value>>, InterpError>;

/// Applies the bit permutation `dest_of(i)` (source bit `i` moves to
/// `dest_of(i)`) to value and mask.
fn permute(a: &Value, dest_of: impl Fn(u32) -> u32) -> Value {
    let w = a.width();
    let mut bits = ApInt::zero(w);
    let mut undef = ApInt::zero(w);
    for i in 0..w {
        let d = dest_of(i);
        bits.set_bit(d, a.bits().bit(i));
        undef.set_bit(d, a.undef_mask().bit(i));
    }
    Value::new(bits, undef)
}

/// Zeros counted from the low end (`from_top == false`) or the high end,
/// `None` when an undefined bit comes first.
fn count_zeros(a: &Value, from_top: bool) -> Option<u32> {
    let w = a.width();
    for k in 0..w {
        let i = if from_top { w - 1 - k } else { k };
        match a.bit(i) {
            None => return None,
            Some(true) => return Some(k),
            Some(false) => {}
        }
    }
    Some(w)
}

/// `v mod w` for a rotate or funnel-shift amount.
fn modulo(v: &ApInt, w: u32) -> u32 {
    let wide = v.zext_or_trunc(v.bits().max(33));
    wide.udivrem(&ApInt::from_u128(wide.bits(), u128::from(w))).map_or(0, |(_, r)| r.low_u64() as u32)
}

fn rotate_left(a: &Value, n: u32) -> Value {
    let w = a.width();
    permute(a, |i| (i + n) % w)
}

/// Evaluates the bit family; `Ok(None)` for other opcodes.
pub fn eval(ctx: &Ctx<'_>) -> Out {
    use Opcode::*;
    let op = ctx.op;
    let out = match op {
        G_CTLZ | G_CTTZ | G_CTLZ_ZERO_UNDEF | G_CTTZ_ZERO_UNDEF => {
            let a = ctx.arg(0)?;
            let w = ctx.def_width(0)?;
            let zero_undef = matches!(op, G_CTLZ_ZERO_UNDEF | G_CTTZ_ZERO_UNDEF);
            match count_zeros(a, matches!(op, G_CTLZ | G_CTLZ_ZERO_UNDEF)) {
                Some(n) if n == a.width() && zero_undef => Value::undef(w),
                Some(n) => Value::from_u128(w, u128::from(n)),
                None => Value::undef(w),
            }
        }
        G_CTPOP => {
            let a = ctx.arg(0)?;
            let w = ctx.def_width(0)?;
            match a.get() {
                Some(v) => Value::from_u128(w, u128::from(v.count_ones())),
                None => Value::undef(w),
            }
        }
        G_BSWAP => {
            let a = ctx.arg(0)?;
            let w = a.width();
            if !w.is_multiple_of(16) {
                return Err(InterpError::Malformed(format!("G_BSWAP on s{w}")));
            }
            let bytes = w / 8;
            permute(a, |i| (bytes - 1 - i / 8) * 8 + i % 8)
        }
        G_BITREVERSE => {
            let a = ctx.arg(0)?;
            let w = a.width();
            permute(a, |i| w - 1 - i)
        }
        G_ROTL | G_ROTR => {
            let a = ctx.arg(0)?;
            let w = a.width();
            let amount = ctx.arg(1)?;
            let Some(n) = amount.get().map(|v| modulo(v, w)) else { return Ok(Some(vec![a.to_undef()])) };
            rotate_left(a, if op == G_ROTL { n } else { (w - n) % w })
        }
        G_FSHL | G_FSHR => {
            let (a, b, c) = (ctx.arg(0)?, ctx.arg(1)?, ctx.arg(2)?);
            let w = a.width();
            let Some(n) = c.get().map(|v| modulo(v, w)) else { return Ok(Some(vec![a.to_undef()])) };
            let both = Value::concat(&[b.clone(), a.clone()]);
            if op == G_FSHL {
                // (a:b << n), high half.
                both.extract(w - n, w)
            } else {
                both.extract(n, w)
            }
        }
        G_ABDS | G_ABDU => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let signed = op == G_ABDS;
            Value::strict(a.width(), &[a, b], |v| {
                let ord = if signed { v[0].scmp(v[1]) } else { v[0].ucmp(v[1]) };
                if ord == Ordering::Less { v[1].sub(v[0]) } else { v[0].sub(v[1]) }
            })
        }
        G_SCMP | G_UCMP => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let w = ctx.def_width(0)?;
            Value::strict(w, &[a, b], |v| {
                let ord = if op == G_SCMP { v[0].scmp(v[1]) } else { v[0].ucmp(v[1]) };
                ApInt::from_i128(w, ord as i128)
            })
        }
        G_UBFX | G_SBFX => {
            let (a, lsb, width) = (ctx.arg(0)?, ctx.arg(1)?, ctx.arg(2)?);
            let w = a.width();
            match (shift_amount(lsb, w), width.get().and_then(|v| v.to_u32_below(w + 1))) {
                (Some(l), Some(n)) if n >= 1 && l + n <= w => {
                    let field = a.extract(l, n);
                    if op == G_UBFX { field.zext(w) } else { field.sext(w) }
                }
                _ => a.to_undef(),
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(vec![out]))
}
