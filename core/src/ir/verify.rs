//! The verifier: each generic instruction against its opcode's operand
//! layout and type constraints, plus the SSA rules LLVM's machine verifier
//! enforces on GMIR (one def per virtual register, no use without a def).

use super::{Function, Inst, InstData, Operand, Reg};
use crate::opcode::{Opcode, OperandKind, OperandSpec};
use crate::ty::Llt;
use std::fmt;

/// A verifier finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The offending instruction.
    pub inst: Inst,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The width in bits of a physical register, by name, when known.
pub type RegisterBits<'a> = &'a dyn Fn(&str) -> Option<u32>;

/// What the verifier knows of the target; [`verify`] knows none of it.
#[derive(Clone, Copy, Default)]
pub struct TargetFacts<'a> {
    /// The width of a physical register, by name, for the copies between
    /// it and a typed virtual register (LLVM's "Copy Instruction is
    /// illegal with mismatching sizes").
    pub register_bits: Option<RegisterBits<'a>>,
    /// The width of a vector index, which the index of every
    /// `G_EXTRACT_VECTOR_ELT` and `G_INSERT_VECTOR_ELT` must have (LLVM's
    /// `getVectorIdxTy`: the pointer width on every target gisel knows).
    pub vector_index_bits: Option<u32>,
}

/// Checks `func`; returns every finding, in instruction order.
pub fn verify(func: &Function) -> Vec<VerifyError> {
    verify_for_target(func, TargetFacts::default())
}

/// [`verify`]'s findings and those that need `target`'s facts, then those
/// of each `COPY` between a typed virtual register and a physical register
/// whose width `target` knows: both must be as wide. One walk over the
/// instructions finds them all.
pub fn verify_for_target(func: &Function, target: TargetFacts<'_>) -> Vec<VerifyError> {
    let (mut errors, mut copy_errors) = (Vec::new(), Vec::new());
    for inst in func.all_insts() {
        let data = func.inst(inst);
        let mut report = |message: String| errors.push(VerifyError { inst, message });
        for op in &data.operands {
            if let Some(reg) = op.as_reg()
                && let Reg::Virtual(v) = reg.reg
                && !reg.is_def()
                && func.def_inst(v).is_none()
            {
                report(format!("reading virtual register {} without a def", vreg_name(func, v)));
            }
        }
        match data.known_opcode() {
            Some(Opcode::COPY) => {
                if let Some(message) = target.register_bits.and_then(|bits| copy_size_mismatch(func, data, bits)) {
                    copy_errors.push(VerifyError { inst, message });
                }
            }
            Some(op) if op.is_generic() => {
                check_generic(func, op, data, &mut report);
                if let Some(bits) = target.vector_index_bits {
                    check_vector_index(func, op, data, bits, &mut report);
                }
            }
            _ => {}
        }
    }
    for v in func.vregs() {
        if let [first, _, ..] = func.def_insts(v) {
            let count = func.def_insts(v).len();
            errors.push(VerifyError {
                inst: *first,
                message: format!("{} has {count} defs in SSA form", vreg_name(func, v)),
            });
        }
    }
    errors.append(&mut copy_errors);
    errors
}

/// What is wrong with `data`, a `COPY`, when it copies between a typed
/// virtual register and a physical register of another width.
fn copy_size_mismatch(func: &Function, data: &InstData, register_bits: RegisterBits<'_>) -> Option<String> {
    let [dst, src] = &data.operands[..] else { return None };
    let (virtual_reg, physical) = match (dst.as_reg()?.reg, src.as_reg()?.reg) {
        (Reg::Virtual(v), Reg::Physical(p)) | (Reg::Physical(p), Reg::Virtual(v)) => (v, p),
        _ => return None,
    };
    let ty = func.ty(virtual_reg);
    let name = func.names.resolve(physical);
    let bits = register_bits(name)?;
    (ty.is_valid() && !ty.is_scalable() && ty.size_in_bits() != u64::from(bits)).then(|| {
        format!("COPY between ${name} ({bits} bits) and {} ({ty}) changes the size", vreg_name(func, virtual_reg))
    })
}

/// A vector element's index must be `bits` wide (LLVM's "Index type must
/// match VectorIdxTy").
fn check_vector_index(func: &Function, op: Opcode, data: &InstData, bits: u32, report: &mut impl FnMut(String)) {
    let index = match op {
        Opcode::G_EXTRACT_VECTOR_ELT => 2,
        Opcode::G_INSERT_VECTOR_ELT => 3,
        _ => return,
    };
    if let Some(Reg::Virtual(v)) = data.operands.get(index).and_then(Operand::as_reg).map(|r| r.reg)
        && let ty = func.ty(v)
        && ty.is_valid()
        && ty.size_in_bits() != u64::from(bits)
    {
        report(format!("{op} index {ty} must be s{bits}, the target's vector index type (VectorIdxTy)"));
    }
}

