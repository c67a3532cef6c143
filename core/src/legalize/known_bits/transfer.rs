//! Known bits and how each operation transforms them, as LLVM's
//! `KnownBits` computes them.

use crate::apint::ApInt;
use crate::opcode::Opcode;

/// Known bits of a value: a bit set in `zero` is 0, a bit set in `one` is 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// Bits known to be zero.
    pub zero: ApInt,
    /// Bits known to be one.
    pub one: ApInt,
}

impl Known {
    pub(super) fn unknown(bits: u32) -> Known {
        Known { zero: ApInt::zero(bits), one: ApInt::zero(bits) }
    }

    pub(super) fn constant(value: &ApInt) -> Known {
        Known { zero: value.not(), one: value.clone() }
    }

    pub(super) fn intersect(&self, other: &Known) -> Known {
        Known { zero: self.zero.and(&other.zero), one: self.one.and(&other.one) }
    }

    pub(super) fn resize(&self, bits: u32) -> Known {
        Known { zero: self.zero.zext_or_trunc(bits), one: self.one.zext_or_trunc(bits) }
    }

    /// The knowledge of a sign extension (or truncation) to `bits`: the
    /// new high bits are known when the sign bit is.
    pub(super) fn sign_extend(&self, bits: u32) -> Known {
        Known { zero: self.zero.sext_or_trunc(bits), one: self.one.sext_or_trunc(bits) }
    }

    pub(super) fn is_unknown(&self) -> bool {
        self.zero.is_zero() && self.one.is_zero()
    }

    /// The knowledge of `self` shifted by exactly `amount` (below the
    /// width).
    pub(super) fn shifted_by(&self, opcode: Opcode, amount: u32) -> Known {
        let bits = self.zero.bits();
        match opcode {
            Opcode::G_SHL => {
                Known { zero: self.zero.shl(amount).or(&ApInt::bit_range(bits, 0, amount)), one: self.one.shl(amount) }
            }
            Opcode::G_LSHR => Known {
                zero: self.zero.lshr(amount).or(&ApInt::bit_range(bits, bits - amount, amount)),
                one: self.one.lshr(amount),
            },
            _ => Known { zero: self.zero.ashr(amount), one: self.one.ashr(amount) },
        }
    }

    /// The knowledge of `self` shifted by an amount of which `amount` is
    /// known, as LLVM's `KnownBits::shl`, `lshr` and `ashr` (without
    /// flags) compute it: what every possible amount agrees on, where the
    /// amounts run from the known ones' value (capped at the width) to the
    /// highest value the known zeros allow (for a power-of-two width only
    /// its low log2(width) bits count); all bits zero when no amount is
    /// possible, since the shift is then poison.
    pub(super) fn shifted(&self, opcode: Opcode, amount: &Known) -> Known {
        let bits = self.zero.bits();
        let min = amount.one.to_u32_below(bits).unwrap_or(bits);
        if self.is_unknown() {
            return match opcode {
                Opcode::G_SHL => Known { zero: ApInt::bit_range(bits, 0, min), one: ApInt::zero(bits) },
                Opcode::G_LSHR => Known { zero: ApInt::bit_range(bits, bits - min, min), one: ApInt::zero(bits) },
                _ if min == bits => Known { zero: ApInt::all_ones(bits), one: ApInt::zero(bits) },
                _ => Known::unknown(bits),
            };
        }
        let highest = amount.zero.not();
        let max = if bits.is_power_of_two() {
            let low = bits.trailing_zeros();
            (highest.low_u64() & ((1u64 << low) - 1)) as u32
        } else {
            highest.to_u32_below(bits).unwrap_or(bits - 1)
        };
        if opcode == Opcode::G_SHL && min == 0 && max == bits - 1 && bits.is_power_of_two() {
            let one = if self.one.is_all_ones() { ApInt::signed_min(bits) } else { ApInt::zero(bits) };
            return Known { zero: ApInt::bit_range(bits, 0, self.zero.trailing_ones()), one };
        }
        // The amounts the known bits allow (LLVM looks at the low 32).
        let low32 = |m: &ApInt| m.zext_or_trunc(32).low_u64() as u32;
        let (must_be_zero, must_be_one) = (low32(&amount.zero), low32(&amount.one));
        let mut common: Option<Known> = None;
        for s in (min..=max).filter(|s| s & must_be_zero == 0 && s & must_be_one == must_be_one) {
            let next = self.shifted_by(opcode, s);
            let merged = match common {
                Some(known) => known.intersect(&next),
                None => next,
            };
            let done = merged.is_unknown();
            common = Some(merged);
            if done {
                break;
            }
        }
        common.unwrap_or(Known { zero: ApInt::all_ones(bits), one: ApInt::zero(bits) })
    }

    /// The known bits as two `u128`s (zeros, ones) when they are at most
    /// 128 bits wide, for the fast path of the arithmetic rules.
    fn narrow(&self) -> Option<(u128, u128)> {
        if self.zero.bits() > 128 {
            return None;
        }
        Some((self.zero.to_u128()?, self.one.to_u128()?))
    }

