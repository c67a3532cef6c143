//! What a load's `!range` metadata says about the loaded value: the bits
//! every range fixes (LLVM's `computeKnownBitsFromRangeMetadata`) and the
//! sign bits of the smallest range holding them all
//! (`computeNumSignBitsFromRangeMetadata`).

use std::cmp::Ordering;

use super::Known;
use crate::apint::ApInt;
use crate::llvm_ir::IntRange;

/// How an extending load widens the value its metadata describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Widening {
    /// `G_LOAD`: the metadata's width is taken as it is.
    None,
    /// `G_ZEXTLOAD`.
    Zero,
    /// `G_SEXTLOAD`.
    Sign,
}

/// The bits of a `bits`-wide value in one of `ranges` that each range
/// fixes: the high bits its least and greatest unsigned values share.
/// `None` when the ranges are of another width.
pub(super) fn known_bits(ranges: &[IntRange], bits: u32) -> Option<Known> {
    if ranges.first()?.lower.bits() != bits {
        return None;
    }
    let mut known = Known { zero: ApInt::all_ones(bits), one: ApInt::all_ones(bits) };
    for range in ranges {
        let (min, max) = unsigned_extremes(&Arc::of(range));
        let shared = ApInt::bit_range(bits, bits - max.xor(&min).leading_zeros(), max.xor(&min).leading_zeros());
        known = Known { zero: known.zero.and(&max.not().and(&shared)), one: known.one.and(&max.and(&shared)) };
    }
    Some(known)
}

/// How many high bits of a value loaded into `ty_bits` from one of
/// `ranges` copy its sign bit, at least 1. The ranges are joined into the
/// smallest one holding them all; when `ty_bits` is wider, a zero- or
/// sign-extending load extends it, and a plain load keeps the metadata's
/// width, as LLVM counts.
pub(super) fn sign_bits(ranges: &[IntRange], ty_bits: u32, widening: Widening) -> u32 {
    let Some(first) = ranges.first() else { return 1 };
    let bits = first.lower.bits();
    let joined = ranges[1..].iter().fold(Arc::of(first), |joined, range| joined.union(&Arc::of(range)));
    let extra = ty_bits.saturating_sub(bits);
    match widening {
        Widening::Zero if extra > 0 => extra + unsigned_extremes(&joined).1.leading_zeros(),
        Widening::Sign if extra > 0 => extra + narrow_sign_bits(&joined),
        _ => narrow_sign_bits(&joined),
    }
}

/// The sign bits every value of `arc` has, at its own width: those of its
/// least or greatest signed value, whichever has fewer.
fn narrow_sign_bits(arc: &Arc) -> u32 {
    let (min, max) = signed_extremes(arc);
    let count = |v: &ApInt| if v.is_negative() { v.leading_ones() } else { v.leading_zeros() };
    count(&min).min(count(&max))
}

/// A set of values modulo 2^width: every value, or the values from
/// `lower` up to (not including) `upper`, wrapping past the greatest.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Arc {
    All(u32),
    From { lower: ApInt, upper: ApInt },
}

impl Arc {
    /// A metadata range; one whose ends are equal (which the IR verifier
    /// rejects) is taken as every value.
    fn of(range: &IntRange) -> Arc {
        if range.lower == range.upper {
            Arc::All(range.lower.bits())
        } else {
            Arc::From { lower: range.lower.clone(), upper: range.upper.clone() }
        }
    }

    /// The smallest arc holding both: where they overlap or touch, the
    /// two together; else the shorter of the two ways of bridging a gap
    /// (on a tie, `other`'s start to `self`'s end, as LLVM's
    /// `ConstantRange::unionWith` picks, after putting a range that
    /// wraps past the greatest value first).
    fn union(&self, other: &Arc) -> Arc {
        let (Arc::From { lower: a_lower, upper: a_upper }, Arc::From { lower: b_lower, upper: b_upper }) =
            (self, other)
        else {
            return Arc::All(self.bits());
        };
        if a_lower.ucmp(a_upper) == Ordering::Less && b_lower.ucmp(b_upper) == Ordering::Greater {
            return other.union(self);
        }
        let bits = self.bits();
        // Offsets from a's start, one bit wider so sums do not wrap.
        let wide = |v: &ApInt| v.zext_or_trunc(bits + 1);
        let offset = |v: &ApInt| wide(&v.sub(a_lower));
        let size = |lower: &ApInt, upper: &ApInt| wide(&upper.sub(lower));
        let whole = ApInt::bit_range(bits + 1, bits, 1);
        let (a_size, b_start) = (size(a_lower, a_upper), offset(b_lower));
        let b_end = b_start.add(&size(b_lower, b_upper));
        let arc = |lower: &ApInt, length: &ApInt| Arc::From {
            lower: lower.clone(),
            upper: lower.add(&length.zext_or_trunc(bits)),
        };
        let larger = |x: ApInt, y: ApInt| if x.ucmp(&y) == Ordering::Less { y } else { x };
        if b_start.ucmp(&a_size) != Ordering::Greater {
            // b starts inside a or where it ends.
            if b_end.ucmp(&whole) != Ordering::Less {
                return Arc::All(bits);
            }
            return arc(a_lower, &larger(a_size, b_end));
        }
        if b_end.ucmp(&whole) != Ordering::Less {
            // b runs on past a's start.
            let covered = larger(a_size, b_end.sub(&whole));
            return arc(b_lower, &whole.sub(&b_start).add(&covered));
        }
        let (a_then_b, b_then_a) = (b_end.clone(), whole.sub(&b_start).add(&a_size));
        if a_then_b.ucmp(&b_then_a) == Ordering::Less {
            Arc::From { lower: a_lower.clone(), upper: b_upper.clone() }
        } else {
            Arc::From { lower: b_lower.clone(), upper: a_upper.clone() }
        }
    }