fn vreg_name(func: &Function, v: super::VReg) -> String {
    match func.vreg_name(v) {
        Some(name) => format!("%{name}"),
        None => format!("%{}", v.index()),
    }
}

/// The layout slot that describes operand `index` of `count`, `defs` of
/// them defs. A leading variadic def slot (the intrinsics') describes the
/// defs and the rest of the layout the uses; otherwise the slots after a
/// variadic one describe the last operands, and the variadic slot every
/// operand between (`G_UNMERGE_VALUES` has its variadic defs before its
/// source).
fn spec_for(layout: &[OperandSpec], index: usize, count: usize, defs: usize) -> Option<&OperandSpec> {
    if let Some((first, uses)) = layout.split_first().filter(|(first, _)| first.def && first.variadic) {
        return if index < defs { Some(first) } else { spec_for(uses, index - defs, count - defs, 0) };
    }
    let Some(variadic) = layout.iter().position(|s| s.variadic) else { return layout.get(index) };
    let trailing_start = count.saturating_sub(layout.len() - variadic - 1);
    if index < variadic {
        layout.get(index)
    } else if index >= trailing_start {
        layout.get(variadic + 1 + (index - trailing_start))
    } else {
        layout.get(variadic)
    }
}

fn check_generic(func: &Function, op: Opcode, data: &InstData, report: &mut impl FnMut(String)) {
    let layout = op.info().operands;
    let count = data.explicit_operands().count();
    let fixed = op.info().num_fixed_slots();
    let variadic = fixed < layout.len();
    if count < fixed || (!variadic && count > fixed) {
        report(format!("{op} expects {}{fixed} operands, found {count}", if variadic { "at least " } else { "" }));
        return;
    }
    let mut types = [Llt::INVALID; 6];
    let mut mismatched = 0u8;
    for (index, operand) in data.explicit_operands().enumerate() {
        // Without a variadic slot, operand `index` is slot `index`.
        let spec =
            if variadic { spec_for(layout, index, count, usize::from(data.num_defs)) } else { layout.get(index) };
        let Some(spec) = spec else { continue };
        let type_index = match spec.kind {
            OperandKind::Type { index, .. } => Some(index),
            OperandKind::TypeAndBlock(type_index) => (index % 2 == 1).then_some(type_index),
            _ => None,
        };
        if let Some(type_index) = type_index {
            let Some(reg) = operand.as_reg() else {
                report(format!("{op} operand {index} must be a register"));
                continue;
            };
            if reg.is_def() != spec.def {
                report(format!("{op} operand {index} must be a {}", if spec.def { "def" } else { "use" }));
            }
            let Reg::Virtual(v) = reg.reg else {
                report(format!("{op} operand {index} must be a virtual register"));
                continue;
            };
            let ty = func.ty(v);
            if !ty.is_valid() {
                report(format!("{op} operand {index} has no type"));
                continue;
            }
            let slot = &mut types[usize::from(type_index)];
            if !slot.is_valid() {
                *slot = ty;
            } else if *slot != ty && mismatched & (1 << type_index) == 0 {
                mismatched |= 1 << type_index;
                report(format!("type mismatch in {op}: type{type_index} is {slot} and {ty}"));
            }
        } else if !kind_matches(spec.kind, operand) {
            report(format!("{op} operand {index} should be {:?}", spec.kind));
        }
    }
    check_type_relations(op, &types, report);
    check_pieces(op, &types, count, usize::from(data.num_defs), report);
}

/// Merges, unmerges, build-vectors and concatenations: the pieces cover
/// the whole exactly.
fn check_pieces(op: Opcode, types: &[Llt; 6], operands: usize, defs: usize, report: &mut impl FnMut(String)) {
    let (whole, piece) = (types[0], types[1]);
    if !whole.is_valid() || !piece.is_valid() {
        return;
    }
    let bits = |ty: Llt| ty.size_in_bits();
    match op {
        Opcode::G_MERGE_VALUES | Opcode::G_CONCAT_VECTORS if bits(whole) != bits(piece) * (operands - 1) as u64 => {
            report(format!("{op} of {} x {piece} cannot make {whole}", operands - 1));
        }
        Opcode::G_UNMERGE_VALUES if bits(piece) != bits(whole) * defs as u64 => {
            report(format!("{op} of {piece} into {defs} x {whole} does not cover its source"));
        }
        Opcode::G_BUILD_VECTOR
            if !whole.is_vector() || whole.element_type() != piece || whole.num_elements() as usize != operands - 1 =>
        {
            report(format!("{op} of {} x {piece} cannot make {whole}", operands - 1));
        }
        _ => {}
    }
}

