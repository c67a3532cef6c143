//! Arithmetic, bitwise, shift, comparison and bit-counting operations on
//! [`ApInt`], all modulo 2^bits as LLVM's `APInt` defines them. Binary
//! operations take operands of the same width; a narrower right operand is
//! zero-extended (never a panic).

use super::{ApInt, words_with};
use smallvec::SmallVec;
use std::cmp::Ordering;

impl ApInt {
    /// Zero of `bits` bits.
    pub fn zero(bits: u32) -> ApInt {
        ApInt { bits, words: SmallVec::from_elem(0, super::word_count(bits)) }
    }

    /// All ones (`-1`) of `bits` bits.
    pub fn all_ones(bits: u32) -> ApInt {
        ApInt::from_fn(bits, |_| u64::MAX)
    }

    /// The value with only bits `[lo, lo + count)` set (clipped to the width).
    pub fn bit_range(bits: u32, lo: u32, count: u32) -> ApInt {
        let hi = lo.saturating_add(count);
        // Word `i`'s share of the bits below bit `n` of the value.
        let below = |n: u32, i: usize| match n.saturating_sub(i as u32 * 64) {
            64.. => u64::MAX,
            n => (1 << n) - 1,
        };
        ApInt::from_fn(bits, |i| below(hi, i) & !below(lo, i))
    }

    /// The signed minimum `100..0`.
    pub fn signed_min(bits: u32) -> ApInt {
        ApInt::bit_range(bits, bits.saturating_sub(1), 1)
    }

    /// The signed maximum `011..1`.
    pub fn signed_max(bits: u32) -> ApInt {
        ApInt::bit_range(bits, 0, bits.saturating_sub(1))
    }

    /// The value from little-endian 64-bit words (extra words ignored,
    /// missing ones zero), truncated to `bits`.
    pub fn from_words(bits: u32, words: &[u64]) -> ApInt {
        ApInt::from_fn(bits, |i| words.get(i).copied().unwrap_or(0))
    }

    /// The little-endian 64-bit words.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Sets bit `index` to `value` (ignored past the width).
    pub fn set_bit(&mut self, index: u32, value: bool) {
        if index >= self.bits {
            return;
        }
        let word = &mut self.words[(index / 64) as usize];
        if value {
            *word |= 1 << (index % 64);
        } else {
            *word &= !(1 << (index % 64));
        }
    }

    /// True when every bit is one.
    pub fn is_all_ones(&self) -> bool {
        self.count_ones() == self.bits
    }

    /// The value with `other` written over bits `[lo, lo + other.bits())`.
    pub fn inserted(&self, lo: u32, other: &ApInt) -> ApInt {
        let kept = self.and(&ApInt::bit_range(self.bits, lo, other.bits).not());
        kept.or(&other.zext_or_trunc(self.bits).shl(lo))
    }

    /// `high:low`, `low` in the least significant bits.
    pub fn concat(high: &ApInt, low: &ApInt) -> ApInt {
        low.zext_or_trunc(low.bits + high.bits).inserted(low.bits, high)
    }

    /// The bitwise operation `f` of each pair of words, `other` zero-extended
    /// or truncated to this width (`f` works bit by bit, so `other`'s bits
    /// past the width only reach bits that the result drops).
    fn zip(&self, other: &ApInt, f: impl Fn(u64, u64) -> u64) -> ApInt {
        ApInt::from_fn(self.bits, |i| f(self.words[i], other.word(i)))
    }

    /// Bitwise and.
    pub fn and(&self, other: &ApInt) -> ApInt {
        self.zip(other, |a, b| a & b)
    }

    /// Bitwise or.
    pub fn or(&self, other: &ApInt) -> ApInt {
        self.zip(other, |a, b| a | b)
    }

    /// Bitwise exclusive or.
    pub fn xor(&self, other: &ApInt) -> ApInt {
        self.zip(other, |a, b| a ^ b)
    }

    /// Bitwise complement.
    pub fn not(&self) -> ApInt {
        ApInt::from_fn(self.bits, |i| !self.words[i])
    }

