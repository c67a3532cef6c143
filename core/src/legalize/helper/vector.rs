//! `FewerElements`: split a vector operation into operations on pieces of
//! fewer elements (LLVM's `fewerElementsVector`). Element-wise operations
//! are split into pieces of N elements plus at most one smaller leftover
//! piece and re-merged; PHIs, merges and unmerges, element access, memory
//! operations, shuffles and bitcasts have their own splitting. The
//! `MoreElements` and `Bitcast` actions live in [`super::vector_more`].

use super::addressing::{address_at, piece_mem};
use super::vector_parts::{
    Split, before_terminators, constant_value, extract_parts_with_leftover, extract_vector_parts, first_non_phi,
    gcd_type, insert_vector_parts, merge_into, merge_mixed_subvectors, merge_new, piece_ty, unmerge, vector_gcd,
    vector_lcm, vreg_at,
};
use super::{Helper, StepResult};
use crate::ir::{Block, Inst, InstData, InstOpcode, Operand, VReg};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Splits type index `idx` of `inst` into pieces of `narrow` (a vector, or
/// the element type to scalarize).
pub(super) fn fewer_elements(h: &mut Helper<'_>, inst: Inst, idx: usize, narrow: Llt) -> StepResult {
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("fewer elements: not a generic instruction".into());
    };
    let count = if narrow.is_vector() { narrow.num_elements() } else { 1 };
    match opcode {
        G_ICMP | G_FCMP => multi_elt(h, inst, opcode, count, &[1]),
        G_IS_FPCLASS => multi_elt(h, inst, opcode, count, &[2, 3]),
        G_SELECT => {
            let scalar_cond = vreg_at(h, inst, 1).is_some_and(|c| !h.func.ty(c).is_vector());
            multi_elt(h, inst, opcode, count, if scalar_cond { &[1] } else { &[] })
        }
        G_SEXT_INREG | G_FPOWI | G_INTRINSIC_FPTRUNC_ROUND => multi_elt(h, inst, opcode, count, &[2]),
        G_PHI => phi(h, inst, count),
        G_UNMERGE_VALUES => unmerge_values(h, inst, idx, narrow),
        G_BUILD_VECTOR if idx == 0 => merge_values(h, inst, idx, narrow),
        G_CONCAT_VECTORS if idx == 1 => merge_values(h, inst, idx, narrow),
        G_EXTRACT_VECTOR_ELT | G_INSERT_VECTOR_ELT => element(h, inst, opcode, idx, narrow),
        G_LOAD | G_STORE => load_store(h, inst, opcode, idx, narrow),
        G_SHUFFLE_VECTOR => shuffle(h, inst, idx),
        G_BITCAST => bitcast(h, inst, idx, narrow),
        _ if opcode.name().starts_with("G_VECREDUCE_") => super::reduce::fewer_elements(h, inst, opcode, idx, narrow),
        _ if is_element_wise(opcode) => multi_elt(h, inst, opcode, count, &[]),
        _ => unable(opcode, idx, narrow, "not implemented for this opcode"),
    }
}

fn unable(opcode: Opcode, idx: usize, narrow: Llt, why: &str) -> StepResult {
    StepResult::Unable(format!("fewer elements for {opcode} type{idx} to {narrow}: {why}"))
}

