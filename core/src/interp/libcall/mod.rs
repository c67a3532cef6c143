//! Runtime library functions a legalized function may call (`BL &__divti3`,
//! `PseudoCALL &__muldi3`, `BL &__aeabi_idivmod`), interpreted by name:
//! libgcc's and compiler-rt's names, the C library's math functions, and
//! the Arm run-time ABI's helpers ([`aeabi`]).

mod aeabi;

use super::fparith::{self, Direction};
use super::libm;
use super::softfloat::{self, Format};
use super::value::Value;
use super::{InterpError, float};
use crate::opcode::Opcode;
use std::cmp::Ordering;

/// The type of a libcall parameter or result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer of this many bits.
    Int(u32),
    /// An IEEE float of this many bits.
    Float(u32),
}

impl Kind {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Kind::Int(b) | Kind::Float(b) => b,
        }
    }
}

/// A known runtime function.
pub struct Libcall {
    /// Parameter kinds.
    pub params: Vec<Kind>,
    /// Result kind.
    pub ret: Kind,
    op: Op,
}

#[derive(Clone, Copy)]
enum Op {
    Div {
        signed: bool,
        rem: bool,
    },
    /// The quotient and the remainder, the quotient in the low half of the
    /// result (AEABI's `__aeabi_idivmod` returns them in `r0` and `r1`).
    DivMod {
        signed: bool,
    },
    /// `__ashldi3` and kin: a shift by an `int`; shifting by the width or
    /// more is undefined.
    Shift(Opcode),
    Mul,
    IntToFp {
        signed: bool,
    },
    FpToInt {
        signed: bool,
    },
    FpConvert,
    /// libgcc's three-way comparisons (`__ltsf2`: negative, zero or
    /// positive).
    Compare(Cmp),
    /// AEABI's comparisons (`__aeabi_fcmplt`): 1 when the relation holds,
    /// else 0 (NaNs compare false but for `Unord`).
    Predicate(Cmp),
    /// Correctly rounded arithmetic, as the generic opcode computes it.
    Arith(fparith::Op),
    /// `fmin`/`fmax`, as `G_FMINNUM`/`G_FMAXNUM`.
    MinMax(Opcode),
    /// `sin`, `exp`, `pow`, ... as the generic opcodes compute them.
    Transcendental(libm::Function),
    /// `ldexp`: a float scaled by a power of two (an `int`).
    LdExp,
    /// `__powisf2` and kin: a float raised to an `int` power.
    PowI,
    /// `__clzsi2` and kin: the leading zero bits of a non-zero integer.
    CountLeadingZeros,
    /// `lround`, `llrint`, ...: a float rounded to an integral value in
    /// this direction, then converted to a signed integer.
    RoundToInt(Direction),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Unord,
}

fn int_suffix(s: &str) -> Option<u32> {
    match s {
        "si" => Some(32),
        "di" => Some(64),
        "ti" => Some(128),
        _ => None,
    }
}

fn float_suffix(s: &str) -> Option<u32> {
    match s {
        "hf" => Some(16),
        "sf" => Some(32),
        "df" => Some(64),
        "xf" => Some(80),
        "tf" => Some(128),
        _ => None,
    }
}

/// The runtime function called `name`, if the interpreter knows it.
/// C library functions that store results through pointer arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoresThrough {
    /// `modf(x, &integral)`: returns the fraction.
    Modf,
    /// `sincos(x, &sin, &cos)`.
    Sincos,
}

/// The function `name` stores its results through pointers (`modff`,
/// `sincosl`, ...): which one and its float width, `long double` having
/// `long_double_bits`.
pub fn stores_through(name: &str, long_double_bits: u32) -> Option<(StoresThrough, u32)> {
    let (function, suffix) = if let Some(rest) = name.strip_prefix("modf") {
        (StoresThrough::Modf, rest)
    } else {
        (StoresThrough::Sincos, name.strip_prefix("sincos")?)
    };
    let bits = match suffix {
        "f" => 32,
        "" => 64,
        "l" => long_double_bits,
        _ => return None,
    };
    Some((function, bits))
}

