//! The artifact combiner: folds the extend/truncate/merge/unmerge glue the
//! helper leaves behind, so that it never has to be legal on its own. Each
//! fold looks through COPYs to the defining instruction and builds only
//! what the rules allow (LLVM's `LegalizationArtifactCombiner`).

use super::driver::is_trivially_dead;
use super::helper::{Helper, merge_opcode};
use super::known_bits::{known_zero, num_sign_bits};
use crate::apint::ApInt;
use crate::ir::{Function, Inst, Operand, Reg, VReg};
use crate::legality::{LegalityQuery, LegalizeAction};
use crate::opcode::Opcode;
use crate::ty::Llt;
use smallvec::{SmallVec, smallvec};

/// A few registers: an artifact's defs, or those whose users are looked at
/// again.
type Registers = SmallVec<[VReg; 4]>;

/// The instructions a combine leaves dead, to be erased after it.
pub(super) type DeadInsts = SmallVec<[Inst; 4]>;

/// Tries to fold artifact `inst`; on success pushes the instructions that
/// became dead onto `dead` (`inst` first) and returns true.
pub(super) fn try_combine(h: &mut Helper<'_>, inst: Inst, dead: &mut DeadInsts) -> bool {
    h.set_insert_before(inst);
    let opcode = h.func.inst(inst).known_opcode();
    let defs: Registers = (0..usize::from(h.func.inst(inst).num_defs)).map(|i| use_reg(h, inst, i)).collect();
    let combined = match opcode {
        Some(Opcode::G_ANYEXT) => combine_anyext(h, inst),
        Some(Opcode::G_ZEXT) => combine_zext(h, inst),
        Some(Opcode::G_SEXT) => combine_sext(h, inst),
        Some(Opcode::G_TRUNC) => combine_trunc(h, inst),
        Some(Opcode::G_UNMERGE_VALUES) => combine_unmerge(h, inst),
        Some(Opcode::G_MERGE_VALUES | Opcode::G_BUILD_VECTOR | Opcode::G_CONCAT_VECTORS) => combine_merge(h, inst),
        Some(Opcode::G_EXTRACT) => combine_extract(h, inst),
        _ => None,
    };
    let Some(source_def) = combined else {
        // A truncate that stays, or a merge feeding an unmerge or a truncate,
        // gives its users another look.
        let look_again = match opcode {
            Some(Opcode::G_TRUNC) => true,
            Some(Opcode::G_MERGE_VALUES | Opcode::G_BUILD_VECTOR | Opcode::G_CONCAT_VECTORS) => h
                .func
                .use_insts(defs[0])
                .any(|u| h.func.inst(u).is(Opcode::G_UNMERGE_VALUES) || h.func.inst(u).is(Opcode::G_TRUNC)),
            _ => false,
        };
        if look_again {
            requeue_artifact_users(h, smallvec![defs[0]]);
        }
        return false;
    };
    // Registers that now hold the artifact's values: its own defs when
    // rebuilt, or what uses were redirected to.
    let mut updated: Registers = defs.iter().copied().filter(|d| !h.func.has_no_uses(*d)).collect();
    updated.extend(h.drain_replacements());
    // A fold that changed the artifact in place keeps it.
    if !h.is_changed(inst) {
        dead.push(inst);
    }
    mark_chain_dead(h.func, inst, source_def, dead);
    requeue_artifact_users(h, updated);
    true
}

/// Queues the artifact users of `regs` again, following COPYs (LLVM's
/// `UpdatedDefs` walk). They count as changed: LLVM reports each to every
/// observer, CSE included, which takes it out and records it again.
fn requeue_artifact_users(h: &mut Helper<'_>, mut regs: Registers) {
    use Opcode::*;
    while let Some(reg) = regs.pop() {
        // Only the users these combines look at are kept: a register such
        // as a shared constant may have thousands of others.
        let users: SmallVec<[(Inst, bool); 8]> = h
            .func
            .uses_with_opcodes(reg)
            .filter_map(|(user, opcode)| match opcode {
                Some(G_ANYEXT | G_ZEXT | G_SEXT | G_UNMERGE_VALUES | G_EXTRACT | G_TRUNC | G_BUILD_VECTOR) => {
                    Some((user, true))
                }
                Some(COPY | G_ASSERT_SEXT | G_ASSERT_ZEXT | G_ASSERT_ALIGN) => Some((user, false)),
                _ => None,
            })
            .collect();
        for (user, artifact) in users {
            if artifact {
                h.mark_changed(user);
            } else if let Some(Reg::Virtual(copy)) = h.func.inst(user).operands[0].as_reg().map(|r| r.reg) {
                regs.push(copy);
            }
        }
    }
}

/// After `inst` goes, its source chain up to `source_def` may die too.
fn mark_chain_dead(func: &Function, inst: Inst, source_def: Option<Inst>, dead: &mut DeadInsts) {
    let Some(def) = source_def else { return };
    if def == inst {
        return;
    }
    let only_used_by_dead = func.inst(def).defs().iter().all(|op| match op.as_reg().map(|r| r.reg) {
        Some(Reg::Virtual(v)) => func.use_insts(v).all(|u| dead.contains(&u)),
        _ => false,
    });
    if only_used_by_dead && (is_trivially_dead(func, def) || is_cast_like(func, def)) && !dead.contains(&def) {
        dead.push(def);
    }
}

