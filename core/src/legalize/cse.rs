//! What LLVM's `CSEMIRBuilder` does to every instruction the legalizer
//! builds (when optimizing, i.e. not at `-O0`): binary operations on two
//! constants become a constant, and an instruction identical to one already
//! in the same block is not built again. When the existing one comes later
//! in the block it is moved up to where the new one would have gone; when
//! the new one had to define a given register, a COPY from the existing one
//! defines it.
//!
//! gisel applies this after each step to the instructions the step
//! created, in creation order, which gives the same instructions in the
//! same places.

use crate::apint::ApInt;
use crate::ir::{
    Block, FpConst, FpKind, Function, Inst, InstData, InstOpcode, IntPredicate, Operand, Reg, RegOperand, VReg,
};
use crate::opcode::Opcode;
use crate::ty::Llt;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Whether the builder CSEs and folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CseMode {
    /// A plain builder.
    Off,
    /// LLVM's `CSEConfigConstantOnly`, llc's choice at `-O0`: constants and
    /// undefs are shared, operations on constants folded.
    ConstantsOnly,
    /// LLVM's full CSE configuration with constant folding.
    Full,
}

/// What identifies an instruction for CSE, its constants borrowed from
/// the function (a key is built for each lookup and dropped after it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key<'f> {
    block: Block,
    opcode: Opcode,
    defs: SmallVec<[(Llt, Option<crate::ir::Symbol>); 1]>,
    uses: SmallVec<[UseKey<'f>; 3]>,
    flags: crate::ir::InstFlags,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum UseKey<'f> {
    Reg(VReg),
    Imm(i64),
    CImm(&'f ApInt),
    FpImm(&'f FpConst),
    IntPred(IntPredicate),
}

/// The CSE table of one function: instructions by the hash of their key
/// (a few bytes each, where the keys themselves would take a hundred);
/// candidates are told apart by their keys, computed again.
pub struct Cse {
    mode: CseMode,
    table: FxHashMap<u64, SmallVec<[Inst; 1]>>,
    /// Which instructions the table holds, by index: one changed in place
    /// leaves it at once (LLVM's `changingInstr`).
    recorded: Vec<bool>,
    /// Instructions changed in place, recorded again only before the next
    /// lookup and last first, as LLVM's `GISelCSEInfo` records its
    /// temporary instructions.
    pending: Vec<Inst>,
}

/// LLVM's `CSEConfigFull`, less `G_EXTRACT`: LLVM lists it, but every
/// builder of a scalar `G_EXTRACT` (`buildExtract`) inserts it without
/// looking for an equal one, so extracts are never shared.
fn is_cse_opcode(opcode: Opcode) -> bool {
    use Opcode::*;
    matches!(
        opcode,
        G_ADD
            | G_AND
            | G_ASHR
            | G_LSHR
            | G_MUL
            | G_OR
            | G_SHL
            | G_SUB
            | G_XOR
            | G_UDIV
            | G_SDIV
            | G_UREM
            | G_SREM
            | G_CONSTANT
            | G_FCONSTANT
            | G_IMPLICIT_DEF
            | G_ZEXT
            | G_SEXT
            | G_ANYEXT
            | G_UNMERGE_VALUES
            | G_TRUNC
            | G_PTR_ADD
            | G_SELECT
            | G_BUILD_VECTOR
            | G_BUILD_VECTOR_TRUNC
            | G_SEXT_INREG
            | G_FADD
            | G_FSUB
            | G_FMUL
            | G_FDIV
            | G_FABS
            | G_FMAXNUM
            | G_FMINNUM
            | G_FMAXNUM_IEEE
            | G_FMINNUM_IEEE
    )
}

impl Cse {
    /// A table over the CSE-able instructions already in `func`.
    pub fn new(func: &Function, mode: CseMode) -> Cse {
        let mut cse = Cse { mode, table: FxHashMap::default(), recorded: Vec::new(), pending: Vec::new() };
        if mode != CseMode::Off {
            // Sized once for every instruction there is, rather than regrown.
            cse.table.reserve(func.inst_capacity());
            for inst in func.all_insts() {
                cse.record_if_new(func, inst);
            }
        }
        cse
    }

    /// Takes `inst`, just changed in place, out of the table; it is
    /// recorded again before the next lookup unless an identical
    /// instruction is recorded first.
    pub fn remember(&mut self, func: &Function, inst: Inst) {
        if self.mode == CseMode::Off {
            return;
        }
        self.set_recorded(inst, false);
        if func.inst(inst).block().is_some() {
            self.pending.push(inst);
        }
    }

    /// Records the instructions changed since the last lookup, the last
    /// changed first.
    fn flush_pending(&mut self, func: &Function) {
        while let Some(inst) = self.pending.pop() {
            self.record_if_new(func, inst);
        }
    }

    /// Records `inst` unless an identical instruction is recorded.
    fn record_if_new(&mut self, func: &Function, inst: Inst) {
        if let Some(key) = self.key(func, inst) {
            let hash = hash(&key);
            if self.find(func, hash, &key).is_none() {
                self.record(func, hash, &key, inst);
            }
        }
    }

    /// The placed instruction recorded with `key` (whose hash is `hash`),
    /// if any.
    fn find(&self, func: &Function, hash: u64, key: &Key) -> Option<Inst> {
        let candidates = self.table.get(&hash)?;
        candidates.iter().copied().find(|c| self.is_recorded(*c) && key_of_is(func, *c, key))
    }

    /// Records `inst` as the instruction with `key` (whose hash is
    /// `hash`), in place of any recorded one that no longer has it.
    fn record(&mut self, func: &Function, hash: u64, key: &Key, inst: Inst) {
        let recorded = &self.recorded;
        let candidates = self.table.entry(hash).or_default();
        candidates
            .retain(|c| recorded.get(c.index()).copied().unwrap_or(false) && key_of_is(func, *c, key) && *c != inst);
        candidates.push(inst);
        self.set_recorded(inst, true);
    }

    fn is_recorded(&self, inst: Inst) -> bool {
        self.recorded.get(inst.index()).copied().unwrap_or(false)
    }

    fn set_recorded(&mut self, inst: Inst, recorded: bool) {
        if self.recorded.len() <= inst.index() {
            self.recorded.resize(inst.index() + 1, false);
        }
        self.recorded[inst.index()] = recorded;
    }

    /// Folds and CSEs the instructions created since `first_new` (in
    /// creation order); `explicit` are the registers the builder was asked
    /// to define (LLVM copies into those instead of replacing them).
    /// Returns the instructions it erased.
    pub fn process_new(&mut self, func: &mut Function, first_new: usize, explicit: &[VReg]) -> Vec<Inst> {
        let mut erased = Vec::new();
        if self.mode == CseMode::Off {
            return erased;
        }
        let end = func.inst_capacity();
        for index in first_new..end {
            let inst = Inst::new(index);
            if func.inst(inst).block().is_none() {
                continue;
            }
            // A vector operation on constant vectors becomes a vector of
            // new constants, each settled (reused where one exists) first.
            for element in fold_constants(func, inst) {
                self.settle(func, element, explicit, &mut erased);
            }
            self.settle(func, inst, explicit, &mut erased);
        }
        erased
    }

    /// Records the new instruction `inst`, or replaces it by an identical
    /// one already recorded (adding it to `erased`).
    fn settle(&mut self, func: &mut Function, inst: Inst, explicit: &[VReg], erased: &mut Vec<Inst>) {
        {
            // Instructions changed since the last lookup are recorded again
            // only when a lookup comes (LLVM's handleRecordedInsts runs in
            // its lookups): a step that builds nothing CSE shares leaves
            // them waiting, and an identical instruction recorded first
            // keeps the place.
            let Some(key) = self.key(func, inst) else { return };
            let defs = def_vregs(func, inst);
            let explicit = defs.iter().any(|d| explicit.contains(d));
            if explicit && defs.len() > 1 {
                // LLVM cannot copy into several given registers: it builds
                // the instruction without a lookup and leaves it out of
                // the table, so no later instruction is shared with it.
                return;
            }
            // Recording the others changes neither `inst` nor its key.
            self.flush_pending(func);
            let hash = hash(&key);
            let found = self.find(func, hash, &key).filter(|e| *e != inst);
            if found.is_none() {
                self.record(func, hash, &key, inst);
            }
            // The key borrows the function, which changes from here on.
            drop(key);
            let Some(existing) = found else { return };
            if !func.comes_before(existing, inst) {
                // Moved up, it takes the location both share (LLVM merges).
                if func.inst(existing).debug_loc != func.inst(inst).debug_loc {
                    func.set_debug_loc(existing, None);
                }
                func.move_before(existing, inst);
            }
            let kept = def_vregs(func, existing);
            if explicit {
                let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                copy.num_defs = 1;
                copy.operands.push(Operand::vreg_def(defs[0]));
                copy.operands.push(Operand::vreg_use(kept[0]));
                copy.debug_loc = func.inst(inst).debug_loc.clone();
                func.insert_before(inst, copy);
            } else {
                self.merge_debug_loc(func, existing, inst);
                for (def, kept) in defs.iter().zip(&kept) {
                    func.replace_all_uses(*def, *kept);
                }
            }
            func.erase(inst);
            erased.push(inst);
        }
    }

    /// Reusing `existing` for `new` leaves it the location both share,
    /// none if they differ (LLVM merges them; a merge of two different
    /// places is not modelled); with a location to merge, LLVM reports the
    /// reused instruction changed, which CSE records again.
    fn merge_debug_loc(&mut self, func: &mut Function, existing: Inst, new: Inst) {
        let Some(wanted) = func.inst(new).debug_loc.clone() else { return };
        if func.inst(existing).debug_loc.as_ref() != Some(&wanted) {
            func.set_debug_loc(existing, None);
        }
        self.remember(func, existing);
    }

    /// The CSE key of `inst` when this mode shares its opcode.
    fn key<'f>(&self, func: &'f Function, inst: Inst) -> Option<Key<'f>> {
        let shared = match func.inst(inst).known_opcode()? {
            Opcode::G_CONSTANT | Opcode::G_FCONSTANT | Opcode::G_IMPLICIT_DEF => self.mode != CseMode::Off,
            _ => self.mode == CseMode::Full,
        };
        if shared { key(func, inst) } else { None }
    }
}

