//! Floating-point constants (`float 1.5`, `half 0xH3C00`) with LLVM's
//! spelling rules: `float`/`double` print in LLVM's six-digit decimal form
//! (the `decimal` module) when it reads back to the same value and as the
//! hex of the `double` otherwise; the other formats always print as
//! prefixed hex.

mod decimal;

use std::fmt;

/// The IR floating-point type of a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpKind {
    /// `half` (IEEE binary16).
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `x86_fp80`.
    X86Fp80,
    /// `fp128`.
    Fp128,
    /// `ppc_fp128`.
    PpcFp128,
}

impl FpKind {
    /// LLVM's type name.
    pub fn name(self) -> &'static str {
        match self {
            FpKind::Half => "half",
            FpKind::BFloat => "bfloat",
            FpKind::Float => "float",
            FpKind::Double => "double",
            FpKind::X86Fp80 => "x86_fp80",
            FpKind::Fp128 => "fp128",
            FpKind::PpcFp128 => "ppc_fp128",
        }
    }

    /// Parses a type name.
    pub fn from_name(name: &str) -> Option<FpKind> {
        Some(match name {
            "half" => FpKind::Half,
            "bfloat" => FpKind::BFloat,
            "float" => FpKind::Float,
            "double" => FpKind::Double,
            "x86_fp80" => FpKind::X86Fp80,
            "fp128" => FpKind::Fp128,
            "ppc_fp128" => FpKind::PpcFp128,
            _ => return None,
        })
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FpKind::Half | FpKind::BFloat => 16,
            FpKind::Float => 32,
            FpKind::Double => 64,
            FpKind::X86Fp80 => 80,
            FpKind::Fp128 | FpKind::PpcFp128 => 128,
        }
    }

    fn hex_prefix(self) -> Option<char> {
        match self {
            FpKind::Half => Some('H'),
            FpKind::BFloat => Some('R'),
            FpKind::X86Fp80 => Some('K'),
            FpKind::Fp128 => Some('L'),
            FpKind::PpcFp128 => Some('M'),
            FpKind::Float | FpKind::Double => None,
        }
    }
}

/// A floating-point constant: its type and its bit pattern in that type.
/// For `fp128` and `ppc_fp128` the pattern is stored as LLVM spells it
/// (`0xL` followed by the low then the high 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FpConst {
    /// The type.
    pub kind: FpKind,
    /// The bits in that type.
    pub bits: u128,
}

impl FpConst {
    /// True for a signaling NaN (exponent all ones, fraction nonzero, quiet
    /// bit clear) of the IEEE formats; `x86_fp80` and `ppc_fp128` are never
    /// reported as one.
    pub fn is_signaling_nan(self) -> bool {
        let (exp_bits, frac_bits, bits) = match self.kind {
            FpKind::Half => (5, 10, self.bits),
            FpKind::BFloat => (8, 7, self.bits),
            FpKind::Float => (8, 23, self.bits),
            FpKind::Double => (11, 52, self.bits),
            FpKind::Fp128 => (15, 112, self.bits.rotate_left(64)),
            FpKind::X86Fp80 | FpKind::PpcFp128 => return false,
        };
        let exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1);
        let fraction = bits & ((1 << frac_bits) - 1);
        let quiet = fraction >> (frac_bits - 1) & 1 == 1;
        exponent == (1 << exp_bits) - 1 && fraction != 0 && !quiet
    }

    /// Parses the literal that follows the type name: a decimal number, a
    /// `0x` hex double, or a prefixed hex pattern (`0xH3C00`).
    pub fn parse(kind: FpKind, text: &str) -> Option<FpConst> {
        if let Some(hex) = text.strip_prefix("0x") {
            let (prefix, digits) = match hex.chars().next() {
                Some(c @ ('H' | 'R' | 'K' | 'L' | 'M')) => (Some(c), &hex[1..]),
                _ => (None, hex),
            };
            let raw = u128::from_str_radix(digits, 16).ok()?;
            if digits.is_empty() || digits.len() > 32 {
                return None;
            }
            return match (prefix, kind.hex_prefix()) {
                (Some(p), Some(expected)) if p == expected => Some(FpConst { kind, bits: raw }),
                (None, _) => {
                    // A plain hex literal is always the bits of a double.
                    let value = f64::from_bits(u64::try_from(raw).ok()?);
                    FpConst::from_f64(kind, value)
                }
                _ => None,
            };
        }
        let valid = text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
        if !valid || text.is_empty() {
            return None;
        }
        FpConst::from_f64(kind, text.parse().ok()?)
    }

    /// The constant of type `kind` nearest to `value`.
    pub fn from_f64(kind: FpKind, value: f64) -> Option<FpConst> {
        let bits = match kind {
            FpKind::Double => u128::from(value.to_bits()),
            FpKind::Float => u128::from(double_to_float_bits(value)),
            FpKind::Half => u128::from(f64_to_half(value)),
            FpKind::BFloat => u128::from(f32_to_bfloat(value as f32)),
            FpKind::Fp128 => f64_to_quad_llvm_order(value),
            FpKind::X86Fp80 | FpKind::PpcFp128 => return None,
        };
        Some(FpConst { kind, bits })
    }

    /// The value as an `f64` for `float` and `double`.
    pub fn as_f64(self) -> Option<f64> {
        match self.kind {
            FpKind::Double => Some(f64::from_bits(self.bits as u64)),
            FpKind::Float => Some(float_bits_to_double(self.bits as u32)),
            _ => None,
        }
    }
}