fn is_cast_like(func: &Function, inst: Inst) -> bool {
    use Opcode::*;
    matches!(
        func.inst(inst).known_opcode(),
        Some(
            COPY | G_TRUNC
                | G_ANYEXT
                | G_ZEXT
                | G_SEXT
                | G_MERGE_VALUES
                | G_UNMERGE_VALUES
                | G_CONSTANT
                | G_IMPLICIT_DEF
        )
    )
}

// ----- helpers -----

fn use_reg(h: &Helper<'_>, inst: Inst, index: usize) -> VReg {
    h.reg(inst, index)
}

/// The vreg's definition, looking through COPYs of vregs with the same type
/// and through the `G_ASSERT_*` hints (LLVM's `getDefSrcRegIgnoringCopies`).
fn def_through_copies(func: &Function, mut v: VReg) -> Option<(Inst, VReg)> {
    loop {
        let def = func.def_inst(v)?;
        let data = func.inst(def);
        let is_copy_like = data.is(Opcode::COPY)
            || data
                .known_opcode()
                .is_some_and(|o| matches!(o, Opcode::G_ASSERT_ZEXT | Opcode::G_ASSERT_SEXT | Opcode::G_ASSERT_ALIGN));
        if is_copy_like
            && let Some(Reg::Virtual(src)) = data.operands.get(1).and_then(|o| o.as_reg()).map(|r| r.reg)
            && func.ty(src) == func.ty(v)
        {
            v = src;
            continue;
        }
        return Some((def, v));
    }
}

fn action(h: &Helper<'_>, opcode: Opcode, types: &[Llt]) -> LegalizeAction {
    h.info.action(&LegalityQuery::new(opcode, types)).action
}

fn is_legal(h: &Helper<'_>, opcode: Opcode, types: &[Llt]) -> bool {
    action(h, opcode, types) == LegalizeAction::Legal
}

fn is_unsupported(h: &Helper<'_>, opcode: Opcode, types: &[Llt]) -> bool {
    matches!(action(h, opcode, types), LegalizeAction::Unsupported | LegalizeAction::NotFound)
}

/// Rewrites every use of `from` to `to` (`to` counts as updated), or, when
/// `from` has a class or bank `to` lacks, defines `from` as a COPY of `to`.
fn replace_reg(h: &mut Helper<'_>, from: VReg, to: VReg) {
    // A register with another class or bank keeps its own definition, a
    // COPY (LLVM's `replaceRegOrBuildCopy` when `canReplaceReg` fails).
    let class = h.func.vreg(from).class;
    if h.func.ty(from) != h.func.ty(to) || class.is_some_and(|c| h.func.vreg(to).class != Some(c)) {
        h.build_into(Opcode::COPY, from, &[to]);
        return;
    }
    // Every user changes, and is looked at again (LLVM's observer reports
    // each use rewritten by `replaceRegWith`).
    for user in h.func.use_insts(from).collect::<SmallVec<[Inst; 8]>>() {
        h.mark_changed(user);
    }
    h.func.replace_all_uses(from, to);
    h.record_replacement(to);
}

/// Makes `dst` hold `src` of a possibly different width: the same vreg,
/// a G_ANYEXT or a G_TRUNC.
fn anyext_or_trunc_into(h: &mut Helper<'_>, dst: VReg, src: VReg) {
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if dst_ty == src_ty {
        replace_reg(h, dst, src);
    } else if dst_ty.size_in_bits() > src_ty.size_in_bits() {
        h.build_into(Opcode::G_ANYEXT, dst, &[src]);
    } else {
        h.build_into(Opcode::G_TRUNC, dst, &[src]);
    }
}

/// Whether constants of `ty` cannot be built: `G_CONSTANT` of the element,
/// and for a vector its `G_BUILD_VECTOR` (LLVM's `isConstantUnsupported`).
fn is_constant_unsupported(h: &Helper<'_>, ty: Llt) -> bool {
    let element = ty.scalar_type();
    is_unsupported(h, Opcode::G_CONSTANT, &[element])
        || (ty.is_vector() && is_unsupported(h, Opcode::G_BUILD_VECTOR, &[ty, element]))
}

fn constant_value(func: &Function, inst: Inst) -> Option<ApInt> {
    match &func.inst(inst).operands[1] {
        Operand::CImm(v) => Some(v.as_ref().clone()),
        _ => None,
    }
}

fn build_constant_into(h: &mut Helper<'_>, dst: VReg, value: ApInt) {
    h.build_with(Opcode::G_CONSTANT, &[dst], [Operand::cimm(value)]);
}

// ----- the folds -----