/// Opcodes LLVM splits with `fewerElementsVectorMultiEltType` and no
/// non-vector operand.
fn is_element_wise(opcode: Opcode) -> bool {
    matches!(
        opcode,
        G_IMPLICIT_DEF
            | G_TRUNC
            | G_AND
            | G_OR
            | G_XOR
            | G_ADD
            | G_SUB
            | G_MUL
            | G_PTR_ADD
            | G_SMULH
            | G_UMULH
            | G_FADD
            | G_FMUL
            | G_FSUB
            | G_FNEG
            | G_FABS
            | G_FCANONICALIZE
            | G_FDIV
            | G_FREM
            | G_FMA
            | G_FMAD
            | G_FPOW
            | G_FEXP
            | G_FEXP2
            | G_FEXP10
            | G_FLOG
            | G_FLOG2
            | G_FLOG10
            | G_FLDEXP
            | G_FNEARBYINT
            | G_FCEIL
            | G_FFLOOR
            | G_FRINT
            | G_INTRINSIC_LRINT
            | G_INTRINSIC_LLRINT
            | G_INTRINSIC_ROUND
            | G_INTRINSIC_ROUNDEVEN
            | G_LROUND
            | G_LLROUND
            | G_INTRINSIC_TRUNC
            | G_FMODF
            | G_FCOS
            | G_FSIN
            | G_FTAN
            | G_FACOS
            | G_FASIN
            | G_FATAN
            | G_FATAN2
            | G_FCOSH
            | G_FSINH
            | G_FTANH
            | G_FSQRT
            | G_BSWAP
            | G_BITREVERSE
            | G_SDIV
            | G_UDIV
            | G_SREM
            | G_UREM
            | G_SDIVREM
            | G_UDIVREM
            | G_SMIN
            | G_SMAX
            | G_UMIN
            | G_UMAX
            | G_ABS
            | G_FMINNUM
            | G_FMAXNUM
            | G_FMINNUM_IEEE
            | G_FMAXNUM_IEEE
            | G_FMINIMUM
            | G_FMAXIMUM
            | G_FMINIMUMNUM
            | G_FMAXIMUMNUM
            | G_FSHL
            | G_FSHR
            | G_ROTL
            | G_ROTR
            | G_FREEZE
            | G_SADDSAT
            | G_SSUBSAT
            | G_UADDSAT
            | G_USUBSAT
            | G_UMULO
            | G_SMULO
            | G_SHL
            | G_LSHR
            | G_ASHR
            | G_SSHLSAT
            | G_USHLSAT
            | G_CTLZ
            | G_CTLZ_ZERO_UNDEF
            | G_CTTZ
            | G_CTTZ_ZERO_UNDEF
            | G_CTPOP
            | G_FCOPYSIGN
            | G_ZEXT
            | G_SEXT
            | G_ANYEXT
            | G_FPEXT
            | G_FPTRUNC
            | G_SITOFP
            | G_UITOFP
            | G_FPTOSI
            | G_FPTOUI
            | G_FPTOSI_SAT
            | G_FPTOUI_SAT
            | G_INTTOPTR
            | G_PTRTOINT
            | G_ADDRSPACE_CAST
            | G_UADDO
            | G_USUBO
            | G_UADDE
            | G_USUBE
            | G_SADDO
            | G_SSUBO
            | G_SADDE
            | G_SSUBE
            | G_STRICT_FADD
            | G_STRICT_FSUB
            | G_STRICT_FMUL
            | G_STRICT_FMA
            | G_STRICT_FLDEXP
            | G_FFREXP
    )
}

/// The piece types of a `ty` vector split into `count`-element pieces:
/// the full pieces, then the leftover (`makeDstOps`).
fn piece_types(ty: Llt, count: u32) -> Vec<Llt> {
    let element = ty.element_type();
    let total = ty.num_elements();
    let mut types = vec![piece_ty(element, count); (total / count) as usize];
    if !total.is_multiple_of(count) {
        types.push(piece_ty(element, total % count));
    }
    types
}

