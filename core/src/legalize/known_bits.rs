//! Bits of a value known to be zero or one, for the combines that LLVM
//! guards with its value tracking (`zext(trunc x)` needs no mask when the
//! high bits of `x` are already zero), as LLVM 22's `GISelValueTracking`
//! computes them: constants, booleans from compares, extensions and
//! truncations, bitwise operations, additions (with overflow and carry
//! too), subtractions, products and their high halves, carries of overflow
//! operations, shifts, bit-field extracts, byte swaps and bit reversal,
//! selects, minima and maxima, bit counts, loads (their `!range` metadata,
//! and what extending loads extend), assertions, pointers, copies, PHIs
//! (what every incoming value shares, across blocks and up to the depth
//! limit), and vectors, lane by lane, with the lanes asked about followed
//! through `G_BUILD_VECTOR`, `G_CONCAT_VECTORS`, `G_SHUFFLE_VECTOR` and
//! `G_UNMERGE_VALUES` (`known_bits/lanes.rs`).

mod lanes;
mod load_range;
mod transfer;

use load_range::Widening;
use transfer::Known;

use super::target::{BooleanContent, LegalizeTarget};
use crate::apint::ApInt;
use crate::ir::{Function, InstData, Operand, Reg, VReg};
use crate::llvm_ir::IntRange;
use crate::opcode::Opcode;

/// How deep the analysis follows definitions (LLVM's limit; llc's value
/// tracking uses it unless `-O0`).
pub const MAX_DEPTH: u32 = 6;

/// The bits of `v` known to be zero (a mask of its width, or of its
/// elements' width, zero in every lane, for a vector), following
/// definitions `max_depth` deep at most ([`MAX_DEPTH`], or 2 as llc at
/// `-O0`).
pub fn known_zero(func: &Function, target: &dyn LegalizeTarget, v: VReg, max_depth: u32) -> ApInt {
    known(func, target, v, start_depth(max_depth)).zero
}

/// The depth an analysis limited to `max_depth` levels starts at, so that
/// it stops at [`MAX_DEPTH`] as a full one does.
fn start_depth(max_depth: u32) -> u32 {
    MAX_DEPTH - max_depth.min(MAX_DEPTH)
}

/// How many high bits of each element of `v` are copies of its sign bit
/// (LLVM's `computeNumSignBits`, for compares, sign extensions, arithmetic
/// shifts by constants, bitwise operations, selects and truncations; else
/// what the known bits say). At least 1. `max_depth` as for [`known_zero`].
pub fn num_sign_bits(func: &Function, target: &dyn LegalizeTarget, v: VReg, max_depth: u32) -> u32 {
    sign_bits(func, target, v, start_depth(max_depth))
}

/// The boolean contents of comparison `opcode`'s result.
fn content(target: &dyn LegalizeTarget, opcode: Opcode, vector: bool) -> BooleanContent {
    if opcode == Opcode::G_FCMP { target.fp_boolean_content(vector) } else { target.boolean_content(vector) }
}

fn sign_bits(func: &Function, target: &dyn LegalizeTarget, v: VReg, depth: u32) -> u32 {
    let ty = func.ty(v);
    let bits = ty.scalar_size_in_bits().max(1);
    let from_known = || {
        let k = known(func, target, v, depth);
        k.zero.leading_ones().max(k.one.leading_ones()).max(1)
    };
    let Some(def) = func.def_inst(v).filter(|_| depth < MAX_DEPTH) else { return 1 };
    let data = func.inst(def);
    let Some(opcode) = data.known_opcode() else { return 1 };
    if data.num_defs != 1 {
        return from_known();
    }
    let operand = |i: usize| data.operands.get(i).and_then(reg);
    let of = |i: usize| operand(i).map_or(1, |r| sign_bits(func, target, r, depth + 1));
    use Opcode::*;
    match opcode {
        G_ICMP | G_FCMP => match content(target, opcode, ty.is_vector()) {
            BooleanContent::ZeroOrNegativeOne => bits,
            BooleanContent::ZeroOrOne if bits > 1 => bits - 1,
            _ => 1,
        },
        // An asserted sign extension promises what a G_SEXT_INREG makes.
        G_SEXT_INREG | G_ASSERT_SEXT => match data.operands.get(2) {
            Some(Operand::Imm(from)) => of(1).max(bits.saturating_sub(*from as u32) + 1),
            _ => 1,
        },
        G_SEXT => operand(1).map_or(1, |src| of(1) + bits - func.ty(src).scalar_size_in_bits()),
        // A scalar load on a little-endian target counts what its range
        // metadata says and nothing else, as LLVM does.
        G_LOAD if ty.is_scalar() && !target.is_big_endian() => {
            load_ranges(func, data).map_or(1, |ranges| load_range::sign_bits(ranges, bits, Widening::None))
        }
        G_SEXTLOAD | G_ZEXTLOAD => {
            let Some(mem) = data.mem.first().and_then(|m| m.memory_type()).filter(|_| ty.is_scalar()) else {
                return 1;
            };
            let widening = if opcode == G_SEXTLOAD { Widening::Sign } else { Widening::Zero };
            match load_ranges(func, data).map_or(1, |ranges| load_range::sign_bits(ranges, bits, widening)) {
                1 => {
                    let extended = bits.saturating_sub(mem.size_in_bits() as u32);
                    if opcode == G_SEXTLOAD { extended + 1 } else { extended.max(1) }
                }
                from_ranges => from_ranges,
            }
        }
        // The source's sign bits that reach into the narrow value, else
        // what the known bits say.
        G_TRUNC => operand(1).map_or(1, |src| {
            let dropped = func.ty(src).scalar_size_in_bits() - bits;
            match of(1) {
                kept if kept > dropped => kept - dropped,
                _ => from_known(),
            }
        }),
        G_ASHR => {
            let shifted = match operand(2).and_then(|a| valid_shift_amounts(func, target, a, depth + 1)) {
                Some((least, _)) => (of(1) + least).min(bits),
                None => of(1),
            };
            shifted.max(from_known())
        }
        G_SHL => match operand(2).and_then(|a| valid_shift_amounts(func, target, a, depth + 1)) {
            Some(amounts) => {
                shifted_left_sign_bits(func, target, operand(1), amounts, depth).unwrap_or_else(&from_known)
            }
            None => from_known(),
        },
        G_AND | G_OR | G_XOR => of(1).min(of(2)).max(from_known()),
        // At most one carry: a sign bit fewer than the operands have. A
        // negation (0 - x) or a decrement (x + -1) of a value that is 0 or 1
        // gives all sign bits, and of a non-negative one keeps its own.
        G_ADD | G_SUB => {
            let (Some(lhs), Some(rhs)) = (operand(1), operand(2)) else { return 1 };
            let known_at = |r: VReg| known(func, target, r, depth);
            let at_least = |n: u32| n.max(from_known());
            let rhs_bits = of(2);
            let lhs_bits = || of(1);
            // The value a negation or decrement works on, and its sign bits.
            let operand_of = if opcode == G_SUB {
                if rhs_bits == 1 {
                    return 1;
                }
                known_at(lhs).zero.is_all_ones().then_some((rhs, rhs_bits))
            } else {
                if rhs_bits <= 2 || lhs_bits() == 1 {
                    return 1;
                }
                known_at(rhs).one.is_all_ones().then(|| (lhs, lhs_bits()))
            };
            if let Some((value, value_bits)) = operand_of {
                let k = known_at(value);
                if k.zero.or(&ApInt::from_u128(bits, 1)).is_all_ones() {
                    return bits;
                }
                if k.zero.bit(bits - 1) {
                    return at_least(value_bits);
                }
            }
            let lhs_bits = lhs_bits();
            if lhs_bits == 1 {
                return 1;
            }
            at_least(lhs_bits.min(rhs_bits) - 1)
        }
        // The result is one of the two operands.
        G_SELECT => of(2).min(of(3)),
        G_SMIN | G_SMAX | G_UMIN | G_UMAX => of(1).min(of(2)),
        // Lanes side by side: the fewest of any source.
        G_CONCAT_VECTORS | G_BUILD_VECTOR => (1..data.operands.len()).map(of).min().unwrap_or(1),
        // A copy costs no depth.
        COPY if operand(1).is_some_and(|src| func.ty(src) == ty) => {
            operand(1).map_or(1, |src| sign_bits(func, target, src, depth))
        }
        _ => from_known(),
    }
}