fn combine_anyext(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let (dst, src) = (use_reg(h, inst, 0), use_reg(h, inst, 1));
    let dst_ty = h.func.ty(dst);
    let (def, _) = def_through_copies(h.func, src)?;
    let def_opcode = h.func.inst(def).known_opcode()?;
    match def_opcode {
        Opcode::G_TRUNC => {
            let inner = use_reg(h, def, 1);
            anyext_or_trunc_into(h, dst, inner);
        }
        Opcode::G_ANYEXT | Opcode::G_SEXT | Opcode::G_ZEXT => {
            let inner = use_reg(h, def, 1);
            h.build_into(def_opcode, dst, &[inner]);
        }
        Opcode::G_CONSTANT if is_legal(h, Opcode::G_CONSTANT, &[dst_ty]) => {
            let value = constant_value(h.func, def)?.sext_or_trunc(dst_ty.scalar_size_in_bits());
            // The builder takes the merge of the two locations (of the
            // extensions' folds, only this one's does in LLVM 22).
            h.builder_loc = h.func.merged_debug_loc(inst, def);
            build_constant_into(h, dst, value);
        }
        // anyext(undef) -> undef, built where CSE can share it.
        Opcode::G_IMPLICIT_DEF if is_legal(h, Opcode::G_IMPLICIT_DEF, &[dst_ty]) => {
            let undef = h.build(Opcode::G_IMPLICIT_DEF, dst_ty, &[]);
            replace_reg(h, dst, undef);
        }
        _ => return None,
    }
    Some(Some(def))
}

fn combine_zext(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let (dst, src) = (use_reg(h, inst, 0), use_reg(h, inst, 1));
    let dst_ty = h.func.ty(dst);
    let src_ty = h.func.ty(src);
    let (def, _) = def_through_copies(h.func, src)?;
    let def_opcode = h.func.inst(def).known_opcode()?;
    match def_opcode {
        // zext(trunc x) -> and(anyext-or-trunc x, mask); zext(sext x) -> and(sext-or-trunc x, mask);
        // the mask is left out when the high bits are known to be zero.
        Opcode::G_TRUNC | Opcode::G_SEXT => {
            if is_unsupported(h, Opcode::G_AND, &[dst_ty]) || is_constant_unsupported(h, dst_ty) {
                return None;
            }
            let inner = use_reg(h, def, 1);
            let inner_ty = h.func.ty(inner);
            let and_src = if inner_ty == dst_ty {
                inner
            } else if inner_ty.size_in_bits() > dst_ty.size_in_bits() {
                h.build(Opcode::G_TRUNC, dst_ty, &[inner])
            } else {
                let ext = if def_opcode == Opcode::G_SEXT { Opcode::G_SEXT } else { Opcode::G_ANYEXT };
                h.build(ext, dst_ty, &[inner])
            };
            let mask = ApInt::all_ones(src_ty.scalar_size_in_bits()).zext_or_trunc(dst_ty.scalar_size_in_bits());
            let known = known_zero(h.func, h.target, and_src, h.known_bits_depth);
            if known.or(&mask).is_all_ones() {
                replace_reg(h, dst, and_src);
            } else {
                let mask_reg = h.splat_constant(dst_ty, mask);
                h.build_into(Opcode::G_AND, dst, &[and_src, mask_reg]);
            }
        }
        // zext(zext x) -> zext x, the instruction changed in place (as LLVM
        // does: it stays, and CSE records it again later).
        Opcode::G_ZEXT => {
            let inner = use_reg(h, def, 1);
            h.func.set_operand(inst, 1, Operand::vreg_use(inner));
            h.mark_changed(inst);
        }
        Opcode::G_CONSTANT if is_legal(h, Opcode::G_CONSTANT, &[dst_ty]) => {
            let value = constant_value(h.func, def)?.zext_or_trunc(dst_ty.scalar_size_in_bits());
            build_constant_into(h, dst, value);
        }
        Opcode::G_IMPLICIT_DEF => undef_extended_to_zero(h, dst, dst_ty)?,
        _ => return None,
    }
    Some(Some(def))
}

