//! Floating-point semantics on `s16` (`half`), `s32`, `s64` and, for what
//! needs no rounding arithmetic, `s128` (`fp128`): bit operations (`G_FNEG`,
//! `G_FABS`, `G_FCOPYSIGN`), compares, conversions between formats and to
//! and from integers of any width.
//!
//! Arithmetic uses the host's IEEE `f32`/`f64` (correctly rounded, `half`
//! through `f64`, where double rounding is innocuous for `+ - * / sqrt`).
//! A NaN result is a quiet NaN whose sign and payload bits are undefined, as
//! LLVM does not specify them. Any undefined input bit makes the whole
//! result undefined.

use super::InterpError;
use super::eval::Ctx;
use super::softfloat::{self, Class, DOUBLE, Format, HALF, SINGLE};
use super::value::Value;
use crate::apint::ApInt;
use crate::ir::FloatPredicate;
use crate::opcode::Opcode;
use std::cmp::Ordering;

type Out = Result<Option<Vec<Value>>, InterpError>;

fn format_of(width: u32, op: Opcode) -> Result<Format, InterpError> {
    Format::for_width(width).ok_or_else(|| InterpError::Unsupported(format!("{} on s{width}", op.name())))
}

/// A host value for arithmetic: `f32` for `float`, `f64` otherwise.
enum Host {
    F32(f32),
    F64(f64),
}

fn to_host(f: Format, bits: &ApInt, op: Opcode) -> Result<Host, InterpError> {
    match f {
        SINGLE => Ok(Host::F32(f32::from_bits(bits.low_u64() as u32))),
        DOUBLE => Ok(Host::F64(f64::from_bits(bits.low_u64()))),
        HALF => {
            let d = softfloat::convert(HALF, DOUBLE, bits);
            Ok(Host::F64(d.map_or(f64::NAN, |d| f64::from_bits(d.low_u64()))))
        }
        _ => Err(InterpError::Unsupported(format!("{} on s{}", op.name(), f.width()))),
    }
}

fn from_f64(f: Format, x: f64) -> Value {
    if x.is_nan() {
        return f.nan();
    }
    let d = ApInt::from_u128(64, u128::from(x.to_bits()));
    match f {
        DOUBLE => Value::defined(d),
        _ => softfloat::convert(DOUBLE, f, &d).map_or_else(|| f.nan(), Value::defined),
    }
}

fn from_f32(x: f32) -> Value {
    if x.is_nan() { SINGLE.nan() } else { Value::from_u128(32, u128::from(x.to_bits())) }
}

/// Applies `f32`/`f64` arithmetic to defined operands of one format.
fn arith(
    ctx: &Ctx<'_>,
    n: usize,
    on32: impl Fn(&[f32]) -> f32,
    on64: impl Fn(&[f64]) -> f64,
) -> Result<Value, InterpError> {
    let w = ctx.def_width(0)?;
    let f = format_of(w, ctx.op)?;
    let mut xs32 = Vec::new();
    let mut xs64 = Vec::new();
    for i in 0..n {
        let a = ctx.arg(i)?;
        let Some(bits) = a.get() else {
            // A NaN operand makes a NaN whatever its undefined bits are.
            let nan = matches!(softfloat::class_of(f, a), Some(Class::Nan { .. }));
            return Ok(if nan { f.nan() } else { Value::undef(w) });
        };
        match to_host(f, bits, ctx.op)? {
            Host::F32(x) => xs32.push(x),
            Host::F64(x) => xs64.push(x),
        }
    }
    Ok(if f == SINGLE { from_f32(on32(&xs32)) } else { from_f64(f, on64(&xs64)) })
}

