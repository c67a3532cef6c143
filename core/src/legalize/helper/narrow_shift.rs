//! `NarrowScalar` of shifts: in two halves (`narrowScalarShift`), or, for
//! more than four parts, every part at once by selecting on the word shift
//! (LLVM 22's multi-way split), by a known or unknown amount.

use super::{Helper, StepResult};
use crate::apint::ApInt;
use crate::ir::{Function, Inst, IntPredicate, Operand, Reg, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

fn done(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.func.erase(inst);
    StepResult::Legalized
}

fn icmp(h: &mut Helper<'_>, ty: Llt, pred: IntPredicate, a: VReg, b: VReg) -> VReg {
    h.builder().icmp(ty, pred, a, b)
}

fn select(h: &mut Helper<'_>, ty: Llt, cond: VReg, a: VReg, b: VReg) -> VReg {
    h.build(Opcode::G_SELECT, ty, &[cond, a, b])
}

/// The constant a register holds, looking through copies, truncates and
/// zero/sign extensions (LLVM's `getIConstantVRegValWithLookThrough`).
fn constant_through(func: &Function, mut v: VReg) -> Option<ApInt> {
    let mut casts: Vec<(Opcode, u32)> = Vec::new();
    loop {
        let def = func.def_inst(v)?;
        let data = func.inst(def);
        let opcode = data.known_opcode()?;
        match opcode {
            Opcode::G_CONSTANT => {
                let Operand::CImm(value) = &data.operands[1] else { return None };
                let mut value = value.as_ref().clone();
                for (cast, bits) in casts.into_iter().rev() {
                    value = match cast {
                        Opcode::G_SEXT => value.sext_or_trunc(bits),
                        _ => value.zext_or_trunc(bits),
                    };
                }
                return Some(value);
            }
            Opcode::COPY | Opcode::G_TRUNC | Opcode::G_ZEXT | Opcode::G_SEXT => {
                let Some(Reg::Virtual(src)) = data.operands[1].as_reg().map(|r| r.reg) else { return None };
                if opcode != Opcode::COPY {
                    casts.push((opcode, func.ty(v).scalar_size_in_bits()));
                }
                v = src;
            }
            _ => return None,
        }
    }
}

/// Shifts into more parts than this are split every part at once.
const MAX_HALVED_PARTS: u32 = 4;

/// Shifts of the result: into two halves (`narrowScalarShift`), or into
/// all `narrow` parts at once when there are more than four.
pub(super) fn narrow_shift(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    let (dst, src, amount) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let size = h.func.ty(dst).scalar_size_in_bits();
    if h.func.ty(dst).is_vector() || !size.is_multiple_of(2) {
        return StepResult::Unable("only even-sized scalar shifts are split".into());
    }
    let part_bits = narrow.scalar_size_in_bits();
    if !narrow.is_vector() && size.is_multiple_of(part_bits) && size / part_bits > MAX_HALVED_PARTS {
        let parts = h.split_named(src, narrow, (size / part_bits) as usize);
        let shift = MultiwayShift::new(opcode, narrow, h.func.ty(amount), parts);
        let result = match constant_through(h.func, amount) {
            Some(known) => shift.by_constant(h, &known),
            None => shift.by_register(h, amount),
        };
        h.build_into(Opcode::G_MERGE_VALUES, dst, &result);
        return done(h, inst);
    }
    let amount_ty = h.func.ty(amount);
    let half_bits = size / 2;
    let half = Llt::scalar(half_bits);
    if let Some(known) = constant_through(h.func, amount) {
        return shift_by_constant(h, inst, opcode, known, half, amount_ty);
    }
    let new_bits = h.builder().constant(amount_ty, i128::from(half_bits));
    let halves = h.split_named(src, half, 2);
    let (in_l, in_h) = (halves[0], halves[1]);
    let excess = h.build(Opcode::G_SUB, amount_ty, &[amount, new_bits]);
    let lack = h.build(Opcode::G_SUB, amount_ty, &[new_bits, amount]);
    let zero = h.builder().constant(amount_ty, 0);
    let s1 = Llt::scalar(1);
    let is_short = icmp(h, s1, IntPredicate::Ult, amount, new_bits);
    let is_zero = icmp(h, s1, IntPredicate::Eq, amount, zero);
    let (lo, hi) = if opcode == Opcode::G_SHL {
        let lo_short = h.build(Opcode::G_SHL, half, &[in_l, amount]);
        let lo_or = h.build(Opcode::G_LSHR, half, &[in_l, lack]);
        let hi_or = h.build(Opcode::G_SHL, half, &[in_h, amount]);
        let hi_short = h.build(Opcode::G_OR, half, &[lo_or, hi_or]);
        let lo_long = h.builder().constant(half, 0);
        let hi_long = h.build(Opcode::G_SHL, half, &[in_l, excess]);
        let lo = select(h, half, is_short, lo_short, lo_long);
        let inner = select(h, half, is_short, hi_short, hi_long);
        let hi = select(h, half, is_zero, in_h, inner);
        (lo, hi)
    } else {
        let hi_short = h.build(opcode, half, &[in_h, amount]);
        let lo_or = h.build(Opcode::G_LSHR, half, &[in_l, amount]);
        let hi_or = h.build(Opcode::G_SHL, half, &[in_h, lack]);
        let lo_short = h.build(Opcode::G_OR, half, &[lo_or, hi_or]);
        let hi_long = if opcode == Opcode::G_LSHR {
            h.builder().constant(half, 0)
        } else {
            let sign = h.builder().constant(amount_ty, i128::from(half_bits - 1));
            h.build(Opcode::G_ASHR, half, &[in_h, sign])
        };
        let lo_long = h.build(opcode, half, &[in_h, excess]);
        let inner = select(h, half, is_short, lo_short, lo_long);
        let lo = select(h, half, is_zero, in_l, inner);
        let hi = select(h, half, is_short, hi_short, hi_long);
        (lo, hi)
    };
    h.build_into(Opcode::G_MERGE_VALUES, dst, &[lo, hi]);
    done(h, inst)
}

fn shift_by_constant(
    h: &mut Helper<'_>,
    inst: Inst,
    opcode: Opcode,
    amount: ApInt,
    half: Llt,
    amount_ty: Llt,
) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let halves = h.split_named(src, half, 2);
    let (in_l, in_h) = (halves[0], halves[1]);
    if amount.is_zero() {
        h.build_into(Opcode::G_MERGE_VALUES, dst, &[in_l, in_h]);
        return done(h, inst);
    }
    let nvt_bits = u128::from(half.scalar_size_in_bits());
    let amt = amount.to_u128().unwrap_or(u128::MAX);
    let k = |h: &mut Helper<'_>, value: u128| h.builder().constant(amount_ty, value as i128);
    let zero = |h: &mut Helper<'_>| h.builder().constant(half, 0);
    // A right shift by less than a half: the low half's bits move down and
    // the high half's low bits come in above them; also the amount.
    let right_low = |h: &mut Helper<'_>| {
        let c = k(h, amt);
        let own = h.build(Opcode::G_LSHR, half, &[in_l, c]);
        let c2 = k(h, nvt_bits - amt);
        let carried = h.build(Opcode::G_SHL, half, &[in_h, c2]);
        (h.build(Opcode::G_OR, half, &[own, carried]), c)
    };
    let (lo, hi) = match opcode {
        Opcode::G_SHL => {
            if amt > 2 * nvt_bits {
                let z = zero(h);
                (z, z)
            } else if amt > nvt_bits {
                let lo = zero(h);
                let c = k(h, amt - nvt_bits);
                (lo, h.build(Opcode::G_SHL, half, &[in_l, c]))
            } else if amt == nvt_bits {
                (zero(h), in_l)
            } else {
                let c = k(h, amt);
                let lo = h.build(Opcode::G_SHL, half, &[in_l, c]);
                let c = k(h, amt);
                let or_lhs = h.build(Opcode::G_SHL, half, &[in_h, c]);
                let c = k(h, nvt_bits - amt);
                let or_rhs = h.build(Opcode::G_LSHR, half, &[in_l, c]);
                (lo, h.build(Opcode::G_OR, half, &[or_lhs, or_rhs]))
            }
        }
        Opcode::G_LSHR => {
            if amt > 2 * nvt_bits {
                let z = zero(h);
                (z, z)
            } else if amt > nvt_bits {
                let c = k(h, amt - nvt_bits);
                let lo = h.build(Opcode::G_LSHR, half, &[in_h, c]);
                (lo, zero(h))
            } else if amt == nvt_bits {
                (in_h, zero(h))
            } else {
                let (lo, c) = right_low(h);
                (lo, h.build(Opcode::G_LSHR, half, &[in_h, c]))
            }
        }
        _ => {
            if amt > 2 * nvt_bits {
                let c = k(h, nvt_bits - 1);
                let s = h.build(Opcode::G_ASHR, half, &[in_h, c]);
                (s, s)
            } else if amt > nvt_bits {
                let c = k(h, amt - nvt_bits);
                let lo = h.build(Opcode::G_ASHR, half, &[in_h, c]);
                let c = k(h, nvt_bits - 1);
                (lo, h.build(Opcode::G_ASHR, half, &[in_h, c]))
            } else if amt == nvt_bits {
                let c = k(h, nvt_bits - 1);
                (in_h, h.build(Opcode::G_ASHR, half, &[in_h, c]))
            } else {
                let (lo, c) = right_low(h);
                (lo, h.build(Opcode::G_ASHR, half, &[in_h, c]))
            }
        }
    };
    h.build_into(Opcode::G_MERGE_VALUES, dst, &[lo, hi]);
    done(h, inst)
}

