//! The legalizer helper: one legalization step for one instruction, by the
//! action the rules chose. Each action lives in its own module; this one
//! holds the dispatch and the building blocks they share (extend a source,
//! widen a def, ...), with an insertion point that moves like LLVM's
//! `MachineIRBuilder`.

mod addressing;
pub use addressing::piece_mem;
mod libcall;
mod libcall_atomic;
mod libcall_mem;
mod libcall_stack;
mod lower;
mod narrow;
mod narrow_insert;
mod narrow_ops;
mod narrow_phi;
mod narrow_shift;
mod parts;
mod reduce;
mod vector;
mod vector_cast;
mod vector_more;
mod vector_parts;
pub(super) use vector_parts::merge_opcode;
mod widen;
mod widen_merge;
mod widen_ops;

use super::query::QueryParts;
use super::target::LegalizeTarget;
use crate::apint::ApInt;
use crate::ir::{
    Block, Builder, FrameRef, Function, InsertPoint, Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand, Reg,
    VReg,
};
use crate::legality::{CustomOutcome, LegalizeAction, LegalizerInfo};
use crate::opcode::Opcode;
use crate::ty::Llt;
use smallvec::SmallVec;

/// The result of one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepResult {
    /// The rules say the instruction is legal.
    AlreadyLegal,
    /// The instruction was rewritten.
    Legalized,
    /// The action cannot be applied; the reason says why.
    Unable(String),
}

/// Applies legalization steps to a function.
pub struct Helper<'a> {
    /// The function being legalized.
    pub func: &'a mut Function,
    /// The target's rules.
    pub info: &'a LegalizerInfo,
    /// The target's hooks.
    pub target: &'a dyn LegalizeTarget,
    /// How deep the artifact combiner's value tracking follows definitions
    /// (see [`LegalizeOptions::known_bits_depth`](crate::legalize::LegalizeOptions)).
    pub known_bits_depth: u32,
    /// The debug location what is built gets: LLVM's legalizer and
    /// artifact combiner share one builder, whose location each step and
    /// most combines set to their instruction's, and which otherwise keeps
    /// the last one set.
    pub builder_loc: Option<Box<str>>,
    point: InsertPoint,
    changed: SmallVec<[Inst; 8]>,
    replacements: Vec<VReg>,
    explicit_defs: SmallVec<[VReg; 4]>,
}

impl<'a> Helper<'a> {
    /// A helper over `func`.
    pub fn new(func: &'a mut Function, info: &'a LegalizerInfo, target: &'a dyn LegalizeTarget) -> Helper<'a> {
        let point = InsertPoint::End(Block::new(0));
        Helper {
            func,
            info,
            target,
            known_bits_depth: super::known_bits::MAX_DEPTH,
            builder_loc: None,
            point,
            changed: SmallVec::new(),
            replacements: Vec::new(),
            explicit_defs: SmallVec::new(),
        }
    }

    /// Instructions changed in place since the last call (to requeue).
    pub fn take_changed(&mut self) -> SmallVec<[Inst; 8]> {
        std::mem::take(&mut self.changed)
    }

    /// Records that uses were redirected to `reg` (the combiner follows
    /// them up).
    pub(crate) fn record_replacement(&mut self, reg: VReg) {
        self.replacements.push(reg);
    }

    /// The registers uses were redirected to since the last call.
    pub(crate) fn drain_replacements(&mut self) -> std::vec::Drain<'_, VReg> {
        self.replacements.drain(..)
    }

    /// Records that `inst` was changed in place.
    pub fn mark_changed(&mut self, inst: Inst) {
        self.changed.push(inst);
    }

    /// Whether `inst` was marked changed since the changes were last taken.
    pub(crate) fn is_changed(&self, inst: Inst) -> bool {
        self.changed.contains(&inst)
    }

    /// A new stack temporary of `size` bytes aligned to `align`
    /// (`createStackTemporary`): its address (a `G_FRAME_INDEX` built at
    /// the insertion point) and its `%stack.N` name for memory operands.
    pub fn stack_temporary(&mut self, size: u64, align: u64) -> (VReg, Box<str>) {
        let index = self.func.frame.create(size, align);
        let address = self.func.new_vreg(Llt::pointer(0, self.info.pointer_bits()));
        let frame = Operand::Frame(Box::new(FrameRef { fixed: false, index, name: None }));
        self.build_with(Opcode::G_FRAME_INDEX, &[address], [frame]);
        (address, format!("%stack.{index}").into())
    }

