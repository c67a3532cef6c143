//! IEEE 754 binary formats of any width as bit patterns, and the x87's
//! 80-bit extended format (an explicit integer bit above a 63-bit
//! fraction): classify, round an exact `±m·2^e` into a format (round to
//! nearest, ties to even), convert to and from integers of any width,
//! compare. Conversions between formats, `fp128` and `x86_fp80` included,
//! need nothing else.

use super::value::Value;
use crate::apint::ApInt;
use std::cmp::Ordering;

/// A binary floating-point format: IEEE's interchange formats, whose
/// significand's leading bit is implicit, or the x87's extended format,
/// which stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Exponent field width.
    pub exp_bits: u32,
    /// Fraction width: the significand's bits below its leading one.
    pub frac_bits: u32,
    /// The significand's leading (integer) bit is stored, above the
    /// fraction (`x86_fp80`).
    pub explicit_int: bool,
}

/// `half`.
pub const HALF: Format = Format { exp_bits: 5, frac_bits: 10, explicit_int: false };
/// `float`.
pub const SINGLE: Format = Format { exp_bits: 8, frac_bits: 23, explicit_int: false };
/// `double`.
pub const DOUBLE: Format = Format { exp_bits: 11, frac_bits: 52, explicit_int: false };
/// `x86_fp80`, the x87's extended format.
pub const X87: Format = Format { exp_bits: 15, frac_bits: 63, explicit_int: true };
/// `fp128`.
pub const QUAD: Format = Format { exp_bits: 15, frac_bits: 112, explicit_int: false };

impl Format {
    /// The format of a scalar of `width` bits (`s16` is `half`, `s80`
    /// `x86_fp80`).
    pub fn for_width(width: u32) -> Option<Format> {
        match width {
            16 => Some(HALF),
            32 => Some(SINGLE),
            64 => Some(DOUBLE),
            80 => Some(X87),
            128 => Some(QUAD),
            _ => None,
        }
    }

    /// Total width.
    pub fn width(self) -> u32 {
        1 + self.exp_bits + self.significand_field_bits()
    }

    /// The stored significand's width: the fraction, and the integer bit
    /// where it is explicit.
    fn significand_field_bits(self) -> u32 {
        self.frac_bits + u32::from(self.explicit_int)
    }

    /// The exponent field's lowest bit.
    pub fn exp_lsb(self) -> u32 {
        self.significand_field_bits()
    }

    /// The explicit integer bit set, where the format has one.
    fn integer_bit(self) -> ApInt {
        ApInt::bit_range(self.width(), self.frac_bits, u32::from(self.explicit_int))
    }

    fn bias(self) -> i64 {
        (1i64 << (self.exp_bits - 1)) - 1
    }

    fn max_biased(self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }

    /// A quiet NaN whose sign and payload are undefined (what LLVM lets an
    /// operation producing a NaN return).
    pub fn nan(self) -> Value {
        let w = self.width();
        let quiet = ApInt::bit_range(w, self.frac_bits - 1, 1);
        let bits = ApInt::bit_range(w, self.exp_lsb(), self.exp_bits).or(&quiet).or(&self.integer_bit());
        let undef = ApInt::bit_range(w, 0, self.frac_bits - 1).or(&ApInt::bit_range(w, w - 1, 1));
        Value::new(bits, undef)
    }

    /// Infinity of the given sign.
    pub fn inf(self, negative: bool) -> ApInt {
        let w = self.width();
        ApInt::bit_range(w, self.exp_lsb(), self.exp_bits).or(&self.integer_bit()).or(&ApInt::bit_range(
            w,
            w - 1,
            u32::from(negative),
        ))
    }

    /// Zero of the given sign.
    pub fn zero(self, negative: bool) -> ApInt {
        let w = self.width();
        ApInt::bit_range(w, w - 1, u32::from(negative))
    }
}

/// What a bit pattern denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Any NaN; `signaling` when the quiet bit is clear.
    Nan {
        /// The quiet bit is clear.
        signaling: bool,
    },
    /// An infinity.
    Inf(bool),
    /// A zero.
    Zero(bool),
    /// `(-1)^sign · mant · 2^exp`, `mant` nonzero.
    Finite {
        /// Negative.
        sign: bool,
        /// The significand as an integer.
        mant: ApInt,
        /// Its binary exponent.
        exp: i64,
    },
}

