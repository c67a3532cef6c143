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
use crate::ir::{CreationMark, FpConst, FpKind, Function, Inst, InstData, InstOpcode, Operand, Reg, RegOperand, VReg};
use crate::opcode::Opcode;
use rustc_hash::FxHasher;
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};
use table::KeyTable;

mod table;

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

/// The CSE table of one function: instructions by the hash of their key,
/// the fields that make two instructions interchangeable (block, opcode,
/// flags, def types and classes, uses). Keys are never built: a hash is
/// computed from the instruction and candidates are compared with it
/// field by field.
pub struct Cse {
    mode: CseMode,
    table: KeyTable,
    /// What the table makes of each instruction, by index: one changed in
    /// place leaves it at once (LLVM's `changingInstr`).
    entries: Vec<Entry>,
    /// Instructions changed in place, recorded again only before the next
    /// lookup and last first, as LLVM's `GISelCSEInfo` records its
    /// temporary instructions (those no longer [`Entry::Pending`] when
    /// their turn comes are passed over).
    pending: Vec<Inst>,
}

/// Where an instruction stands with the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// Not in it.
    Absent,
    /// In it, under its key.
    Recorded,
    /// Changed in place, to be recorded before the next lookup.
    Pending,
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
        let capacity = if mode == CseMode::Off { 0 } else { func.inst_capacity() };
        let table = KeyTable::with_capacity(capacity);
        let mut cse = Cse { mode, table, entries: vec![Entry::Absent; capacity], pending: Vec::new() };
        if mode != CseMode::Off {
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
        if func.inst_block(inst).is_some() {
            self.set_entry(inst, Entry::Pending);
            self.pending.push(inst);
        } else {
            self.set_entry(inst, Entry::Absent);
        }
    }

    /// Forgets the erased `inst`, whose slot a new instruction may take.
    pub fn forget(&mut self, inst: Inst) {
        if let Some(entry) = self.entries.get_mut(inst.index()) {
            *entry = Entry::Absent;
        }
    }

    /// Records the instructions changed since the last lookup, the last
    /// changed first.
    fn flush_pending(&mut self, func: &Function) {
        while let Some(inst) = self.pending.pop() {
            if self.entries[inst.index()] == Entry::Pending {
                self.set_entry(inst, Entry::Absent);
                self.record_if_new(func, inst);
            }
        }
    }

    /// Records `inst` unless an identical instruction is recorded.
    fn record_if_new(&mut self, func: &Function, inst: Inst) {
        if let Some(hash) = self.key_hash(func, inst)
            && self.find(func, hash, inst).is_none()
        {
            self.record(hash, inst);
        }
    }

    /// The placed instruction recorded with the key of `inst` (whose hash
    /// is `hash`), if any.
    fn find(&self, func: &Function, hash: u32, inst: Inst) -> Option<Inst> {
        self.table.find(hash, |c| is_recorded(&self.entries, c) && has_key_of(func, c, inst))
    }

    /// Records `inst` under its key (whose hash is `hash`) when no recorded
    /// instruction has that key: a slot under the hash whose instruction
    /// left the table is taken over.
    fn record(&mut self, hash: u32, inst: Inst) {
        let entries = &self.entries;
        self.table.insert(hash, inst, |c| is_recorded(entries, c));
        self.set_entry(inst, Entry::Recorded);
    }

    fn set_entry(&mut self, inst: Inst, entry: Entry) {
        if self.entries.len() <= inst.index() {
            self.entries.resize(inst.index() + 1, Entry::Absent);
        }
        self.entries[inst.index()] = entry;
    }

    /// Folds and CSEs the instructions created since `first_new` (in
    /// creation order); `explicit` are the registers the builder was asked
    /// to define (LLVM copies into those instead of replacing them), at
    /// the builder's location `builder_loc`. Returns the instructions it
    /// erased.
    pub fn process_new(
        &mut self,
        func: &mut Function,
        first_new: CreationMark,
        explicit: &[VReg],
        builder_loc: Option<&str>,
    ) -> Vec<Inst> {
        let mut erased = Vec::new();
        if self.mode == CseMode::Off {
            return erased;
        }
        // Only what the step built: what settling builds itself (folded
        // constants, copies into given registers) is dealt with there.
        let built = func.created_since(first_new).len();
        for k in 0..built {
            let inst = func.created_since(first_new)[k];
            if func.inst_block(inst).is_none() {
                continue;
            }
            // A vector operation on constant vectors becomes a vector of
            // new constants, each settled (reused where one exists) first.
            for element in fold_constants(func, inst, explicit) {
                self.settle(func, element, explicit, builder_loc, &mut erased);
            }
            self.settle(func, inst, explicit, builder_loc, &mut erased);
        }
        func.settle_numbers();
        erased
    }

    /// Records the new instruction `inst`, or replaces it by an identical
    /// one already recorded (adding it to `erased`); a copy into an
    /// explicit register takes the builder's location.
    fn settle(
        &mut self,
        func: &mut Function,
        inst: Inst,
        explicit: &[VReg],
        builder_loc: Option<&str>,
        erased: &mut Vec<Inst>,
    ) {
        {
            // Instructions changed since the last lookup are recorded again
            // only when a lookup comes (LLVM's handleRecordedInsts runs in
            // its lookups): a step that builds nothing CSE shares leaves
            // them waiting, and an identical instruction recorded first
            // keeps the place.
            let Some(hash) = self.key_hash(func, inst) else { return };
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
            let existing = match self.find(func, hash, inst) {
                None => return self.record(hash, inst),
                // Already in the table under this key.
                Some(found) if found == inst => return,
                Some(found) => found,
            };
            if !func.comes_before(existing, inst) {
                // Moved up, it takes the merge of its location and the
                // builder's, which the new instruction carries.
                let merged = func.merged_debug_loc(inst, existing);
                func.set_debug_loc(existing, merged);
                func.move_before(existing, inst);
            }
            let kept = def_vregs(func, existing);
            if explicit {
                let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                copy.num_defs = 1;
                copy.operands.push(Operand::vreg_def(defs[0]));
                copy.operands.push(Operand::vreg_use(kept[0]));
                copy.debug_loc = builder_loc.map(Into::into);
                func.insert_before(inst, copy);
            } else {
                self.merge_debug_loc(func, existing, inst);
                for (def, kept) in defs.iter().zip(&kept) {
                    func.replace_all_uses(*def, *kept);
                    // LLVM's builder finds the equal instruction before it
                    // makes a register for the new one.
                    func.drop_vreg_number(*def);
                }
            }
            func.erase(inst);
            erased.push(inst);
        }
    }

    /// Reusing `existing` for `new` gives it the merge of their locations
    /// (`DebugInfo::merged`); with a location to merge, LLVM reports the
    /// reused instruction changed, which CSE records again.
    fn merge_debug_loc(&mut self, func: &mut Function, existing: Inst, new: Inst) {
        if func.inst(new).debug_loc.is_none() {
            return;
        }
        let merged = func.merged_debug_loc(new, existing);
        func.set_debug_loc(existing, merged);
        self.remember(func, existing);
    }

    /// The hash of the CSE key of `inst` when this mode shares its opcode.
    fn key_hash(&self, func: &Function, inst: Inst) -> Option<u32> {
        let shared = match func.inst(inst).known_opcode()? {
            Opcode::G_CONSTANT | Opcode::G_FCONSTANT | Opcode::G_IMPLICIT_DEF => self.mode != CseMode::Off,
            _ => self.mode == CseMode::Full,
        };
        if shared { key_hash(func, inst) } else { None }
    }
}