/// A shift split into all its parts at once: part `i` of the result is
/// built from the source parts the word shift moves to `i`, with the bits
/// carried in from the next part over.
struct MultiwayShift {
    opcode: Opcode,
    part_ty: Llt,
    amount_ty: Llt,
    src: Vec<VReg>,
}

impl MultiwayShift {
    fn new(opcode: Opcode, part_ty: Llt, amount_ty: Llt, src: Vec<VReg>) -> MultiwayShift {
        MultiwayShift { opcode, part_ty, amount_ty, src }
    }

    fn part_bits(&self) -> u32 {
        self.part_ty.scalar_size_in_bits()
    }

    fn amount(&self, h: &mut Helper<'_>, value: u64) -> VReg {
        h.builder().constant(self.amount_ty, i128::from(value))
    }

    /// The sign of the top part, which `G_ASHR` shifts in.
    fn sign(&self, h: &mut Helper<'_>) -> VReg {
        let top_bit = self.amount(h, u64::from(self.part_bits() - 1));
        let top = *self.src.last().expect("a multi-way shift has parts");
        h.build(Opcode::G_ASHR, self.part_ty, &[top, top_bit])
    }

    /// Where the source part that lands in part `index` after shifting by
    /// `words` whole parts comes from, and the part its carry comes from:
    /// `None` when it is shifted in from beyond the value.
    fn sources(&self, index: usize, words: u128) -> Option<(usize, Option<usize>)> {
        let count = self.src.len();
        if self.opcode == Opcode::G_SHL {
            let main = (index as u128).checked_sub(words)? as usize;
            Some((main, main.checked_sub(1)))
        } else {
            let main = usize::try_from(index as u128 + words).ok().filter(|&m| m < count)?;
            Some((main, Some(main + 1).filter(|&c| c < count)))
        }
    }