fn kind_matches(kind: OperandKind, operand: &Operand) -> bool {
    match kind {
        OperandKind::GenericImm | OperandKind::Imm => matches!(operand, Operand::Imm(_)),
        OperandKind::CImm => matches!(operand, Operand::CImm(_)),
        OperandKind::FpImm => matches!(operand, Operand::FpImm(_)),
        OperandKind::IntPred => matches!(operand, Operand::IntPred(_)),
        OperandKind::FloatPred => matches!(operand, Operand::FloatPred(_)),
        OperandKind::Block | OperandKind::TypeAndBlock(_) => matches!(operand, Operand::Block(_)),
        OperandKind::IntrinsicId => matches!(operand, Operand::Intrinsic(_)),
        OperandKind::ShuffleMask => matches!(operand, Operand::ShuffleMask(_)),
        _ => true,
    }
}

/// Relations between type indices that LLVM's verifier checks.
fn check_type_relations(op: Opcode, types: &[Llt; 6], report: &mut impl FnMut(String)) {
    let (dst, src) = (types[0], types[1]);
    let both = dst.is_valid() && src.is_valid();
    match op {
        Opcode::G_TRUNC | Opcode::G_FPTRUNC if both => {
            if dst.scalar_size_in_bits() >= src.scalar_size_in_bits() {
                report(format!("{op} result {dst} must be narrower than its source {src}"));
            }
            check_same_shape(op, dst, src, report);
        }
        Opcode::G_ZEXT | Opcode::G_SEXT | Opcode::G_ANYEXT | Opcode::G_FPEXT if both => {
            if dst.scalar_size_in_bits() <= src.scalar_size_in_bits() {
                report(format!("{op} result {dst} must be wider than its source {src}"));
            }
            check_same_shape(op, dst, src, report);
        }
        Opcode::G_PTR_ADD if both && !dst.is_pointer_or_pointer_vector() => {
            report(format!("{op} result {dst} must be a pointer"));
        }
        Opcode::G_ICMP | Opcode::G_FCMP if both && dst.num_elements() != src.num_elements() => {
            report(format!("{op} result {dst} and operands {src} differ in element count"));
        }
        _ => {}
    }
}

