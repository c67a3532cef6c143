//! Values with per-bit definedness.
//!
//! A [`Value`] is a bit vector of a fixed width (a scalar, a pointer as an
//! integer of the pointer width, or a fixed vector laid out element 0 in the
//! least significant bits, as a little-endian bitcast sees it) with an
//! `undef` mask beside it: a set bit in `undef` means that bit of the value
//! is undefined (it comes from `G_IMPLICIT_DEF`, the high part of a
//! `G_ANYEXT`, a poison-producing operation, uninitialised memory...). The
//! value bits under the mask are kept zero so that equal values compare
//! equal.

use crate::apint::ApInt;
use std::fmt;

/// A bit vector with a mask of undefined bits.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Value {
    bits: ApInt,
    undef: ApInt,
}

impl Value {
    /// A fully defined value.
    pub fn defined(bits: ApInt) -> Value {
        let width = bits.bits();
        Value { bits, undef: ApInt::zero(width) }
    }

    /// A value whose bits under `undef` are undefined.
    pub fn new(bits: ApInt, undef: ApInt) -> Value {
        let undef = undef.zext_or_trunc(bits.bits());
        Value { bits: bits.and(&undef.not()), undef }
    }

    /// A fully undefined value of `width` bits.
    pub fn undef(width: u32) -> Value {
        Value { bits: ApInt::zero(width), undef: ApInt::all_ones(width) }
    }

    /// A defined value from a `u128`, truncated to `width`.
    pub fn from_u128(width: u32, v: u128) -> Value {
        Value::defined(ApInt::from_u128(width, v))
    }

    /// A defined value from an `i128`, sign-extended or truncated to `width`.
    pub fn from_i128(width: u32, v: i128) -> Value {
        Value::defined(ApInt::from_i128(width, v))
    }

    /// A defined `0`/`1` of `width` bits.
    pub fn from_bool(width: u32, v: bool) -> Value {
        Value::from_u128(width, u128::from(v))
    }

    /// Width in bits.
    pub fn width(&self) -> u32 {
        self.bits.bits()
    }

    /// The value bits (zero where undefined).
    pub fn bits(&self) -> &ApInt {
        &self.bits
    }

    /// The mask of undefined bits.
    pub fn undef_mask(&self) -> &ApInt {
        &self.undef
    }

    /// The value bits when every bit is defined.
    pub fn get(&self) -> Option<&ApInt> {
        self.undef.is_zero().then_some(&self.bits)
    }

    /// True when every bit is defined.
    pub fn is_defined(&self) -> bool {
        self.undef.is_zero()
    }

    /// True when bit `i` is defined.
    pub fn bit_defined(&self, i: u32) -> bool {
        !self.undef.bit(i)
    }

    /// Bit `i`: `Some(value)` when defined.
    pub fn bit(&self, i: u32) -> Option<bool> {
        self.bit_defined(i).then(|| self.bits.bit(i))
    }

    /// The number of defined low bits before the first undefined one.
    pub fn defined_low_bits(&self) -> u32 {
        self.undef.trailing_zeros()
    }

    /// Bits `[lo, lo + width)`.
    pub fn extract(&self, lo: u32, width: u32) -> Value {
        let out_of_range = if lo.saturating_add(width) > self.width() {
            ApInt::bit_range(width, self.width().saturating_sub(lo), width)
        } else {
            ApInt::zero(width)
        };
        Value::new(self.bits.extract(lo, width), self.undef.extract(lo, width).or(&out_of_range))
    }

    /// This value with `part` written over bits `[lo, lo + part.width())`.
    pub fn inserted(&self, lo: u32, part: &Value) -> Value {
        Value::new(self.bits.inserted(lo, &part.bits), self.undef.inserted(lo, &part.undef))
    }

    /// The concatenation of `parts`, the first in the least significant bits.
    pub fn concat(parts: &[Value]) -> Value {
        let width: u32 = parts.iter().map(Value::width).sum();
        let mut out = Value::undef(width.max(1));
        let mut lo = 0;
        for p in parts {
            out = out.inserted(lo, p);
            lo += p.width();
        }
        out
    }

    /// Zero-extends (defined zeros) or truncates.
    pub fn zext(&self, width: u32) -> Value {
        Value::new(self.bits.zext_or_trunc(width), self.undef.zext_or_trunc(width))
    }

    /// Sign-extends (copies of the sign bit, defined if it is) or truncates.
    pub fn sext(&self, width: u32) -> Value {
        Value::new(self.bits.sext_or_trunc(width), self.undef.sext_or_trunc(width))
    }