fn fcmp(pred: FloatPredicate, ord: Option<Ordering>) -> bool {
    use FloatPredicate::*;
    let Some(o) = ord else {
        return matches!(pred, Uno | Ueq | Ugt | Uge | Ult | Ule | Une | True);
    };
    match pred {
        False | Uno => false,
        True | Ord => true,
        Oeq | Ueq => o == Ordering::Equal,
        Ogt | Ugt => o == Ordering::Greater,
        Oge | Uge => o != Ordering::Less,
        Olt | Ult => o == Ordering::Less,
        Ole | Ule => o != Ordering::Greater,
        One | Une => o != Ordering::Equal,
    }
}

/// `minnum`/`maxnum` (NaN operands are ignored) and `minimum`/`maximum`
/// (NaN wins, `-0 < +0`).
fn min_max(ctx: &Ctx<'_>, f: Format) -> Result<Value, InterpError> {
    use Opcode::*;
    let w = f.width();
    let (va, vb) = (ctx.arg(0)?, ctx.arg(1)?);
    let (Some(ca), Some(cb)) = (softfloat::class_of(f, va), softfloat::class_of(f, vb)) else {
        return Ok(Value::undef(w));
    };
    // Only NaNs may be partly undefined; the other operand's bits are read
    // below only when it is not a NaN.
    let (a, b) = (va.bits(), vb.bits());
    let nan_wins = matches!(ctx.op, G_FMINIMUM | G_FMAXIMUM);
    let want_min = matches!(ctx.op, G_FMINNUM | G_FMINIMUM | G_FMINNUM_IEEE | G_FMINIMUMNUM);
    match (&ca, &cb) {
        (Class::Nan { signaling: true }, _) | (_, Class::Nan { signaling: true }) if !nan_wins => {
            return Ok(Value::undef(w));
        }
        (Class::Nan { .. }, Class::Nan { .. }) => return Ok(f.nan()),
        (Class::Nan { .. }, _) => return Ok(if nan_wins { f.nan() } else { Value::defined(b.clone()) }),
        (_, Class::Nan { .. }) => return Ok(if nan_wins { f.nan() } else { Value::defined(a.clone()) }),
        (Class::Zero(sa), Class::Zero(sb)) if sa != sb => {
            if nan_wins {
                return Ok(Value::defined(f.zero(want_min)));
            }
            return Ok(Value::new(f.zero(false), ApInt::bit_range(w, w - 1, 1)));
        }
        _ => {}
    }
    let ord = softfloat::compare(f, a, b).unwrap_or(Ordering::Equal);
    let pick_a = (ord == Ordering::Less) == want_min || ord == Ordering::Equal;
    Ok(Value::defined(if pick_a { a.clone() } else { b.clone() }))
}