fn check_same_shape(op: Opcode, dst: Llt, src: Llt, report: &mut impl FnMut(String)) {
    if dst.is_vector() != src.is_vector() || dst.num_elements() != src.num_elements() {
        report(format!("{op} result {dst} and source {src} must have the same shape"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::parse_body;

    fn errors(body: &str) -> Vec<String> {
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        verify(&func).into_iter().map(|e| e.message).collect()
    }

    #[test]
    fn accepts_well_formed_gmir() {
        let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s32) = G_TRUNC %0(s64)\n  %2:_(s32) = G_ADD %1, %1\n  \
                    %3:_(s64) = G_ZEXT %2(s32)\n  $x0 = COPY %3(s64)\n";
        assert_eq!(errors(body), Vec::<String>::new());
    }

    #[test]
    fn reports_type_and_ssa_errors() {
        let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s32) = COPY $w0\n  %2:_(s32) = G_ADD %0(s64), %1(s32)\n  \
                    %3:_(s64) = G_TRUNC %1(s32)\n  %4:_(s32) = G_ADD %9:_(s32), %1\n";
        let found = errors(body);
        assert!(found.iter().any(|e| e.contains("type mismatch in G_ADD")), "{found:?}");
        assert!(found.iter().any(|e| e.contains("G_TRUNC result s64 must be narrower")), "{found:?}");
        assert!(found.iter().any(|e| e.contains("without a def")), "{found:?}");
    }

    #[test]
    fn variadic_defs_come_before_the_source() {
        let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s16), %2:_(s16), %3:_(s16), %4:_(s16) = G_UNMERGE_VALUES %0(s64)\n  \
                    %5:_(s64) = G_MERGE_VALUES %1(s16), %2(s16), %3(s16), %4(s16)\n  %6:_(s32), %7:_(s32) = G_UNMERGE_VALUES %5(s64)\n";
        assert_eq!(errors(body), Vec::<String>::new());
        let found = errors("bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s16), %2:_(s32) = G_UNMERGE_VALUES %0(s64)\n");
        assert!(found.iter().any(|e| e.contains("type mismatch in G_UNMERGE_VALUES")), "{found:?}");
    }

    #[test]
    fn intrinsic_ids_follow_any_number_of_defs() {
        let body = "bb.0:\n  %0:_(p0) = COPY $x0\n  G_INTRINSIC_W_SIDE_EFFECTS intrinsic(@llvm.va_copy), %0(p0), %0(p0)\n  \
                    %1:_(s64), %2:_(s64) = G_INTRINSIC intrinsic(@llvm.x.y), %0(p0)\n";
        assert_eq!(errors(body), Vec::<String>::new());
        let found =
            errors("bb.0:\n  %0:_(p0) = COPY $x0\n  G_INTRINSIC_W_SIDE_EFFECTS %0(p0), intrinsic(@llvm.va_copy)\n");
        assert!(found.iter().any(|e| e.contains("operand 0 should be IntrinsicId")), "{found:?}");
    }

    #[test]
    fn pieces_must_cover_the_whole() {
        let found = errors(
            "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s257) = G_MERGE_VALUES %0(s64), %0(s64), %0(s64), %0(s64)\n  \
             %2:_(s33), %3:_(s33) = G_UNMERGE_VALUES %0(s64)\n  %4:_(<4 x s64>) = G_BUILD_VECTOR %0(s64), %0(s64)\n",
        );
        assert!(found.iter().any(|e| e.contains("G_MERGE_VALUES of 4 x s64 cannot make s257")), "{found:?}");
        assert!(found.iter().any(|e| e.contains("G_UNMERGE_VALUES of s64 into 2 x s33")), "{found:?}");
        assert!(found.iter().any(|e| e.contains("G_BUILD_VECTOR of 2 x s64 cannot make <4 x s64>")), "{found:?}");
    }

    #[test]
    fn copies_keep_the_register_width() {
        let func = parse_body(
            "f",
            "bb.0:\n  %0:_(s32) = COPY $x0\n  %1:_(s64) = COPY $x1\n  $w0 = COPY %1(s64)\n",
            &[],
            &|_| 64,
        )
        .expect("parses");
        let bits = |name: &str| match name.as_bytes()[0] {
            b'x' => Some(64),
            b'w' => Some(32),
            _ => None,
        };
        let facts = TargetFacts { register_bits: Some(&bits), vector_index_bits: None };
        let found: Vec<String> = verify_for_target(&func, facts).into_iter().map(|e| e.message).collect();
        assert_eq!(
            found,
            [
                "COPY between $x0 (64 bits) and %0 (s32) changes the size",
                "COPY between $w0 (32 bits) and %1 (s64) changes the size"
            ]
        );
    }

    #[test]
    fn vector_indices_have_the_target_width() {
        let func = parse_body(
            "f",
            "bb.0:\n  %0:_(<4 x s32>) = COPY $q0\n  %1:_(s32) = COPY $w0\n  %2:_(s64) = COPY $x0\n  \
             %3:_(s32) = G_EXTRACT_VECTOR_ELT %0(<4 x s32>), %1(s32)\n  %4:_(s32) = G_EXTRACT_VECTOR_ELT %0(<4 x s32>), %2(s64)\n  \
             %5:_(<4 x s32>) = G_INSERT_VECTOR_ELT %0, %3(s32), %1(s32)\n",
            &[],
            &|_| 64,
        )
        .expect("parses");
        let found = |bits| -> Vec<String> {
            let facts = TargetFacts { register_bits: None, vector_index_bits: Some(bits) };
            verify_for_target(&func, facts).into_iter().map(|e| e.message).collect()
        };
        assert_eq!(
            found(64),
            [
                "G_EXTRACT_VECTOR_ELT index s32 must be s64, the target's vector index type (VectorIdxTy)",
                "G_INSERT_VECTOR_ELT index s32 must be s64, the target's vector index type (VectorIdxTy)"
            ]
        );
        assert_eq!(
            found(32),
            ["G_EXTRACT_VECTOR_ELT index s64 must be s32, the target's vector index type (VectorIdxTy)"]
        );
        assert_eq!(verify(&func), []);
    }

    #[test]
    fn reports_operand_count() {
        let found = errors("bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = G_ADD %0, %0, %0\n");
        assert!(found.iter().any(|e| e.contains("G_ADD expects 3 operands, found 4")), "{found:?}");
    }
}