/// The runtime function `name`, where C's `long` has `long_bits` bits and
/// `long double` `long_double_bits`.
pub fn lookup(name: &str, long_bits: u32, long_double_bits: u32) -> Option<Libcall> {
    if let Some(call) = aeabi::lookup(name) {
        return Some(call);
    }
    let call = |params: Vec<Kind>, ret: Kind, op: Op| Some(Libcall { params, ret, op });
    let rounding = [
        ("llround", 64, Direction::NearestTiesAway),
        ("lround", long_bits, Direction::NearestTiesAway),
        ("llrint", 64, Direction::NearestTiesEven),
        ("lrint", long_bits, Direction::NearestTiesEven),
    ];
    for (base, int_bits, direction) in rounding {
        let float_bits = match name.strip_prefix(base) {
            Some("f") => 32,
            Some("") => 64,
            Some("l") => long_double_bits,
            _ => continue,
        };
        return call(vec![Kind::Float(float_bits)], Kind::Int(int_bits), Op::RoundToInt(direction));
    }
    if let Some((op, bits)) = libm(name, long_double_bits) {
        let arity = match op {
            Op::Arith(a) => a.arity(),
            Op::Transcendental(func) => func.arity(),
            _ => 2,
        };
        return call(vec![Kind::Float(bits); arity], Kind::Float(bits), op);
    }
    let ldexp = [("ldexpf", 32), ("ldexp", 64), ("ldexpl", long_double_bits)];
    if let Some((_, bits)) = ldexp.iter().find(|(n, _)| *n == name) {
        return call(vec![Kind::Float(*bits), Kind::Int(32)], Kind::Float(*bits), Op::LdExp);
    }
    let body = name.strip_prefix("__")?;
    if let Some(bits) = body.strip_prefix("powi").and_then(|r| r.strip_suffix('2')).and_then(float_suffix) {
        return call(vec![Kind::Float(bits), Kind::Int(32)], Kind::Float(bits), Op::PowI);
    }
    for (prefix, op) in
        [("add", fparith::Op::Add), ("sub", fparith::Op::Sub), ("mul", fparith::Op::Mul), ("div", fparith::Op::Div)]
    {
        if let Some(bits) = body.strip_prefix(prefix).and_then(|r| r.strip_suffix('3')).and_then(float_suffix) {
            return call(vec![Kind::Float(bits); 2], Kind::Float(bits), Op::Arith(op));
        }
    }
    for (prefix, signed, rem) in
        [("div", true, false), ("udiv", false, false), ("mod", true, true), ("umod", false, true)]
    {
        if let Some(rest) = body.strip_prefix(prefix)
            && let Some(bits) = rest.strip_suffix('3').and_then(int_suffix)
        {
            return call(vec![Kind::Int(bits); 2], Kind::Int(bits), Op::Div { signed, rem });
        }
    }
    if let Some(bits) = body.strip_prefix("clz").and_then(|r| r.strip_suffix('2')).and_then(int_suffix) {
        // As LLVM declares it: the count is as wide as the operand.
        return call(vec![Kind::Int(bits)], Kind::Int(bits), Op::CountLeadingZeros);
    }
    if let Some(bits) = body.strip_prefix("mul").and_then(|r| r.strip_suffix('3')).and_then(int_suffix) {
        return call(vec![Kind::Int(bits); 2], Kind::Int(bits), Op::Mul);
    }
    for (prefix, op) in [("ashl", Opcode::G_SHL), ("lshr", Opcode::G_LSHR), ("ashr", Opcode::G_ASHR)] {
        if let Some(bits) = body.strip_prefix(prefix).and_then(|r| r.strip_suffix('3')).and_then(int_suffix) {
            return call(vec![Kind::Int(bits), Kind::Int(32)], Kind::Int(bits), Op::Shift(op));
        }
    }
    if let Some(rest) = body.strip_prefix("float") {
        let (signed, rest) = match rest.strip_prefix("un") {
            Some(r) => (false, r),
            None => (true, rest),
        };
        let (from, to) = (int_suffix(rest.get(..2)?)?, float_suffix(rest.get(2..)?)?);
        return call(vec![Kind::Int(from)], Kind::Float(to), Op::IntToFp { signed });
    }
    if let Some(rest) = body.strip_prefix("fix") {
        let (signed, rest) = match rest.strip_prefix("uns") {
            Some(r) => (false, r),
            None => (true, rest),
        };
        let (from, to) = (float_suffix(rest.get(..2)?)?, int_suffix(rest.get(2..)?)?);
        return call(vec![Kind::Float(from)], Kind::Int(to), Op::FpToInt { signed });
    }
    for prefix in ["extend", "trunc"] {
        if let Some(rest) = body.strip_prefix(prefix).and_then(|r| r.strip_suffix('2')) {
            let (from, to) = (float_suffix(rest.get(..2)?)?, float_suffix(rest.get(2..)?)?);
            return call(vec![Kind::Float(from)], Kind::Float(to), Op::FpConvert);
        }
    }
    let cmp = [
        ("eq", Cmp::Eq),
        ("ne", Cmp::Eq),
        ("lt", Cmp::Lt),
        ("le", Cmp::Le),
        ("gt", Cmp::Gt),
        ("ge", Cmp::Ge),
        ("unord", Cmp::Unord),
    ];
    for (prefix, c) in cmp {
        if let Some(rest) = body.strip_prefix(prefix).and_then(|r| r.strip_suffix('2')) {
            let bits = float_suffix(rest)?;
            return call(vec![Kind::Float(bits); 2], Kind::Int(32), Op::Compare(c));
        }
    }
    None
}