fn combine_sext(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let (dst, src) = (use_reg(h, inst, 0), use_reg(h, inst, 1));
    let dst_ty = h.func.ty(dst);
    let src_ty = h.func.ty(src);
    let (def, _) = def_through_copies(h.func, src)?;
    let def_opcode = h.func.inst(def).known_opcode()?;
    match def_opcode {
        // sext(trunc x) -> G_SEXT_INREG(anyext-or-trunc x), scalars or vectors
        // of the same length.
        Opcode::G_TRUNC
            if dst_ty.is_scalar() || h.func.ty(use_reg(h, def, 1)).num_elements() == dst_ty.num_elements() =>
        {
            if is_unsupported(h, Opcode::G_SEXT_INREG, &[dst_ty]) {
                return None;
            }
            let inner = use_reg(h, def, 1);
            let widened = if h.func.ty(inner) == dst_ty {
                inner
            } else if h.func.ty(inner).scalar_size_in_bits() > dst_ty.scalar_size_in_bits() {
                h.build(Opcode::G_TRUNC, dst_ty, &[inner])
            } else {
                h.build(Opcode::G_ANYEXT, dst_ty, &[inner])
            };
            let bits = src_ty.scalar_size_in_bits();
            // Like the mask of zext(trunc x), the G_SEXT_INREG is left out
            // when the high bits already copy the sign bit.
            if num_sign_bits(h.func, h.target, widened, h.known_bits_depth) > dst_ty.scalar_size_in_bits() - bits {
                replace_reg(h, dst, widened);
            } else {
                let uses = vec![Operand::vreg_use(widened), Operand::Imm(i64::from(bits))];
                h.build_with(Opcode::G_SEXT_INREG, &[dst], uses);
            }
        }
        Opcode::G_SEXT | Opcode::G_ZEXT => {
            let inner = use_reg(h, def, 1);
            h.build_into(def_opcode, dst, &[inner]);
        }
        Opcode::G_CONSTANT if is_legal(h, Opcode::G_CONSTANT, &[dst_ty]) => {
            let value = constant_value(h.func, def)?.sext_or_trunc(dst_ty.scalar_size_in_bits());
            build_constant_into(h, dst, value);
        }
        Opcode::G_IMPLICIT_DEF => undef_extended_to_zero(h, dst, dst_ty)?,
        _ => return None,
    }
    Some(Some(def))
}

/// [sz]ext(undef) -> 0 (the high bits are all zeros, or all copies of an
/// undefined sign), built where CSE can share it (LLVM's
/// `tryFoldImplicitDef`).
fn undef_extended_to_zero(h: &mut Helper<'_>, dst: VReg, ty: Llt) -> Option<()> {
    if is_constant_unsupported(h, ty) {
        return None;
    }
    let zero = h.splat_constant(ty, ApInt::from_u128(ty.scalar_size_in_bits(), 0));
    replace_reg(h, dst, zero);
    Some(())
}

fn combine_trunc(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let (dst, src) = (use_reg(h, inst, 0), use_reg(h, inst, 1));
    let dst_ty = h.func.ty(dst);
    let (def, _) = def_through_copies(h.func, src)?;
    let def_opcode = h.func.inst(def).known_opcode()?;
    match def_opcode {
        Opcode::G_CONSTANT if is_legal(h, Opcode::G_CONSTANT, &[dst_ty]) => {
            let value = constant_value(h.func, def)?.zext_or_trunc(dst_ty.scalar_size_in_bits());
            build_constant_into(h, dst, value);
        }
        Opcode::G_TRUNC => {
            let inner = use_reg(h, def, 1);
            h.build_into(Opcode::G_TRUNC, dst, &[inner]);
        }
        Opcode::G_MERGE_VALUES if dst_ty.is_scalar() => {
            let first = use_reg(h, def, 1);
            let part_ty = h.func.ty(first);
            let (dst_bits, part_bits) = (dst_ty.size_in_bits(), part_ty.size_in_bits());
            if dst_bits < part_bits {
                if is_unsupported(h, Opcode::G_TRUNC, &[dst_ty, part_ty]) {
                    return None;
                }
                h.build_into(Opcode::G_TRUNC, dst, &[first]);
            } else if dst_bits == part_bits {
                replace_reg(h, dst, first);
            } else if dst_bits % part_bits == 0 {
                if is_unsupported(h, Opcode::G_MERGE_VALUES, &[dst_ty, part_ty]) {
                    return None;
                }
                let count = (dst_bits / part_bits) as usize;
                let parts: Vec<VReg> = (0..count).map(|i| use_reg(h, def, 1 + i)).collect();
                h.build_into(Opcode::G_MERGE_VALUES, dst, &parts);
            } else {
                return None;
            }
        }
        // A merge truncated to a vector is left as it is.
        Opcode::G_MERGE_VALUES => return None,
        // trunc(ext x) -> x, and trunc(unmerge(ext x)) and the like: whatever
        // the value finder sees of the low bits.
        _ => match find_value(h, dst, 0, dst_ty.size_in_bits() as u32, dst_ty, &mut None) {
            Some(found) if found != dst && h.func.ty(found) == dst_ty => replace_reg(h, dst, found),
            _ => return None,
        },
    }
    Some(Some(def))
}

fn combine_unmerge(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let num_defs = usize::from(h.func.inst(inst).num_defs);
    let src = use_reg(h, inst, num_defs);
    let (def, src) = def_through_copies(h.func, src)?;
    let defs: Vec<VReg> = (0..num_defs).map(|i| use_reg(h, inst, i)).collect();
    let def_ty = h.func.ty(defs[0]);
    // 1. Every used def found as an existing register (LLVM's ArtifactValueFinder).
    if defs_from_value_finder(h, &defs, def_ty) {
        return Some(Some(def));
    }
    let def_opcode = h.func.inst(def).known_opcode()?;
    if def_opcode == Opcode::G_UNMERGE_VALUES {
        return unmerge_of_unmerge(h, def, src, &defs, def_ty);
    }
    // 3. Through at most one cast, down to a merge-like.
    let op_ty = h.func.ty(use_reg(h, inst, num_defs));
    let convert = is_artifact_cast(def_opcode).then_some(def_opcode);
    let merge = match convert {
        Some(_) => def_through_copies(h.func, use_reg(h, def, 1)).map(|(d, _)| d),
        None => Some(def),
    };
    match merge.filter(|m| can_fold_merge(h.func.inst(*m).known_opcode(), convert, op_ty, def_ty)) {
        Some(merge) => unmerge_of_merge(h, merge, def, convert, &defs, def_ty).map(|_| Some(def)),
        None => unmerge_of_cast(h, def, src, &defs, def_ty),
    }
}

