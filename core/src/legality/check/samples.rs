//! The types the checks try, and the queries built from them.

use crate::legality::info::LegalizerInfo;
use crate::legality::query::{LegalityQuery, MemDesc};
use crate::opcode::{Opcode, OperandKind};
use crate::ty::Llt;

/// Sample types: scalars of usual and odd sizes, pointers, vectors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Samples {
    /// Scalars (`s1` .. `s256`).
    pub scalars: Vec<Llt>,
    /// Pointers.
    pub pointers: Vec<Llt>,
    /// Vectors.
    pub vectors: Vec<Llt>,
}

impl Samples {
    /// The standard sample for a target: s1, s7, s8, s16, s24, s32, s48,
    /// s64, s96, s128, s256; p0 and p1 of the target's pointer size; fixed
    /// vectors of s1..s64 and p0 of 2 to 16 elements (including odd counts)
    /// and one scalable vector.
    pub fn for_target(info: &LegalizerInfo) -> Samples {
        let s = Llt::scalar;
        let v = Llt::fixed_vector;
        let p0 = info.pointer(0);
        Samples {
            scalars: [1, 7, 8, 16, 24, 32, 48, 64, 96, 128, 256].map(s).to_vec(),
            pointers: vec![p0, info.pointer(1)],
            vectors: vec![
                v(2, s(1)),
                v(2, s(8)),
                v(4, s(8)),
                v(8, s(8)),
                v(16, s(8)),
                v(2, s(16)),
                v(3, s(16)),
                v(4, s(16)),
                v(8, s(16)),
                v(2, s(32)),
                v(3, s(32)),
                v(4, s(32)),
                v(8, s(32)),
                v(2, s(64)),
                v(4, s(64)),
                v(2, p0),
                Llt::scalable_vector(4, s(32)),
            ],
        }
    }

    /// Every sample type.
    pub fn all(&self) -> Vec<Llt> {
        [&self.scalars[..], &self.pointers, &self.vectors].concat()
    }

    /// Scalars and pointers only (used for opcodes with three or more
    /// type indices, to keep the product small).
    pub fn scalars_and_pointers(&self) -> Vec<Llt> {
        [&self.scalars[..], &self.pointers].concat()
    }

    /// Calls `visit` with every sample query of `opcode`: every
    /// combination of sample types over its type indices (scalars and
    /// pointers only beyond two indices) and, for opcodes with memory
    /// operands, memory types of the value type and of s8, s16, s32 at
    /// natural alignment.
    pub fn for_each_query(&self, opcode: Opcode, visit: &mut dyn FnMut(&LegalityQuery<'_>)) {
        let count = opcode.num_type_indices();
        let pool = if count > 2 { self.scalars_and_pointers() } else { self.all() };
        let mem_count = opcode.info().mem_operands.count();
        let mut types = vec![Llt::INVALID; count];
        let mut digits = vec![0usize; count];
        loop {
            for (slot, &d) in types.iter_mut().zip(&digits) {
                *slot = pool[d];
            }
            if mem_count == 0 {
                visit(&LegalityQuery::new(opcode, &types));
            } else {
                let value = types.first().copied().unwrap_or(Llt::scalar(32));
                let mut seen = Vec::new();
                for mem_ty in [value, Llt::scalar(8), Llt::scalar(16), Llt::scalar(32)] {
                    if seen.contains(&mem_ty) {
                        continue;
                    }
                    seen.push(mem_ty);
                    let mems = vec![MemDesc::natural(mem_ty); mem_count];
                    visit(&LegalityQuery::with_mem(opcode, &types, &mems));
                }
            }
            // Next combination (odometer); done when it wraps.
            let mut i = 0;
            loop {
                if i == count {
                    return;
                }
                digits[i] += 1;
                if digits[i] < pool.len() {
                    break;
                }
                digits[i] = 0;
                i += 1;
            }
        }
    }
}

/// Which type indices of `opcode` are defined and which are used, from its
/// operand layout.
pub(crate) fn defs_and_uses(opcode: Opcode) -> (Vec<u8>, Vec<u8>) {
    let mut defs = Vec::new();
    let mut uses = Vec::new();
    for op in opcode.info().operands {
        let idx = match op.kind {
            OperandKind::Type { index, .. } | OperandKind::TypeAndBlock(index) => index,
            _ => continue,
        };
        let list = if op.def { &mut defs } else { &mut uses };
        if !list.contains(&idx) {
            list.push(idx);
        }
    }
    (defs, uses)
}