/// A C math library function (`fmodl`, `sqrtf`, `fmin`, ...): its
/// operation and format (`f` for `float`, no suffix for `double`, `l` for
/// `long double`, of `long_double_bits`: `fp128` on AArch64 and RISC-V,
/// `x86_fp80` on X86).
fn libm(name: &str, long_double_bits: u32) -> Option<(Op, u32)> {
    use fparith::Op::*;
    const FUNCTIONS: &[(&str, Op)] = &[
        ("fmod", Op::Arith(Rem)),
        ("sqrt", Op::Arith(Sqrt)),
        ("fma", Op::Arith(Fma)),
        ("floor", Op::Arith(RoundToIntegral(Direction::Down))),
        ("ceil", Op::Arith(RoundToIntegral(Direction::Up))),
        ("trunc", Op::Arith(RoundToIntegral(Direction::TowardZero))),
        ("round", Op::Arith(RoundToIntegral(Direction::NearestTiesAway))),
        ("roundeven", Op::Arith(RoundToIntegral(Direction::NearestTiesEven))),
        ("rint", Op::Arith(RoundToIntegral(Direction::NearestTiesEven))),
        ("nearbyint", Op::Arith(RoundToIntegral(Direction::NearestTiesEven))),
        ("fmin", Op::MinMax(Opcode::G_FMINNUM)),
        ("fmax", Op::MinMax(Opcode::G_FMAXNUM)),
    ];
    let exact = FUNCTIONS.iter().find_map(|(base, op)| {
        let bits = match name.strip_prefix(base)? {
            "f" => 32,
            "" => 64,
            "l" => long_double_bits,
            _ => return None,
        };
        Some((*op, bits))
    });
    exact.or_else(|| {
        [("f", 32), ("l", long_double_bits), ("", 64)].into_iter().find_map(|(suffix, bits)| {
            let func = libm::Function::for_name(name.strip_suffix(suffix)?)?;
            Some((Op::Transcendental(func), bits))
        })
    })
}

fn format(bits: u32) -> Result<Format, InterpError> {
    Format::for_width(bits).ok_or_else(|| InterpError::Unsupported(format!("libcall on f{bits}")))
}