fn is_artifact_cast(opcode: Opcode) -> bool {
    matches!(opcode, Opcode::G_TRUNC | Opcode::G_ANYEXT | Opcode::G_ZEXT | Opcode::G_SEXT)
}

/// Whether an unmerge into `def_ty` of a `convert`ed merge-like of type
/// `op_ty` can be folded into its sources: a conversion must stay in one
/// domain (scalars to scalars, vectors to vectors); LLVM's
/// `canFoldMergeOpcode`.
fn can_fold_merge(merge: Option<Opcode>, convert: Option<Opcode>, op_ty: Llt, def_ty: Llt) -> bool {
    match merge {
        Some(Opcode::G_BUILD_VECTOR | Opcode::G_MERGE_VALUES) => {
            convert.is_none() || (!def_ty.is_vector() && op_ty.is_vector() && def_ty == op_ty.element_type())
        }
        Some(Opcode::G_CONCAT_VECTORS) => match convert {
            None => true,
            Some(_) if !def_ty.is_vector() => false,
            Some(Opcode::G_TRUNC) => def_ty.size_in_bits() <= u64::from(op_ty.scalar_size_in_bits()),
            Some(_) => def_ty.size_in_bits() >= u64::from(op_ty.scalar_size_in_bits()),
        },
        _ => false,
    }
}

/// Replaces each used def by a register that already holds its bits;
/// true when every def is then unused.
fn defs_from_value_finder(h: &mut Helper<'_>, defs: &[VReg], def_ty: Llt) -> bool {
    let mut all_dead = true;
    for &d in defs {
        if h.func.has_no_uses(d) {
            continue;
        }
        match find_value(h, d, 0, def_ty.size_in_bits() as u32, def_ty, &mut None) {
            Some(found) if found != d && h.func.ty(found) == def_ty => replace_reg(h, d, found),
            _ => all_dead = false,
        }
    }
    all_dead
}

/// A register holding bits `[start, start + size)` of `reg`, looking
/// through unmerges, inserts, truncations and extensions (LLVM's
/// `findValueFromDefImpl` for scalars). `best` is the best exact match
/// seen so far. An undefined value is given as one of type `want`: the
/// caller's type through unmerges, the source's type below a truncation,
/// extension, insert or concatenation (so truncating an undefined value
/// finds nothing narrower to use).
fn find_value(
    h: &mut Helper<'_>,
    reg: VReg,
    start: u32,
    size: u32,
    want: Llt,
    best: &mut Option<VReg>,
) -> Option<VReg> {
    let (def, reg) = def_through_copies(h.func, reg)?;
    // A target instruction (RISC-V's G_FCVT_WU_RV64, say) is as opaque as
    // any other definition the finder does not look into.
    let Some(opcode) = h.func.inst(def).known_opcode() else { return *best };
    match opcode {
        Opcode::G_UNMERGE_VALUES => {
            let num_defs = usize::from(h.func.inst(def).num_defs);
            let index = (0..num_defs).position(|i| use_reg(h, def, i) == reg)?;
            let def_size = h.func.ty(reg).size_in_bits() as u32;
            let source = use_reg(h, def, num_defs);
            let found = find_value(h, source, start + index as u32 * def_size, size, want, best);
            if found.is_some() {
                return found;
            }
            if start == 0 && size == def_size { Some(reg) } else { *best }
        }
        Opcode::G_TRUNC => {
            let source = use_reg(h, def, 1);
            let source_ty = h.func.ty(source);
            if !source_ty.is_scalar() {
                return *best;
            }
            find_value(h, source, start, size, source_ty, best)
        }
        Opcode::G_SEXT | Opcode::G_ZEXT | Opcode::G_ANYEXT => {
            let source = use_reg(h, def, 1);
            let source_ty = h.func.ty(source);
            if !source_ty.is_scalar() || start + size > source_ty.size_in_bits() as u32 {
                return *best;
            }
            if start == 0 && source_ty.size_in_bits() as u32 == size {
                *best = Some(source);
            }
            find_value(h, source, start, size, source_ty, best)
        }
        Opcode::G_INSERT => {
            let Operand::Imm(offset) = h.func.inst(def).operands[3] else { return *best };
            let (container, inserted) = (use_reg(h, def, 1), use_reg(h, def, 2));
            let inserted_size = h.func.ty(inserted).size_in_bits() as u32;
            let (offset, end) = (u32::try_from(offset).ok()?, start + size);
            if end <= offset || offset + inserted_size <= start {
                find_value(h, container, start, size, h.func.ty(container), best)
            } else if offset <= start && end <= offset + inserted_size {
                if start == offset && size == inserted_size {
                    *best = Some(inserted);
                }
                find_value(h, inserted, start - offset, size, h.func.ty(inserted), best)
            } else {
                None
            }
        }
        Opcode::G_CONCAT_VECTORS => {
            let source = use_reg(h, def, 1 + (start / source_size(h, def)) as usize);
            let (offset, piece) = (start % source_size(h, def), source_size(h, def));
            if offset + size > piece {
                return *best;
            }
            if offset == 0 && size == piece {
                *best = Some(source);
            }
            find_value(h, source, offset, size, h.func.ty(source), best)
        }
        Opcode::G_BUILD_VECTOR => {
            let piece = source_size(h, def);
            let first = 1 + (start / piece) as usize;
            if !start.is_multiple_of(piece) || size < piece {
                return *best;
            }
            if size == piece {
                return Some(use_reg(h, def, first));
            }
            if !size.is_multiple_of(piece) {
                return *best;
            }
            let used = (size / piece) as usize;
            let sources = h.func.inst(def).operands.len() - 1;
            if used == sources {
                return Some(reg);
            }
            let element = h.func.ty(use_reg(h, def, 1));
            let narrow = Llt::fixed_vector(used as u32, element);
            if !is_legal(h, Opcode::G_BUILD_VECTOR, &[narrow, element]) {
                return *best;
            }
            let elements: Vec<VReg> = (first..first + used).map(|i| use_reg(h, def, i)).collect();
            // The builder moves to the G_BUILD_VECTOR and takes its
            // location, none if it has none (LLVM's `setInstrAndDebugLoc`
            // in `findValueFromBuildVector`), for what it builds next too.
            h.set_insert_before(def);
            h.builder_loc.clone_from(&h.func.inst(def).debug_loc);
            Some(h.build(Opcode::G_BUILD_VECTOR, narrow, &elements))
        }
        Opcode::G_IMPLICIT_DEF => {
            if h.func.ty(reg) == want {
                Some(reg)
            } else {
                h.set_insert_before(def);
                Some(h.builder().undef(want))
            }
        }
        _ => *best,
    }
}