fn def_vregs(func: &Function, inst: Inst) -> SmallVec<[VReg; 2]> {
    func.inst(inst)
        .defs()
        .iter()
        .filter_map(|op| match op.as_reg().map(|r| r.reg) {
            Some(Reg::Virtual(v)) => Some(v),
            _ => None,
        })
        .collect()
}

/// The 64-bit hash a key is filed under.
fn hash(key: &Key) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(key)
}

/// True when `existing` is still placed and still has `key`: `key`
/// compared with the instruction field by field, as [`key`] would build
/// it, without building one (a lookup compares every candidate).
fn key_of_is(func: &Function, existing: Inst, expected: &Key) -> bool {
    let data = func.inst(existing);
    if data.block() != Some(expected.block)
        || data.known_opcode() != Some(expected.opcode)
        || data.flags != expected.flags
        || usize::from(data.num_defs) != expected.defs.len()
    {
        return false;
    }
    let defs_match =
        data.defs().iter().zip(&expected.defs).all(|(op, &(ty, class))| match op.as_reg().map(|r| r.reg) {
            Some(Reg::Virtual(v)) => func.ty(v) == ty && func.vreg(v).class == class,
            _ => false,
        });
    let mut uses = data.uses().iter();
    let uses_match = expected.uses.iter().all(|want| uses.next().is_some_and(|op| use_is(op, want)));
    defs_match && uses_match && uses.next().is_none()
}