    /// Extends with undefined high bits, or truncates.
    pub fn anyext(&self, width: u32) -> Value {
        let high = ApInt::bit_range(width, self.width(), width.saturating_sub(self.width()));
        Value::new(self.bits.zext_or_trunc(width), self.undef.zext_or_trunc(width).or(&high))
    }

    /// The same width, every bit undefined.
    pub fn to_undef(&self) -> Value {
        Value::undef(self.width())
    }

    /// `self` where an assertion promises `promised` (a `G_ASSERT_ZEXT`'s
    /// zero-extension of its low bits): its undefined bits take the
    /// promised ones, which is what the promise lets a reader assume; a
    /// defined bit that breaks the promise is undefined behaviour, and
    /// then every bit is undefined.
    pub fn asserted(&self, promised: &Value) -> Value {
        let both_defined = self.undef.not().and(&promised.undef.not());
        if !self.bits.xor(&promised.bits).and(&both_defined).is_zero() {
            return self.to_undef();
        }
        let bits = self.bits.or(&promised.bits.and(&self.undef));
        Value::new(bits, self.undef.and(&promised.undef))
    }

    /// Every bit undefined unless all of `inputs` are fully defined; then
    /// `f` of their values.
    pub fn strict(width: u32, inputs: &[&Value], f: impl FnOnce(&[&ApInt]) -> ApInt) -> Value {
        let mut defined = Vec::with_capacity(inputs.len());
        for v in inputs {
            match v.get() {
                Some(b) => defined.push(b),
                None => return Value::undef(width),
            }
        }
        Value::defined(f(&defined).zext_or_trunc(width))
    }

    /// True when `self` (the reference) is refined by `other`: same width,
    /// and every bit defined in `self` is defined and equal in `other`.
    pub fn refined_by(&self, other: &Value) -> bool {
        if self.width() != other.width() {
            return false;
        }
        let care = self.undef.not();
        other.undef.and(&care).is_zero() && self.bits.and(&care) == other.bits.and(&care)
    }
}

impl fmt::Debug for Value {
    /// Hex digits from the most significant end, `?` for a nibble with an
    /// undefined bit: `s32 0x0000??12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{} {}", self.width(), self)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nibbles = self.width().div_ceil(4);
        let mut text = String::with_capacity(nibbles as usize + 2);
        text.push_str("0x");
        for n in (0..nibbles).rev() {
            let part = self.extract(n * 4, 4);
            if part.is_defined() {
                let digit = part.bits.low_u64() as u32;
                text.push(char::from_digit(digit, 16).unwrap_or('?'));
            } else {
                text.push('?');
            }
        }
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_and_refinement() {
        let v = Value::from_u128(8, 0x85);
        assert_eq!(v.sext(16).get().and_then(ApInt::to_u128), Some(0xff85));
        assert_eq!(v.zext(16).get().and_then(ApInt::to_u128), Some(0x85));
        let any = v.anyext(16);
        assert!(!any.is_defined());
        assert_eq!(any.defined_low_bits(), 8);
        assert_eq!(any.to_string(), "0x??85");
        assert!(any.refined_by(&v.sext(16)));
        assert!(!v.sext(16).refined_by(&any));
        assert_eq!(any.extract(0, 8), v);
        assert!(!any.extract(4, 8).is_defined());
        assert_eq!(Value::concat(&[v.clone(), Value::from_u128(8, 1)]).to_string(), "0x0185");
        assert!(!v.extract(4, 8).is_defined(), "bits past the width are undefined");
    }

    #[test]
    fn an_assertion_defines_what_it_promises() {
        // An any-extended 0x01 asserted zero-extended from 1 bit is 1.
        let loaded = Value::from_u128(8, 1).anyext(32);
        let promised = loaded.extract(0, 1).zext(32);
        assert_eq!(loaded.asserted(&promised), Value::from_u128(32, 1));
        // Defined high bits that break the promise: undefined behaviour.
        let wrong = Value::from_u128(32, 0x101);
        assert_eq!(wrong.asserted(&wrong.extract(0, 8).zext(32)), Value::undef(32));
        // A sign extension of an undefined sign bit promises nothing.
        let unknown_sign = Value::new(ApInt::zero(16), ApInt::from_u128(16, 0xff80));
        let promised = unknown_sign.extract(0, 8).sext(16);
        assert_eq!(unknown_sign.asserted(&promised).to_string(), "0x???0");
    }
}