/// Evaluates the floating-point family; `Ok(None)` for other opcodes.
pub fn eval(ctx: &Ctx<'_>) -> Out {
    use Opcode::*;
    let op = ctx.op;
    let out = match op {
        G_FNEG | G_FABS => {
            let a = ctx.arg(0)?;
            let top = a.width() - 1;
            let sign = a.extract(top, 1);
            let new_sign = if op == G_FNEG {
                Value::new(sign.bits().not(), sign.undef_mask().clone())
            } else {
                Value::from_u128(1, 0)
            };
            a.inserted(top, &new_sign)
        }
        G_FCOPYSIGN => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            a.inserted(a.width() - 1, &b.extract(b.width() - 1, 1))
        }
        G_FADD => arith(ctx, 2, |x| x[0] + x[1], |x| x[0] + x[1])?,
        G_FSUB => arith(ctx, 2, |x| x[0] - x[1], |x| x[0] - x[1])?,
        G_FMUL => arith(ctx, 2, |x| x[0] * x[1], |x| x[0] * x[1])?,
        G_FDIV => arith(ctx, 2, |x| x[0] / x[1], |x| x[0] / x[1])?,
        G_FREM => arith(ctx, 2, |x| x[0] % x[1], |x| x[0] % x[1])?,
        G_FSQRT => arith(ctx, 1, |x| x[0].sqrt(), |x| x[0].sqrt())?,
        G_FMA | G_FMAD => arith(ctx, 3, |x| x[0].mul_add(x[1], x[2]), |x| x[0].mul_add(x[1], x[2]))?,
        G_FFLOOR => arith(ctx, 1, |x| x[0].floor(), |x| x[0].floor())?,
        G_FCEIL => arith(ctx, 1, |x| x[0].ceil(), |x| x[0].ceil())?,
        G_INTRINSIC_TRUNC => arith(ctx, 1, |x| x[0].trunc(), |x| x[0].trunc())?,
        G_INTRINSIC_ROUND => arith(ctx, 1, |x| x[0].round(), |x| x[0].round())?,
        G_INTRINSIC_ROUNDEVEN | G_FRINT | G_FNEARBYINT => {
            arith(ctx, 1, |x| x[0].round_ties_even(), |x| x[0].round_ties_even())?
        }
        G_FMINNUM | G_FMAXNUM | G_FMINIMUM | G_FMAXIMUM | G_FMINNUM_IEEE | G_FMAXNUM_IEEE | G_FMINIMUMNUM
        | G_FMAXIMUMNUM => min_max(ctx, format_of(ctx.def_width(0)?, op)?)?,
        G_FCANONICALIZE => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            match softfloat::class_of(f, a) {
                Some(Class::Nan { .. }) => f.nan(),
                Some(_) => a.clone(),
                None => a.to_undef(),
            }
        }
        G_FCMP => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let f = format_of(a.width(), op)?;
            let w = ctx.def_width(0)?;
            let nan = |v: &Value| matches!(softfloat::class_of(f, v), Some(Class::Nan { .. }));
            match (a.get(), b.get()) {
                (Some(x), Some(y)) => ctx.boolean(w, Some(fcmp(ctx.float_pred()?, softfloat::compare(f, x, y)))),
                _ if nan(a) || nan(b) => ctx.boolean(w, Some(fcmp(ctx.float_pred()?, None))),
                _ => Value::undef(w),
            }
        }
        G_FPEXT | G_FPTRUNC => {
            let a = ctx.arg(0)?;
            let (from, to) = (format_of(a.width(), op)?, format_of(ctx.def_width(0)?, op)?);
            match (a.get(), softfloat::class_of(from, a)) {
                (Some(bits), _) => softfloat::convert(from, to, bits).map_or_else(|| to.nan(), Value::defined),
                (None, Some(Class::Nan { .. })) => to.nan(),
                (None, _) => Value::undef(to.width()),
            }
        }
        G_FPTOSI | G_FPTOUI => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            let w = ctx.def_width(0)?;
            // Out of range (or NaN) is poison.
            a.get()
                .and_then(|b| softfloat::to_int(f, b, w, op == G_FPTOSI))
                .map_or_else(|| Value::undef(w), Value::defined)
        }
        G_FPTOSI_SAT | G_FPTOUI_SAT => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            let w = ctx.def_width(0)?;
            let signed = op == G_FPTOSI_SAT;
            match a.get() {
                None => Value::undef(w),
                Some(b) => Value::defined(match softfloat::decode(f, b) {
                    Class::Nan { .. } => ApInt::zero(w),
                    c => softfloat::to_int(f, b, w, signed).unwrap_or_else(|| {
                        let negative = matches!(c, Class::Inf(true) | Class::Finite { sign: true, .. });
                        match (signed, negative) {
                            (true, true) => ApInt::signed_min(w),
                            (true, false) => ApInt::signed_max(w),
                            (false, true) => ApInt::zero(w),
                            (false, false) => ApInt::all_ones(w),
                        }
                    }),
                }),
            }
        }
        G_SITOFP | G_UITOFP => {
            let a = ctx.arg(0)?;
            let f = format_of(ctx.def_width(0)?, op)?;
            match a.get() {
                Some(bits) => Value::defined(softfloat::from_int(f, bits, op == G_SITOFP)),
                None => Value::undef(f.width()),
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(vec![out]))
}