    /// The shift that moves a part's own bits (`G_SHL` or `G_LSHR`) and
    /// the one that moves the bits carried in from its neighbour.
    fn directions(&self) -> (Opcode, Opcode) {
        if self.opcode == Opcode::G_SHL { (Opcode::G_SHL, Opcode::G_LSHR) } else { (Opcode::G_LSHR, Opcode::G_SHL) }
    }

    /// Every part, for an amount known at compile time: each is a fixed
    /// combination of at most two source parts.
    fn by_constant(&self, h: &mut Helper<'_>, amount: &ApInt) -> Vec<VReg> {
        let part_bits = u128::from(self.part_bits());
        let amount = amount.to_u128().unwrap_or(u128::MAX);
        let (words, bits) = (amount / part_bits, (amount % part_bits) as u64);
        // LLVM builds the word shift first; it is dead unless CSE gives
        // its constant to another use, which then sits where it was made.
        self.amount(h, u64::try_from(words).unwrap_or(u64::MAX));
        let bit_shift = self.amount(h, bits);
        let carry_shift = self.amount(h, part_bits as u64 - bits);
        let zero = h.builder().constant(self.part_ty, 0);
        let sign = (self.opcode == Opcode::G_ASHR).then(|| self.sign(h));
        let fill = sign.unwrap_or(zero);
        let (own, carried) = self.directions();
        (0..self.src.len())
            .map(|index| {
                let Some((main, carry)) = self.sources(index, words) else { return fill };
                if bits == 0 {
                    return self.src[main];
                }
                let top = main + 1 == self.src.len();
                let (own, carry) = match sign {
                    Some(sign) if top => (Opcode::G_ASHR, Some(sign)),
                    _ => (own, carry.map(|c| self.src[c])),
                };
                let shifted = h.build(own, self.part_ty, &[self.src[main], bit_shift]);
                match carry {
                    Some(carry) => {
                        let carried = h.build(carried, self.part_ty, &[carry, carry_shift]);
                        h.build(Opcode::G_OR, self.part_ty, &[shifted, carried])
                    }
                    None => shifted,
                }
            })
            .collect()
    }

