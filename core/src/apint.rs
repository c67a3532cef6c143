//! Fixed-width integers of any width (`i1` .. `i16777215`), stored as
//! two's-complement little-endian 64-bit words, as `G_CONSTANT` operands
//! (`i128 -5`) need.

use smallvec::SmallVec;
use std::fmt;

/// An integer of `bits` bits. Words above the width are always zero.
#[derive(PartialEq, Eq, Hash)]
pub struct ApInt {
    bits: u32,
    words: Words,
}

/// The words of an [`ApInt`]: inline up to 128 bits, the usual widths.
type Words = SmallVec<[u64; 2]>;

impl Clone for ApInt {
    /// A copy of the words as one block (`SmallVec`'s own `clone` pushes
    /// them one by one).
    fn clone(&self) -> ApInt {
        ApInt { bits: self.bits, words: SmallVec::from_slice(&self.words) }
    }
}

impl ApInt {
    /// The value `value` truncated to `bits` bits.
    pub fn from_u128(bits: u32, value: u128) -> ApInt {
        ApInt::from_fn(bits, |i| match i {
            0 => value as u64,
            1 => (value >> 64) as u64,
            _ => 0,
        })
    }

    /// The value `value` sign-extended or truncated to `bits` bits.
    pub fn from_i128(bits: u32, value: i128) -> ApInt {
        ApInt::from_fn(bits, |i| match i {
            0 => value as u64,
            1 => (value >> 64) as u64,
            _ => (value >> 127) as u64,
        })
    }

    /// The value whose word `i` is `word(i)` (called in order), truncated
    /// to `bits` bits.
    fn from_fn(bits: u32, word: impl FnMut(usize) -> u64) -> ApInt {
        ApInt { bits, words: words_with(word_count(bits), word) }.masked()
    }

    /// Word `index`, zero past the last.
    fn word(&self, index: usize) -> u64 {
        self.words.get(index).copied().unwrap_or(0)
    }

    /// Parses a decimal literal with an optional `-`; `true`/`false` for
    /// `i1`. Values are taken modulo 2^bits, as LLVM's parser does for
    /// literals that fit either signed or unsigned. `None` if malformed.
    pub fn parse(bits: u32, text: &str) -> Option<ApInt> {
        if bits == 0 {
            return None;
        }
        match text {
            "true" => return Some(ApInt::from_u128(bits, 1)),
            "false" => return Some(ApInt::from_u128(bits, 0)),
            _ => {}
        }
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut words: SmallVec<[u64; 2]> = SmallVec::from_elem(0, word_count(bits));
        for digit in digits.bytes() {
            let mut carry = u128::from(digit - b'0');
            for w in words.iter_mut() {
                let wide = u128::from(*w) * 10 + carry;
                *w = wide as u64;
                carry = wide >> 64;
            }
        }
        let value = ApInt { bits, words }.masked();
        Some(if negative { value.negate() } else { value })
    }