/// The least and greatest amount a shift by `amount` may use, when all
/// are below the width of the amount's own type (LLVM's
/// `getValidShiftAmountRange` for scalars): a constant, else the range
/// its known bits allow.
fn valid_shift_amounts(func: &Function, target: &dyn LegalizeTarget, amount: VReg, depth: u32) -> Option<(u32, u32)> {
    let bits = func.ty(amount).scalar_size_in_bits();
    if let Some(value) = constant(func, amount) {
        return value.to_u32_below(bits).map(|v| (v, v));
    }
    let k = known(func, target, amount, depth);
    let greatest = k.zero.not().to_u32_below(bits)?;
    Some((k.one.to_u32_below(bits)?, greatest))
}

/// Sign bits left after shifting `src` left by any amount in `amounts`,
/// when every such shift keeps some: an extension whose added bits are all
/// shifted out counts from its source. `None` when every sign bit may be
/// gone.
fn shifted_left_sign_bits(
    func: &Function,
    target: &dyn LegalizeTarget,
    src: Option<VReg>,
    (least, greatest): (u32, u32),
    depth: u32,
) -> Option<u32> {
    let src = src?;
    let extension = func.def_inst(src).filter(|&def| {
        matches!(func.inst(def).known_opcode(), Some(Opcode::G_SEXT | Opcode::G_ZEXT | Opcode::G_ANYEXT))
    });
    if let Some(narrow) = extension.and_then(|def| func.inst(def).operands.get(1).and_then(reg)) {
        let added = func.ty(src).scalar_size_in_bits() - func.ty(narrow).scalar_size_in_bits();
        let kept = added + sign_bits(func, target, narrow, depth + 1);
        if added <= least && greatest < kept {
            return Some(kept - greatest);
        }
    }
    let kept = sign_bits(func, target, src, depth + 1);
    (greatest < kept).then(|| kept - greatest)
}

fn reg(op: &Operand) -> Option<VReg> {
    match op.as_reg().map(|r| r.reg) {
        Some(Reg::Virtual(v)) => Some(v),
        _ => None,
    }
}

fn constant(func: &Function, v: VReg) -> Option<ApInt> {
    let def = func.def_inst(v)?;
    let data = func.inst(def);
    match &data.operands[..] {
        [_, Operand::CImm(c)] if data.is(Opcode::G_CONSTANT) => Some(c.as_ref().clone()),
        _ => None,
    }
}

/// The ranges of load `data`'s `!range` metadata, as the module's
/// metadata gives them.
fn load_ranges<'f>(func: &'f Function, data: &InstData) -> Option<&'f [IntRange]> {
    func.module.ranges(data.mem.first()?.range_node()?)
}

/// What is known of every lane of `v` (of `v` itself for a scalar or a
/// pointer).
fn known(func: &Function, target: &dyn LegalizeTarget, v: VReg, depth: u32) -> Known {
    let ty = func.ty(v);
    let lanes = if ty.is_vector() { ApInt::all_ones(ty.num_elements()) } else { ApInt::all_ones(1) };
    known_lanes(func, target, v, &lanes, depth)
}