/// True when operand `op` is the use `want` stands for in a key.
fn use_is(op: &Operand, want: &UseKey) -> bool {
    match (op, want) {
        (Operand::Reg(r), UseKey::Reg(v)) => !r.is_implicit() && r.reg == Reg::Virtual(*v),
        (Operand::Imm(a), UseKey::Imm(b)) => a == b,
        (Operand::CImm(a), UseKey::CImm(b)) => **a == **b,
        (Operand::FpImm(a), UseKey::FpImm(b)) => **a == **b,
        (Operand::IntPred(a), UseKey::IntPred(b)) => a == b,
        _ => false,
    }
}

/// The CSE key of a CSE-able instruction whose defs are all vregs (only
/// `G_UNMERGE_VALUES` has several).
fn key(func: &Function, inst: Inst) -> Option<Key<'_>> {
    let data = func.inst(inst);
    let opcode = data.known_opcode().filter(|op| is_cse_opcode(*op))?;
    let block = data.block()?;
    if data.num_defs != 1 && opcode != Opcode::G_UNMERGE_VALUES {
        return None;
    }
    if data.num_defs == 0 {
        return None;
    }
    let mut defs = SmallVec::new();
    for op in data.defs() {
        let Some(Reg::Virtual(v)) = op.as_reg().map(|r| r.reg) else { return None };
        defs.push((func.ty(v), func.vreg(v).class));
    }
    let mut uses = SmallVec::new();
    for op in data.uses() {
        uses.push(match op {
            Operand::Reg(r) if !r.is_implicit() => match r.reg {
                Reg::Virtual(v) => UseKey::Reg(v),
                Reg::Physical(_) => return None,
            },
            Operand::Imm(v) => UseKey::Imm(*v),
            Operand::CImm(v) => UseKey::CImm(v),
            Operand::FpImm(v) => UseKey::FpImm(v),
            Operand::IntPred(p) => UseKey::IntPred(*p),
            _ => return None,
        });
    }
    Some(Key { block, opcode, defs, uses, flags: data.flags })
}