    /// Width in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        self.words[0]
    }

    /// The value zero-extended to 128 bits when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.words.iter().skip(2).any(|w| *w != 0) {
            return None;
        }
        Some(u128::from(self.words[0]) | u128::from(self.words.get(1).copied().unwrap_or(0)) << 64)
    }

    /// The value sign-extended to 128 bits when it fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.bits <= 128 {
            let raw = self.to_u128()?;
            let shift = 128 - self.bits;
            return Some(((raw << shift) as i128) >> shift);
        }
        let value = if self.is_negative() { self.negate() } else { self.clone() };
        let magnitude = value.to_u128()?;
        let magnitude = i128::try_from(magnitude).ok()?;
        Some(if self.is_negative() { -magnitude } else { magnitude })
    }

    /// Bit `index` (0 = least significant).
    pub fn bit(&self, index: u32) -> bool {
        index < self.bits && self.words[(index / 64) as usize] >> (index % 64) & 1 == 1
    }

    /// The sign bit.
    pub fn is_negative(&self) -> bool {
        self.bit(self.bits - 1)
    }

    /// True when every bit is zero.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// Two's-complement negation.
    pub fn negate(&self) -> ApInt {
        let mut carry = true;
        ApInt::from_fn(self.bits, |i| {
            let (sum, overflow) = (!self.words[i]).overflowing_add(u64::from(carry));
            carry = overflow;
            sum
        })
    }

    /// Zero-extends or truncates to `bits`.
    pub fn zext_or_trunc(&self, bits: u32) -> ApInt {
        ApInt::from_fn(bits, |i| self.word(i))
    }

    /// Sign-extends or truncates to `bits`.
    pub fn sext_or_trunc(&self, bits: u32) -> ApInt {
        if bits <= self.bits || !self.is_negative() {
            return self.zext_or_trunc(bits);
        }
        self.zext_or_trunc(bits).or(&ApInt::bit_range(bits, self.bits, bits - self.bits))
    }

    /// Bits `[lo, lo + bits)` as a new value.
    pub fn extract(&self, lo: u32, bits: u32) -> ApInt {
        self.lshr(lo).zext_or_trunc(bits)
    }

    fn masked(mut self) -> ApInt {
        let rem = self.bits % 64;
        if rem != 0
            && let Some(top) = self.words.last_mut()
        {
            *top &= (1u64 << rem) - 1;
        }
        self
    }

    /// The unsigned magnitude in decimal.
    fn unsigned_decimal(&self) -> String {
        let mut words: Vec<u64> = self.words.to_vec();
        if words.iter().all(|w| *w == 0) {
            return "0".to_owned();
        }
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut chunks = Vec::new();
        while words.iter().any(|w| *w != 0) {
            let mut rem = 0u128;
            for w in words.iter_mut().rev() {
                let cur = (rem << 64) | u128::from(*w);
                *w = (cur / u128::from(CHUNK)) as u64;
                rem = cur % u128::from(CHUNK);
            }
            chunks.push(rem as u64);
        }
        let mut out = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
        for c in chunks.iter().rev() {
            out.push_str(&format!("{c:019}"));
        }
        out
    }
}

fn word_count(bits: u32) -> usize {
    (bits as usize).div_ceil(64).max(1)
}

/// Words `word(0) .. word(count - 1)`, computed in order; written in place
/// when they fit inline.
fn words_with(count: usize, mut word: impl FnMut(usize) -> u64) -> Words {
    match count {
        1 => SmallVec::from_buf_and_len([word(0), 0], 1),
        2 => SmallVec::from_buf([word(0), word(1)]),
        _ => (0..count).map(word).collect(),
    }
}

impl fmt::Display for ApInt {
    /// Signed decimal, as LLVM prints `ConstantInt` (`i1` as `true`/`false`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bits == 1 {
            return f.write_str(if self.is_zero() { "false" } else { "true" });
        }
        if self.is_negative() {
            write!(f, "-{}", self.negate().unsigned_decimal())
        } else {
            f.write_str(&self.unsigned_decimal())
        }
    }
}

impl fmt::Debug for ApInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "i{} {}", self.bits, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_signed() {
        for (bits, text, printed) in [
            (32, "-1", "-1"),
            (32, "4294967295", "-1"),
            (8, "255", "-1"),
            (1, "1", "true"),
            (1, "false", "false"),
            (64, "9223372036854775807", "9223372036854775807"),
            (128, "-170141183460469231731687303715884105728", "-170141183460469231731687303715884105728"),
            (256, "1000000000000000000000000000000000000000000", "1000000000000000000000000000000000000000000"),
            (256, "-2", "-2"),
        ] {
            assert_eq!(ApInt::parse(bits, text).unwrap().to_string(), printed, "i{bits} {text}");
        }
    }

    #[test]
    fn conversions() {
        let v = ApInt::parse(96, "-3").unwrap();
        assert_eq!(v.to_i128(), Some(-3));
        assert_eq!(v.zext_or_trunc(8).to_u128(), Some(0xfd));
        assert_eq!(v.sext_or_trunc(200).to_string(), "-3");
        assert_eq!(v.extract(64, 32).to_u128(), Some(0xffff_ffff));
        assert!(ApInt::parse(32, "12a").is_none());
        assert!(ApInt::parse(32, "").is_none());
    }
}

mod arith;