/// Whether `entries` has `inst` in the table.
fn is_recorded(entries: &[Entry], inst: Inst) -> bool {
    entries.get(inst.index()) == Some(&Entry::Recorded)
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

/// The hash of the CSE key of `inst`, `None` when it has none: a key is
/// had by a placed instruction of a CSE-able opcode with one def (several
/// only for `G_UNMERGE_VALUES`), every def a vreg, every use a vreg, an
/// immediate, a constant or a predicate.
fn key_hash(func: &Function, inst: Inst) -> Option<u32> {
    let data = func.inst(inst);
    let opcode = data.known_opcode().filter(|op| is_cse_opcode(*op))?;
    let block = func.inst_block(inst)?;
    if data.num_defs == 0 || (data.num_defs != 1 && opcode != Opcode::G_UNMERGE_VALUES) {
        return None;
    }
    let mut hasher = FxHasher::default();
    (block, opcode, data.flags, data.num_defs).hash(&mut hasher);
    for op in data.defs() {
        let Some(Reg::Virtual(v)) = op.as_reg().map(|r| r.reg) else { return None };
        let info = func.vreg(v);
        (info.ty, info.class).hash(&mut hasher);
    }
    for op in data.uses() {
        match op {
            Operand::Reg(r) if !r.is_implicit() => match r.reg {
                Reg::Virtual(v) => v.hash(&mut hasher),
                Reg::Physical(_) => return None,
            },
            Operand::Imm(v) => v.hash(&mut hasher),
            Operand::CImm(v) => v.hash(&mut hasher),
            Operand::FpImm(v) => v.hash(&mut hasher),
            Operand::IntPred(p) => p.hash(&mut hasher),
            _ => return None,
        }
    }
    // The top half: the multiplications leave their best bits there.
    Some((hasher.finish() >> 32) as u32)
}

/// True when `existing` is placed and has the CSE key of `inst`, which has
/// one: the two compared field by field.
fn has_key_of(func: &Function, existing: Inst, inst: Inst) -> bool {
    let (data, wanted) = (func.inst(existing), func.inst(inst));
    if func.inst_block(existing) != func.inst_block(inst)
        || data.opcode != wanted.opcode
        || data.flags != wanted.flags
        || data.num_defs != wanted.num_defs
        || data.operands.len() != wanted.operands.len()
    {
        return false;
    }
    let defs_match = data.defs().iter().zip(wanted.defs()).all(|(op, want)| {
        match (op.as_reg().map(|r| r.reg), want.as_reg().map(|r| r.reg)) {
            (Some(Reg::Virtual(v)), Some(Reg::Virtual(w))) => {
                let (have, want) = (func.vreg(v), func.vreg(w));
                have.ty == want.ty && have.class == want.class
            }
            _ => false,
        }
    });
    defs_match && data.uses().iter().zip(wanted.uses()).all(|(op, want)| same_use(op, want))
}

/// True when use operand `op` stands where `want`, a use of an instruction
/// with a CSE key, does.
fn same_use(op: &Operand, want: &Operand) -> bool {
    match (op, want) {
        (Operand::Reg(r), Operand::Reg(w)) => !r.is_implicit() && r.reg == w.reg,
        (Operand::Imm(a), Operand::Imm(b)) => a == b,
        (Operand::CImm(a), Operand::CImm(b)) => **a == **b,
        (Operand::FpImm(a), Operand::FpImm(b)) => **a == **b,
        (Operand::IntPred(a), Operand::IntPred(b)) => a == b,
        _ => false,
    }
}

/// A binary operation on two `G_CONSTANT`s becomes a `G_CONSTANT`; on two
/// `G_BUILD_VECTOR`s of `G_CONSTANT`s, a `G_BUILD_VECTOR` of new constants
/// (LLVM's CSE builder folds as it builds: `ConstantFoldBinOp`,
/// `ConstantFoldVectorBinop`). Returns the new constants, placed before
/// `inst`.
fn fold_constants(func: &mut Function, inst: Inst, explicit: &[VReg]) -> Vec<Inst> {
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
        return fold_vector(func, inst, opcode, lhs, rhs, explicit);
    }
    let (Some(a), Some(b)) = (constant_of(func, lhs), constant_of(func, rhs)) else { return Vec::new() };
    if !ty.is_scalar() {
        return Vec::new();
    }
    let Some(value) = fold_binary(opcode, &a, &b) else { return Vec::new() };
    become_constant(func, inst, G_CONSTANT, Operand::cimm(value));
    Vec::new()
}