/// Classifies `bits` in format `f`.
pub fn decode(f: Format, bits: &ApInt) -> Class {
    let w = f.width();
    let sign = bits.bit(w - 1);
    let biased = bits.extract(f.exp_lsb(), f.exp_bits).low_u64();
    let frac = bits.extract(0, f.frac_bits);
    if f.explicit_int {
        return decode_explicit(f, sign, biased, bits);
    }
    if biased == f.max_biased() {
        return if frac.is_zero() { Class::Inf(sign) } else { Class::Nan { signaling: !frac.bit(f.frac_bits - 1) } };
    }
    if biased == 0 {
        if frac.is_zero() {
            return Class::Zero(sign);
        }
        return Class::Finite { sign, mant: frac, exp: 1 - f.bias() - i64::from(f.frac_bits) };
    }
    let mant = frac.zext_or_trunc(f.frac_bits + 1).inserted(f.frac_bits, &ApInt::from_u128(1, 1));
    Class::Finite { sign, mant, exp: biased as i64 - f.bias() - i64::from(f.frac_bits) }
}

/// [`decode`] for a format that stores the integer bit (`x86_fp80`): the
/// encodings the x87 rejects as invalid operands (an integer bit clear
/// with a nonzero exponent: unnormals, pseudo-NaNs, pseudo-infinities) are
/// NaNs, as the hardware treats them; a denormal with its integer bit set
/// (pseudo-denormal) has the smallest normal exponent's value.
fn decode_explicit(f: Format, sign: bool, biased: u64, bits: &ApInt) -> Class {
    let significand = bits.extract(0, f.frac_bits + 1);
    let integer = bits.bit(f.frac_bits);
    let frac = bits.extract(0, f.frac_bits);
    if biased == f.max_biased() {
        let signaling = integer && !frac.is_zero() && !frac.bit(f.frac_bits - 1);
        return if integer && frac.is_zero() { Class::Inf(sign) } else { Class::Nan { signaling } };
    }
    if biased != 0 && !integer {
        return Class::Nan { signaling: false };
    }
    if significand.is_zero() {
        return Class::Zero(sign);
    }
    let exp = biased.max(1) as i64 - f.bias() - i64::from(f.frac_bits);
    Class::Finite { sign, mant: significand, exp }
}

/// The class of a possibly partly undefined value, when its defined bits
/// decide it: a defined value, or a NaN (exponent defined all ones and a
/// defined one in the fraction). A NaN whose quiet bit is not a defined one
/// counts as signaling.
pub fn class_of(f: Format, v: &Value) -> Option<Class> {
    if let Some(bits) = v.get() {
        return Some(decode(f, bits));
    }
    let exp = v.extract(f.exp_lsb(), f.exp_bits);
    let frac = v.extract(0, f.frac_bits);
    if exp.get().is_some_and(ApInt::is_all_ones) && !frac.bits().is_zero() {
        return Some(Class::Nan { signaling: frac.bit(f.frac_bits - 1) != Some(true) });
    }
    None
}

/// Rounds `(-1)^sign · mant · 2^exp` to format `f`, to nearest, ties to even.
pub fn encode(f: Format, sign: bool, mant: &ApInt, exp: i64) -> ApInt {
    let n = i64::from(mant.bits() - mant.leading_zeros());
    if n == 0 {
        return f.zero(sign);
    }
    let p = i64::from(f.frac_bits) + 1;
    let emin = 1 - f.bias();
    let lead = exp + n - 1;
    let q = (lead - (p - 1)).max(emin - (p - 1));
    let shift = q - exp;
    let work = (n.max(p) + p + 4) as u32;
    let m = mant.zext_or_trunc(work.max(mant.bits()));
    let mut rounded = if shift <= 0 {
        if -shift > i64::from(work) {
            return f.inf(sign);
        }
        m.shl((-shift) as u32)
    } else if shift > n + 1 {
        ApInt::zero(m.bits())
    } else {
        let s = shift as u32;
        let kept = m.lshr(s);
        let half = m.bit(s - 1);
        let sticky = s >= 2 && m.trailing_zeros() < s - 1;
        if half && (sticky || kept.bit(0)) { kept.add(&ApInt::from_u128(kept.bits(), 1)) } else { kept }
    };
    let mut q = q;
    let limit = ApInt::from_u128(rounded.bits(), 1).shl(p as u32);
    if rounded.ucmp(&limit) != Ordering::Less {
        rounded = rounded.lshr(1);
        q += 1;
    }
    let w = f.width();
    if rounded.is_zero() {
        return f.zero(sign);
    }
    let normal = rounded.bit((p - 1) as u32);
    let biased = if normal { q + (p - 1) + f.bias() } else { 0 };
    if biased >= f.max_biased() as i64 {
        return f.inf(sign);
    }
    // The significand's leading bit, where stored, is set for a normal
    // value and clear for a denormal, as `rounded` has it.
    let frac = rounded.zext_or_trunc(f.significand_field_bits());
    let exp_field = ApInt::from_u128(w, biased as u128).shl(f.exp_lsb());
    frac.zext_or_trunc(w).or(&exp_field).or(&ApInt::bit_range(w, w - 1, u32::from(sign)))
}