/// A binary operation on two `G_CONSTANT`s becomes a `G_CONSTANT`; on two
/// `G_BUILD_VECTOR`s of `G_CONSTANT`s, a `G_BUILD_VECTOR` of new constants
/// (LLVM's CSE builder folds as it builds: `ConstantFoldBinOp`,
/// `ConstantFoldVectorBinop`). Returns the new constants, placed before
/// `inst`.
fn fold_constants(func: &mut Function, inst: Inst) -> Vec<Inst> {
    use Opcode::*;
    let data = func.inst(inst);
    let Some(opcode) = data.known_opcode() else { return Vec::new() };
    if opcode == G_SEXT_INREG {
        fold_sext_inreg(func, inst);
        return Vec::new();
    }
    if matches!(opcode, G_FADD | G_FSUB | G_FMUL | G_FDIV) {
        fold_fp_binary(func, inst, opcode);
        return Vec::new();
    }
    if !matches!(
        opcode,
        G_ADD
            | G_AND
            | G_ASHR
            | G_LSHR
            | G_MUL
            | G_OR
            | G_SHL
            | G_SUB
            | G_XOR
            | G_UDIV
            | G_SDIV
            | G_UREM
            | G_SREM
            | G_SMIN
            | G_SMAX
            | G_UMIN
            | G_UMAX
    ) || data.operands.len() != 3
    {
        return Vec::new();
    }
    let dst = def_vregs(func, inst)[0];
    let operand = |i: usize| match data.operands[i].as_reg().map(|r| r.reg) {
        Some(Reg::Virtual(v)) => Some(v),
        _ => None,
    };
    let (Some(lhs), Some(rhs)) = (operand(1), operand(2)) else { return Vec::new() };
    let ty = func.ty(dst);
    if ty.is_vector() {
        return fold_vector(func, inst, opcode, lhs, rhs);
    }
    let (Some(a), Some(b)) = (constant_of(func, lhs), constant_of(func, rhs)) else { return Vec::new() };
    if !ty.is_scalar() {
        return Vec::new();
    }
    let Some(value) = fold_binary(opcode, &a, &b) else { return Vec::new() };
    func.modify(inst, |data| {
        data.opcode = InstOpcode::Known(G_CONSTANT);
        data.flags = crate::ir::InstFlags::NONE;
        data.operands.truncate(1);
        data.operands.push(Operand::cimm(value));
    });
    Vec::new()
}