/// What is known of the lanes of `v` that `lanes` asks about (LLVM's
/// `DemandedElts`: one bit per lane of a vector, a single bit for a scalar
/// or a pointer), what they all share.
fn known_lanes(func: &Function, target: &dyn LegalizeTarget, v: VReg, lanes: &ApInt, depth: u32) -> Known {
    let ty = func.ty(v);
    let bits = ty.scalar_size_in_bits().max(1);
    let nothing = || Known::unknown(bits);
    if !ty.is_valid() || ty.is_scalable() || depth >= MAX_DEPTH || lanes.is_zero() {
        return nothing();
    }
    let Some(def) = func.def_inst(v) else { return nothing() };
    let data = func.inst(def);
    let Some(opcode) = data.known_opcode() else { return nothing() };
    let operand = |i: usize| data.operands.get(i).and_then(reg);
    if opcode == G_UNMERGE_VALUES {
        return unmerged(func, target, data, v, lanes, depth).unwrap_or_else(nothing);
    }
    // The second def of an overflow or carry operation is a boolean.
    let is_carry = data.num_defs == 2 && operand(1) == Some(v);
    if is_carry {
        use Opcode::*;
        return match opcode {
            G_UADDO | G_USUBO | G_SADDO | G_SSUBO | G_UADDE | G_USUBE | G_SADDE | G_SSUBE | G_UMULO | G_SMULO
                if bits > 1 && target.boolean_content(ty.is_vector()) == BooleanContent::ZeroOrOne =>
            {
                Known { zero: ApInt::all_ones(bits).shl(1), one: ApInt::zero(bits) }
            }
            _ => nothing(),
        };
    }
    // Operations lane by lane ask their operands about the same lanes.
    let at = |r: VReg| known_lanes(func, target, r, lanes, depth + 1);
    let of = |i: usize| operand(i).map(at);
    // Operands `first` and `second`, the second looked at only when
    // something is known of the first: for an operation whose result is
    // unknown once one operand is (a sum, a difference, an exclusive or, a
    // select), the same answer for less work. `None` gives nothing.
    let unless_unknown = |first: usize, second: usize| {
        let known = of(first).filter(|k| !k.is_unknown())?;
        Some((known, of(second)?))
    };
    let high_zero = |low: u32| Known { zero: ApInt::all_ones(bits).shl(low.min(bits)), one: ApInt::zero(bits) };
    let vector = ty.is_vector();
    use Opcode::*;
    match opcode {
        G_CONSTANT => constant(func, v).map_or_else(nothing, |c| Known::constant(&c)),
        G_ICMP | G_FCMP if bits > 1 && !vector => match content(target, opcode, false) {
            BooleanContent::ZeroOrOne => high_zero(1),
            _ => nothing(),
        },
        G_ZEXT => operand(1).map_or_else(nothing, |src| {
            let inner = at(src).resize(bits);
            let high = high_zero(func.ty(src).scalar_size_in_bits());
            Known { zero: inner.zero.or(&high.zero), one: inner.one }
        }),
        G_ANYEXT => operand(1).map_or_else(nothing, |src| {
            let src_bits = func.ty(src).scalar_size_in_bits();
            let inner = at(src).resize(bits);
            let low = ApInt::all_ones(src_bits).zext_or_trunc(bits);
            Known { zero: inner.zero.and(&low), one: inner.one.and(&low) }
        }),
        // What the range metadata fixes of the loaded bits, with the
        // extension's high bits.
        G_LOAD | G_ZEXTLOAD | G_SEXTLOAD if !vector => {
            let Some(mem_bits) = data.mem.first().and_then(|m| m.memory_type()).map(|t| t.scalar_size_in_bits()) else {
                return nothing();
            };
            let loaded = load_ranges(func, data)
                .and_then(|ranges| load_range::known_bits(ranges, mem_bits))
                .unwrap_or_else(|| Known::unknown(mem_bits));
            match opcode {
                G_ZEXTLOAD => {
                    let low = loaded.resize(bits);
                    Known { zero: low.zero.or(&high_zero(mem_bits).zero), one: low.one }
                }
                G_SEXTLOAD => loaded.sign_extend(bits),
                _ => loaded.resize(bits),
            }
        }
        // What is known of the source, and the high bits zero.
        G_ASSERT_ZEXT => match (of(1), data.operands.get(2)) {
            (Some(k), Some(Operand::Imm(width))) => {
                let zero = k.zero.or(&high_zero(*width as u32).zero);
                Known { one: k.one.and(&zero.not()), zero }
            }
            _ => nothing(),
        },
        G_ASSERT_ALIGN => match data.operands.get(2) {
            Some(Operand::Imm(align)) if *align > 0 => nothing().with_low_zeros(align.trailing_zeros()),
            _ => nothing(),
        },
        G_TRUNC => of(1).map_or_else(nothing, |k| k.resize(bits)),
        // A pointer's bits, as an integer's, extended or truncated.
        G_INTTOPTR | G_PTRTOINT if !vector => of(1).map_or_else(nothing, |k| k.resize(bits)),
        G_MERGE_VALUES => {
            // The pieces side by side, the first lowest.
            let mut merged = Known { zero: ApInt::zero(bits), one: ApInt::zero(bits) };
            let mut offset = 0;
            for src in (1..data.operands.len()).filter_map(operand) {
                let piece = at(src).resize(bits);
                merged =
                    Known { zero: merged.zero.or(&piece.zero.shl(offset)), one: merged.one.or(&piece.one.shl(offset)) };
                offset += func.ty(src).scalar_size_in_bits();
            }
            merged
        }
        G_SEXT => of(1).map_or_else(nothing, |k| k.sign_extend(bits)),
        G_SEXT_INREG | G_ASSERT_SEXT => match (of(1), data.operands.get(2)) {
            (Some(k), Some(Operand::Imm(width))) if (1..=i64::from(bits)).contains(width) => {
                k.resize(*width as u32).sign_extend(bits)
            }
            _ => nothing(),
        },
        G_AND | G_OR => match (of(1), of(2)) {
            (Some(a), Some(b)) if opcode == G_AND => a.and(&b),
            (Some(a), Some(b)) => Known { zero: a.zero.and(&b.zero), one: a.one.or(&b.one) },
            _ => nothing(),
        },
        G_XOR => match unless_unknown(2, 1) {
            Some((b, a)) => Known {
                zero: a.zero.and(&b.zero).or(&a.one.and(&b.one)),
                one: a.zero.and(&b.one).or(&a.one.and(&b.zero)),
            },
            None => nothing(),
        },
        // An address is a sum (no target gisel knows has non-integral
        // address spaces).
        G_ADD | G_PTR_ADD if opcode == G_ADD || !vector => match unless_unknown(2, 1) {
            Some((b, a)) if a.zero.bits() == b.zero.bits() => Known::add_carry(&a, &b, true, false),
            _ => nothing(),
        },
        // The sum of an addition with overflow or carry (its carry-out is
        // taken above): with a carry-in, what is known of its lowest bit.
        G_UADDO | G_SADDO | G_UADDE | G_SADDE => {
            let Some((b, a)) = unless_unknown(3, 2) else { return nothing() };
            let carry = match opcode {
                G_UADDE | G_SADDE => of(4).map_or(Known::unknown(1), |k| k.resize(1)),
                _ => Known { zero: ApInt::all_ones(1), one: ApInt::zero(1) },
            };
            Known::add_carry(&a, &b, carry.zero.bit(0), carry.one.bit(0))
        }
        G_SUB => match unless_unknown(2, 1) {
            Some((b, a)) => Known::sub(&a, &b),
            None => nothing(),
        },
        G_MUL => match (of(1), of(2)) {
            (Some(a), Some(b)) => Known::product(&a, &b),
            _ => nothing(),
        },
        G_UMULH | G_SMULH => match (of(1), of(2)) {
            (Some(a), Some(b)) => Known::product_high(&a, &b, opcode == G_SMULH),
            _ => nothing(),
        },
        // The false value first, as LLVM looks at it.
        G_SELECT => match unless_unknown(3, 2) {
            Some((b, a)) => a.intersect(&b),
            None => nothing(),
        },
        // The result is one of the operands; an unsigned minimum also has
        // the leading zeros of the smaller one.
        G_SMIN | G_SMAX | G_UMIN | G_UMAX => match (of(1), of(2)) {
            (Some(a), Some(b)) => {
                let common = a.intersect(&b);
                if opcode == G_UMIN {
                    let zeros = a.zero.leading_ones().max(b.zero.leading_ones());
                    let high = ApInt::all_ones(bits).shl(bits - zeros);
                    Known { zero: common.zero.or(&high), one: common.one }
                } else {
                    common
                }
            }
            _ => nothing(),
        },
        // Whatever is known of the amount counts, not only a constant (a
        // G_TRUNC of one, say); shifting by the width or more is poison,
        // which LLVM's KnownBits shifts report as all bits zero.
        G_SHL | G_LSHR | G_ASHR => match (of(1), of(2)) {
            (Some(k), Some(amount)) => k.shifted(opcode, &amount),
            _ => nothing(),
        },
        G_UBFX | G_SBFX => match (of(1), of(2), of(3)) {
            (Some(src), Some(offset), Some(width)) => {
                let field = src.extract_field(&offset, &width);
                if opcode == G_UBFX {
                    field
                } else if width.zero.bits() == bits {
                    // Sign-extended from the field's top bit: shifted left
                    // and back by the bits above the field.
                    let above = Known::sub(&Known::constant(&ApInt::from_u128(bits, u128::from(bits))), &width);
                    field.shifted(G_SHL, &above).shifted(G_ASHR, &above)
                } else {
                    nothing()
                }
            }
            _ => nothing(),
        },
        G_BSWAP if bits.is_multiple_of(16) => of(1).map_or_else(nothing, |k| k.byte_swap()),
        G_BITREVERSE => {
            of(1).map_or_else(nothing, |k| Known { zero: k.zero.reverse_bits(), one: k.one.reverse_bits() })
        }
        G_CTPOP => of(1).map_or_else(nothing, |k| high_zero(bit_width(k.zero.bits() - k.zero.count_ones()))),
        G_CTLZ | G_CTLZ_ZERO_UNDEF => of(1).map_or_else(nothing, |k| high_zero(bit_width(k.one.leading_zeros()))),
        // LLVM 22's value tracking has no rule for trailing-zero counts.
        // A copy costs no depth.
        COPY => match operand(1) {
            Some(src) if func.ty(src) == ty => known_lanes(func, target, src, lanes, depth),
            _ => nothing(),
        },
        G_PHI => phi(func, target, data.operands.iter().skip(1).step_by(2), bits, lanes, depth),
        G_BUILD_VECTOR | G_CONCAT_VECTORS | G_SHUFFLE_VECTOR => lanes::gathered(func, target, data, lanes, bits, depth),
        _ => nothing(),
    }
}