/// `value` rounded to a float's bits; a NaN keeps its sign and the top of
/// its payload, signaling or quiet as it is (as `APFloat::convert` does,
/// where the host's conversion would quiet a signaling NaN).
fn double_to_float_bits(value: f64) -> u32 {
    if !value.is_nan() {
        return (value as f32).to_bits();
    }
    let bits = value.to_bits();
    let sign = ((bits >> 63) as u32) << 31;
    sign | 0x7f80_0000 | ((bits & ((1 << 52) - 1)) >> 29) as u32
}

/// The float with `bits` as a double, exactly; a NaN keeps its sign and
/// payload, signaling or quiet.
fn float_bits_to_double(bits: u32) -> f64 {
    let value = f32::from_bits(bits);
    if !value.is_nan() {
        return f64::from(value);
    }
    let sign = u64::from(bits >> 31) << 63;
    f64::from_bits(sign | (0x7ff << 52) | (u64::from(bits & 0x007f_ffff) << 29))
}

impl fmt::Display for FpConst {
    /// `float 1.500000e+00`, `double 0x3FB999999999999A`, `half 0xH3C00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.kind.name())?;
        if let Some(prefix) = self.kind.hex_prefix() {
            let digits = (self.kind.bits() as usize).div_ceil(4);
            return write!(f, "0x{prefix}{:0digits$X}", self.bits);
        }
        let value = self.as_f64().unwrap_or_default();
        // LLVM prints its six-digit decimal form only when that form
        // reads back as the same double.
        if value.is_finite() {
            let text = decimal::scientific(value);
            if text.parse::<f64>().ok() == Some(value) {
                return f.write_str(&text);
            }
        }
        // The double's bits in hex, without leading zeros (`format_hex`).
        write!(f, "0x{:X}", value.to_bits())
    }
}

fn f64_to_half(value: f64) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if value.is_nan() {
        return sign | 0x7e00;
    }
    let abs = value.abs();
    if abs.is_infinite() || abs >= 65520.0 {
        return sign | 0x7c00;
    }
    // Scale into units of the smallest subnormal (2^-24) and round to even.
    let (exp, scale) = if abs < 6.103_515_625e-5 { (0, 2f64.powi(24)) } else { (abs.log2().floor() as i32, 0.0) };
    if exp == 0 && scale != 0.0 {
        return sign | round_half_even(abs * scale) as u16;
    }
    let exp = exp.clamp(-14, 15);
    let mantissa = round_half_even((abs / 2f64.powi(exp) - 1.0) * 1024.0) as u32;
    let (exp, mantissa) = if mantissa == 1024 { (exp + 1, 0) } else { (exp, mantissa) };
    if exp > 15 {
        return sign | 0x7c00;
    }
    sign | (((exp + 15) as u16) << 10) | mantissa as u16
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 { r - x.signum() } else { r }
}

