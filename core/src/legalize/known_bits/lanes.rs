//! Known bits of the operations that gather lanes into a vector: what the
//! lanes asked about share (LLVM's `DemandedElts` for `G_BUILD_VECTOR`,
//! `G_CONCAT_VECTORS` and `G_SHUFFLE_VECTOR`).

use super::{Known, known_lanes, reg};
use crate::apint::ApInt;
use crate::ir::{Function, InstData, Operand, VReg};
use crate::legalize::target::LegalizeTarget;
use crate::opcode::Opcode;

/// What the lanes of a `G_BUILD_VECTOR`, `G_CONCAT_VECTORS` or
/// `G_SHUFFLE_VECTOR` that `lanes` asks about share: the sources asked in
/// turn until nothing is known.
pub(super) fn gathered(
    func: &Function,
    target: &dyn LegalizeTarget,
    data: &InstData,
    lanes: &ApInt,
    bits: u32,
    depth: u32,
) -> Known {
    let Some(asked) = asked_sources(func, data, lanes) else { return Known::unknown(bits) };
    // Before the first source every bit is both zero and one, which
    // intersecting with its knowledge replaces.
    let mut shared = Known { zero: ApInt::all_ones(bits), one: ApInt::all_ones(bits) };
    for (source, source_lanes) in asked {
        shared = shared.intersect(&known_lanes(func, target, source, &source_lanes, depth + 1));
        if shared.is_unknown() {
            break;
        }
    }
    shared
}

/// Each source a gathering instruction reads for `lanes`, with the lanes
/// of it read (none asked of a source leaves it out): a
/// `G_BUILD_VECTOR`'s scalar elements, a `G_CONCAT_VECTORS`'s share of
/// the lanes in each source vector, the lanes a `G_SHUFFLE_VECTOR`'s mask
/// picks. `None` when nothing can be known (an operand that is not a
/// register, or an undefined lane picked).
fn asked_sources(func: &Function, data: &InstData, lanes: &ApInt) -> Option<Vec<(VReg, ApInt)>> {
    let sources = || data.operands.iter().skip(1);
    let asked = match data.known_opcode()? {
        Opcode::G_BUILD_VECTOR => sources()
            .enumerate()
            .filter(|(lane, _)| lanes.bit(*lane as u32))
            .map(|(_, element)| reg(element).map(|r| (r, ApInt::all_ones(1))))
            .collect::<Option<Vec<_>>>()?,
        Opcode::G_CONCAT_VECTORS => {
            let vectors = sources().map(reg).collect::<Option<Vec<_>>>()?;
            let per_source = func.ty(*vectors.first()?).num_elements();
            if !func.ty(vectors[0]).is_vector() {
                return None;
            }
            let share = |i: usize| lanes.extract(i as u32 * per_source, per_source);
            vectors.iter().enumerate().map(|(i, &source)| (source, share(i))).collect()
        }
        Opcode::G_SHUFFLE_VECTOR => {
            let (Some(lhs), Some(rhs), Some(Operand::ShuffleMask(mask))) =
                (data.operands.get(1).and_then(reg), data.operands.get(2).and_then(reg), data.operands.get(3))
            else {
                return None;
            };
            if !func.ty(lhs).is_vector() {
                return None;
            }
            let (from_lhs, from_rhs) = picked_lanes(func.ty(lhs).num_elements(), mask, lanes)?;
            vec![(lhs, from_lhs), (rhs, from_rhs)]
        }
        _ => return None,
    };
    Some(asked.into_iter().filter(|(_, source_lanes)| !source_lanes.is_zero()).collect())
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