/// A piece of a `G_UNMERGE_VALUES` (`v`): its slice of a scalar source's
/// bits, or the lanes of a vector source it takes (when they are of its
/// own element type).
fn unmerged(
    func: &Function,
    target: &dyn LegalizeTarget,
    data: &InstData,
    v: VReg,
    lanes: &ApInt,
    depth: u32,
) -> Option<Known> {
    let defs = usize::from(data.num_defs);
    let index = (0..defs).position(|i| data.operands.get(i).and_then(reg) == Some(v))?;
    let src = data.operands.get(defs).and_then(reg)?;
    let (src_ty, ty) = (func.ty(src), func.ty(v));
    if src_ty.is_vector() {
        if src_ty.scalar_type() != ty.scalar_type() {
            return None;
        }
        let per_piece = if ty.is_vector() { ty.num_elements() } else { 1 };
        let src_lanes = lanes.zext_or_trunc(src_ty.num_elements()).shl(index as u32 * per_piece);
        return Some(known_lanes(func, target, src, &src_lanes, depth + 1));
    }
    let bits = ty.scalar_size_in_bits();
    let source = known(func, target, src, depth + 1);
    let slice = |m: &ApInt| m.lshr(index as u32 * bits).zext_or_trunc(bits);
    Some(Known { zero: slice(&source.zero), one: slice(&source.one) })
}