/// The size of each source of merge-like `inst`.
fn source_size(h: &Helper<'_>, inst: Inst) -> u32 {
    h.func.ty(use_reg(h, inst, 1)).size_in_bits() as u32
}

/// unmerge(unmerge x) -> one unmerge of x into the final type.
fn unmerge_of_unmerge(h: &mut Helper<'_>, inner: Inst, src: VReg, defs: &[VReg], def_ty: Llt) -> Option<Option<Inst>> {
    let inner_defs = usize::from(h.func.inst(inner).num_defs);
    let x = use_reg(h, inner, inner_defs);
    let (x_ty, op_ty) = (h.func.ty(x), h.func.ty(src));
    let step = h.info.action(&LegalityQuery::new(Opcode::G_UNMERGE_VALUES, &[op_ty, x_ty]));
    let allowed = match step.action {
        LegalizeAction::Legal => op_ty.is_vector() && is_legal(h, Opcode::G_UNMERGE_VALUES, &[def_ty, x_ty]),
        LegalizeAction::Lower | LegalizeAction::Unsupported | LegalizeAction::NotFound => true,
        LegalizeAction::FewerElements | LegalizeAction::NarrowScalar => step.type_idx != 1,
        _ => false,
    };
    if !allowed {
        return None;
    }
    let position = (0..inner_defs).position(|i| use_reg(h, inner, i) == src)?;
    let total = (x_ty.size_in_bits() / def_ty.size_in_bits()) as usize;
    let pieces = h.split(x, def_ty, total);
    for (i, d) in defs.iter().enumerate() {
        replace_reg(h, *d, pieces[position * defs.len() + i]);
    }
    Some(Some(inner))
}

/// unmerge(convert?(merge-like(...))) by how the counts relate; `cast` is
/// the instruction between them when `convert` is set.
fn unmerge_of_merge(
    h: &mut Helper<'_>,
    merge: Inst,
    cast: Inst,
    convert: Option<Opcode>,
    defs: &[VReg],
    def_ty: Llt,
) -> Option<()> {
    let sources: Vec<VReg> = (1..h.func.inst(merge).operands.len()).map(|i| use_reg(h, merge, i)).collect();
    let source_ty = h.func.ty(sources[0]);
    if sources.len() < defs.len() {
        if !defs.len().is_multiple_of(sources.len()) {
            return None;
        }
        let per_source = defs.len() / sources.len();
        for (chunk, source) in defs.chunks(per_source).zip(&sources) {
            let piece = match convert {
                Some(opcode) => {
                    let cast_ty = h.func.ty(use_reg(h, cast, 0));
                    let piece_ty = cast_ty.divide(sources.len() as u32);
                    h.build(opcode, piece_ty, &[*source])
                }
                None => *source,
            };
            h.build_with(Opcode::G_UNMERGE_VALUES, chunk, [Operand::vreg_use(piece)]);
        }
    } else if sources.len() > defs.len() {
        if convert.is_some() || !sources.len().is_multiple_of(defs.len()) {
            return None;
        }
        let opcode = merge_opcode(def_ty, source_ty);
        let per_def = sources.len() / defs.len();
        for (d, chunk) in defs.iter().zip(sources.chunks(per_def)) {
            h.build_into(opcode, *d, chunk);
        }
    } else {
        let convert = convert.or_else(|| {
            (def_ty != source_ty).then_some(if def_ty.is_pointer() {
                Opcode::G_INTTOPTR
            } else if source_ty.is_pointer() {
                Opcode::G_PTRTOINT
            } else {
                Opcode::G_BITCAST
            })
        });
        for (d, s) in defs.iter().zip(&sources) {
            match convert {
                Some(opcode) if !h.func.has_no_uses(*d) => {
                    h.build_into(opcode, *d, &[*s]);
                }
                Some(_) => {}
                None => replace_reg(h, *d, *s),
            }
        }
    }
    Some(())
}

