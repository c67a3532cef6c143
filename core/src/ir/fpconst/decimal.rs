//! The decimal form LLVM's IR printer tries first for a `float` or
//! `double` constant: `APFloat::toString` at six digits of precision.
//!
//! It is not a correctly rounded `%e`. The exact value is first divided by
//! a power of ten, rounding down, until about 20 bits are left. The digits
//! left are then rounded half up to six. So 0.7 (0.69999999999999995...)
//! gives `6.999990e-01` here, which reads back as another double and makes
//! the printer fall back to hex. The smallest denormal gives
//! `4.940660e-324`, not `4.940656e-324`.

use crate::apint::ApInt;

/// Significant digits printed.
const PRECISION: usize = 6;

/// Bits kept by the first, binary, reduction: a slight overestimate of
/// the bits of six decimal digits (196/59 > log2 10).
const BITS_KEPT: u32 = (PRECISION as u32 * 196).div_ceil(59);

/// `value` written as LLVM writes it at six digits: `d.dddddde±XX`, six
/// significant digits and a seventh that is always 0.
pub(super) fn scientific(value: f64) -> String {
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let Some((significand, exponent)) = decompose(value) else {
        return format!("{sign}0.000000e+00");
    };
    let (reduced, mut exp10) = reduce(significand, exponent);
    let (digits, exp_shift) = rounded_digits(reduced);
    exp10 += exp_shift;
    let mut text = String::from(sign);
    // The digits are most significant first.
    text.push(char::from(digits[0]));
    text.push('.');
    text.extend(digits[1..].iter().map(|&d| char::from(d)));
    text.extend(std::iter::repeat_n('0', PRECISION + 1 - digits.len()));
    let power = exp10 + digits.len() as i32 - 1;
    let sign = if power < 0 { '-' } else { '+' };
    text.push('e');
    text.push(sign);
    text.push_str(&format!("{:02}", power.unsigned_abs()));
    text
}

/// `value` (finite) as an odd significand times a power of two; `None`
/// for zero.
fn decompose(value: f64) -> Option<(u64, i32)> {
    let bits = value.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (significand, exponent) = if field == 0 { (fraction, -1074) } else { (fraction | 1 << 52, field - 1075) };
    if significand == 0 {
        return None;
    }
    let zeros = significand.trailing_zeros();
    Some((significand >> zeros, exponent + zeros as i32))
}

/// The exact value `significand × 2^exponent` as an integer times a power
/// of ten, then divided (rounding down) by the power of ten that leaves
/// about [`BITS_KEPT`] bits; returns that integer and the power.
fn reduce(significand: u64, exponent: i32) -> (u64, i32) {
    let (exact, mut exp10) = if exponent >= 0 {
        let width = 64 + exponent.unsigned_abs();
        (ApInt::from_u128(width, u128::from(significand)).shl(exponent.unsigned_abs()), 0)
    } else {
        // n × 2^-e = n × 5^e × 10^-e; 137/59 > log2 5 bounds the width.
        let power = exponent.unsigned_abs();
        let width = 64 + (137 * power).div_ceil(59);
        let five = ApInt::from_u128(width, 5);
        (ApInt::from_u128(width, u128::from(significand)).mul(&power_of(&five, power)), exponent)
    };
    let active = exact.bits() - exact.leading_zeros();
    let removable = active.saturating_sub(BITS_KEPT) * 59 / 196;
    if removable == 0 {
        return (exact.low_u64(), exp10);
    }
    exp10 += removable as i32;
    let ten = ApInt::from_u128(exact.bits(), 10);
    let quotient = exact.udivrem(&power_of(&ten, removable)).map_or(0, |(q, _)| q.low_u64());
    (quotient, exp10)
}

/// `base` to the power `n`, in `base`'s width.
fn power_of(base: &ApInt, mut n: u32) -> ApInt {
    let mut result = ApInt::from_u128(base.bits(), 1);
    let mut square = base.clone();
    while n > 0 {
        if n & 1 == 1 {
            result = result.mul(&square);
        }
        n >>= 1;
        if n > 0 {
            square = square.mul(&square);
        }
    }
    result
}

/// The decimal digits of `n` (not zero) with its trailing zeros dropped,
/// rounded half up to at most [`PRECISION`] digits, most significant
/// first; and the power of ten the digits are to be multiplied by.
fn rounded_digits(mut n: u64) -> (Vec<u8>, i32) {
    let mut exp10 = 0;
    while n.is_multiple_of(10) {
        n /= 10;
        exp10 += 1;
    }
    let mut digits = n.to_string().into_bytes();
    if digits.len() <= PRECISION {
        return (digits, exp10);
    }
    let dropped = digits.len() - PRECISION;
    exp10 += dropped as i32;
    let round_up = digits[PRECISION] >= b'5';
    digits.truncate(PRECISION);
    if round_up {
        // Add one with carry; a carry out of every digit leaves "1".
        while digits.last() == Some(&b'9') {
            digits.pop();
            exp10 += 1;
        }
        match digits.last_mut() {
            Some(last) => *last += 1,
            None => digits.push(b'1'),
        }
    } else {
        while digits.last() == Some(&b'0') {
            digits.pop();
            exp10 += 1;
        }
    }
    (digits, exp10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_llc_22_does() {
        // Each pair as `llc -stop-after=irtranslator` printed it.
        for (value, text) in [
            (0.3, "3.000000e-01"),
            (0.7, "6.999990e-01"),
            (1.1, "1.100000e+00"),
            (4.35, "4.350000e+00"),
            (1e23, "9.999990e+22"),
            (1e99, "9.999990e+98"),
            (1e100, "1.000000e+100"),
            (1.5e99, "1.500000e+99"),
            (5e-324, "4.940660e-324"),
            (1e-5, "1.000000e-05"),
            (-0.0, "-0.000000e+00"),
            (123456.0, "1.234560e+05"),
        ] {
            assert_eq!(scientific(value), text, "{value:e}");
        }
    }
}
