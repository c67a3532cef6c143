//! Floating-point semantics on `s16` (`half`), `s32` (`float`), `s64`
//! (`double`), `s80` (`x86_fp80`) and `s128` (`fp128`): arithmetic, bit
//! operations (`G_FNEG`, `G_FABS`, `G_FCOPYSIGN`), minimum and maximum,
//! compares, conversions between formats and to and from integers of any
//! width.
//!
//! Arithmetic is correctly rounded (to nearest, ties to even): the host's
//! `f32`/`f64` for `float` and `double`, exact software arithmetic
//! ([`fparith`]) for `half`, `x86_fp80` (at its full 64-bit precision) and
//! `fp128`. A NaN result is a quiet NaN whose
//! sign and payload bits are undefined, as LLVM does not specify them. Any
//! undefined input bit makes the whole result undefined.

use super::InterpError;
use super::eval::Ctx;
use super::fparith::{self, Direction, Op};
use super::libm;
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

/// Applies `op` with the host type `$t` (bits `$u`) to the operands `$xs`.
macro_rules! host {
    ($t:ty, $u:ty, $op:expr, $xs:expr) => {{
        let x: Vec<$t> = $xs.iter().map(|b| <$t>::from_bits(b.low_u64() as $u)).collect();
        let r = match $op {
            Op::Add => x[0] + x[1],
            Op::Sub => x[0] - x[1],
            Op::Mul => x[0] * x[1],
            Op::Div => x[0] / x[1],
            Op::Rem => x[0] % x[1],
            Op::Sqrt => x[0].sqrt(),
            Op::Fma => x[0].mul_add(x[1], x[2]),
            Op::RoundToIntegral(Direction::Down) => x[0].floor(),
            Op::RoundToIntegral(Direction::Up) => x[0].ceil(),
            Op::RoundToIntegral(Direction::TowardZero) => x[0].trunc(),
            Op::RoundToIntegral(Direction::NearestTiesAway) => x[0].round(),
            Op::RoundToIntegral(Direction::NearestTiesEven) => x[0].round_ties_even(),
        };
        (!r.is_nan()).then(|| ApInt::from_u128(<$u>::BITS, u128::from(r.to_bits())))
    }};
}

/// Applies a rounding operation to defined operands of format `f`: the
/// host's `f32`/`f64` for `float` and `double` (correctly rounded), exact
/// software arithmetic ([`fparith`]) for the others. A NaN result is
/// [`Format::nan`].
pub fn compute(f: Format, op: Op, xs: &[ApInt]) -> Value {
    let result = match f {
        SINGLE => host!(f32, u32, op, xs),
        DOUBLE => host!(f64, u64, op, xs),
        _ => fparith::eval(f, op, xs),
    };
    result.map_or_else(|| f.nan(), Value::defined)
}

/// Applies `op` to the operands of an instruction of one format; an
/// undefined operand makes the result undefined, or a NaN if its defined
/// bits make it a NaN.
fn arith(ctx: &Ctx<'_>, op: Op) -> Result<Value, InterpError> {
    let w = ctx.def_width(0)?;
    let f = format_of(w, ctx.op)?;
    let mut xs = Vec::with_capacity(op.arity());
    for i in 0..op.arity() {
        let a = ctx.arg(i)?;
        let Some(bits) = a.get() else {
            // A NaN operand makes a NaN whatever its undefined bits are.
            let nan = matches!(softfloat::class_of(f, a), Some(Class::Nan { .. }));
            return Ok(if nan { f.nan() } else { Value::undef(w) });
        };
        xs.push(bits.clone());
    }
    Ok(compute(f, op, &xs))
}

/// A transcendental function of an instruction's operands, undefined as
/// [`arith`] makes it.
fn transcendental(ctx: &Ctx<'_>, func: libm::Function) -> Result<Value, InterpError> {
    let w = ctx.def_width(0)?;
    let f = format_of(w, ctx.op)?;
    let mut xs = Vec::with_capacity(func.arity());
    for i in 0..func.arity() {
        let a = ctx.arg(i)?;
        let Some(bits) = a.get() else {
            let nan = matches!(softfloat::class_of(f, a), Some(Class::Nan { .. }));
            return Ok(if nan { f.nan() } else { Value::undef(w) });
        };
        xs.push(bits.clone());
    }
    libm::compute(f, func, &xs)
}

/// `x · 2^n`, rounded once.
pub fn ldexp(f: Format, x: &ApInt, n: i32) -> Value {
    match softfloat::decode(f, x) {
        Class::Nan { .. } => f.nan(),
        Class::Finite { sign, mant, exp } => Value::defined(softfloat::encode(f, sign, &mant, exp + i64::from(n))),
        _ => Value::defined(x.clone()),
    }
}

/// `x` split into a fraction in `[0.5, 1)` (signed as `x`) and a power of
/// two; zero gives exponent 0, and infinities and NaNs an undefined one.
fn frexp(f: Format, x: &ApInt) -> (Value, Option<i32>) {
    match softfloat::decode(f, x) {
        Class::Nan { .. } => (f.nan(), None),
        Class::Inf(_) => (Value::defined(x.clone()), None),
        Class::Zero(_) => (Value::defined(x.clone()), Some(0)),
        Class::Finite { sign, mant, exp } => {
            let digits = i64::from(mant.bits() - mant.leading_zeros());
            let fraction = softfloat::encode(f, sign, &mant, -digits);
            (Value::defined(fraction), i32::try_from(exp + digits).ok())
        }
    }
}