fn f32_to_bfloat(value: f32) -> u16 {
    let bits = value.to_bits();
    if value.is_nan() {
        return ((bits >> 16) as u16) | 0x40;
    }
    let round = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(round) >> 16) as u16
}

/// Widens a double to IEEE quad exactly, in LLVM's low-then-high order.
fn f64_to_quad_llvm_order(value: f64) -> u128 {
    let bits = value.to_bits();
    let sign = u128::from(bits >> 63);
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = u128::from(bits & ((1 << 52) - 1));
    let quad = if exp == 0 && frac == 0 {
        sign << 127
    } else if exp == 0x7ff {
        (sign << 127) | (0x7fffu128 << 112) | (frac << 60)
    } else if exp == 0 {
        // Subnormal double: normalise.
        let shift = frac.leading_zeros() as i64 - (128 - 52);
        let frac = (frac << (shift + 1)) & ((1 << 52) - 1);
        let qexp = (1 - 1023 - shift - 1 + 16383) as u128;
        (sign << 127) | (qexp << 112) | (frac << 60)
    } else {
        let qexp = (exp - 1023 + 16383) as u128;
        (sign << 127) | (qexp << 112) | (frac << 60)
    };
    let lo = quad as u64;
    let hi = (quad >> 64) as u64;
    (u128::from(lo) << 64) | u128::from(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(kind: FpKind, text: &str) -> String {
        FpConst::parse(kind, text).unwrap().to_string()
    }

    #[test]
    fn float_nans_keep_their_payload_and_kind() {
        // A signaling NaN stays signaling through the double-hex literal.
        assert_eq!(show(FpKind::Float, "0x7FF4000000000000"), "float 0x7FF4000000000000");
        let snan = FpConst::parse(FpKind::Float, "0x7FF4000000000000").unwrap_or_else(|| panic!("parses"));
        assert!(snan.is_signaling_nan());
        assert_eq!(show(FpKind::Float, "0xFFF8000000000000"), "float 0xFFF8000000000000");
    }

    #[test]
    fn prints_like_llvm() {
        assert_eq!(show(FpKind::Float, "1.5"), "float 1.500000e+00");
        assert_eq!(show(FpKind::Double, "0.1"), "double 1.000000e-01");
        // Exact in seven digits but not in six: hex, as llc 22 prints them.
        assert_eq!(show(FpKind::Double, "0.0009765625"), "double 0x3F50000000000000");
        assert_eq!(show(FpKind::Double, "1234567.0"), "double 0x4132D68700000000");
        assert_eq!(show(FpKind::Double, "0.000123456"), "double 1.234560e-04");
        assert_eq!(show(FpKind::Double, "0.123456789"), "double 0x3FBF9ADD3739635F");
        assert_eq!(show(FpKind::Float, "0.1"), "float 0x3FB99999A0000000");
        assert_eq!(show(FpKind::Half, "1.0"), "half 0xH3C00");
        assert_eq!(show(FpKind::Half, "0xH7C00"), "half 0xH7C00");
        assert_eq!(show(FpKind::Double, "-0.0"), "double -0.000000e+00");
        assert_eq!(show(FpKind::Double, "1e300"), "double 1.000000e+300");
        assert_eq!(show(FpKind::Fp128, "1.0"), "fp128 0xL00000000000000003FFF000000000000");
        assert_eq!(show(FpKind::Float, "0x3FF0000000000000"), "float 1.000000e+00");
        // Rounded down before it is rounded to six digits: 6.99999e-01.
        assert_eq!(show(FpKind::Double, "0.7"), "double 0x3FE6666666666666");
        assert_eq!(show(FpKind::Double, "0x0B49D946594136D6"), "double 0xB49D946594136D6");
    }

    #[test]
    fn rejects_malformed() {
        assert!(FpConst::parse(FpKind::Float, "abc").is_none());
        assert!(FpConst::parse(FpKind::Half, "0xL0").is_none());
        assert!(FpConst::parse(FpKind::Double, "").is_none());
    }
}
