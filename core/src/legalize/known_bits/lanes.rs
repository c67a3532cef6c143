//! Known bits of the operations that gather lanes into a vector: what the
//! lanes asked about share (LLVM's `DemandedElts` for `G_BUILD_VECTOR`,
//! `G_CONCAT_VECTORS` and `G_SHUFFLE_VECTOR`).

use super::{Known, known_lanes, reg};
use crate::apint::ApInt;
use crate::ir::{Function, InstData, Operand, VReg};
use crate::legalize::target::LegalizeTarget;

/// What the lanes asked of each source share, the sources taken in turn
/// until nothing is known; a part that is not a register makes it
/// unknown. Before the first part every bit is both zero and one, which
/// intersecting with the first part's knowledge replaces.
fn shared_by(
    func: &Function,
    target: &dyn LegalizeTarget,
    parts: impl IntoIterator<Item = Option<(VReg, ApInt)>>,
    bits: u32,
    depth: u32,
) -> Known {
    let mut shared = Known { zero: ApInt::all_ones(bits), one: ApInt::all_ones(bits) };
    for part in parts {
        let Some((source, asked)) = part else { return Known::unknown(bits) };
        shared = shared.intersect(&known_lanes(func, target, source, &asked, depth + 1));
        if shared.is_unknown() {
            break;
        }
    }
    shared
}

/// The elements of a `G_BUILD_VECTOR` in `lanes`, each a scalar.
pub(super) fn build_vector(
    func: &Function,
    target: &dyn LegalizeTarget,
    data: &InstData,
    lanes: &ApInt,
    bits: u32,
    depth: u32,
) -> Known {
    let asked = data.operands.iter().skip(1).enumerate().filter(|(lane, _)| lanes.bit(*lane as u32));
    let parts = asked.map(|(_, element)| reg(element).map(|r| (r, ApInt::all_ones(1))));
    shared_by(func, target, parts, bits, depth)
}

/// The source vectors of a `G_CONCAT_VECTORS`, each asked about its share
/// of `lanes`.
pub(super) fn concat(
    func: &Function,
    target: &dyn LegalizeTarget,
    data: &InstData,
    lanes: &ApInt,
    bits: u32,
    depth: u32,
) -> Known {
    let sources: Option<Vec<_>> = data.operands.iter().skip(1).map(reg).collect();
    let Some(sources) = sources.filter(|s| s.first().is_some_and(|&first| func.ty(first).is_vector())) else {
        return Known::unknown(bits);
    };
    let per_source = func.ty(sources[0]).num_elements();
    let parts = sources.iter().enumerate().filter_map(|(i, &source)| {
        let asked = lanes.extract(i as u32 * per_source, per_source);
        (!asked.is_zero()).then_some(Some((source, asked)))
    });
    shared_by(func, target, parts, bits, depth)
}

/// The lanes of the two sources of a `G_SHUFFLE_VECTOR` its mask picks for
/// `lanes`; nothing is known when one of those lanes is undefined.
pub(super) fn shuffle(
    func: &Function,
    target: &dyn LegalizeTarget,
    data: &InstData,
    lanes: &ApInt,
    bits: u32,
    depth: u32,
) -> Known {
    let (Some(lhs), Some(rhs), Some(Operand::ShuffleMask(mask))) =
        (data.operands.get(1).and_then(reg), data.operands.get(2).and_then(reg), data.operands.get(3))
    else {
        return Known::unknown(bits);
    };
    if !func.ty(lhs).is_vector() {
        return Known::unknown(bits);
    }
    let width = func.ty(lhs).num_elements();
    let Some((from_lhs, from_rhs)) = picked_lanes(width, mask, lanes) else { return Known::unknown(bits) };
    let parts = [(lhs, from_lhs), (rhs, from_rhs)].into_iter().filter(|(_, asked)| !asked.is_zero()).map(Some);
    shared_by(func, target, parts, bits, depth)
}

/// The lanes of each source (of `width` lanes) that `mask` reads for the
/// result lanes in `lanes` (LLVM's `getShuffleDemandedElts`); `None` when
/// one of them is undefined. A mask of zeros alone reads lane 0 of the
/// first source.
fn picked_lanes(width: u32, mask: &[Option<u32>], lanes: &ApInt) -> Option<(ApInt, ApInt)> {
    let (mut from_lhs, mut from_rhs) = (ApInt::zero(width), ApInt::zero(width));
    if lanes.is_zero() {
        return Some((from_lhs, from_rhs));
    }
    if mask.iter().all(|m| *m == Some(0)) {
        from_lhs.set_bit(0, true);
        return Some((from_lhs, from_rhs));
    }
    for (lane, picked) in mask.iter().enumerate() {
        if !lanes.bit(lane as u32) {
            continue;
        }
        match picked {
            None => return None,
            Some(m) if *m < width => from_lhs.set_bit(*m, true),
            Some(m) => from_rhs.set_bit(m - width, true),
        }
    }
    Some((from_lhs, from_rhs))
}