/// unmerge(trunc x) (LLVM's `tryFoldUnmergeCast`): a vector truncation
/// becomes an unmerge of x and a truncation per piece; a scalar one whose
/// source size is a multiple of the pieces' unmerges x directly, with dead
/// defs for the extra pieces.
fn unmerge_of_cast(h: &mut Helper<'_>, cast: Inst, src: VReg, defs: &[VReg], def_ty: Llt) -> Option<Option<Inst>> {
    if !h.func.inst(cast).is(Opcode::G_TRUNC) {
        return None;
    }
    let x = use_reg(h, cast, 1);
    let (x_ty, src_ty) = (h.func.ty(x), h.func.ty(src));
    if src_ty.is_vector() && src_ty.scalar_type() == def_ty.scalar_type() {
        let count = if def_ty.is_vector() { x_ty.num_elements() / defs.len() as u32 } else { 1 };
        let piece_ty = Llt::scalar_or_vector(count, false, x_ty.element_type());
        let narrow_ty = Llt::scalar_or_vector(count, false, src_ty.element_type());
        if is_unsupported(h, Opcode::G_UNMERGE_VALUES, &[piece_ty, x_ty])
            || action(h, Opcode::G_TRUNC, &[narrow_ty, piece_ty]) == LegalizeAction::MoreElements
        {
            return None;
        }
        // A typed unmerge (`buildUnmerge(Ty, Reg)`), which CSE may share.
        let pieces = h.split(x, piece_ty, defs.len());
        for (d, piece) in defs.iter().zip(pieces) {
            h.build_into(Opcode::G_TRUNC, *d, &[piece]);
        }
        return Some(Some(cast));
    }
    if !x_ty.is_scalar()
        || !src_ty.is_scalar()
        || def_ty.is_vector()
        || !x_ty.size_in_bits().is_multiple_of(def_ty.size_in_bits())
    {
        return None;
    }
    if is_unsupported(h, Opcode::G_UNMERGE_VALUES, &[def_ty, x_ty]) {
        return None;
    }
    let count = (x_ty.size_in_bits() / def_ty.size_in_bits()) as usize;
    let regs: Vec<VReg> = (0..count).map(|i| defs.get(i).copied().unwrap_or_else(|| h.func.new_vreg(def_ty))).collect();
    h.build_with(Opcode::G_UNMERGE_VALUES, &regs, [Operand::vreg_use(x)]);
    for r in &regs {
        h.record_replacement(*r);
    }
    Some(Some(cast))
}

fn combine_merge(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let dst = use_reg(h, inst, 0);
    let dst_ty = h.func.ty(dst);
    let sources: Vec<VReg> = (1..h.func.inst(inst).operands.len()).map(|i| use_reg(h, inst, i)).collect();
    let (unmerge, first_index) = unmerge_defining(h, sources[0])?;
    let unmerge_src = use_reg(h, unmerge, usize::from(h.func.inst(unmerge).num_defs));
    let unmerge_src_ty = h.func.ty(unmerge_src);
    let elt_bits = h.func.ty(sources[0]).size_in_bits();
    let same_kind = dst_ty.is_vector() == unmerge_src_ty.is_vector();
    if dst_ty == unmerge_src_ty && first_index == 0 {
        // merge(unmerge x, in order) -> x; vectors may leave undefined lanes.
        if !is_sequence_from_unmerge(h, &sources, unmerge, 0, dst_ty.is_vector()) {
            return None;
        }
        replace_reg(h, dst, unmerge_src);
    } else if same_kind && first_index.is_multiple_of(sources.len()) && covers(unmerge_src_ty, dst_ty) {
        // A run of pieces of a wider x -> one piece of x unmerged into dst's type.
        if !is_sequence_from_unmerge(h, &sources, unmerge, first_index, false) {
            return None;
        }
        let pieces = (unmerge_src_ty.size_in_bits() / dst_ty.size_in_bits()) as usize;
        let parts = h.split(unmerge_src, dst_ty, pieces);
        replace_reg(h, dst, parts[(first_index as u64 * elt_bits / dst_ty.size_in_bits()) as usize]);
    } else if same_kind && covers(dst_ty, unmerge_src_ty) {
        // Every unmerge whole and in order -> a merge of their sources.
        let per_unmerge = usize::from(h.func.inst(unmerge).num_defs);
        let mut merged = Vec::new();
        for group in sources.chunks(per_unmerge) {
            let (group_unmerge, index) = unmerge_defining(h, group[0])?;
            if index != 0
                || usize::from(h.func.inst(group_unmerge).num_defs) != per_unmerge
                || !is_sequence_from_unmerge(h, group, group_unmerge, 0, false)
            {
                return None;
            }
            merged.push(use_reg(h, group_unmerge, per_unmerge));
        }
        let opcode = merge_opcode(dst_ty, h.func.ty(merged[0]));
        h.build_into(opcode, dst, &merged);
    } else {
        return None;
    }
    Some(Some(unmerge))
}