impl Libcall {
    /// Calls the function on `args` (one value per parameter, of its width).
    pub fn call(&self, args: &[Value]) -> Result<Value, InterpError> {
        let w = self.ret.bits();
        if let (Op::MinMax(op), [a, b]) = (self.op, args) {
            return Ok(float::min_max(op, format(w)?, a, b));
        }
        let mut defined = Vec::with_capacity(args.len());
        for (a, kind) in args.iter().zip(&self.params) {
            let nan = match kind {
                Kind::Float(bits) => Format::for_width(*bits)
                    .is_some_and(|f| matches!(softfloat::class_of(f, a), Some(softfloat::Class::Nan { .. }))),
                Kind::Int(_) => false,
            };
            if nan && a.get().is_none() {
                // A NaN argument decides the result of what takes floats.
                return Ok(match (self.op, self.ret) {
                    (Op::Predicate(c), _) => Value::from_i128(w, i128::from(c == Cmp::Unord)),
                    (Op::Compare(c), _) => Value::from_i128(
                        w,
                        if c == Cmp::Unord {
                            1
                        } else if matches!(c, Cmp::Gt | Cmp::Ge) {
                            -1
                        } else {
                            1
                        },
                    ),
                    (Op::FpConvert | Op::Arith(_), Kind::Float(bits)) => format(bits)?.nan(),
                    _ => Value::undef(w),
                });
            }
            match a.get() {
                Some(v) => defined.push(v.clone()),
                None if matches!(self.op, Op::Div { .. } | Op::DivMod { .. }) && defined.len() == 1 => {
                    return Err(InterpError::Undefined("libcall division by an undefined value".into()));
                }
                None => return Ok(Value::undef(w)),
            }
        }
        let arg = |i: usize| defined.get(i).ok_or_else(|| InterpError::Malformed("libcall argument count".into()));
        Ok(match self.op {
            Op::Div { signed, rem } => {
                let (a, b) = (arg(0)?, arg(1)?);
                if b.is_zero() {
                    return Err(InterpError::Undefined("libcall division by zero".into()));
                }
                let (q, r) = if signed { a.sdivrem(b) } else { a.udivrem(b) }
                    .ok_or_else(|| InterpError::Undefined("libcall division by zero".into()))?;
                Value::defined(if rem { r } else { q })
            }
            Op::DivMod { signed } => {
                let (a, b) = (arg(0)?, arg(1)?);
                let (q, r) = if signed { a.sdivrem(b) } else { a.udivrem(b) }
                    .ok_or_else(|| InterpError::Undefined("libcall division by zero".into()))?;
                Value::concat(&[Value::defined(q), Value::defined(r)])
            }
            Op::Shift(op) => {
                let (a, n) = (arg(0)?, arg(1)?.low_u64());
                if n >= u64::from(w) {
                    return Ok(Value::undef(w));
                }
                Value::defined(match op {
                    Opcode::G_SHL => a.shl(n as u32),
                    Opcode::G_LSHR => a.lshr(n as u32),
                    _ => a.ashr(n as u32),
                })
            }
            Op::Predicate(c) => {
                let f = format(self.params[0].bits())?;
                let holds = match (c, softfloat::compare(f, arg(0)?, arg(1)?)) {
                    (Cmp::Unord, o) => o.is_none(),
                    (_, None) => false,
                    (Cmp::Eq, Some(o)) => o == Ordering::Equal,
                    (Cmp::Lt, Some(o)) => o == Ordering::Less,
                    (Cmp::Le, Some(o)) => o != Ordering::Greater,
                    (Cmp::Gt, Some(o)) => o == Ordering::Greater,
                    (Cmp::Ge, Some(o)) => o != Ordering::Less,
                };
                Value::from_i128(w, i128::from(holds))
            }
            Op::Mul => Value::defined(arg(0)?.mul(arg(1)?)),
            Op::CountLeadingZeros => {
                let x = arg(0)?;
                // The count of zero is unspecified, as G_CTLZ_ZERO_UNDEF's.
                if x.is_zero() { Value::undef(w) } else { Value::from_u128(w, u128::from(x.leading_zeros())) }
            }
            Op::IntToFp { signed } => Value::defined(softfloat::from_int(format(w)?, arg(0)?, signed)),
            Op::FpToInt { signed } => {
                let f = format(self.params[0].bits())?;
                softfloat::to_int(f, arg(0)?, w, signed).map_or_else(|| Value::undef(w), Value::defined)
            }
            Op::FpConvert => {
                let (from, to) = (format(self.params[0].bits())?, format(w)?);
                softfloat::convert(from, to, arg(0)?).map_or_else(|| to.nan(), Value::defined)
            }
            Op::Compare(c) => {
                let f = format(self.params[0].bits())?;
                let ord = softfloat::compare(f, arg(0)?, arg(1)?);
                let r: i128 = match (c, ord) {
                    (Cmp::Unord, o) => i128::from(o.is_none()),
                    (Cmp::Gt | Cmp::Ge, None) => -1,
                    (_, None) => 1,
                    (_, Some(Ordering::Less)) => -1,
                    (_, Some(Ordering::Equal)) => 0,
                    (_, Some(Ordering::Greater)) => 1,
                };
                Value::from_i128(w, r)
            }
            Op::Arith(op) => float::compute(format(w)?, op, &defined),
            Op::Transcendental(func) => libm::compute(format(w)?, func, &defined)?,
            Op::LdExp | Op::PowI => {
                let n = arg(1)?.to_i128().unwrap_or(0) as i32;
                if matches!(self.op, Op::LdExp) {
                    float::ldexp(format(w)?, arg(0)?, n)
                } else {
                    float::powi(format(w)?, arg(0)?, n)?
                }
            }
            Op::RoundToInt(direction) => {
                let f = format(self.params[0].bits())?;
                let rounded = float::compute(f, fparith::Op::RoundToIntegral(direction), &defined);
                // Out of range (or NaN): C leaves the result unspecified.
                let integral = rounded.get().and_then(|r| softfloat::to_int(f, r, w, true));
                integral.map_or_else(|| Value::undef(w), Value::defined)
            }
            Op::MinMax(_) => return Err(InterpError::Malformed("libcall argument count".into())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apint::ApInt;

    #[test]
    fn names_resolve() {
        let c = lookup("__divti3", 64, 128).unwrap();
        assert_eq!((c.params.clone(), c.ret), (vec![Kind::Int(128); 2], Kind::Int(128)));
        let r = c.call(&[Value::from_i128(128, -7), Value::from_i128(128, 2)]).unwrap();
        assert_eq!(r, Value::from_i128(128, -3));
        assert!(matches!(
            c.call(&[Value::from_i128(128, 1), Value::from_i128(128, 0)]),
            Err(InterpError::Undefined(_))
        ));
        let c = lookup("__floatunditf", 64, 128).unwrap();
        assert_eq!(c.params, vec![Kind::Int(64)]);
        assert_eq!(c.ret, Kind::Float(128));
        assert_eq!(lookup("__fixunstfsi", 64, 128).map(|c| c.ret), Some(Kind::Int(32)));
        assert_eq!(lookup("__trunctfhf2", 64, 128).map(|c| c.ret), Some(Kind::Float(16)));
        assert_eq!(lookup("__unordtf2", 64, 128).map(|c| c.ret), Some(Kind::Int(32)));
        assert!(lookup("memcpy", 64, 128).is_none());
        assert!(lookup("fmaxq", 64, 128).is_none());
    }

    /// `x` in `fp128`; a NaN is the default quiet NaN.
    fn quad(x: f64) -> Value {
        let d = ApInt::from_u128(64, u128::from(x.to_bits()));
        let q = softfloat::convert(softfloat::DOUBLE, softfloat::QUAD, &d);
        Value::defined(q.unwrap_or_else(|| ApInt::from_u128(128, 0x7fff_8000 << 96)))
    }

    #[test]
    fn fp128_arithmetic() {
        let call = |name: &str, args: &[f64]| {
            let c = lookup(name, 64, 128).unwrap();
            assert!(c.params.iter().chain([&c.ret]).all(|k| *k == Kind::Float(128)), "{name}");
            c.call(&args.iter().map(|x| quad(*x)).collect::<Vec<_>>()).unwrap()
        };
        assert_eq!(call("__addtf3", &[1.0, 2.0]), quad(3.0));
        assert_eq!(call("__subtf3", &[1.0, 2.0]), quad(-1.0));
        assert_eq!(call("__multf3", &[1.5, -2.0]), quad(-3.0));
        assert_eq!(call("__divtf3", &[1.0, 8.0]), quad(0.125));
        assert_eq!(call("sqrtl", &[2.25]), quad(1.5));
        assert_eq!(call("fmal", &[2.0, 3.0, 0.5]), quad(6.5));
        assert_eq!(call("fmodl", &[-7.0, 2.0]), quad(-1.0));
        assert_eq!(call("floorl", &[-0.5]), quad(-1.0));
        assert_eq!(call("fminl", &[f64::NAN, 2.0]), quad(2.0));
        assert_eq!(call("fmaxl", &[-1.0, 2.0]), quad(2.0));
        // -0 and +0 compare equal: either may come back.
        assert!(!call("fminl", &[-0.0, 0.0]).bit_defined(127));
        assert!(!call("__divtf3", &[0.0, 0.0]).is_defined(), "0/0 is a NaN of any sign and payload");
        assert_eq!(lookup("fmodf", 64, 128).map(|c| c.ret), Some(Kind::Float(32)));
        assert_eq!(lookup("ceil", 64, 128).map(|c| c.ret), Some(Kind::Float(64)));
    }
}