/// The value of `v` when a `G_CONSTANT` defines it (no look-through).
fn constant_of(func: &Function, v: VReg) -> Option<ApInt> {
    let def = func.inst(func.def_inst(v)?);
    match &def.operands[..] {
        [_, Operand::CImm(c)] if def.is(Opcode::G_CONSTANT) => Some(c.as_ref().clone()),
        _ => None,
    }
}

/// The element registers of the `G_BUILD_VECTOR` defining `v`, through
/// copies.
fn build_vector_sources(func: &Function, mut v: VReg) -> Option<Vec<VReg>> {
    loop {
        let def = func.inst(func.def_inst(v)?);
        match def.known_opcode()? {
            Opcode::COPY => match def.operands.get(1)?.as_reg()?.reg {
                Reg::Virtual(src) => v = src,
                Reg::Physical(_) => return None,
            },
            Opcode::G_BUILD_VECTOR => {
                return def.uses().iter().map(|op| op.as_reg().and_then(RegOperand::vreg)).collect();
            }
            _ => return None,
        }
    }
}

/// `inst`, `opcode` on two constant vectors, becomes a `G_BUILD_VECTOR` of
/// the folded elements, each a new `G_CONSTANT` placed before it.
fn fold_vector(func: &mut Function, inst: Inst, opcode: Opcode, lhs: VReg, rhs: VReg) -> Vec<Inst> {
    let (Some(lhs), Some(rhs)) = (build_vector_sources(func, lhs), build_vector_sources(func, rhs)) else {
        return Vec::new();
    };
    let folded: Option<Vec<ApInt>> = lhs
        .iter()
        .zip(&rhs)
        .map(|(&a, &b)| fold_binary(opcode, &constant_of(func, a)?, &constant_of(func, b)?))
        .collect();
    let Some(folded) = folded.filter(|f| f.len() == lhs.len() && lhs.len() == rhs.len()) else { return Vec::new() };
    let element_ty = func.ty(def_vregs(func, inst)[0]).element_type();
    let debug_loc = func.inst(inst).debug_loc.clone();
    let mut constants = Vec::with_capacity(folded.len());
    let mut elements = Vec::with_capacity(folded.len());
    for value in folded {
        let element = func.new_vreg(element_ty);
        let mut constant = InstData::new(InstOpcode::Known(Opcode::G_CONSTANT));
        constant.num_defs = 1;
        constant.operands.push(Operand::vreg_def(element));
        constant.operands.push(Operand::cimm(value));
        constant.debug_loc.clone_from(&debug_loc);
        constants.push(func.insert_before(inst, constant));
        elements.push(element);
    }
    func.modify(inst, |data| {
        data.opcode = InstOpcode::Known(Opcode::G_BUILD_VECTOR);
        data.flags = crate::ir::InstFlags::NONE;
        data.operands.truncate(1);
        data.operands.extend(elements.into_iter().map(Operand::vreg_use));
    });
    constants
}