/// Converts between formats; NaN inputs give `None` (the caller makes a NaN).
pub fn convert(from: Format, to: Format, bits: &ApInt) -> Option<ApInt> {
    Some(match decode(from, bits) {
        Class::Nan { .. } => return None,
        Class::Inf(s) => to.inf(s),
        Class::Zero(s) => to.zero(s),
        Class::Finite { sign, mant, exp } => encode(to, sign, &mant, exp),
    })
}

/// Truncates toward zero into an integer of `width` bits; `None` for NaN,
/// infinities and out-of-range values.
pub fn to_int(f: Format, bits: &ApInt, width: u32, signed: bool) -> Option<ApInt> {
    let (sign, mant, exp) = match decode(f, bits) {
        Class::Zero(_) => return Some(ApInt::zero(width)),
        Class::Finite { sign, mant, exp } => (sign, mant, exp),
        _ => return None,
    };
    let n = mant.bits() - mant.leading_zeros();
    let magnitude = if exp >= 0 {
        let e = u32::try_from(exp).ok().filter(|e| n + e <= width + 1)?;
        mant.zext_or_trunc(width + 2).shl(e)
    } else {
        let e = u32::try_from(-exp).unwrap_or(u32::MAX);
        let shifted = mant.lshr(e);
        if shifted.bits() - shifted.leading_zeros() > width + 1 {
            return None;
        }
        shifted.zext_or_trunc(width + 2)
    };
    let wide = width + 2;
    let (lo, hi) = if signed {
        (ApInt::signed_min(width).sext_or_trunc(wide), ApInt::signed_max(width).zext_or_trunc(wide))
    } else {
        (ApInt::zero(wide), ApInt::all_ones(width).zext_or_trunc(wide))
    };
    let value = if sign { magnitude.negate() } else { magnitude };
    if value.scmp(&lo) == Ordering::Less || value.scmp(&hi) == Ordering::Greater {
        return None;
    }
    Some(value.zext_or_trunc(width))
}

/// The integer `v` (signed or unsigned) rounded into format `f`.
pub fn from_int(f: Format, v: &ApInt, signed: bool) -> ApInt {
    let negative = signed && v.is_negative();
    let wide = v.zext_or_trunc(v.bits() + 1);
    let magnitude = if negative { v.sext_or_trunc(v.bits() + 1).negate() } else { wide };
    encode(f, negative, &magnitude, 0)
}