    fn bits(&self) -> u32 {
        match self {
            Arc::All(bits) => *bits,
            Arc::From { lower, .. } => lower.bits(),
        }
    }
}

/// The least and greatest unsigned value of `arc`.
fn unsigned_extremes(arc: &Arc) -> (ApInt, ApInt) {
    let bits = arc.bits();
    match arc {
        Arc::From { lower, upper } if lower.ucmp(upper) == Ordering::Less => {
            (lower.clone(), upper.sub(&ApInt::from_u128(bits, 1)))
        }
        // [x, 0) ends at the greatest value without wrapping.
        Arc::From { lower, upper } if upper.is_zero() => (lower.clone(), ApInt::all_ones(bits)),
        _ => (ApInt::zero(bits), ApInt::all_ones(bits)),
    }
}

/// The least and greatest signed value of `arc`: the unsigned extremes of
/// the arc with its sign bits flipped (which maps signed order onto
/// unsigned order), flipped back.
fn signed_extremes(arc: &Arc) -> (ApInt, ApInt) {
    let sign = ApInt::signed_min(arc.bits());
    let flipped = match arc {
        Arc::All(bits) => Arc::All(*bits),
        Arc::From { lower, upper } => Arc::From { lower: lower.xor(&sign), upper: upper.xor(&sign) },
    };
    let (min, max) = unsigned_extremes(&flipped);
    (min.xor(&sign), max.xor(&sign))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(bits: u32, lower: i128, upper: i128) -> IntRange {
        IntRange { lower: ApInt::from_i128(bits, lower), upper: ApInt::from_i128(bits, upper) }
    }

    fn arc(bits: u32, lower: i128, upper: i128) -> Arc {
        Arc::of(&range(bits, lower, upper))
    }

    #[test]
    fn a_boolean_range_fixes_all_but_the_low_bit() {
        let known = known_bits(&[range(8, 0, 2)], 8).unwrap();
        assert_eq!(known.zero, ApInt::from_u128(8, 0xfe));
        assert!(known.one.is_zero());
        assert_eq!(known_bits(&[range(8, 0, 2)], 16), None);
    }

    #[test]
    fn known_bits_are_what_every_range_fixes() {
        // 0xc8..=0xff shares the top two bits (11); 0xc0..=0xc3 six.
        let known = known_bits(&[range(8, 200, 0)], 8).unwrap();
        assert_eq!((known.zero.low_u64(), known.one.low_u64()), (0, 0xc0));
        let known = known_bits(&[range(8, 200, 0), range(8, 0xc0, 0xc4)], 8).unwrap();
        assert_eq!((known.zero.low_u64(), known.one.low_u64()), (0, 0xc0));
        // A wrapping range fixes nothing.
        assert!(known_bits(&[range(8, -2, 2)], 8).unwrap().is_unknown());
    }

    #[test]
    fn unions_are_the_smallest_arc_holding_both() {
        // Overlapping and touching ranges merge.
        assert_eq!(arc(8, 0, 10).union(&arc(8, 5, 20)), arc(8, 0, 20));
        assert_eq!(arc(8, 0, 10).union(&arc(8, 10, 20)), arc(8, 0, 20));
        assert_eq!(arc(8, 5, 20).union(&arc(8, 0, 10)), arc(8, 0, 20));
        // Disjoint: the shorter bridge.
        assert_eq!(arc(8, 0, 10).union(&arc(8, 20, 30)), arc(8, 0, 30));
        assert_eq!(arc(8, 0, 10).union(&arc(8, 200, 250)), arc(8, 200, 10));
        // A tie takes the second's start to the first's end.
        assert_eq!(arc(8, 0, 64).union(&arc(8, 128, 192)), arc(8, 128, 64));
        // A wrapping range goes first.
        assert_eq!(arc(8, 64, 128).union(&arc(8, 192, 0)), arc(8, 64, 0));
        assert_eq!(arc(8, 240, 10).union(&arc(8, 5, 20)), arc(8, 240, 20));
        assert_eq!(arc(8, 240, 10).union(&arc(8, 100, 250)), arc(8, 100, 10));
        // Covering every value.
        assert_eq!(arc(8, 0, 200).union(&arc(8, 100, 50)), Arc::All(8));
        assert_eq!(arc(8, 240, 10).union(&arc(8, 5, 245)), Arc::All(8));
    }

    #[test]
    fn sign_bits_of_ranges() {
        // 0 or 1: seven sign bits in s8; 0..=127 zero-extended to s32: 25.
        assert_eq!(sign_bits(&[range(8, 0, 2)], 8, Widening::None), 7);
        assert_eq!(sign_bits(&[range(8, 0, 128)], 32, Widening::Zero), 25);
        assert_eq!(sign_bits(&[range(8, -128, 0)], 32, Widening::Zero), 24);
        // -2..=1 sign-extended to s32: 31; a plain load keeps s8's count.
        assert_eq!(sign_bits(&[range(8, -2, 2)], 32, Widening::Sign), 31);
        assert_eq!(sign_bits(&[range(8, -2, 2)], 32, Widening::None), 7);
        // Two ranges join into -1..=20.
        assert_eq!(sign_bits(&[range(8, -1, 1), range(8, 4, 21)], 8, Widening::None), 3);
        // Across the signed wrap: nothing.
        assert_eq!(sign_bits(&[range(8, 100, -100)], 8, Widening::None), 1);
    }
}