/// `modf`: `x` split into its fractional and integral parts, both signed
/// as `x` (an infinity has fraction zero, a NaN is NaN in both).
pub fn modf(f: Format, x: &ApInt) -> (Value, Value) {
    let sign = x.lshr(f.width() - 1).zext_or_trunc(1);
    let signed_zero = Value::defined(sign.zext_or_trunc(f.width()).shl(f.width() - 1));
    match softfloat::decode(f, x) {
        Class::Nan { .. } => (f.nan(), f.nan()),
        Class::Inf(_) => (signed_zero, Value::defined(x.clone())),
        _ => {
            let integral = compute(f, Op::RoundToIntegral(Direction::TowardZero), std::slice::from_ref(x));
            let Some(whole) = integral.get() else { return (f.nan(), f.nan()) };
            let fraction = compute(f, Op::Sub, &[x.clone(), whole.clone()]);
            (fraction.inserted(f.width() - 1, &Value::defined(sign)), integral)
        }
    }
}

/// `sincos`: the sine and the cosine of `x`.
pub fn sincos(f: Format, x: &ApInt) -> Result<(Value, Value), InterpError> {
    let xs = std::slice::from_ref(x);
    Ok((libm::compute(f, libm::Function::Sin, xs)?, libm::compute(f, libm::Function::Cos, xs)?))
}

/// `x^n` by the host's `powi` (`half` through `float`), as the
/// `__powisf2` family computes it.
pub fn powi(f: Format, x: &ApInt, n: i32) -> Result<Value, InterpError> {
    let result = match f {
        SINGLE => ApInt::from_u128(32, u128::from(f32::from_bits(x.low_u64() as u32).powi(n).to_bits())),
        DOUBLE => ApInt::from_u128(64, u128::from(f64::from_bits(x.low_u64()).powi(n).to_bits())),
        HALF => {
            let Some(wide) = softfloat::convert(HALF, SINGLE, x) else { return Ok(f.nan()) };
            let r = f32::from_bits(wide.low_u64() as u32).powi(n).to_bits();
            match softfloat::convert(SINGLE, HALF, &ApInt::from_u128(32, u128::from(r))) {
                Some(bits) => bits,
                None => return Ok(f.nan()),
            }
        }
        _ => return Err(InterpError::Unsupported(format!("G_FPOWI on f{}", f.width()))),
    };
    Ok(if matches!(softfloat::decode(f, &result), Class::Nan { .. }) { f.nan() } else { Value::defined(result) })
}

