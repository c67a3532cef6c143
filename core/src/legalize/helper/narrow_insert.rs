//! `NarrowScalar` of `G_INSERT`, and where it parts ways with LLVM 22.
//!
//! LLVM 22 sizes the slice of the value that goes into a part as
//! `start + size - part_start` bits, counting the offset twice: inserting
//! `s8` at bit 3 of `s96` builds `G_EXTRACT` of an `s11` from the `s8` and
//! inserts that. gisel inserts the slice the value really covers. Whether
//! llc then fails depends on the target's rules for the two instructions
//! it built, so gisel legalizes those two on their own and refuses the
//! insert when they cannot be legalized: it fails where llc fails, and
//! where llc's instructions do legalize (and miscompile) it builds the
//! right slice instead.

use super::parts::extract_parts;
use super::{Helper, StepResult};
use crate::ir::{Builder, Function, InsertPoint, Inst, Operand};
use crate::legalize::combiner::build_extract;
use crate::legalize::{LegalizeError, LegalizeOptions, legalize};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// `G_INSERT` into a container split into narrow parts (plus a leftover):
/// each part the inserted range touches gets a narrow insert of the slice
/// it covers, then the parts are merged (`narrowScalarInsert`).
pub(super) fn narrow_insert(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (dst, container, value) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let Operand::Imm(start) = h.func.inst(inst).operands[3] else {
        return StepResult::Unable("G_INSERT without an offset".into());
    };
    let reg_ty = h.func.ty(dst);
    let value_ty = h.func.ty(value);
    let narrow_size = narrow.size_in_bits();
    let (start, size) = (start as u64, value_ty.size_in_bits());
    if let Err(reason) = llvm_slice_legalizes(h, narrow, value_ty, start) {
        return StepResult::Unable(reason);
    }
    let split = extract_parts(h, container, narrow);
    let leftover_ty = split.leftover_ty;
    let mut pieces = Vec::new();
    for (i, part) in split.all().into_iter().enumerate() {
        let part_start = i as u64 * narrow_size;
        if part_start == start && value_ty == narrow {
            pieces.push(value);
            continue;
        }
        let mut source = part;
        if leftover_ty.is_valid() && h.func.ty(part) == leftover_ty {
            source = h.func.new_vreg(narrow);
            h.build_into(Opcode::G_ANYEXT, source, &[part]);
        }
        if part_start + narrow_size <= start || part_start >= start + size {
            pieces.push(source);
            continue;
        }
        let (insert_at, extract_at, segment) = if start < part_start {
            (0, part_start - start, narrow_size.min(start + size - part_start))
        } else {
            let at = start - part_start;
            (at, 0, (narrow_size - at).min(size))
        };
        let slice = if extract_at != 0 || segment != size {
            let seg = h.func.new_vreg(Llt::scalar(segment as u32));
            build_extract(h, seg, value, extract_at);
            seg
        } else {
            value
        };
        let merged = h.func.new_vreg(narrow);
        if h.func.ty(slice).size_in_bits() == narrow_size {
            // LLVM's buildInsert of a whole register is a cast.
            build_extract(h, merged, slice, 0);
        } else {
            h.build_with(
                Opcode::G_INSERT,
                &[merged],
                vec![Operand::vreg_use(source), Operand::vreg_use(slice), Operand::Imm(insert_at as i64)],
            );
        }
        pieces.push(merged);
    }
    let wide = pieces.len() as u64 * narrow_size;
    if wide > reg_ty.size_in_bits() {
        let merge = h.func.new_vreg(Llt::scalar(wide as u32));
        h.build_into(Opcode::G_MERGE_VALUES, merge, &pieces);
        h.build_into(Opcode::G_TRUNC, dst, &[merge]);
    } else {
        h.build_into(Opcode::G_MERGE_VALUES, dst, &pieces);
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// Checks the one slice LLVM 22 sizes wrongly: the part the insert starts
/// in, when the value ends before that part does. LLVM extracts
/// `start + size - part_start` bits of the value there; that pair of
/// instructions is legalized in a scratch function, and its failure is
/// LLVM's failure.
fn llvm_slice_legalizes(h: &Helper<'_>, narrow: Llt, value_ty: Llt, start: u64) -> Result<(), String> {
    let narrow_size = narrow.size_in_bits();
    let size = value_ty.size_in_bits();
    let at = start % narrow_size;
    let llvm_segment = (narrow_size - at).min(at + size);
    let segment = (narrow_size - at).min(size);
    if at == 0 || llvm_segment == segment {
        return Ok(());
    }
    let mut probe = Function::new("llvm-insert-slice");
    let block = probe.add_block(0);
    let mut b = Builder::new(&mut probe, InsertPoint::End(block));
    let value = b.copy_from_physical(value_ty, "value");
    let part = b.copy_from_physical(narrow, "part");
    let slice_ty = Llt::scalar(llvm_segment as u32);
    let slice = b.build(Opcode::G_EXTRACT, &[slice_ty], [Operand::vreg_use(value), Operand::Imm(0)]).1[0];
    let uses = vec![Operand::vreg_use(part), Operand::vreg_use(slice), Operand::Imm(at as i64)];
    let merged = b.build(Opcode::G_INSERT, &[narrow], uses).1[0];
    b.copy_to_physical("part", merged);
    match legalize(&mut probe, h.info, h.target, LegalizeOptions::default()) {
        Err(LegalizeError::UnableToLegalize { inst, reason, .. }) => {
            let first_step = reason.lines().next().unwrap_or_default();
            let why = first_step.split_once("  ->  ").map_or(first_step, |(_, why)| why);
            Err(format!(
                "LLVM 22 inserts an {slice_ty} slice of the {value_ty} value at bit {at} of an {narrow} part, \
                 and cannot legalize `{inst}`: {why}"
            ))
        }
        Err(error) => Err(format!("LLVM 22's {slice_ty} slice of the {value_ty} value: {error}")),
        Ok(_) => Ok(()),
    }
}