    /// Wrapping addition.
    pub fn add(&self, other: &ApInt) -> ApInt {
        self.add_with_carry(other, false).0
    }

    /// Addition with a carry in; returns the sum and the carry out of the top bit.
    pub fn add_with_carry(&self, other: &ApInt, carry_in: bool) -> (ApInt, bool) {
        if other.bits > self.bits {
            return self.add_with_carry(&other.zext_or_trunc(self.bits), carry_in);
        }
        let mut carry = u64::from(carry_in);
        let words = words_with(self.words.len(), |i| {
            let wide = u128::from(self.words[i]) + u128::from(other.word(i)) + u128::from(carry);
            carry = (wide >> 64) as u64;
            wide as u64
        });
        let rem = self.bits % 64;
        let carry_out = if rem == 0 { carry != 0 } else { words.last().is_some_and(|top| top >> rem & 1 == 1) };
        (ApInt { bits: self.bits, words }.masked(), carry_out)
    }

    /// Wrapping subtraction.
    pub fn sub(&self, other: &ApInt) -> ApInt {
        self.add(&other.zext_or_trunc(self.bits).negate())
    }

    /// Wrapping multiplication (the low `bits` of the product).
    pub fn mul(&self, other: &ApInt) -> ApInt {
        self.mul_wide(other).zext_or_trunc(self.bits)
    }

    /// The full product, `2 * bits` wide.
    pub fn mul_wide(&self, other: &ApInt) -> ApInt {
        let rhs = other.zext_or_trunc(self.bits);
        if self.bits <= 64 {
            // One word each: the product fits a u128.
            return ApInt::from_u128(self.bits * 2, u128::from(self.words[0]) * u128::from(rhs.words[0]));
        }
        let n = self.words.len();
        let mut out = vec![0u64; 2 * n + 1];
        for (i, a) in self.words.iter().enumerate() {
            let mut carry = 0u128;
            for (j, b) in rhs.words.iter().enumerate() {
                let wide = u128::from(*a) * u128::from(*b) + u128::from(out[i + j]) + carry;
                out[i + j] = wide as u64;
                carry = wide >> 64;
            }
            let mut k = i + n;
            while carry != 0 && k < out.len() {
                let wide = u128::from(out[k]) + carry;
                out[k] = wide as u64;
                carry = wide >> 64;
                k += 1;
            }
        }
        ApInt::from_words(self.bits * 2, &out)
    }