/// The `FPClassTest` bit of `v`'s class (`fcSNan` 1, `fcQNan` 2, then
/// negative infinity, normal, subnormal, zero, and the positive ones up to
/// `fcPosInf` 512), or `None` when undefined bits hide it.
fn fp_class_bit(f: Format, v: &Value) -> Option<i64> {
    if let Some(Class::Nan { signaling }) = softfloat::class_of(f, v) {
        return Some(if signaling { 1 } else { 2 });
    }
    let bits = v.get()?;
    let negative = bits.bit(f.width() - 1);
    let exponent = bits.extract(f.exp_lsb(), f.exp_bits);
    // The magnitude rank from zero: zero, subnormal, normal, infinity.
    let rank = match softfloat::decode(f, bits) {
        Class::Nan { .. } => unreachable!("NaNs are classified above"),
        Class::Zero(_) => 0,
        Class::Finite { .. } if exponent.is_zero() => 1,
        Class::Finite { .. } => 2,
        Class::Inf(_) => 3,
    };
    Some(if negative { 32 >> rank } else { 64 << rank })
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

/// `op` of `va` and `vb` in format `f`, for the minimum and maximum
/// opcodes: `minnum`/`maxnum` (a quiet NaN operand is ignored, a signaling
/// one makes the result undefined; `-0` and `+0` compare equal, so their
/// minimum has an undefined sign) and `minimum`/`maximum` (NaN wins,
/// `-0 < +0`).
pub fn min_max(op: Opcode, f: Format, va: &Value, vb: &Value) -> Value {
    use Opcode::*;
    let w = f.width();
    let (Some(ca), Some(cb)) = (softfloat::class_of(f, va), softfloat::class_of(f, vb)) else {
        return Value::undef(w);
    };
    // Only NaNs may be partly undefined; the other operand's bits are read
    // below only when it is not a NaN.
    let (a, b) = (va.bits(), vb.bits());
    let nan_wins = matches!(op, G_FMINIMUM | G_FMAXIMUM);
    let want_min = matches!(op, G_FMINNUM | G_FMINIMUM | G_FMINNUM_IEEE | G_FMINIMUMNUM);
    match (&ca, &cb) {
        (Class::Nan { signaling: true }, _) | (_, Class::Nan { signaling: true }) if !nan_wins => {
            return Value::undef(w);
        }
        (Class::Nan { .. }, Class::Nan { .. }) => return f.nan(),
        (Class::Nan { .. }, _) => return if nan_wins { f.nan() } else { Value::defined(b.clone()) },
        (_, Class::Nan { .. }) => return if nan_wins { f.nan() } else { Value::defined(a.clone()) },
        (Class::Zero(sa), Class::Zero(sb)) if sa != sb => {
            if nan_wins {
                return Value::defined(f.zero(want_min));
            }
            return Value::new(f.zero(false), ApInt::bit_range(w, w - 1, 1));
        }
        _ => {}
    }
    let ord = softfloat::compare(f, a, b).unwrap_or(Ordering::Equal);
    let pick_a = (ord == Ordering::Less) == want_min || ord == Ordering::Equal;
    Value::defined(if pick_a { a.clone() } else { b.clone() })
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
        G_FADD | G_STRICT_FADD => arith(ctx, Op::Add)?,
        G_FSUB | G_STRICT_FSUB => arith(ctx, Op::Sub)?,
        G_FMUL | G_STRICT_FMUL => arith(ctx, Op::Mul)?,
        G_FDIV | G_STRICT_FDIV => arith(ctx, Op::Div)?,
        G_FREM | G_STRICT_FREM => arith(ctx, Op::Rem)?,
        G_FSQRT | G_STRICT_FSQRT => arith(ctx, Op::Sqrt)?,
        G_FMA | G_FMAD | G_STRICT_FMA => arith(ctx, Op::Fma)?,
        _ if let Some(func) = libm::Function::for_opcode(op) => transcendental(ctx, func)?,
        G_FFLOOR => arith(ctx, Op::RoundToIntegral(Direction::Down))?,
        G_FCEIL => arith(ctx, Op::RoundToIntegral(Direction::Up))?,
        G_INTRINSIC_TRUNC => arith(ctx, Op::RoundToIntegral(Direction::TowardZero))?,
        G_INTRINSIC_ROUND => arith(ctx, Op::RoundToIntegral(Direction::NearestTiesAway))?,
        G_INTRINSIC_ROUNDEVEN | G_FRINT | G_FNEARBYINT => arith(ctx, Op::RoundToIntegral(Direction::NearestTiesEven))?,
        G_FMINNUM | G_FMAXNUM | G_FMINIMUM | G_FMAXIMUM | G_FMINNUM_IEEE | G_FMAXNUM_IEEE | G_FMINIMUMNUM
        | G_FMAXIMUMNUM => min_max(op, format_of(ctx.def_width(0)?, op)?, ctx.arg(0)?, ctx.arg(1)?),
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
        G_FLDEXP | G_STRICT_FLDEXP | G_FPOWI => {
            let (a, n) = (ctx.arg(0)?, ctx.arg(1)?);
            let f = format_of(a.width(), op)?;
            match (a.get(), n.get()) {
                (Some(x), Some(n)) => {
                    let n = n.to_i128().unwrap_or(0).clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
                    if op == G_FPOWI { powi(f, x, n)? } else { ldexp(f, x, n) }
                }
                _ if matches!(softfloat::class_of(f, a), Some(Class::Nan { .. })) => f.nan(),
                _ => Value::undef(a.width()),
            }
        }
        G_FFREXP => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            let exp_width = ctx.def_width(1)?;
            let Some(x) = a.get() else {
                return Ok(Some(vec![Value::undef(a.width()), Value::undef(exp_width)]));
            };
            let (fraction, exponent) = frexp(f, x);
            let exponent = exponent.map_or_else(|| Value::undef(exp_width), |e| Value::from_i128(exp_width, e.into()));
            return Ok(Some(vec![fraction, exponent]));
        }
        G_FMODF | G_FSINCOS => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            let Some(x) = a.get() else {
                let nan = matches!(softfloat::class_of(f, a), Some(Class::Nan { .. }));
                let result = if nan { f.nan() } else { Value::undef(a.width()) };
                return Ok(Some(vec![result.clone(), result]));
            };
            let (first, second) = if op == G_FMODF { modf(f, x) } else { sincos(f, x)? };
            return Ok(Some(vec![first, second]));
        }
        G_LROUND | G_LLROUND | G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            let w = ctx.def_width(0)?;
            let ties = if matches!(op, G_LROUND | G_LLROUND) {
                Direction::NearestTiesAway
            } else {
                Direction::NearestTiesEven
            };
            // Out of range (or NaN) is poison, as for G_FPTOSI.
            let rounded = a.get().map(|b| compute(f, Op::RoundToIntegral(ties), std::slice::from_ref(b)));
            rounded
                .and_then(|r| r.get().and_then(|b| softfloat::to_int(f, b, w, true)))
                .map_or_else(|| Value::undef(w), Value::defined)
        }
        G_IS_FPCLASS => {
            let a = ctx.arg(0)?;
            let f = format_of(a.width(), op)?;
            let tested = fp_class_bit(f, a).map(|bit| ctx.imm(0).is_ok_and(|mask| mask & bit != 0));
            ctx.boolean(ctx.def_width(0)?, tested)
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