/// `inst` becomes `opcode` (`G_CONSTANT` or `G_FCONSTANT`) of `value`,
/// without flags and, as a constant is built, without a location.
fn become_constant(func: &mut Function, inst: Inst, opcode: Opcode, value: Operand) {
    func.modify(inst, |data| {
        data.opcode = InstOpcode::Known(opcode);
        data.flags = crate::ir::InstFlags::NONE;
        data.debug_loc = None;
        data.operands.truncate(1);
        data.operands.push(value);
    });
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
fn fold_vector(func: &mut Function, inst: Inst, opcode: Opcode, lhs: VReg, rhs: VReg, explicit: &[VReg]) -> Vec<Inst> {
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
    let mut constants = Vec::with_capacity(folded.len());
    let mut elements = Vec::with_capacity(folded.len());
    for value in folded {
        let element = func.new_vreg(element_ty);
        let mut constant = InstData::new(InstOpcode::Known(Opcode::G_CONSTANT));
        constant.num_defs = 1;
        constant.operands.push(Operand::vreg_def(element));
        constant.operands.push(Operand::cimm(value));
        constants.push(func.insert_before(inst, constant));
        elements.push(element);
    }
    // llc's builder makes the elements before the vector, which takes a
    // register of its own after them, unless it was asked for one.
    let dst = def_vregs(func, inst)[0];
    if !explicit.contains(&dst) {
        func.number_before(dst, &elements);
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
    become_constant(func, inst, G_FCONSTANT, Operand::FpImm(Box::new(value)));
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
    become_constant(func, inst, Opcode::G_CONSTANT, Operand::cimm(folded));
}
