//! How many instructions RV64 needs to build a 64-bit constant in a
//! register (the length of LLVM's `RISCVMatInt::generateInstSeq`), and from
//! it whether the legalizer loads the constant from the constant pool
//! instead (`RISCVLegalizerInfo::shouldBeInConstantPool`).
//!
//! Only lengths matter to the legalizer, so each sequence is counted, not
//! built: the search tries the same alternatives in the same order and
//! keeps one only when it is strictly shorter, as LLVM does.

/// The extensions that offer shorter sequences.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatFeatures {
    /// `Zba`: `slli.uw`, `add.uw`, `sh1add`/`sh2add`/`sh3add`.
    pub zba: bool,
    /// `Zbb`: `rori`.
    pub zbb: bool,
    /// `Zbs`: `bseti`, `bclri`.
    pub zbs: bool,
    /// `Zbkb`: `pack`.
    pub zbkb: bool,
}

/// The most instructions worth spending on a constant before a load is
/// cheaper: the generic scheduling model's load latency (4) plus one.
const MAX_BUILD_INTS_COST: usize = 5;

/// Whether RV64 loads `value` from the constant pool rather than building
/// it: it takes more than five instructions, and splitting it into a
/// 32-bit half shifted and added to itself does not bring it within five.
pub fn in_constant_pool(value: i64, features: MatFeatures) -> bool {
    if fits(value, 32) || sequence_length(value, features) <= MAX_BUILD_INTS_COST {
        return false;
    }
    two_register_length(value, features).is_none_or(|n| n + 2 > MAX_BUILD_INTS_COST)
}

fn fits(value: i64, bits: u32) -> bool {
    let shift = 64 - bits;
    (value << shift) >> shift == value
}

fn fits_unsigned(value: u64, bits: u32) -> bool {
    value >> bits == 0
}

fn sign_extend(value: i64, bits: u32) -> i64 {
    let shift = 64 - bits;
    (value << shift) >> shift
}

