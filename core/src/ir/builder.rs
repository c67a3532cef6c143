//! `Builder`, GlobalISel's MachineIRBuilder: creates instructions at an
//! insertion point, making the virtual registers they define.

use super::{Block, Function, Inst, InstData, InstOpcode, IntPredicate, MemOperand, Operand, Reg, RegOperand, VReg};
use crate::apint::ApInt;
use crate::opcode::Opcode;
use crate::ty::Llt;
use smallvec::SmallVec;

/// Where new instructions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// At the end of a block.
    End(Block),
    /// Right before an instruction.
    Before(Inst),
}

/// Builds instructions into a function at an insertion point; each new
/// instruction goes after the previous one.
pub struct Builder<'f> {
    func: &'f mut Function,
    point: InsertPoint,
}

impl<'f> Builder<'f> {
    /// A builder inserting at `point`.
    pub fn new(func: &'f mut Function, point: InsertPoint) -> Builder<'f> {
        Builder { func, point }
    }

    /// The function being built.
    pub fn func(&mut self) -> &mut Function {
        self.func
    }

    /// Moves the insertion point.
    pub fn set_insert_point(&mut self, point: InsertPoint) {
        self.point = point;
    }

    /// Inserts `data` at the insertion point.
    pub fn insert(&mut self, data: InstData) -> Inst {
        match self.point {
            InsertPoint::End(block) => self.func.append(block, data),
            InsertPoint::Before(at) => self.func.insert_before(at, data),
        }
    }

    /// Builds `opcode` defining fresh vregs of `def_types` from `uses`;
    /// returns the instruction and its defs.
    pub fn build(
        &mut self,
        opcode: Opcode,
        def_types: &[Llt],
        uses: impl IntoIterator<Item = Operand>,
    ) -> (Inst, SmallVec<[VReg; 2]>) {
        let defs: SmallVec<[VReg; 2]> = def_types.iter().map(|ty| self.func.new_vreg(*ty)).collect();
        let mut data = InstData::new(InstOpcode::Known(opcode));
        data.num_defs = u16::try_from(defs.len()).expect("at most 65,535 defs");
        data.operands.extend(defs.iter().map(|v| Operand::vreg_def(*v)));
        data.operands.extend(uses);
        (self.insert(data), defs)
    }

    /// Builds `opcode` with one def of `ty` over vreg uses; returns the def.
    pub fn build_op(&mut self, opcode: Opcode, ty: Llt, uses: &[VReg]) -> VReg {
        let def = self.func.new_vreg(ty);
        let mut data = InstData::new(InstOpcode::Known(opcode));
        data.num_defs = 1;
        data.operands.push(Operand::vreg_def(def));
        data.operands.extend(uses.iter().map(|v| Operand::vreg_use(*v)));
        self.insert(data);
        def
    }

    /// `G_CONSTANT` of `ty` with `value` (truncated to the type's width).
    pub fn constant(&mut self, ty: Llt, value: i128) -> VReg {
        let bits = ty.scalar_size_in_bits();
        self.build(Opcode::G_CONSTANT, &[ty], [Operand::cimm(ApInt::from_i128(bits, value))]).1[0]
    }

    /// `G_IMPLICIT_DEF` of `ty`.
    pub fn undef(&mut self, ty: Llt) -> VReg {
        self.build(Opcode::G_IMPLICIT_DEF, &[ty], Vec::new()).1[0]
    }

    /// `COPY` from a physical register into a new vreg of `ty`.
    pub fn copy_from_physical(&mut self, ty: Llt, name: &str) -> VReg {
        let reg = Reg::Physical(self.func.names.intern(name));
        self.build(Opcode::COPY, &[ty], [Operand::Reg(RegOperand::use_of(reg))]).1[0]
    }

    /// `COPY` of a vreg into a physical register.
    pub fn copy_to_physical(&mut self, name: &str, value: VReg) -> Inst {
        let reg = Reg::Physical(self.func.names.intern(name));
        let mut data = InstData::new(InstOpcode::Known(Opcode::COPY));
        data.num_defs = 1;
        data.operands.push(Operand::Reg(RegOperand::def_of(reg)));
        data.operands.push(Operand::vreg_use(value));
        self.insert(data)
    }

    /// `G_MERGE_VALUES` of `parts` into `ty`.
    pub fn merge(&mut self, ty: Llt, parts: &[VReg]) -> VReg {
        self.build_op(Opcode::G_MERGE_VALUES, ty, parts)
    }

    /// `G_UNMERGE_VALUES` of `value` into `count` pieces of `piece`.
    pub fn unmerge(&mut self, piece: Llt, count: usize, value: VReg) -> Vec<VReg> {
        self.build(Opcode::G_UNMERGE_VALUES, &vec![piece; count], [Operand::vreg_use(value)]).1.into_vec()
    }

    /// `G_ICMP` with `pred`, result of `ty`.
    pub fn icmp(&mut self, ty: Llt, pred: IntPredicate, lhs: VReg, rhs: VReg) -> VReg {
        let uses = vec![Operand::IntPred(pred), Operand::vreg_use(lhs), Operand::vreg_use(rhs)];
        self.build(Opcode::G_ICMP, &[ty], uses).1[0]
    }

    /// `G_LOAD` of `ty` from `pointer` described by `mem`.
    pub fn load(&mut self, ty: Llt, pointer: VReg, mem: MemOperand) -> VReg {
        let (inst, defs) = self.build(Opcode::G_LOAD, &[ty], [Operand::vreg_use(pointer)]);
        self.func.modify(inst, |data| data.mem.push(mem));
        defs[0]
    }

    /// `G_STORE` of `value` to `pointer` described by `mem`.
    pub fn store(&mut self, value: VReg, pointer: VReg, mem: MemOperand) -> Inst {
        let (inst, _) = self.build(Opcode::G_STORE, &[], [Operand::vreg_use(value), Operand::vreg_use(pointer)]);
        self.func.modify(inst, |data| data.mem.push(mem));
        inst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::print_body;

    #[test]
    fn builds_in_order_and_prints_like_llvm() {
        let mut func = Function::new("f");
        let block = func.add_block(0);
        let mut b = Builder::new(&mut func, InsertPoint::End(block));
        let s64 = Llt::scalar(64);
        let x = b.copy_from_physical(s64, "x0");
        let c = b.constant(s64, -1);
        let sum = b.build_op(Opcode::G_ADD, s64, &[x, c]);
        let parts = b.unmerge(Llt::scalar(32), 2, sum);
        let merged = b.merge(s64, &parts);
        b.copy_to_physical("x0", merged);
        let mut out = String::new();
        print_body(&func, &mut out);
        let expected = "  bb.0:\n    %0:_(s64) = COPY $x0\n    %1:_(s64) = G_CONSTANT i64 -1\n    %2:_(s64) = G_ADD %0, %1\n    \
                        %3:_(s32), %4:_(s32) = G_UNMERGE_VALUES %2(s64)\n    %5:_(s64) = G_MERGE_VALUES %3(s32), %4(s32)\n    \
                        $x0 = COPY %5(s64)\n";
        assert_eq!(out, expected);
        assert_eq!(func.use_insts(sum).len(), 1);
        assert!(func.def_inst(merged).is_some());
    }

    #[test]
    fn inserts_before_an_instruction() {
        let mut func = Function::new("f");
        let block = func.add_block(0);
        let mut b = Builder::new(&mut func, InsertPoint::End(block));
        let x = b.copy_from_physical(Llt::scalar(32), "w0");
        let last = b.copy_to_physical("w0", x);
        b.set_insert_point(InsertPoint::Before(last));
        let y = b.build_op(Opcode::G_ADD, Llt::scalar(32), &[x, x]);
        func.set_operand(last, 1, Operand::vreg_use(y));
        let order: Vec<Inst> = func.block_insts(block).collect();
        assert_eq!(order.len(), 3);
        assert_eq!(func.use_insts(x).len(), 2);
        assert_eq!(func.use_insts(y).collect::<Vec<_>>(), [last]);
        func.erase(order[2]);
        assert!(func.has_no_uses(y));
    }
}