/// What every incoming value of a `G_PHI` shares in `lanes`; anything but
/// a virtual register of a known type makes it unknown.
fn phi<'a>(
    func: &Function,
    target: &dyn LegalizeTarget,
    incoming: impl Iterator<Item = &'a Operand>,
    bits: u32,
    lanes: &ApInt,
    depth: u32,
) -> Known {
    let mut shared = Known { zero: ApInt::all_ones(bits), one: ApInt::all_ones(bits) };
    for value in incoming {
        let Some(src) = reg(value).filter(|&r| func.ty(r).is_valid()) else { return Known::unknown(bits) };
        shared = shared.intersect(&known_lanes(func, target, src, lanes, depth + 1).resize(bits));
        if shared.is_unknown() {
            break;
        }
    }
    shared
}

/// Bits needed to write `value` (0 for 0).
fn bit_width(value: u32) -> u32 {
    u32::BITS - value.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legalize::DefaultTarget;
    use crate::mir::parse_body;

    fn zero_mask(body: &str, name: &str) -> u128 {
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        let v = func.vregs().find(|v| func.vreg_name(*v) == Some(name)).expect("named vreg");
        known_zero(&func, &DefaultTarget, v, MAX_DEPTH).to_u128().expect("fits")
    }

    #[test]
    fn depth_limit_as_llc_at_o0() {
        // The carry of a narrowed add: or(icmp, and(icmp, icmp)). Two
        // levels (llc at -O0) reach the inner compares only through the
        // and, which is as deep as the analysis goes.
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %p:_(s32) = G_ICMP intpred(eq), %a(s32), %a\n  \
                    %q:_(s32) = G_ICMP intpred(ult), %a(s32), %a\n  %n:_(s32) = G_AND %p, %q\n  \
                    %carry:_(s32) = G_OR %p, %n\n";
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        let carry = func.vregs().find(|v| func.vreg_name(*v) == Some("carry")).expect("named vreg");
        let high = |depth| known_zero(&func, &DefaultTarget, carry, depth).to_u128().expect("fits");
        assert_eq!(high(MAX_DEPTH), 0xffff_fffe);
        assert_eq!(high(2), 0);
    }

    #[test]
    fn knows_booleans_masks_extensions_and_sums() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %c:_(s32) = G_ICMP intpred(eq), %a(s32), %a\n  \
                    %k:_(s32) = G_CONSTANT i32 255\n  %m:_(s32) = G_AND %a, %k\n  %t:_(s8) = G_TRUNC %a(s32)\n  \
                    %z:_(s32) = G_ZEXT %t(s8)\n  %four:_(s32) = G_CONSTANT i32 4\n  %s:_(s32) = G_LSHR %m, %four(s32)\n  \
                    %sum:_(s32) = G_ADD %s, %s\n  %p:_(s32) = G_CTPOP %a(s32)\n  %d:_(s32) = G_SUB %m, %s\n";
        assert_eq!(zero_mask(body, "c"), 0xffff_fffe);
        assert_eq!(zero_mask(body, "m"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "z"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "s"), 0xffff_fff0);
        assert_eq!(zero_mask(body, "sum"), 0xffff_ffe0);
        assert_eq!(zero_mask(body, "p"), 0xffff_ffc0);
        assert_eq!(zero_mask(body, "a"), 0);
        // m - s may borrow: nothing above bit 7 is known.
        assert_eq!(zero_mask(body, "d"), 0);
    }

    #[test]
    fn one_unknown_operand_leaves_sums_differences_xors_and_selects_unknown() {
        // Whichever side the unknown operand is on (the other is looked at
        // only when something is known of the first).
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %k:_(s32) = G_CONSTANT i32 255\n  %m:_(s32) = G_AND %a, %k\n  \
                    %c:_(s1) = G_ICMP intpred(eq), %a(s32), %k\n  %x1:_(s32) = G_XOR %m, %a\n  \
                    %x2:_(s32) = G_XOR %a, %m\n  %d1:_(s32) = G_SUB %m, %a\n  %d2:_(s32) = G_SUB %a, %m\n  \
                    %p1:_(s32) = G_ADD %m, %a\n  %p2:_(s32) = G_ADD %a, %m\n  %s1:_(s32) = G_SELECT %c(s1), %m, %a\n  \
                    %s2:_(s32) = G_SELECT %c(s1), %a, %m\n  %u:_(s32), %o:_(s1) = G_UADDO %a, %m\n  \
                    %both:_(s32) = G_SELECT %c(s1), %m, %m\n  %mm:_(s32) = G_XOR %m, %m\n";
        for name in ["x1", "x2", "d1", "d2", "p1", "p2", "s1", "s2", "u"] {
            assert_eq!(zero_mask(body, name), 0, "{name}");
        }
        assert_eq!(zero_mask(body, "both"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "mm"), 0xffff_ff00);
    }

    #[test]
    fn knows_sums_of_additions_with_overflow_and_carry() {
        // 0 + 0 + carry is 0 or 1 whatever the carry-in (only its lowest
        // bit counts); a bit plus one more with a known-zero carry-in, 0 to 2;
        // the carry-out is a boolean either way.
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %b:_(s32) = COPY $w1\n  %zero:_(s32) = G_CONSTANT i32 0\n  \
                    %one:_(s32) = G_CONSTANT i32 1\n  %lo:_(s32), %c:_(s8) = G_UADDO %a, %b\n  \
                    %hi:_(s32), %c2:_(s8) = G_UADDE %zero, %zero, %c\n  %bit:_(s32) = G_AND %a, %one\n  \
                    %s:_(s32), %o:_(s1) = G_SADDO %bit, %one\n  %t:_(s8) = G_TRUNC %a(s32)\n  \
                    %e:_(s32), %e2:_(s8) = G_SADDE %bit, %zero, %t\n";
        assert_eq!(zero_mask(body, "hi"), 0xffff_fffe);
        assert_eq!(zero_mask(body, "s"), 0xffff_fffc);
        assert_eq!(zero_mask(body, "e"), 0xffff_fffc);
        assert_eq!(zero_mask(body, "lo"), 0);
        assert_eq!(zero_mask(body, "c2"), 0xfe);
    }

    #[test]
    fn knows_shifts_by_unknown_amounts_and_leading_counts_of_known_ones() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %n:_(s32) = COPY $w1\n  %k:_(s32) = G_CONSTANT i32 255\n  \
                    %m:_(s32) = G_AND %a, %k\n  %r:_(s32) = G_LSHR %m, %n(s32)\n  %l:_(s32) = G_SHL %k, %n(s32)\n  \
                    %two:_(s32) = G_CONSTANT i32 2\n  %o:_(s32) = G_OR %a, %two\n  %b:_(s32) = G_BITREVERSE %o\n  \
                    %c:_(s32) = G_CTLZ %b(s32)\n  %t:_(s32) = G_CTTZ %o(s32)\n  %p:_(s32) = G_CTPOP %m(s32)\n  \
                    %four:_(s32) = G_CONSTANT i32 4\n  %q:_(s32) = G_MUL %m, %four\n";
        assert_eq!(zero_mask(body, "r"), 0xffff_ff00);
        // At most 255 * 4, and a multiple of four.
        assert_eq!(zero_mask(body, "q"), 0xffff_fc03);
        assert_eq!(zero_mask(body, "l"), 0);
        // Bit 30 of the reversal is one, so at most one leading zero.
        assert_eq!(zero_mask(body, "c"), 0xffff_fffe);
        // Trailing-zero counts are unknown to LLVM 22's value tracking.
        assert_eq!(zero_mask(body, "t"), 0);
        // At most eight ones: the count fits in four bits.
        assert_eq!(zero_mask(body, "p"), 0xffff_fff0);
    }

    #[test]
    fn shifts_by_the_width_or_more_are_all_zero() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %big:_(s32) = G_CONSTANT i32 633\n  \
                    %w:_(s32) = G_CONSTANT i32 32\n  %l:_(s32) = G_SHL %a, %big(s32)\n  \
                    %r:_(s32) = G_LSHR %a, %w(s32)\n  %s:_(s32) = G_ASHR %a, %big(s32)\n";
        for name in ["l", "r", "s"] {
            assert_eq!(zero_mask(body, name), 0xffff_ffff, "{name}");
        }
    }

    #[test]
    fn shift_amounts_count_by_their_known_bits() {
        // An amount that is a truncated constant; one of at least 16 (bit 4
        // set, the rest unknown); one of at most 7 (an AND with 7).
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %b:_(s32) = COPY $w1\n  %c:_(s64) = G_CONSTANT i64 -273\n  \
                    %t:_(s32) = G_TRUNC %c(s64)\n  %r:_(s32) = G_LSHR %t, %t(s32)\n  \
                    %sixteen:_(s32) = G_CONSTANT i32 16\n  %big:_(s32) = G_OR %b, %sixteen\n  \
                    %h:_(s32) = G_LSHR %a, %big(s32)\n  %l:_(s32) = G_SHL %a, %big(s32)\n  \
                    %k:_(s32) = G_CONSTANT i32 255\n  %m:_(s32) = G_AND %a, %k\n  %seven:_(s32) = G_CONSTANT i32 7\n  \
                    %small:_(s32) = G_AND %b, %seven\n  %u:_(s32) = G_SHL %m, %small(s32)\n";
        assert_eq!(zero_mask(body, "r"), 0xffff_ffff);
        assert_eq!(zero_mask(body, "h"), 0xffff_0000);
        assert_eq!(zero_mask(body, "l"), 0x0000_ffff);
        assert_eq!(zero_mask(body, "u"), 0xffff_8000);
    }

    #[test]
    fn min_and_max_keep_what_both_operands_share() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %b:_(s32) = COPY $w1\n  %k:_(s32) = G_CONSTANT i32 255\n  \
                    %m:_(s32) = G_AND %a, %k\n  %u:_(s32) = G_UMIN %m, %b\n  %x:_(s32) = G_UMAX %m, %b\n  \
                    %n:_(s32) = G_AND %b, %k\n  %s:_(s32) = G_SMAX %m, %n\n";
        assert_eq!(zero_mask(body, "u"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "x"), 0);
        assert_eq!(zero_mask(body, "s"), 0xffff_ff00);
    }

    #[test]
    fn merges_and_unmerges_carry_their_pieces_bits() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %k:_(s32) = G_CONSTANT i32 255\n  %m:_(s32) = G_AND %a, %k\n  \
                    %z:_(s32) = G_CONSTANT i32 0\n  %w:_(s64) = G_MERGE_VALUES %m(s32), %z(s32)\n  \
                    %lo:_(s16), %hi:_(s16), %x:_(s16), %y:_(s16) = G_UNMERGE_VALUES %w(s64)\n";
        assert_eq!(zero_mask(body, "w"), 0xffff_ffff_ffff_ff00);
        assert_eq!(zero_mask(body, "lo"), 0xff00);
        assert_eq!(zero_mask(body, "hi"), 0xffff);
        assert_eq!(zero_mask(body, "y"), 0xffff);
    }

    #[test]
    fn sign_extensions_of_a_known_sign_are_known() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %k:_(s32) = G_CONSTANT i32 13107\n  %m:_(s32) = G_AND %a, %k\n  \
                    %i:_(s32) = G_SEXT_INREG %m, 16\n  %j:_(s32) = G_SEXT_INREG %a, 16\n  \
                    %t:_(s16) = G_TRUNC %m(s32)\n  %s:_(s32) = G_SEXT %t(s16)\n";
        // 0x3333 leaves bit 15 zero, so the sign extension is a zero extension.
        assert_eq!(zero_mask(body, "i"), 0xffff_cccc);
        assert_eq!(zero_mask(body, "s"), 0xffff_cccc);
        assert_eq!(zero_mask(body, "j"), 0);
    }

    #[test]
    fn counts_sign_bits_of_extensions_shifts_and_compares() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %t:_(s8) = G_TRUNC %a(s32)\n  %s:_(s32) = G_SEXT %t(s8)\n  \
                    %i:_(s32) = G_SEXT_INREG %a, 16\n  %four:_(s32) = G_CONSTANT i32 4\n  %r:_(s32) = G_ASHR %i, %four(s32)\n  \
                    %c:_(s32) = G_ICMP intpred(eq), %a(s32), %a\n  %n:_(s32) = G_CONSTANT i32 -3\n  %x:_(s32) = G_XOR %s, %i\n  \
                    %q:_(s32) = G_ASSERT_SEXT %a, 12\n  \
                    %m:_(s32) = G_SMIN %q, %i\n  %two:_(s32) = G_CONSTANT i32 2\n  \
                    %h:_(s32) = G_SHL %i, %two(s32)\n  %e:_(s32) = G_SHL %s, %four(s32)\n";
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        let sign_bits = |name: &str| {
            let v = func.vregs().find(|v| func.vreg_name(*v) == Some(name)).expect("named vreg");
            num_sign_bits(&func, &DefaultTarget, v, MAX_DEPTH)
        };
        assert_eq!(sign_bits("a"), 1);
        assert_eq!(sign_bits("s"), 25);
        assert_eq!(sign_bits("i"), 17);
        assert_eq!(sign_bits("r"), 21);
        // Scalar booleans are zero or one: all but the low bit are zero.
        assert_eq!(sign_bits("c"), 31);
        assert_eq!(sign_bits("n"), 30);
        assert_eq!(sign_bits("x"), 17);
        assert_eq!(sign_bits("q"), 21);
        assert_eq!(sign_bits("m"), 17);
        assert_eq!(sign_bits("h"), 15);
        assert_eq!(sign_bits("e"), 21);
    }

    #[test]
    fn sign_bits_fall_back_to_known_bits_as_llvm_does() {
        // A truncation that cuts into the sign bits, and an arithmetic
        // shift by an amount too wide for its own type (an s8 amount of
        // 8), count what the known bits say; a copy costs no depth.
        let body = "bb.0:\n  %a:_(s64) = COPY $x0\n  %k:_(s64) = G_CONSTANT i64 4095\n  %m:_(s64) = G_AND %a, %k\n  \
                    %t:_(s32) = G_TRUNC %m(s64)\n  %eight:_(s8) = G_CONSTANT i8 8\n  %r:_(s64) = G_ASHR %m, %eight(s8)\n  \
                    %c:_(s64) = COPY %m(s64)\n";
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        let sign_bits = |name: &str, depth: u32| {
            let v = func.vregs().find(|v| func.vreg_name(*v) == Some(name)).expect("named vreg");
            num_sign_bits(&func, &DefaultTarget, v, depth)
        };
        assert_eq!(sign_bits("t", MAX_DEPTH), 20);
        assert_eq!(sign_bits("r", MAX_DEPTH), 60);
        // Two levels reach the constant under the G_AND through the copy.
        assert_eq!(sign_bits("c", 2), 52);
    }

    #[test]
    fn sums_and_differences_lose_at_most_one_sign_bit() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %t:_(s8) = G_TRUNC %a(s32)\n  %s:_(s32) = G_SEXT %t(s8)\n  \
                    %i:_(s32) = G_SEXT_INREG %a, 16\n  %add:_(s32) = G_ADD %s, %i\n  %sub:_(s32) = G_SUB %i, %s\n  \
                    %zero:_(s32) = G_CONSTANT i32 0\n  %minus:_(s32) = G_CONSTANT i32 -1\n  \
                    %b:_(s1) = G_TRUNC %a(s32)\n  %z:_(s32) = G_ZEXT %b(s1)\n  %neg:_(s32) = G_SUB %zero, %z\n  \
                    %dec:_(s32) = G_ADD %z, %minus\n  %u:_(s32) = G_ZEXT %t(s8)\n  %negu:_(s32) = G_SUB %zero, %u\n  \
                    %decu:_(s32) = G_ADD %u, %minus\n  %any:_(s32) = G_ADD %a, %s\n";
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        let sign_bits = |name: &str| {
            let v = func.vregs().find(|v| func.vreg_name(*v) == Some(name)).expect("named vreg");
            num_sign_bits(&func, &DefaultTarget, v, MAX_DEPTH)
        };
        assert_eq!(sign_bits("add"), 16);
        assert_eq!(sign_bits("sub"), 16);
        // 0 - (0 or 1) and (0 or 1) - 1 are 0 or -1.
        assert_eq!(sign_bits("neg"), 32);
        assert_eq!(sign_bits("dec"), 32);
        // Of a byte: as many sign bits as the byte's zero extension has.
        assert_eq!(sign_bits("negu"), 24);
        assert_eq!(sign_bits("decu"), 24);
        assert_eq!(sign_bits("any"), 1);
    }

    #[test]
    fn phis_know_what_every_incoming_value_shares() {
        let body = "bb.0:\n  successors: %bb.1\n  %a:_(s32) = COPY $w0\n  %zero:_(s32) = G_CONSTANT i32 0\n  \
                    %c:_(s32) = G_ICMP intpred(eq), %a(s32), %a\n  %k:_(s32) = G_CONSTANT i32 255\n  \
                    %m:_(s32) = G_AND %a, %k\n  G_BR %bb.1\nbb.1:\n  successors: %bb.1\n  \
                    %bool:_(s32) = G_PHI %zero(s32), %bb.0, %c(s32), %bb.1\n  \
                    %byte:_(s32) = G_PHI %m(s32), %bb.0, %c(s32), %bb.1, %a(s32), %bb.1\n  \
                    %loop:_(s32) = G_PHI %m(s32), %bb.0, %loop(s32), %bb.1\n  G_BR %bb.1\n";
        assert_eq!(zero_mask(body, "bool"), 0xffff_fffe);
        assert_eq!(zero_mask(body, "byte"), 0);
        // A loop-carried value is followed only to the depth limit.
        assert_eq!(zero_mask(body, "loop"), 0);
    }

    #[test]
    fn knows_byte_swaps_bit_fields_and_high_products() {
        let body = "bb.0:\n  %a:_(s64) = COPY $x0\n  %b:_(s64) = COPY $x1\n  %top:_(s64) = G_CONSTANT i64 -72057594037927936\n  \
                    %byte:_(s64) = G_CONSTANT i64 255\n  %t:_(s64) = G_AND %a, %top\n  %swapped:_(s64) = G_BSWAP %t\n  \
                    %three:_(s64) = G_CONSTANT i64 3\n  %eight:_(s64) = G_CONSTANT i64 8\n  \
                    %u:_(s64) = G_UBFX %a, %three(s64), %eight\n  %small:_(s64) = G_AND %a, %byte\n  \
                    %s:_(s64) = G_SBFX %small, %three(s64), %eight\n  %low:_(s64) = G_AND %b, %byte\n  \
                    %hi:_(s64) = G_UMULH %small, %low\n  %shi:_(s64) = G_SMULH %small, %low\n  %any:_(s64) = G_UMULH %small, %b\n";
        assert_eq!(zero_mask(body, "swapped"), !0xffu128 & u128::from(u64::MAX));
        assert_eq!(zero_mask(body, "u"), !0xffu128 & u128::from(u64::MAX));
        // Bits 3..8 of a byte: the field's top bit is zero, so is its sign.
        assert_eq!(zero_mask(body, "s"), !0x1fu128 & u128::from(u64::MAX));
        assert_eq!(zero_mask(body, "hi"), u128::from(u64::MAX));
        assert_eq!(zero_mask(body, "shi"), u128::from(u64::MAX));
        // A byte times anything: the high half is below 255.
        assert_eq!(zero_mask(body, "any"), !0xffu128 & u128::from(u64::MAX));
    }

    #[test]
    fn products_know_their_low_bits() {
        // (2a + 1) * (4b + 3) is odd; LLVM fixes only as many low bits as
        // the less known factor has (one), so bit 1 stays unknown.
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %b:_(s32) = COPY $w1\n  %one:_(s32) = G_CONSTANT i32 1\n  \
                    %three:_(s32) = G_CONSTANT i32 3\n  %x:_(s32) = G_OR %a, %one\n  %y:_(s32) = G_OR %b, %three\n  \
                    %p:_(s32) = G_MUL %x, %y\n  %q:_(s32) = G_XOR %p, %three\n";
        assert_eq!(zero_mask(body, "q"), 0b1);
    }

    #[test]
    fn pointers_carry_known_bits() {
        let body = "bb.0:\n  %a:_(s64) = COPY $x0\n  %k:_(s64) = G_CONSTANT i64 255\n  %m:_(s64) = G_AND %a, %k\n  \
                    %p:_(p0) = G_INTTOPTR %m(s64)\n  %q:_(p0) = G_PTR_ADD %p, %m(s64)\n  %i:_(s64) = G_PTRTOINT %q(p0)\n  \
                    %aligned:_(p0) = G_ASSERT_ALIGN %p(p0), 16\n";
        assert_eq!(zero_mask(body, "i"), !0x1ffu128 & u128::from(u64::MAX));
        // Only the alignment, not what the source knows (as LLVM 22).
        assert_eq!(zero_mask(body, "aligned"), 0xf);
    }

    #[test]
    fn vectors_share_what_their_asked_lanes_know() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %k:_(s32) = G_CONSTANT i32 255\n  %m:_(s32) = G_AND %a, %k\n  \
                    %v:_(<4 x s32>) = G_BUILD_VECTOR %m(s32), %m(s32), %m(s32), %m(s32)\n  \
                    %w:_(<4 x s32>) = G_BUILD_VECTOR %m(s32), %a(s32), %m(s32), %m(s32)\n  \
                    %even:_(<4 x s32>) = G_SHUFFLE_VECTOR %w(<4 x s32>), %v, shufflemask(0, 2, 4, 6)\n  \
                    %odd:_(<4 x s32>) = G_SHUFFLE_VECTOR %w(<4 x s32>), %v, shufflemask(1, 2, 4, 6)\n  \
                    %undef:_(<4 x s32>) = G_SHUFFLE_VECTOR %v(<4 x s32>), %v, shufflemask(0, undef, 4, 6)\n  \
                    %lo:_(<2 x s32>), %hi:_(<2 x s32>) = G_UNMERGE_VALUES %w(<4 x s32>)\n  \
                    %both:_(<4 x s32>) = G_CONCAT_VECTORS %hi(<2 x s32>), %hi(<2 x s32>)\n  \
                    %sum:_(<4 x s32>) = G_ADD %v, %v\n";
        assert_eq!(zero_mask(body, "v"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "w"), 0);
        assert_eq!(zero_mask(body, "even"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "odd"), 0);
        assert_eq!(zero_mask(body, "undef"), 0);
        assert_eq!(zero_mask(body, "lo"), 0);
        assert_eq!(zero_mask(body, "hi"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "both"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "sum"), 0xffff_fe00);
    }
}