    fn from_narrow(bits: u32, zero: u128, one: u128) -> Known {
        Known { zero: ApInt::from_u128(bits, zero), one: ApInt::from_u128(bits, one) }
    }

    /// LLVM's `KnownBits::computeForAddCarry`, on `u128`s up to 128 bits.
    pub(super) fn add_carry(lhs: &Known, rhs: &Known, carry_zero: bool, carry_one: bool) -> Known {
        let bits = lhs.zero.bits();
        let (Some((lhs_zero, lhs_one)), Some((rhs_zero, rhs_one))) = (lhs.narrow(), rhs.narrow()) else {
            return Known::add_carry_words(lhs, rhs, carry_zero, carry_one);
        };
        let mask = low_bits(bits);
        let possible_zero =
            (!lhs_zero & mask).wrapping_add(!rhs_zero & mask).wrapping_add(u128::from(!carry_zero)) & mask;
        let possible_one = lhs_one.wrapping_add(rhs_one).wrapping_add(u128::from(carry_one)) & mask;
        let carry_known_zero = !(possible_zero ^ lhs_zero ^ rhs_zero) & mask;
        let carry_known_one = possible_one ^ lhs_one ^ rhs_one;
        let known = (lhs_zero | lhs_one) & (rhs_zero | rhs_one) & (carry_known_zero | carry_known_one);
        Known::from_narrow(bits, !possible_zero & known, possible_one & known)
    }

    /// [`Known::add_carry`] word by word, at any width.
    fn add_carry_words(lhs: &Known, rhs: &Known, carry_zero: bool, carry_one: bool) -> Known {
        let bits = lhs.zero.bits();
        let carry = |b: bool| ApInt::from_u128(bits, u128::from(b));
        let possible_zero = lhs.zero.not().add(&rhs.zero.not()).add(&carry(!carry_zero));
        let possible_one = lhs.one.add(&rhs.one).add(&carry(carry_one));
        let carry_known_zero = possible_zero.xor(&lhs.zero).xor(&rhs.zero).not();
        let carry_known_one = possible_one.xor(&lhs.one).xor(&rhs.one);
        let known = lhs.zero.or(&lhs.one).and(&rhs.zero.or(&rhs.one)).and(&carry_known_zero.or(&carry_known_one));
        Known { zero: possible_zero.not().and(&known), one: possible_one.and(&known) }
    }
}

impl Known {
    /// LLVM's `KnownBits::sub`: `lhs + !rhs + 1`.
    pub(super) fn sub(lhs: &Known, rhs: &Known) -> Known {
        Known::add_carry(lhs, &Known { zero: rhs.one.clone(), one: rhs.zero.clone() }, false, true)
    }

    /// The knowledge of `self & other`.
    pub(super) fn and(&self, other: &Known) -> Known {
        Known { zero: self.zero.or(&other.zero), one: self.one.and(&other.one) }
    }

    /// LLVM's `KnownBits::mul` (no self-multiply facts): the high zeros
    /// the product of the largest values leaves, and the low bits the
    /// known low bits of both factors fix.
    pub(super) fn product(lhs: &Known, rhs: &Known) -> Known {
        let bits = lhs.zero.bits();
        match (lhs.narrow(), rhs.narrow()) {
            // Up to 64 bits the full product of the largest values fits a u128.
            (Some(lhs), Some(rhs)) if bits <= 64 => Known::narrow_product(bits, lhs, rhs),
            _ => Known::product_words(lhs, rhs),
        }
    }

    /// [`Known::product`] on `u128`s, for at most 64 bits.
    fn narrow_product(bits: u32, (lhs_zero, lhs_one): (u128, u128), (rhs_zero, rhs_one): (u128, u128)) -> Known {
        let mask = low_bits(bits);
        let largest = (!lhs_zero & mask) * (!rhs_zero & mask);
        let leading_zeros = bits.saturating_sub(u128::BITS - largest.leading_zeros());
        let trailing_ones = |m: u128| (m | !mask).trailing_ones().min(bits);
        let (known0, known1) = (trailing_ones(lhs_zero | lhs_one), trailing_ones(rhs_zero | rhs_one));
        let (zeros0, zeros1) = (trailing_ones(lhs_zero), trailing_ones(rhs_zero));
        let result_low = ((known0 - zeros0).min(known1 - zeros1) + zeros0 + zeros1).min(bits);
        let bottom = (lhs_one & low_bits(known0)).wrapping_mul(rhs_one & low_bits(known1)) & mask;
        let low_mask = low_bits(result_low);
        let high = low_bits(leading_zeros) << (bits - leading_zeros);
        Known::from_narrow(bits, high | (!bottom & low_mask), bottom & low_mask)
    }