    /// Every part, for an amount in a register: each part selects, on the
    /// number of whole parts shifted, among every combination it could be,
    /// and keeps its source part when the amount is zero.
    fn by_register(&self, h: &mut Helper<'_>, amount: VReg) -> Vec<VReg> {
        let s1 = Llt::scalar(1);
        let zero = h.builder().constant(self.part_ty, 0);
        let amount_zero = self.amount(h, 0);
        let unshifted = icmp(h, s1, IntPredicate::Eq, amount, amount_zero);
        let log2 = self.amount(h, u64::from(self.part_bits().trailing_zeros()));
        let mask = self.amount(h, u64::from(self.part_bits() - 1));
        let words = h.build(Opcode::G_LSHR, self.amount_ty, &[amount, log2]);
        let bits = h.build(Opcode::G_AND, self.amount_ty, &[amount, mask]);
        let sign = (self.opcode == Opcode::G_ASHR).then(|| self.sign(h));
        let fill = sign.unwrap_or(zero);
        let (own, carried) = self.directions();
        (0..self.src.len())
            .map(|index| {
                let mut chosen = fill;
                for word_shift in 0..self.src.len() {
                    let k = self.amount(h, word_shift as u64);
                    let is_k = icmp(h, s1, IntPredicate::Eq, words, k);
                    let candidate = match self.sources(index, word_shift as u128) {
                        None => fill,
                        Some((main, carry)) => {
                            let shifted = h.build(own, self.part_ty, &[self.src[main], bits]);
                            match carry.map(|c| self.src[c]).or(sign) {
                                None => shifted,
                                Some(carry) => {
                                    let no_bits = icmp(h, s1, IntPredicate::Eq, bits, amount_zero);
                                    let width = self.amount(h, u64::from(self.part_bits()));
                                    let carry_shift = h.build(Opcode::G_SUB, self.amount_ty, &[width, bits]);
                                    let moved = h.build(carried, self.part_ty, &[carry, carry_shift]);
                                    let moved = select(h, self.part_ty, no_bits, zero, moved);
                                    h.build(Opcode::G_OR, self.part_ty, &[shifted, moved])
                                }
                            }
                        }
                    };
                    chosen = select(h, self.part_ty, is_k, candidate, chosen);
                }
                select(h, self.part_ty, unshifted, self.src[index], chosen)
            })
            .collect()
    }
}