    /// Unsigned comparison.
    pub fn ucmp(&self, other: &ApInt) -> Ordering {
        if other.bits > self.bits {
            return self.ucmp(&other.zext_or_trunc(self.bits));
        }
        (0..self.words.len())
            .rev()
            .map(|i| self.words[i].cmp(&other.word(i)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// Signed comparison.
    pub fn scmp(&self, other: &ApInt) -> Ordering {
        if other.bits != self.bits {
            return self.scmp(&other.zext_or_trunc(self.bits));
        }
        match (self.is_negative(), other.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.ucmp(other),
        }
    }

    /// Unsigned quotient and remainder; `None` when dividing by zero.
    pub fn udivrem(&self, other: &ApInt) -> Option<(ApInt, ApInt)> {
        let divisor = other.zext_or_trunc(self.bits);
        if divisor.is_zero() {
            return None;
        }
        if let (Some(a), Some(b)) = (self.to_u128(), divisor.to_u128()) {
            return Some((ApInt::from_u128(self.bits, a / b), ApInt::from_u128(self.bits, a % b)));
        }
        let mut quotient = ApInt::zero(self.bits);
        let mut rem = ApInt::zero(self.bits + 1);
        let wide_divisor = divisor.zext_or_trunc(self.bits + 1);
        for i in (0..self.bits).rev() {
            rem = rem.shl(1);
            rem.set_bit(0, self.bit(i));
            if rem.ucmp(&wide_divisor) != Ordering::Less {
                rem = rem.sub(&wide_divisor);
                quotient.set_bit(i, true);
            }
        }
        Some((quotient, rem.zext_or_trunc(self.bits)))
    }

    /// Signed quotient (rounded toward zero) and remainder (sign of the
    /// dividend); `None` when dividing by zero. `MIN / -1` wraps.
    pub fn sdivrem(&self, other: &ApInt) -> Option<(ApInt, ApInt)> {
        let rhs = other.zext_or_trunc(self.bits);
        let (a_neg, b_neg) = (self.is_negative(), rhs.is_negative());
        let a = if a_neg { self.negate() } else { self.clone() };
        let b = if b_neg { rhs.negate() } else { rhs };
        let (q, r) = a.udivrem(&b)?;
        let q = if a_neg != b_neg { q.negate() } else { q };
        let r = if a_neg { r.negate() } else { r };
        Some((q, r))
    }

    /// Shift left by `amount` (zero when `amount >= bits`).
    pub fn shl(&self, amount: u32) -> ApInt {
        if amount >= self.bits {
            return ApInt::zero(self.bits);
        }
        let (word_shift, bit_shift) = ((amount / 64) as usize, amount % 64);
        ApInt::from_fn(self.bits, |i| {
            let Some(src) = i.checked_sub(word_shift) else { return 0 };
            let carried = if bit_shift != 0 && src > 0 { self.words[src - 1] >> (64 - bit_shift) } else { 0 };
            self.words[src] << bit_shift | carried
        })
    }

    /// Logical shift right by `amount` (zero when `amount >= bits`).
    pub fn lshr(&self, amount: u32) -> ApInt {
        if amount >= self.bits {
            return ApInt::zero(self.bits);
        }
        let (word_shift, bit_shift) = ((amount / 64) as usize, amount % 64);
        ApInt::from_fn(self.bits, |i| {
            let src = i + word_shift;
            let carried = if bit_shift != 0 { self.word(src + 1) << (64 - bit_shift) } else { 0 };
            self.word(src) >> bit_shift | carried
        })
    }

    /// Arithmetic shift right by `amount` (all sign bits when `amount >= bits`).
    pub fn ashr(&self, amount: u32) -> ApInt {
        if self.bits == 0 {
            return self.clone();
        }
        let amount = amount.min(self.bits - 1);
        let shifted = self.lshr(amount);
        if self.is_negative() { shifted.or(&ApInt::bit_range(self.bits, self.bits - amount, amount)) } else { shifted }
    }

    /// Number of leading zero bits.
    pub fn leading_zeros(&self) -> u32 {
        // The words' bits above the width are zeros too.
        let padding = self.words.len() as u32 * 64 - self.bits;
        let mut count = 0;
        for w in self.words.iter().rev() {
            count += w.leading_zeros();
            if *w != 0 {
                break;
            }
        }
        count - padding
    }

    /// Number of trailing zero bits.
    pub fn trailing_zeros(&self) -> u32 {
        let mut count = 0;
        for w in self.words.iter() {
            if *w == 0 {
                count += 64;
            } else {
                return (count + w.trailing_zeros()).min(self.bits);
            }
        }
        self.bits
    }

    /// Number of leading one bits.
    pub fn leading_ones(&self) -> u32 {
        self.not().leading_zeros()
    }

    /// Number of trailing one bits.
    pub fn trailing_ones(&self) -> u32 {
        self.not().trailing_zeros()
    }

    /// The bits in reverse order.
    pub fn reverse_bits(&self) -> ApInt {
        // Reversed as whole words, then moved down past the padding.
        let n = self.words.len();
        let whole = ApInt::from_fn(n as u32 * 64, |i| self.words[n - 1 - i].reverse_bits());
        whole.lshr(whole.bits - self.bits).zext_or_trunc(self.bits)
    }

    /// The bytes in reverse order; the width is a whole number of bytes.
    pub fn byte_swap(&self) -> ApInt {
        debug_assert!(self.bits.is_multiple_of(8), "byte swap of {} bits", self.bits);
        let bytes = (self.bits / 8) as usize;
        let byte = |i: usize| self.words[i / 8].to_le_bytes()[i % 8];
        ApInt::from_fn(self.bits, |w| {
            let mut word = [0u8; 8];
            for (k, b) in word.iter_mut().enumerate() {
                let i = w * 8 + k;
                if i < bytes {
                    *b = byte(bytes - 1 - i);
                }
            }
            u64::from_le_bytes(word)
        })
    }

    /// Number of one bits.
    pub fn count_ones(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    /// The value as a `u32` when it is below `limit`, else `None`.
    pub fn to_u32_below(&self, limit: u32) -> Option<u32> {
        self.to_u128().filter(|v| *v < u128::from(limit)).map(|v| v as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u32, v: i128) -> ApInt {
        ApInt::from_i128(bits, v)
    }

    #[test]
    fn add_sub_mul_wrap() {
        assert_eq!(int(8, 200).add(&int(8, 100)).to_u128(), Some(44));
        assert_eq!(int(8, 5).sub(&int(8, 7)).to_i128(), Some(-2));
        assert_eq!(int(7, 100).mul(&int(7, 3)).to_u128(), Some(300 % 128));
        let big = ApInt::all_ones(200);
        assert_eq!(big.add(&int(200, 1)), ApInt::zero(200));
        assert_eq!(big.mul(&big), int(200, 1));
        assert_eq!(int(64, -1).mul_wide(&int(64, -1)).to_u128(), Some(u128::MAX - 2 * u128::from(u64::MAX)));
        let (_, carry) = int(7, 127).add_with_carry(&int(7, 1), false);
        assert!(carry);
        let (_, carry) = int(64, -1).add_with_carry(&int(64, 0), true);
        assert!(carry);
    }

    #[test]
    fn byte_swap() {
        assert_eq!(ApInt::from_u128(16, 0x1234).byte_swap().to_u128(), Some(0x3412));
        assert_eq!(ApInt::from_u128(24, 0x12_3456).byte_swap().to_u128(), Some(0x56_3412));
        let wide = ApInt::from_u128(128, 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10);
        assert_eq!(wide.byte_swap().to_u128(), Some(0x100f_0e0d_0c0b_0a09_0807_0605_0403_0201));
        let odd = ApInt::from_u128(72, 0xab_0000_0000_0000_00cd);
        assert_eq!(odd.byte_swap().to_u128(), Some(0xcd_0000_0000_0000_00ab));
    }

    #[test]
    fn division() {
        assert_eq!(int(8, -7).sdivrem(&int(8, 2)).map(|(q, r)| (q.to_i128(), r.to_i128())), Some((Some(-3), Some(-1))));
        assert!(int(8, 1).udivrem(&int(8, 0)).is_none());
        let a = ApInt::parse(256, "1000000000000000000000000000000000000000000").unwrap();
        let b = ApInt::parse(256, "12345678901234567890123").unwrap();
        let (q, r) = a.udivrem(&b).unwrap();
        assert_eq!(q.mul(&b).add(&r), a);
        assert_eq!(r.ucmp(&b), Ordering::Less);
    }

    #[test]
    fn shifts_and_counts() {
        let v = int(100, 0b1011);
        assert_eq!(v.shl(70).lshr(70), v);
        assert_eq!(int(100, -8).ashr(2), int(100, -2));
        assert_eq!(int(100, -8).ashr(200), int(100, -1));
        assert_eq!(v.leading_zeros(), 96);
        assert_eq!(int(100, 0).trailing_zeros(), 100);
        assert_eq!(v.shl(65).trailing_zeros(), 65);
        assert_eq!(ApInt::all_ones(130).count_ones(), 130);
        assert_eq!(ApInt::concat(&int(4, 0xa), &int(4, 0x5)).to_u128(), Some(0xa5));
        assert_eq!(int(8, -1).scmp(&int(8, 1)), Ordering::Less);
        assert_eq!(int(8, -1).ucmp(&int(8, 1)), Ordering::Greater);
        assert_eq!(ApInt::signed_min(8).to_i128(), Some(-128));
        assert_eq!(ApInt::signed_max(8).to_i128(), Some(127));
    }
}