/// `n` low bits set.
fn low_ones(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The basic recursive sequence: LUI/ADDI(W) for 32 bits, otherwise the
/// value without its low 12 bits shifted down, then SLLI and ADDI.
fn basic_length(value: i64, features: MatFeatures) -> usize {
    let bits = value as u64;
    if features.zbs && bits.is_power_of_two() && (!fits(value, 32) || value == 0x800) {
        return 1;
    }
    if fits(value, 32) {
        let upper = ((value + 0x800) >> 12) & 0xF_FFFF;
        let lower = sign_extend(value, 12);
        return usize::from(upper != 0) + usize::from(lower != 0 || upper == 0);
    }
    let lower = sign_extend(value, 12);
    let mut rest = value.wrapping_sub(lower);
    let mut shift = 0;
    if !fits(rest, 32) {
        shift = (rest as u64).trailing_zeros();
        rest >>= shift;
        if shift > 12 && !fits(rest, 12) {
            let lui_ready = ((rest as u64) << 12) as i64;
            if fits(lui_ready, 32) {
                shift -= 12;
                rest = lui_ready;
            } else if fits_unsigned(lui_ready as u64, 32) && features.zba {
                shift -= 12;
                rest = (lui_ready as u64 | (u64::from(u32::MAX) << 32)) as i64;
            }
        }
        if fits_unsigned(rest as u64, 32) && !fits(rest, 32) && features.zba {
            rest = (rest as u64 | (u64::from(u32::MAX) << 32)) as i64;
        }
    }
    basic_length(rest, features) + usize::from(shift != 0) + usize::from(lower != 0)
}

/// `candidate` if it is strictly shorter than `current`.
fn shorter(current: usize, candidate: usize) -> usize {
    candidate.min(current)
}

/// A positive value built with its leading zeros shifted out (filled with
/// ones, then with zeros, then, with Zba and 32 of them, as ones cleared
/// by `add.uw`) and restored by a final shift; `current` is 0 when there is
/// no sequence yet, which any sequence under eight instructions replaces.
fn without_leading_zeros(value: u64, features: MatFeatures, mut current: usize) -> usize {
    let zeros = value.leading_zeros();
    let consider = |candidate: u64, current: &mut usize| {
        let length = basic_length(candidate as i64, features);
        if length + 1 < *current || (*current == 0 && length < 8) {
            *current = length + 1;
        }
    };
    let shifted = (value << zeros) | low_ones(zeros);
    consider(shifted, &mut current);
    consider(shifted & !low_ones(zeros), &mut current);
    if zeros == 32 && features.zba {
        consider(value | !low_ones(32), &mut current);
    }
    current
}

/// The number of instructions `generateInstSeq` emits for `value`.
fn sequence_length(value: i64, f: MatFeatures) -> usize {
    let mut length = basic_length(value, f);
    // Trailing zeros restored by a final SLLI. (Equal lengths are taken
    // when the shifted value fits a compressed LI, which does not change
    // the count.)
    if value & 0xfff != 0 && value & 1 == 0 && length >= 2 {
        let zeros = (value as u64).trailing_zeros();
        length = shorter(length, basic_length(value >> zeros, f) + 1);
    }
    if length <= 2 {
        return length;
    }
    // Low 13 bits like 0x17ff: build value + 1 ... then ADDI -1.
    if value & 0xfff != 0 && value & 0x1800 == 0x1000 {
        let adjust = -(0x800 - (value & 0xfff));
        length = shorter(length, basic_length(value - adjust, f) + 1);
    }
    if value > 0 && length > 2 {
        length = without_leading_zeros(value as u64, f, length);
    }
    if value < 0 && length > 3 {
        let inverted = without_leading_zeros(!(value as u64), f, 0);
        if inverted != 0 {
            length = shorter(length, inverted + 1);
        }
    }
    if length > 2 && f.zbkb {
        let (low, high) = (sign_extend(value, 32), sign_extend(value >> 32, 32));
        if low == high {
            length = shorter(length, basic_length(low, f) + 1);
        }
    }
    if length > 2 && f.zbs {
        let low = value & 0x7fff_ffff;
        let high = (value ^ low) as u64;
        let base = if low != 0 { basic_length(low, f) } else { 0 };
        length = shorter(length, base + high.count_ones() as usize);
    }
    if length > 2 && f.zbs {
        let low = (value as u64 | 0xffff_ffff_8000_0000) as i64;
        let high = (value ^ low) as u64;
        length = shorter(length, basic_length(low, f) + high.count_ones() as usize);
    }
    if length > 2 && f.zba {
        length = shorter(length, shift_add_length(value, f));
    }
    if length > 2 && f.zbb && rotation(value) != 0 {
        length = 2;
    }
    length
}

/// With Zba: the value as a 32-bit multiple of 3, 5 or 9 (`shNadd`), or
/// its upper 52 bits so, plus an ADDI. `usize::MAX` when neither applies.
fn shift_add_length(value: i64, f: MatFeatures) -> usize {
    let divisor = |v: i64| [3, 5, 9].into_iter().find(|d| v % d == 0 && fits(v / d, 32));
    if let Some(d) = divisor(value) {
        return basic_length(value / d, f) + 1;
    }
    let upper = ((value as u64).wrapping_add(0x800) & !0xfff) as i64;
    match divisor(upper) {
        Some(d) => basic_length(upper / d, f) + 2,
        None => usize::MAX,
    }
}

/// The rotation that turns `value` into a 12-bit immediate (for `rori`),
/// or 0: ones wrapping around the ends, or around bit 31.
fn rotation(value: i64) -> u32 {
    let bits = value as u64;
    let (leading, trailing) = (bits.leading_ones(), bits.trailing_ones());
    if trailing > 0 && trailing < 64 && leading + trailing > 64 - 12 {
        return 64 - trailing;
    }
    let upper_trailing = ((bits >> 32) as u32).trailing_ones();
    let lower_leading = (bits as u32).leading_ones();
    if upper_trailing < 32 && upper_trailing + lower_leading > 64 - 12 {
        return 32 - upper_trailing;
    }
    0
}

/// The length of the sequence for the low 32 bits when the value is that
/// half plus itself shifted left (`generateTwoRegInstSeq`), if it is.
fn two_register_length(value: i64, f: MatFeatures) -> Option<usize> {
    let low = sign_extend(value, 32);
    if low == 0 {
        return None;
    }
    let rest = (value as u64).wrapping_sub(low as u64);
    let shift = rest.trailing_zeros().checked_sub((low as u64).trailing_zeros())?;
    let same_halves = (value as u64 >> 32) as u32 == value as u32;
    ((low as u64).checked_shl(shift) == Some(rest) || (f.zba && same_halves)).then(|| sequence_length(low, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: MatFeatures = MatFeatures { zba: false, zbb: false, zbs: false, zbkb: false };

    #[test]
    fn lengths_of_familiar_constants() {
        assert_eq!(sequence_length(0, BASE), 1); // addi
        assert_eq!(sequence_length(0x12345678, BASE), 2); // lui + addiw
        assert_eq!(sequence_length(1 << 40, BASE), 2); // addi + slli
        assert_eq!(sequence_length(0xffff_ffff, BASE), 2); // addi -1 + srli 32
        // lui, addi, then three slli + addi (llc 22's assembly).
        assert_eq!(sequence_length(0x1234_5678_9abc_def0_u64 as i64, BASE), 8);
        assert_eq!(sequence_length(1 << 40, MatFeatures { zbs: true, ..BASE }), 1); // bseti
    }

    #[test]
    fn the_pool_takes_what_costs_more_than_five() {
        assert!(!in_constant_pool(0x12345678, BASE));
        assert!(in_constant_pool(0x1234_5678_9abc_def0_u64 as i64, BASE));
        // The same half twice: built as x + (x << 32).
        assert!(!in_constant_pool(0x1234_5678_1234_5678, BASE));
    }
}