/// The unmerge defining the value of `reg` (found through copies and
/// the value finder), and the index of that def.
fn unmerge_defining(h: &mut Helper<'_>, reg: VReg) -> Option<(Inst, usize)> {
    let ty = h.func.ty(reg);
    let found = find_value(h, reg, 0, ty.size_in_bits() as u32, ty, &mut None).unwrap_or(reg);
    let (def, found) = def_through_copies(h.func, found)?;
    let data = h.func.inst(def);
    if !data.is(Opcode::G_UNMERGE_VALUES) {
        return None;
    }
    let index = (0..usize::from(data.num_defs)).position(|i| use_reg(h, def, i) == found)?;
    Some((def, index))
}

/// Whether `sources` are the defs of `unmerge` from `start` on, in order;
/// with `allow_undef`, an undefined source may stand for any of them.
fn is_sequence_from_unmerge(
    h: &mut Helper<'_>,
    sources: &[VReg],
    unmerge: Inst,
    start: usize,
    allow_undef: bool,
) -> bool {
    sources.iter().enumerate().all(|(i, &source)| match unmerge_defining(h, source) {
        Some((def, index)) if def == unmerge => index == start + i,
        _ => {
            allow_undef
                && def_through_copies(h.func, source).is_some_and(|(d, _)| h.func.inst(d).is(Opcode::G_IMPLICIT_DEF))
        }
    })
}

/// Whether `wide` splits evenly into `narrow` pieces (LLVM's
/// `getCoverTy(wide, narrow) == wide`, for scalars and for vectors of one
/// element size).
fn covers(wide: Llt, narrow: Llt) -> bool {
    match (wide.is_vector(), narrow.is_vector()) {
        (true, true) => {
            wide.scalar_size_in_bits() == narrow.scalar_size_in_bits()
                && wide.num_elements().is_multiple_of(narrow.num_elements())
        }
        (false, false) => wide.size_in_bits().is_multiple_of(narrow.size_in_bits()),
        _ => false,
    }
}

/// extract(undef) -> undef; extract(merge-like(s0, s1, ...), off) within one
/// source -> extract(s_i, off - i * |s|).
fn combine_extract(h: &mut Helper<'_>, inst: Inst) -> Option<Option<Inst>> {
    let (dst, src) = (use_reg(h, inst, 0), use_reg(h, inst, 1));
    let (def, src) = def_through_copies(h.func, src)?;
    let Operand::Imm(offset) = h.func.inst(inst).operands[2] else { return None };
    match h.func.inst(def).known_opcode()? {
        Opcode::G_IMPLICIT_DEF => {
            h.build_into(Opcode::G_IMPLICIT_DEF, dst, &[]);
        }
        Opcode::G_MERGE_VALUES | Opcode::G_BUILD_VECTOR | Opcode::G_CONCAT_VECTORS => {
            let sources = h.func.inst(def).operands.len() - 1;
            let part = h.func.ty(src).size_in_bits() / sources as u64;
            let (offset, size) = (offset as u64, h.func.ty(dst).size_in_bits());
            let (first, last) = (offset / part, (offset + size - 1) / part);
            if first != last {
                return None;
            }
            let source = use_reg(h, def, 1 + first as usize);
            build_extract(h, dst, source, offset - first * part);
        }
        _ => return None,
    }
    Some(Some(def))
}

/// `dst = G_EXTRACT src, offset`, or a cast when the sizes match (LLVM's
/// `buildExtract`).
pub(super) fn build_extract(h: &mut Helper<'_>, dst: VReg, src: VReg, offset: u64) {
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if dst_ty.size_in_bits() == src_ty.size_in_bits() {
        let cast = if dst_ty == src_ty {
            Opcode::COPY
        } else if dst_ty.is_pointer() && !src_ty.is_pointer() {
            Opcode::G_INTTOPTR
        } else if src_ty.is_pointer() && !dst_ty.is_pointer() {
            Opcode::G_PTRTOINT
        } else {
            Opcode::G_BITCAST
        };
        h.build_into(cast, dst, &[src]);
        return;
    }
    h.build_with(Opcode::G_EXTRACT, &[dst], [Operand::vreg_use(src), Operand::Imm(offset as i64)]);
}