    /// [`Known::product`] word by word, at any width.
    fn product_words(lhs: &Known, rhs: &Known) -> Known {
        let bits = lhs.zero.bits();
        let largest = lhs.zero.not().mul_wide(&rhs.zero.not());
        let product_bits = largest.bits() - largest.leading_zeros();
        let leading_zeros = bits.saturating_sub(product_bits);
        let known_low = |k: &Known| k.zero.or(&k.one).trailing_ones();
        let (known0, known1) = (known_low(lhs), known_low(rhs));
        let (zeros0, zeros1) = (lhs.zero.trailing_ones(), rhs.zero.trailing_ones());
        let result_low = ((known0 - zeros0).min(known1 - zeros1) + zeros0 + zeros1).min(bits);
        let low = |k: &Known, n: u32| k.one.and(&ApInt::bit_range(bits, 0, n));
        let bottom = low(lhs, known0).mul(&low(rhs, known1));
        let low_mask = ApInt::bit_range(bits, 0, result_low);
        Known {
            zero: ApInt::bit_range(bits, bits - leading_zeros, leading_zeros).or(&bottom.not().and(&low_mask)),
            one: bottom.and(&low_mask),
        }
    }

    /// LLVM's `KnownBits::mulhu` and `mulhs`: the high half of the product
    /// of the operands extended to twice their width.
    pub(super) fn product_high(lhs: &Known, rhs: &Known, signed: bool) -> Known {
        let bits = lhs.zero.bits();
        let extend = |k: &Known| {
            if signed {
                k.sign_extend(2 * bits)
            } else {
                let wide = k.resize(2 * bits);
                Known { zero: wide.zero.or(&ApInt::bit_range(2 * bits, bits, bits)), one: wide.one }
            }
        };
        let wide = Known::product(&extend(lhs), &extend(rhs));
        Known { zero: wide.zero.lshr(bits).zext_or_trunc(bits), one: wide.one.lshr(bits).zext_or_trunc(bits) }
    }

    /// The bytes of `self` in reverse order.
    pub(super) fn byte_swap(&self) -> Known {
        Known { zero: self.zero.byte_swap(), one: self.one.byte_swap() }
    }

    /// LLVM's bit-field extraction (`G_UBFX`): `self` shifted right by
    /// `offset`, then masked to `width` bits, where the width is known
    /// to lie between the least and greatest value its known bits allow.
    pub(super) fn extract_field(&self, offset: &Known, width: &Known) -> Known {
        let bits = self.zero.bits();
        let limited = |v: &ApInt| v.to_u32_below(bits).unwrap_or(bits);
        let (greatest, least) = (limited(&width.zero.not()), limited(&width.one));
        let mask =
            Known { zero: ApInt::bit_range(bits, greatest, bits - greatest), one: ApInt::bit_range(bits, 0, least) };
        self.shifted(Opcode::G_LSHR, offset).and(&mask)
    }

    /// The knowledge of `self` with its low `count` bits zero (an
    /// alignment).
    pub(super) fn with_low_zeros(&self, count: u32) -> Known {
        let bits = self.zero.bits();
        let low = ApInt::bit_range(bits, 0, count.min(bits));
        Known { zero: self.zero.or(&low), one: self.one.and(&low.not()) }
    }
}

/// The low `n` bits set (all 128 from 128 on).
fn low_bits(n: u32) -> u128 {
    if n >= u128::BITS { u128::MAX } else { (1 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Known bits of `bits` bits from two random masks, a bit known one
    /// only where it is not known zero.
    fn known(bits: u32, zero: u128, one: u128) -> Known {
        Known { zero: ApInt::from_u128(bits, zero), one: ApInt::from_u128(bits, one & !zero) }
    }

    proptest! {
        /// The `u128` rules agree with the word-by-word ones.
        #[test]
        fn narrow_rules_agree_with_words(
            bits in 1u32..=128, zeros: [u128; 2], ones: [u128; 2], carry_zero: bool, carry_one: bool,
        ) {
            let (lhs, rhs) = (known(bits, zeros[0], ones[0]), known(bits, zeros[1], ones[1]));
            let carry_one = carry_one && !carry_zero;
            prop_assert_eq!(
                Known::add_carry(&lhs, &rhs, carry_zero, carry_one),
                Known::add_carry_words(&lhs, &rhs, carry_zero, carry_one)
            );
            prop_assert_eq!(Known::product(&lhs, &rhs), Known::product_words(&lhs, &rhs));
        }

        /// Sparse masks too: most bits unknown, as in real values.
        #[test]
        fn narrow_rules_agree_on_sparse_knowledge(bits in 1u32..=64, zero in 0u128..256, one in 0u128..256, shift in 0u32..64) {
            let lhs = known(bits, zero << shift, one);
            let rhs = known(bits, one << shift, zero);
            prop_assert_eq!(Known::add_carry(&lhs, &rhs, false, false), Known::add_carry_words(&lhs, &rhs, false, false));
            prop_assert_eq!(Known::product(&lhs, &rhs), Known::product_words(&lhs, &rhs));
        }
    }
}