/// `fewerElementsVectorMultiEltType`: one copy of the instruction (same
/// flags) per piece; operands at `non_vector` (operand indices) are
/// repeated for every piece.
fn multi_elt(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, count: u32, non_vector: &[usize]) -> StepResult {
    let data = h.func.inst(inst);
    let num_defs = usize::from(data.num_defs);
    let Some(first) = vreg_at(h, inst, 0) else { return unable(opcode, 0, Llt::INVALID, "def is not a vreg") };
    let ty = h.func.ty(first);
    let total = ty.num_elements();
    if !ty.is_fixed_vector() || count == 0 || count >= total || !data.mem.is_empty() {
        return unable(opcode, 0, piece_ty(ty.element_type(), count), "needs a wider fixed vector without memory");
    }
    for index in 0..data.operands.len() {
        if non_vector.contains(&index) {
            continue;
        }
        let ok = vreg_at(h, inst, index).is_some_and(|v| {
            let t = h.func.ty(v);
            t.is_fixed_vector() && t.num_elements() == total
        });
        if !ok {
            return unable(opcode, 0, ty, "operands must be vectors with the same number of elements");
        }
    }
    let flags = data.flags;
    let operands = data.operands.clone();
    let def_types: Vec<Vec<Llt>> = (0..num_defs).map(|d| piece_types(h.ty(inst, d), count)).collect();
    let pieces = def_types[0].len();
    let mut inputs: Vec<Vec<Operand>> = Vec::new();
    for (index, op) in operands.iter().enumerate().skip(num_defs) {
        if non_vector.contains(&index) {
            inputs.push(vec![op.clone(); pieces]);
        } else {
            let value = vreg_at(h, inst, index).expect("checked above");
            inputs.push(extract_vector_parts(h, value, count).into_iter().map(Operand::vreg_use).collect());
        }
    }
    let mut outputs: Vec<Vec<VReg>> = vec![Vec::new(); num_defs];
    for i in 0..pieces {
        let mut piece = InstData::new(InstOpcode::Known(opcode));
        piece.num_defs = data_num_defs(num_defs);
        piece.flags = flags;
        for (d, types) in def_types.iter().enumerate() {
            let def = h.func.new_vreg(types[i]);
            outputs[d].push(def);
            piece.operands.push(Operand::vreg_def(def));
        }
        piece.operands.extend(inputs.iter().map(|input| input[i].clone()));
        h.builder().insert(piece);
    }
    let leftover = !total.is_multiple_of(count);
    for (d, regs) in outputs.iter().enumerate() {
        let dst = h.reg(inst, d);
        if leftover {
            merge_mixed_subvectors(h, dst, regs);
        } else {
            merge_into(h, dst, regs);
        }
    }
    h.func.erase(inst);
    StepResult::Legalized
}

fn data_num_defs(n: usize) -> u16 {
    u16::try_from(n).expect("at most 65,535 defs")
}