    /// `dst` gets the bits of `src` through a new stack temporary: `src`
    /// is stored and `dst` loaded back (`createStackStoreLoad`).
    pub fn stack_store_load(&mut self, dst: VReg, src: VReg) {
        let (dst_ty, src_ty) = (self.func.ty(dst), self.func.ty(src));
        let align = stack_temporary_align(src_ty).max(stack_temporary_align(dst_ty));
        let (base, name) = self.stack_temporary(src_ty.size_in_bytes(), align);
        let access = |ty: Llt, flags: MemFlags| MemOperand {
            pointer: Some(name.clone()),
            base_align: align,
            ..MemOperand::new(flags, ty)
        };
        self.builder().store(src, base, access(src_ty, MemFlags::STORE));
        let load = self.build_with(Opcode::G_LOAD, &[dst], [Operand::vreg_use(base)]);
        let mem = access(dst_ty, MemFlags::LOAD);
        self.func.modify(load, |d| d.mem.push(mem));
    }

    /// One legalization step for `inst`, whose legality query is `query`
    /// (`None` for non-generic instructions).
    pub fn legalize_step(&mut self, inst: Inst, query: Option<&QueryParts>) -> StepResult {
        self.point = InsertPoint::Before(inst);
        let opcode = self.func.inst(inst).known_opcode();
        if matches!(
            opcode,
            Some(
                Opcode::G_INTRINSIC
                    | Opcode::G_INTRINSIC_W_SIDE_EFFECTS
                    | Opcode::G_INTRINSIC_CONVERGENT
                    | Opcode::G_INTRINSIC_CONVERGENT_W_SIDE_EFFECTS
            )
        ) {
            return match self.target.legalize_intrinsic(self, inst) {
                CustomOutcome::Done => StepResult::Legalized,
                CustomOutcome::Failed => StepResult::Unable("the target could not legalize the intrinsic".into()),
            };
        }
        let Some(step) = query.map(|parts| self.info.action(&parts.query())) else { return StepResult::AlreadyLegal };
        let (idx, ty) = (usize::from(step.type_idx), step.new_ty);
        match step.action {
            LegalizeAction::Legal => StepResult::AlreadyLegal,
            LegalizeAction::WidenScalar => widen::widen_scalar(self, inst, idx, ty),
            LegalizeAction::NarrowScalar => narrow::narrow_scalar(self, inst, idx, ty),
            LegalizeAction::Custom => match self.target.legalize_custom(self, inst, &step) {
                CustomOutcome::Done => StepResult::Legalized,
                CustomOutcome::Failed => StepResult::Unable("the target's custom legalization failed".into()),
            },
            LegalizeAction::Lower => lower::lower(self, inst, idx, ty),
            LegalizeAction::Libcall => libcall::libcall(self, inst),
            LegalizeAction::FewerElements => vector::fewer_elements(self, inst, idx, ty),
            LegalizeAction::MoreElements => vector_more::more_elements(self, inst, idx, ty),
            LegalizeAction::Bitcast => vector_more::bitcast(self, inst, idx, ty),
            LegalizeAction::Unsupported | LegalizeAction::NotFound | LegalizeAction::UseLegacyRules => {
                StepResult::Unable(format!("{step}"))
            }
        }
    }

    /// Lowers `inst` as the generic `Lower` action does, for targets whose
    /// custom hooks fall back to it (`LegalizerHelper::lower`).
    pub fn lower(&mut self, inst: Inst) -> StepResult {
        self.point = InsertPoint::Before(inst);
        lower::lower(self, inst, 0, Llt::default())
    }

    /// Redoes type index `idx` of `inst` in `cast`, a type of the same
    /// size, as the generic `Bitcast` action does (`LegalizerHelper::bitcast`
    /// for targets' custom hooks).
    pub fn bitcast(&mut self, inst: Inst, idx: usize, cast: Llt) -> StepResult {
        self.point = InsertPoint::Before(inst);
        vector_more::bitcast(self, inst, idx, cast)
    }

    // ----- the insertion point -----

