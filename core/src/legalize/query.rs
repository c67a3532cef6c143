//! Describes an instruction to the rules: one type per type index (the
//! first operand carrying each index; `G_UNMERGE_VALUES` reads index 1
//! from its last operand) and one memory descriptor per memory operand.

use crate::ir::{Function, InstData, MemOperand, Operand, Reg};
use crate::legality::{LegalityQuery, MemDesc};
use crate::opcode::{Opcode, OperandKind};
use crate::ty::Llt;
use smallvec::SmallVec;

/// The owned parts of a [`LegalityQuery`] for one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryParts {
    /// The opcode.
    pub opcode: Opcode,
    /// One type per type index (invalid where no operand carries it).
    pub types: SmallVec<[Llt; 4]>,
    /// One descriptor per memory operand.
    pub mem_descs: SmallVec<[MemDesc; 2]>,
}

impl QueryParts {
    /// The query over these parts.
    pub fn query(&self) -> LegalityQuery<'_> {
        LegalityQuery { opcode: self.opcode, types: &self.types, mem_descs: &self.mem_descs }
    }
}

/// The query for a generic instruction; `None` for anything else.
pub fn describe(func: &Function, inst: &InstData) -> Option<QueryParts> {
    let opcode = inst.known_opcode().filter(|op| op.is_generic())?;
    let info = opcode.info();
    let mut types: SmallVec<[Llt; 4]> = SmallVec::from_elem(Llt::INVALID, usize::from(info.num_type_indices));
    for (index, operand) in inst.explicit_operands().enumerate() {
        let spec = info.operands.get(index).or_else(|| info.operands.iter().rev().find(|s| s.variadic));
        let Some(spec) = spec else { break };
        let type_index = match spec.kind {
            OperandKind::Type { index, .. } | OperandKind::TypeAndBlock(index) => index,
            _ => continue,
        };
        let slot = &mut types[usize::from(type_index)];
        if !slot.is_valid() {
            *slot = operand_type(func, operand);
        }
    }
    if opcode == Opcode::G_UNMERGE_VALUES
        && let Some(last) = inst.operands.last()
    {
        types[1] = operand_type(func, last);
    }
    let mem_descs = inst.mem.iter().map(mem_desc).collect();
    Some(QueryParts { opcode, types, mem_descs })
}

fn operand_type(func: &Function, operand: &Operand) -> Llt {
    match operand.as_reg().map(|r| r.reg) {
        Some(Reg::Virtual(v)) => func.ty(v),
        _ => Llt::INVALID,
    }
}

/// The descriptor of a memory operand: memory type, alignment in bits and
/// orderings.
pub fn mem_desc(mem: &MemOperand) -> MemDesc {
    MemDesc {
        memory_ty: mem.memory_type().unwrap_or(Llt::INVALID),
        align_in_bits: mem.align_in_bits(),
        ordering: mem.ordering,
        failure_ordering: mem.failure_ordering,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::parse_body;

    fn parts(body: &str) -> Vec<QueryParts> {
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        func.all_insts().filter_map(|i| describe(&func, func.inst(i))).collect()
    }

    #[test]
    fn first_operand_of_each_index_and_unmerge_source() {
        let found = parts(
            "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s32) = G_TRUNC %0(s64)\n  %2:_(s1) = G_ICMP intpred(eq), %1(s32), %1\n  \
             %3:_(s16), %4:_(s16) = G_UNMERGE_VALUES %1(s32)\n  %p:_(p0) = COPY $x1\n  \
             %5:_(s64) = G_ZEXTLOAD %p(p0) :: (load (s8) from unknown-address + 1)\n",
        );
        let shown: Vec<String> =
            found.iter().map(|p| format!("{:?} {:?} {:?}", p.opcode, p.types, p.mem_descs)).collect();
        assert_eq!(shown[0], "G_TRUNC [s32, s64] []");
        assert_eq!(shown[1], "G_ICMP [s1, s32] []");
        assert_eq!(shown[2], "G_UNMERGE_VALUES [s16, s32] []");
        assert_eq!(found[3].types.as_slice(), &[Llt::scalar(64), Llt::pointer(0, 64)]);
        assert_eq!(found[3].mem_descs[0].memory_ty, Llt::scalar(8));
        assert_eq!(found[3].mem_descs[0].align_in_bits, 8);
    }
}