/// An IEEE operation on two `G_FCONSTANT`s of type `float` or `double`
/// becomes a `G_FCONSTANT` (LLVM's `ConstantFoldFPBinOp`, rounding to
/// nearest even as `APFloat` and the host both do). A NaN operand gives
/// itself, quieted, as `APFloat`'s `propagateNaN` chooses: a signaling
/// NaN before a quiet one, then the first. Other formats are left alone.
fn fold_fp_binary(func: &mut Function, inst: Inst, opcode: Opcode) {
    use Opcode::*;
    let data = func.inst(inst);
    let constant = |op: Option<&Operand>| -> Option<FpConst> {
        let Some(Reg::Virtual(v)) = op?.as_reg().map(|r| r.reg) else { return None };
        let def = func.def_inst(v)?;
        match &func.inst(def).operands[..] {
            [_, Operand::FpImm(c)] if func.inst(def).is(G_FCONSTANT) => Some(**c),
            _ => None,
        }
    };
    let (Some(a), Some(b)) = (constant(data.operands.get(1)), constant(data.operands.get(2))) else { return };
    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else { return };
    if a.kind != b.kind || data.operands.len() != 3 {
        return;
    }
    let value = match (a.kind, opcode) {
        _ if x.is_nan() || y.is_nan() => {
            let nan = if !x.is_nan() || (!a.is_signaling_nan() && b.is_signaling_nan()) { b } else { a };
            let quiet_bit = if nan.kind == FpKind::Float { 1u128 << 22 } else { 1u128 << 51 };
            FpConst { kind: nan.kind, bits: nan.bits | quiet_bit }
        }
        (FpKind::Float, _) => {
            let (x, y) = (x as f32, y as f32);
            let r = match opcode {
                G_FADD => x + y,
                G_FSUB => x - y,
                G_FMUL => x * y,
                _ => x / y,
            };
            FpConst { kind: FpKind::Float, bits: u128::from(r.to_bits()) }
        }
        _ => {
            let r = match opcode {
                G_FADD => x + y,
                G_FSUB => x - y,
                G_FMUL => x * y,
                _ => x / y,
            };
            FpConst { kind: FpKind::Double, bits: u128::from(r.to_bits()) }
        }
    };
    func.modify(inst, |data| {
        data.opcode = InstOpcode::Known(G_FCONSTANT);
        data.flags = crate::ir::InstFlags::NONE;
        data.operands.truncate(1);
        data.operands.push(Operand::FpImm(Box::new(value)));
    });
}

/// LLVM's `ConstantFoldBinOp` on two constants of the same width.
fn fold_binary(opcode: Opcode, a: &ApInt, b: &ApInt) -> Option<ApInt> {
    use Opcode::*;
    use std::cmp::Ordering::*;
    let amount = || b.to_u32_below(a.bits()).unwrap_or(a.bits());
    Some(match opcode {
        G_ADD => a.add(b),
        G_SUB => a.sub(b),
        G_MUL => a.mul(b),
        G_AND => a.and(b),
        G_OR => a.or(b),
        G_XOR => a.xor(b),
        G_SHL => a.shl(amount()),
        G_LSHR => a.lshr(amount()),
        G_ASHR => a.ashr(amount()),
        G_UDIV => a.udivrem(b)?.0,
        G_UREM => a.udivrem(b)?.1,
        G_SDIV => a.sdivrem(b)?.0,
        G_SREM => a.sdivrem(b)?.1,
        G_SMIN => {
            if a.scmp(b) == Greater {
                b.clone()
            } else {
                a.clone()
            }
        }
        G_SMAX => {
            if a.scmp(b) == Less {
                b.clone()
            } else {
                a.clone()
            }
        }
        G_UMIN => {
            if a.ucmp(b) == Greater {
                b.clone()
            } else {
                a.clone()
            }
        }
        G_UMAX => {
            if a.ucmp(b) == Less {
                b.clone()
            } else {
                a.clone()
            }
        }
        _ => return None,
    })
}

/// `G_SEXT_INREG` of a `G_CONSTANT` becomes a `G_CONSTANT`.
fn fold_sext_inreg(func: &mut Function, inst: Inst) {
    let data = func.inst(inst);
    let (Some(Reg::Virtual(src)), Some(Operand::Imm(width))) =
        (data.operands.get(1).and_then(|o| o.as_reg()).map(|r| r.reg), data.operands.get(2))
    else {
        return;
    };
    let width = *width as u32;
    let Some(def) = func.def_inst(src) else { return };
    let value = match &func.inst(def).operands[..] {
        [_, Operand::CImm(c)] if func.inst(def).is(Opcode::G_CONSTANT) => c.as_ref().clone(),
        _ => return,
    };
    let bits = value.bits();
    if width == 0 || width > bits || !func.ty(def_vregs(func, inst)[0]).is_scalar() {
        return;
    }
    let folded = value.zext_or_trunc(width).sext_or_trunc(bits);
    func.modify(inst, |data| {
        data.opcode = InstOpcode::Known(Opcode::G_CONSTANT);
        data.flags = crate::ir::InstFlags::NONE;
        data.operands.truncate(1);
        data.operands.push(Operand::cimm(folded));
    });
}