    /// A builder at the current insertion point.
    pub fn builder(&mut self) -> Builder<'_> {
        Builder::new(self.func, self.point)
    }

    /// Moves the insertion point before `inst`.
    pub fn set_insert_before(&mut self, inst: Inst) {
        self.point = InsertPoint::Before(inst);
    }

    /// Moves the insertion point to the end of `block`.
    pub fn set_insert_at_end(&mut self, block: Block) {
        self.point = InsertPoint::End(block);
    }

    /// Moves the insertion point one instruction forward (LLVM's
    /// `setInsertPt(MBB, ++getInsertPt())`).
    pub fn advance_insert_point(&mut self) {
        if let InsertPoint::Before(at) = self.point {
            self.point = match self.func.next_inst(at) {
                Some(next) => InsertPoint::Before(next),
                None => InsertPoint::End(self.func.inst_block(at).expect("placed instruction")),
            };
        }
    }

    // ----- operand access -----

    /// The vreg of register operand `index` of `inst`.
    pub fn reg(&self, inst: Inst, index: usize) -> VReg {
        match self.func.inst(inst).operands[index].as_reg().map(|r| r.reg) {
            Some(Reg::Virtual(v)) => v,
            _ => panic!("operand {index} is not a virtual register"),
        }
    }

    /// The type of register operand `index` of `inst`.
    pub fn ty(&self, inst: Inst, index: usize) -> Llt {
        self.func.ty(self.reg(inst, index))
    }

    /// Builds `opcode` with one def of `ty` from vreg uses, at the insertion point.
    pub fn build(&mut self, opcode: Opcode, ty: Llt, uses: &[VReg]) -> VReg {
        self.builder().build_op(opcode, ty, uses)
    }

    /// Replaces the `G_CONSTANT` or `G_FCONSTANT` `inst` with a load of its
    /// value from the constant pool, aligned as its type is (LLVM's
    /// `lowerConstant`/`lowerFConstant`). False if `inst` holds no
    /// immediate.
    pub fn load_constant_from_pool(&mut self, inst: Inst) -> bool {
        let value = match self.func.inst(inst).operands.get(1) {
            Some(Operand::CImm(value)) => format!("i{} {value}", value.bits()),
            Some(Operand::FpImm(value)) => value.to_string(),
            _ => return false,
        };
        let dst = self.reg(inst, 0);
        let align = self.func.ty(dst).size_in_bytes().max(1).next_power_of_two();
        self.load_from_constant_pool(dst, value, align);
        self.func.erase(inst);
        true
    }

    /// `dst` loaded from a constant pool entry holding `value` (an IR
    /// constant as the `.mir` file prints it: `i32 7`, `<2 x double> <...>`)
    /// aligned to `align` bytes: `G_CONSTANT_POOL` and a `G_LOAD` at the
    /// insertion point.
    pub fn load_from_constant_pool(&mut self, dst: VReg, value: String, align: u64) {
        let ty = self.func.ty(dst);
        let index = self.func.constant_pool.index_of(value, align);
        let pointer_ty = Llt::pointer(0, self.info.pointer_bits());
        let entry = Operand::ConstantPool { index, offset: 0 };
        let (_, address) = self.builder().build(Opcode::G_CONSTANT_POOL, &[pointer_ty], [entry]);
        let mem = MemOperand {
            pointer: Some("constant-pool".into()),
            base_align: align,
            ..MemOperand::new(MemFlags::LOAD, ty)
        };
        let load = self.build_with(Opcode::G_LOAD, &[dst], [Operand::vreg_use(address[0])]);
        self.func.modify(load, |d| d.mem.push(mem));
    }

    /// A `G_CONSTANT` of `ty` holding `value`, in a new vreg.
    pub fn constant(&mut self, ty: Llt, value: ApInt) -> VReg {
        let dst = self.func.new_vreg(ty);
        let mut data = InstData::new(InstOpcode::Known(Opcode::G_CONSTANT));
        data.num_defs = 1;
        data.operands.push(Operand::vreg_def(dst));
        data.operands.push(Operand::cimm(value));
        self.builder().insert(data);
        dst
    }

    /// A constant of `ty` holding `value` in every element (LLVM's
    /// `buildConstant(Ty, ...)`: built by type, so CSE gives back one
    /// already built); a `G_BUILD_VECTOR` splat for a vector.
    pub fn splat_constant(&mut self, ty: Llt, value: ApInt) -> VReg {
        if !ty.is_vector() {
            return self.constant(ty, value);
        }
        let element = self.constant(ty.scalar_type(), value);
        self.build(Opcode::G_BUILD_VECTOR, ty, &vec![element; ty.num_elements() as usize])
    }

    /// Builds `opcode` defining the existing vreg `dst` from vreg uses.
    pub fn build_into(&mut self, opcode: Opcode, dst: VReg, uses: &[VReg]) -> Inst {
        self.build_with(opcode, &[dst], uses.iter().map(|v| Operand::vreg_use(*v)))
    }

    /// The registers given as destinations to `build_into`/`build_with`
    /// since the last call (LLVM's explicit `DstOp` registers, which CSE
    /// copies into rather than replaces).
    pub(crate) fn take_explicit_defs(&mut self) -> SmallVec<[VReg; 4]> {
        std::mem::take(&mut self.explicit_defs)
    }

    /// Builds `opcode` defining the given vregs `defs` from `uses` (an
    /// explicit destination, as a `Register` `DstOp` is in LLVM).
    pub fn build_with(&mut self, opcode: Opcode, defs: &[VReg], uses: impl IntoIterator<Item = Operand>) -> Inst {
        self.explicit_defs.extend_from_slice(defs);
        let mut data = InstData::new(InstOpcode::Known(opcode));
        data.num_defs = u16::try_from(defs.len()).expect("at most 65,535 defs");
        data.operands.extend(defs.iter().map(|v| Operand::vreg_def(*v)));
        data.operands.extend(uses);
        self.builder().insert(data)
    }

    // ----- LLVM's shared building blocks -----

    /// Extends source operand `index` of `inst` to `wide` with `ext` built
    /// before `inst` (`widenScalarSrc`).
    pub fn widen_src(&mut self, inst: Inst, index: usize, wide: Llt, ext: Opcode) {
        let src = self.reg(inst, index);
        let extended = self.build(ext, wide, &[src]);
        self.func.set_operand(inst, index, Operand::vreg_use(extended));
    }

    /// Truncates source operand `index` of `inst` to `narrow` before `inst`
    /// (`narrowScalarSrc`).
    pub fn narrow_src(&mut self, inst: Inst, index: usize, narrow: Llt) {
        let src = self.reg(inst, index);
        let truncated = self.build(Opcode::G_TRUNC, narrow, &[src]);
        self.func.set_operand(inst, index, Operand::vreg_use(truncated));
    }

    /// Gives def operand `index` of `inst` a new vreg of type `wide` and
    /// truncates it into the old def right after `inst` (`widenScalarDst`).
    pub fn widen_dst(&mut self, inst: Inst, index: usize, wide: Llt, trunc: Opcode) {
        let old = self.reg(inst, index);
        let wide_reg = self.func.new_vreg(wide);
        self.func.set_operand(inst, index, Operand::vreg_def(wide_reg));
        self.advance_insert_point();
        self.build_into(trunc, old, &[wide_reg]);
    }

    /// Gives def operand `index` of `inst` a new vreg of type `narrow` and
    /// extends it into the old def right after `inst` (`narrowScalarDst`).
    pub fn narrow_dst(&mut self, inst: Inst, index: usize, narrow: Llt, ext: Opcode) {
        let old = self.reg(inst, index);
        let narrow_reg = self.func.new_vreg(narrow);
        self.func.set_operand(inst, index, Operand::vreg_def(narrow_reg));
        self.advance_insert_point();
        self.build_into(ext, old, &[narrow_reg]);
    }

    /// Splits `value` into `parts` pieces of `part_ty` with one typed
    /// `G_UNMERGE_VALUES` (LLVM's `buildUnmerge(Ty, Reg)`, which CSE may share).
    pub fn split(&mut self, value: VReg, part_ty: Llt, parts: usize) -> Vec<VReg> {
        self.builder().unmerge(part_ty, parts, value)
    }

    /// Splits `value` into new registers named up front (LLVM's
    /// `extractParts`, whose unmerges CSE never shares).
    pub fn split_named(&mut self, value: VReg, part_ty: Llt, parts: usize) -> Vec<VReg> {
        let regs: Vec<VReg> = (0..parts).map(|_| self.func.new_vreg(part_ty)).collect();
        self.build_with(Opcode::G_UNMERGE_VALUES, &regs, [Operand::vreg_use(value)]);
        regs
    }
}

/// `getStackTemporaryAlignment`: the size in bytes rounded up to a power
/// of two.
pub(crate) fn stack_temporary_align(ty: Llt) -> u64 {
    ty.size_in_bytes().max(1).next_power_of_two()
}