/// `fewerElementsVectorPhi`: incoming values split at the end of their
/// blocks, one narrow PHI per piece, re-merged after the PHIs.
fn phi(h: &mut Helper<'_>, inst: Inst, count: u32) -> StepResult {
    let ty = h.ty(inst, 0);
    if !ty.is_fixed_vector() || count == 0 || count >= ty.num_elements() {
        return unable(G_PHI, 0, ty, "needs a wider fixed vector");
    }
    let operands = h.func.inst(inst).operands.clone();
    let mut incoming: Vec<(VReg, Block)> = Vec::new();
    for pair in operands[1..].chunks(2) {
        match (pair.first().and_then(Operand::as_reg).and_then(|r| r.vreg()), pair.get(1)) {
            (Some(v), Some(Operand::Block(b))) => incoming.push((v, *b)),
            _ => return unable(G_PHI, 0, ty, "malformed incoming operands"),
        }
    }
    let Some(block) = h.func.inst_block(inst) else { return unable(G_PHI, 0, ty, "not placed") };
    let mut split = Vec::with_capacity(incoming.len());
    for &(value, pred) in &incoming {
        h.point = before_terminators(h, pred);
        split.push(extract_vector_parts(h, value, count));
    }
    h.set_insert_before(inst);
    let types = piece_types(ty, count);
    let mut outputs = Vec::with_capacity(types.len());
    for (i, piece_ty) in types.iter().enumerate() {
        let def = h.func.new_vreg(*piece_ty);
        let mut uses = Vec::with_capacity(incoming.len() * 2);
        for (j, &(_, pred)) in incoming.iter().enumerate() {
            uses.push(Operand::vreg_use(split[j][i]));
            uses.push(Operand::Block(pred));
        }
        h.build_with(G_PHI, &[def], uses);
        outputs.push(def);
    }
    h.point = first_non_phi(h, block);
    let dst = h.reg(inst, 0);
    if ty.num_elements().is_multiple_of(count) {
        merge_into(h, dst, &outputs);
    } else {
        merge_mixed_subvectors(h, dst, &outputs);
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// `fewerElementsVectorUnmergeValues`: unmerge into `narrow` pieces, then
/// each piece into its share of the original defs.
fn unmerge_values(h: &mut Helper<'_>, inst: Inst, idx: usize, narrow: Llt) -> StepResult {
    let num_defs = usize::from(h.func.inst(inst).num_defs);
    let (dst_ty, src) = (h.ty(inst, 0), h.reg(inst, num_defs));
    let src_ty = h.func.ty(src);
    if idx != 1 || narrow == dst_ty {
        return unable(G_UNMERGE_VALUES, idx, narrow, "only the source is split, into a type other than the defs'");
    }
    if !src_ty.is_vector()
        || !narrow.is_vector()
        || src_ty.element_type() != narrow.element_type()
        || !src_ty.size_in_bits().is_multiple_of(narrow.size_in_bits())
        || !narrow.size_in_bits().is_multiple_of(dst_ty.size_in_bits())
    {
        return unable(G_UNMERGE_VALUES, idx, narrow, "sizes do not divide");
    }
    let defs: Vec<VReg> = (0..num_defs).map(|i| h.reg(inst, i)).collect();
    let pieces = unmerge(h, narrow, src);
    let per_piece = defs.len() / pieces.len();
    for (chunk, piece) in defs.chunks(per_piece).zip(pieces) {
        h.build_with(G_UNMERGE_VALUES, chunk, [Operand::vreg_use(piece)]);
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// `fewerElementsVectorMerge` for `G_BUILD_VECTOR` (index 0: group the
/// sources into `narrow` pieces) and `G_CONCAT_VECTORS` (index 1: rebuild
/// `narrow` pieces from the sources' elements).
fn merge_values(h: &mut Helper<'_>, inst: Inst, idx: usize, narrow: Llt) -> StepResult {
    let opcode = h.func.inst(inst).known_opcode().expect("generic");
    let (dst, dst_ty, src_ty) = (h.reg(inst, 0), h.ty(inst, 0), h.ty(inst, 1));
    let sources: Vec<VReg> = (1..h.func.inst(inst).operands.len()).map(|i| h.reg(inst, i)).collect();
    if !narrow.is_vector() || narrow.element_type() != dst_ty.element_type() || narrow == src_ty {
        return unable(opcode, idx, narrow, "needs a narrower vector of the same element type");
    }
    let mut pieces = Vec::new();
    if idx == 1 {
        if !src_ty.is_vector()
            || !dst_ty.size_in_bits().is_multiple_of(narrow.size_in_bits())
            || narrow.num_elements() >= src_ty.num_elements()
        {
            return unable(opcode, idx, narrow, "sizes do not divide");
        }
        let mut elements = Vec::new();
        for &source in &sources {
            elements.extend(unmerge(h, src_ty.element_type(), source));
        }
        for chunk in elements.chunks(narrow.num_elements() as usize) {
            pieces.push(merge_new(h, narrow, chunk));
        }
    } else {
        if !narrow.size_in_bits().is_multiple_of(src_ty.size_in_bits())
            || !dst_ty.size_in_bits().is_multiple_of(narrow.size_in_bits())
        {
            return unable(opcode, idx, narrow, "sizes do not divide");
        }
        let per_piece = (narrow.num_elements() / src_ty.num_elements()) as usize;
        for chunk in sources.chunks(per_piece) {
            pieces.push(merge_new(h, narrow, chunk));
        }
    }
    merge_into(h, dst, &pieces);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `fewerElementsVectorExtractInsertVectorElt`: a constant index works on
/// the one piece holding the element; a variable index is lowered.
fn element(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, narrow: Llt) -> StepResult {
    let is_insert = opcode == G_INSERT_VECTOR_ELT;
    if idx != usize::from(!is_insert) {
        return unable(opcode, idx, narrow, "not the vector type index");
    }
    let (dst, vector) = (h.reg(inst, 0), h.reg(inst, 1));
    let last = h.func.inst(inst).operands.len() - 1;
    let index = h.reg(inst, last);
    let vector_ty = h.func.ty(vector);
    let Some(at) = constant_value(h, index) else {
        return super::lower::lower(h, inst, idx, narrow);
    };
    if at >= u64::from(vector_ty.num_elements()) {
        h.build_with(G_IMPLICIT_DEF, &[dst], Vec::new());
        h.func.erase(inst);
        return StepResult::Legalized;
    }
    let at = at as usize;
    if !narrow.is_vector() {
        let mut elements = h.split(vector, narrow, vector_ty.num_elements() as usize);
        if is_insert {
            elements[at] = h.reg(inst, 2);
            merge_into(h, dst, &elements);
        } else {
            h.build_into(COPY, dst, &[elements[at]]);
        }
        h.func.erase(inst);
        return StepResult::Legalized;
    }
    if narrow.element_type() != vector_ty.element_type() {
        return unable(opcode, idx, narrow, "element types differ");
    }
    let gcd = vector_gcd(vector_ty, narrow);
    let mut parts = if gcd == vector_ty { vec![vector] } else { unmerge(h, gcd, vector) };
    let lcm = lcm_merge_pieces(h, vector_ty, narrow, gcd, &mut parts);
    let per_part = narrow.num_elements() as usize;
    let (part, offset) = (at / per_part, at % per_part);
    let index_ty = h.func.ty(index);
    let new_index = h.builder().constant(index_ty, offset as i128);
    if is_insert {
        let part_ty = h.func.ty(parts[part]);
        let value = h.reg(inst, 2);
        parts[part] = h.build(G_INSERT_VECTOR_ELT, part_ty, &[parts[part], value, new_index]);
        widened_remerge(h, dst, lcm, &parts);
    } else {
        h.build_into(G_EXTRACT_VECTOR_ELT, dst, &[parts[part], new_index]);
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// `buildLCMMergePieces` for vectors padded with undef: `parts` (of the
/// `gcd` type) become `narrow` pieces covering the LCM type, which is
/// returned.
fn lcm_merge_pieces(h: &mut Helper<'_>, dst_ty: Llt, narrow: Llt, gcd: Llt, parts: &mut Vec<VReg>) -> Llt {
    let lcm = vector_lcm(dst_ty, narrow);
    let num_parts = (lcm.size_in_bits() / narrow.size_in_bits()) as usize;
    let sub_parts = (narrow.size_in_bits() / gcd.size_in_bits()) as usize;
    let original = parts.len();
    let pad = (original < num_parts * sub_parts).then(|| h.builder().undef(gcd));
    let mut all_pad: Option<VReg> = None;
    let mut merged = Vec::with_capacity(num_parts);
    for i in 0..num_parts {
        let start = i * sub_parts;
        if start >= original {
            let p = *all_pad.get_or_insert_with(|| h.builder().undef(narrow));
            merged.push(p);
            continue;
        }
        let sub: Vec<VReg> = (start..start + sub_parts)
            .map(|j| parts.get(j).copied().filter(|_| j < original).or(pad).expect("pad"))
            .collect();
        merged.push(if sub_parts == 1 { sub[0] } else { merge_new(h, narrow, &sub) });
    }
    *parts = merged;
    lcm
}

/// `buildWidenedRemergeToDst` for vectors: merge to the LCM type, then
/// unmerge it into `dst` and dead pieces when wider.
fn widened_remerge(h: &mut Helper<'_>, dst: VReg, lcm: Llt, parts: &[VReg]) {
    let dst_ty = h.func.ty(dst);
    if dst_ty == lcm {
        merge_into(h, dst, parts);
        return;
    }
    let wide = merge_new(h, lcm, parts);
    let count = (lcm.size_in_bits() / dst_ty.size_in_bits()) as usize;
    let mut defs = vec![dst];
    defs.extend((1..count).map(|_| h.func.new_vreg(dst_ty)));
    h.build_with(G_UNMERGE_VALUES, &defs, [Operand::vreg_use(wide)]);
}

/// `reduceLoadStoreWidth` for vectors: `narrow` pieces at increasing
/// offsets, then the leftover. Memory holds a vector's element 0 first on
/// either byte order, so the pieces keep element order on a big-endian
/// target too.
pub(super) fn load_store(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, narrow: Llt) -> StepResult {
    let (value, base) = (h.reg(inst, 0), h.reg(inst, 1));
    let value_ty = h.func.ty(value);
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else {
        return unable(opcode, idx, narrow, "no memory operand");
    };
    if idx != 0 || !narrow.is_byte_sized() || mem.is_atomic() {
        return unable(opcode, idx, narrow, "only non-atomic values split into byte-sized pieces");
    }
    if mem.memory_type().map(|t| t.size_in_bytes() * 8) != Some(value_ty.size_in_bits()) {
        return unable(opcode, idx, narrow, "extending loads and truncating stores are not split");
    }
    if !value_ty.is_fixed_vector()
        || narrow.element_type() != value_ty.element_type()
        || narrow.size_in_bits() >= value_ty.size_in_bits()
    {
        return unable(opcode, idx, narrow, "needs a narrower piece of the same element type");
    }
    let mut offset = 0u64;
    let mut access = |h: &mut Helper<'_>, ty: Llt, stored: Option<VReg>| -> Option<VReg> {
        let address = address_at(h, base, offset / 8);
        let piece = piece_mem(&mem, offset / 8, ty);
        offset += ty.size_in_bits();
        match stored {
            Some(v) => {
                h.builder().store(v, address, piece);
                None
            }
            None => Some(h.builder().load(ty, address, piece)),
        }
    };
    if opcode == G_LOAD {
        let element = value_ty.element_type();
        let (total, main) = (value_ty.num_elements(), narrow.num_elements());
        let loaded: Vec<VReg> = (0..total / main).filter_map(|_| access(h, narrow, None)).collect();
        let rest: Vec<VReg> = if total.is_multiple_of(main) {
            Vec::new()
        } else {
            access(h, piece_ty(element, total % main), None).into_iter().collect()
        };
        insert_vector_parts(h, value, &loaded, &rest);
    } else {
        let Split { parts, leftover, .. } = extract_parts_with_leftover(h, value, narrow);
        for &piece in parts.iter().chain(&leftover) {
            let ty = h.func.ty(piece);
            access(h, ty, Some(piece));
        }
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// `fewerElementsVectorShuffle`: always two halves; each half is a shuffle
/// of at most two of the four source halves, or a `G_BUILD_VECTOR` of
/// extracted elements.
fn shuffle(h: &mut Helper<'_>, inst: Inst, idx: usize) -> StepResult {
    let (dst, src1, src2) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let dst_ty = h.func.ty(dst);
    let Some(Operand::ShuffleMask(mask)) = h.func.inst(inst).operands.get(3).cloned() else {
        return unable(G_SHUFFLE_VECTOR, idx, dst_ty, "no shuffle mask");
    };
    if idx != 0
        || dst_ty != h.func.ty(src1)
        || dst_ty != h.func.ty(src2)
        || !dst_ty.is_fixed_vector()
        || !dst_ty.num_elements().is_power_of_two()
    {
        return unable(G_SHUFFLE_VECTOR, idx, dst_ty, "needs a canonical shuffle of a power-of-2 count");
    }
    let half = dst_ty.num_elements() / 2;
    let narrow = piece_ty(dst_ty.element_type(), half);
    // `extractParts`: registers made up front, so CSE never shares them.
    let mut inputs = h.split_named(src1, narrow, 2);
    inputs.extend(h.split_named(src2, narrow, 2));
    let mut outputs = Vec::with_capacity(2);
    for high in 0..2u32 {
        let lanes = &mask[(high * half) as usize..((high + 1) * half) as usize];
        let source = |lane: Option<u32>| lane.map(|l| (l / half, l % half)).filter(|(input, _)| *input < 4);
        let mut used: Vec<u32> = Vec::new();
        let mut new_mask = Vec::with_capacity(lanes.len());
        let mut build_vector = false;
        for &lane in lanes {
            let Some((input, at)) = source(lane) else {
                new_mask.push(None);
                continue;
            };
            let slot = match used.iter().position(|u| *u == input) {
                Some(slot) => slot,
                None if used.len() < 2 => {
                    used.push(input);
                    used.len() - 1
                }
                None => {
                    build_vector = true;
                    break;
                }
            };
            new_mask.push(Some(at + slot as u32 * half));
        }
        let output = if build_vector {
            let element = narrow.element_type();
            let mut elements = Vec::with_capacity(lanes.len());
            for &lane in lanes {
                elements.push(match source(lane) {
                    None => h.builder().undef(element),
                    Some((input, at)) => {
                        let k = h.builder().constant(Llt::scalar(32), i128::from(at));
                        h.build(G_EXTRACT_VECTOR_ELT, element, &[inputs[input as usize], k])
                    }
                });
            }
            h.build(G_BUILD_VECTOR, narrow, &elements)
        } else if used.is_empty() {
            h.builder().undef(narrow)
        } else {
            let first = inputs[used[0] as usize];
            let second = match used.get(1) {
                Some(u) => inputs[*u as usize],
                None => h.builder().undef(narrow),
            };
            let uses = vec![Operand::vreg_use(first), Operand::vreg_use(second), Operand::ShuffleMask(new_mask.into())];
            h.builder().build(G_SHUFFLE_VECTOR, &[narrow], uses).1[0]
        };
        outputs.push(output);
    }
    merge_into(h, dst, &outputs);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `fewerElementsBitcast`: the source split into pieces of `narrow`'s
/// size, each bitcast, the results merged.
fn bitcast(h: &mut Helper<'_>, inst: Inst, idx: usize, narrow: Llt) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if idx != 0 || !src_ty.is_fixed_vector() || !dst_ty.is_vector() {
        return unable(G_BITCAST, idx, narrow, "only the result of a vector bitcast is split");
    }
    let per_piece = narrow.size_in_bits() / u64::from(src_ty.scalar_size_in_bits());
    let pieces = if per_piece == 1 {
        h.split(src, src_ty.element_type(), src_ty.num_elements() as usize)
    } else {
        let src_narrow = piece_ty(src_ty.element_type(), per_piece as u32);
        let gcd = gcd_type(gcd_type(src_ty, src_narrow), dst_ty);
        if gcd != src_narrow {
            return unable(G_BITCAST, idx, narrow, "the source does not split into pieces of that size");
        }
        if gcd == src_ty { vec![src] } else { unmerge(h, gcd, src) }
    };
    let cast: Vec<VReg> = pieces.iter().map(|p| h.build(G_BITCAST, narrow, &[*p])).collect();
    merge_into(h, dst, &cast);
    h.func.erase(inst);
    StepResult::Legalized
}