/// Compares two values; `None` when either is a NaN.
pub fn compare(f: Format, a: &ApInt, b: &ApInt) -> Option<Ordering> {
    if matches!(decode(f, a), Class::Nan { .. }) || matches!(decode(f, b), Class::Nan { .. }) {
        return None;
    }
    // A pseudo-denormal compares as the normal number it equals.
    let canonical = |x: &ApInt| match decode(f, x) {
        Class::Finite { sign, mant, exp } if f.explicit_int => encode(f, sign, &mant, exp),
        _ => x.clone(),
    };
    let (a, b) = (&canonical(a), &canonical(b));
    let w = f.width();
    let key = |x: &ApInt| {
        let mag = x.extract(0, w - 1).zext_or_trunc(w + 1);
        if x.bit(w - 1) { mag.negate() } else { mag }
    };
    Some(key(a).scmp(&key(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_bits(x: f32) -> ApInt {
        ApInt::from_u128(32, u128::from(x.to_bits()))
    }

    #[test]
    fn conversions_match_the_host() {
        for x in [0.0f64, -0.0, 1.0, -2.5, 1e-310, 3.4e38, 1e39, f64::MIN_POSITIVE, 0.1, 1.0 + f64::EPSILON] {
            let d = ApInt::from_u128(64, u128::from(x.to_bits()));
            let s = convert(DOUBLE, SINGLE, &d).unwrap();
            assert_eq!(s, f32_bits(x as f32), "{x}");
            let back = convert(SINGLE, DOUBLE, &s).unwrap();
            assert_eq!(back.low_u64(), f64::from(x as f32).to_bits(), "{x}");
        }
        for i in [0i128, 1, -1, 16_777_217, i128::from(i64::MIN), i128::MAX] {
            let v = ApInt::from_i128(128, i);
            assert_eq!(from_int(SINGLE, &v, true), f32_bits(i as f32), "{i}");
        }
        assert_eq!(to_int(SINGLE, &f32_bits(-3.9), 8, true).and_then(|v| v.to_i128()), Some(-3));
        assert_eq!(to_int(SINGLE, &f32_bits(-128.5), 8, true).and_then(|v| v.to_i128()), Some(-128));
        assert!(to_int(SINGLE, &f32_bits(128.0), 8, true).is_none());
        assert!(to_int(SINGLE, &f32_bits(-1.0), 8, false).is_none());
        assert_eq!(to_int(SINGLE, &f32_bits(-0.5), 8, false).and_then(|v| v.to_u128()), Some(0));
        // half: 65504 is the largest finite, 65520 rounds to infinity.
        let h = convert(SINGLE, HALF, &f32_bits(65504.0)).unwrap();
        assert_eq!(h.to_u128(), Some(0x7bff));
        assert_eq!(convert(SINGLE, HALF, &f32_bits(65520.0)).unwrap().to_u128(), Some(0x7c00));
        assert_eq!(convert(SINGLE, HALF, &f32_bits(5.960_464_5e-8)).unwrap().to_u128(), Some(1));
        assert_eq!(compare(SINGLE, &f32_bits(-0.0), &f32_bits(0.0)), Some(Ordering::Equal));
        assert_eq!(compare(SINGLE, &f32_bits(-2.0), &f32_bits(-1.0)), Some(Ordering::Less));
    }

    fn x87(bits: u128) -> ApInt {
        ApInt::from_u128(80, bits)
    }

    /// Results of GCC's `long double` on an x86-64 host's x87.
    #[test]
    fn x87_extended_matches_the_hardware() {
        use crate::interp::fparith::{Op, eval};
        let (one, three) = (x87(0x3fff_8000_0000_0000_0000), x87(0x4000_c000_0000_0000_0000));
        let third = eval(X87, Op::Div, &[one.clone(), three]).unwrap();
        assert_eq!(third, x87(0x3ffd_aaaa_aaaa_aaaa_aaab));
        let tenth = x87(0x3ffb_cccc_cccc_cccc_cccd);
        assert_eq!(eval(X87, Op::Add, &[third, tenth]), Some(x87(0x3ffd_dddd_dddd_dddd_ddde)));
        let two = x87(0x4000_8000_0000_0000_0000);
        assert_eq!(eval(X87, Op::Sqrt, &[two]), Some(x87(0x3fff_b504_f333_f9de_6484)));
        let (seven, nine) = (x87(0x4001_e000_0000_0000_0000), x87(0x4002_9000_0000_0000_0000));
        assert_eq!(eval(X87, Op::Div, &[seven, nine]), Some(x87(0x3ffe_c71c_71c7_1c71_c71c)));
        // The smallest denormal times 0.75 rounds back to it.
        let three_quarters = x87(0x3ffe_c000_0000_0000_0000);
        assert_eq!(eval(X87, Op::Mul, &[x87(1), three_quarters]), Some(x87(1)));
        let tenth_double = ApInt::from_u128(64, 0x3fb9_9999_9999_999a);
        assert_eq!(convert(DOUBLE, X87, &tenth_double), Some(x87(0x3ffb_cccc_cccc_cccc_d000)));
        let below_two = x87(0x3fff_ffff_ffff_ffff_ffff);
        assert_eq!(convert(X87, DOUBLE, &below_two).map(|d| d.low_u64()), Some(0x4000_0000_0000_0000));
        assert_eq!(
            to_int(X87, &x87(0x4019_eb79_a2bf_9add_3c0e), 64, true).and_then(|v| v.to_i128()),
            Some(123_456_789)
        );
        // An unnormal (integer bit clear) is an invalid operand: a NaN.
        assert!(matches!(decode(X87, &x87(0x3fff_0000_0000_0000_0000)), Class::Nan { .. }));
        assert_eq!(X87.inf(true), x87(0xffff_8000_0000_0000_0000));
        assert_eq!(
            compare(X87, &x87(0x0000_8000_0000_0000_0000), &x87(0x0001_8000_0000_0000_0000)),
            Some(Ordering::Equal)
        );
    }
}
