//! Memory and value-shuffling lowerings: loads and stores of odd sizes,
//! merges and unmerges through shifts, bitcasts through pieces,
//! `G_EXTRACT`/`G_INSERT`, the mask select, shuffles and constant-index
//! element access.

use super::{
    Helper, StepResult, address_after_offset, cst, cst_ap, delete_trailing_into, done, load_store, not, offset_address,
    op, op_into, piece_mem, regs, unable,
};
use crate::apint::ApInt;
use crate::ir::{Inst, MemFlags, MemOperand, MemSize, Operand, VReg};
use crate::legalize::helper::stack_temporary_align;
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Lowers the memory and shuffling opcodes.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let count = h.func.inst(inst).operands.iter().filter(|o| o.as_reg().is_some()).count();
    let Some(r) = regs(h, inst, count) else {
        return unable(opcode, "operands must be virtual registers");
    };
    match opcode {
        G_LOAD | G_SEXTLOAD | G_ZEXTLOAD if r.len() == 2 => load(h, inst, opcode, &r),
        G_STORE if r.len() == 2 => store(h, inst, &r),
        G_MERGE_VALUES if r.len() >= 3 => merge(h, inst, &r),
        G_UNMERGE_VALUES if r.len() >= 2 => unmerge(h, inst, &r),
        G_BITCAST if r.len() == 2 => bitcast(h, inst, &r),
        G_EXTRACT if r.len() == 2 => extract(h, inst, &r),
        G_INSERT if r.len() == 3 => insert(h, inst, &r),
        G_SELECT if r.len() == 4 => select(h, inst, &r),
        G_SHUFFLE_VECTOR if r.len() == 3 => shuffle(h, inst, &r),
        G_EXTRACT_VECTOR_ELT | G_INSERT_VECTOR_ELT => element(h, inst, opcode, &r),
        _ => unable(opcode, "unexpected operand layout"),
    }
}

/// `G_BITCAST` through pieces (LLVM's `lowerBitcast`): the source is
/// unmerged into pieces that are re-merged into the result. Between a
/// vector and a scalar the pieces are the vector's elements; between
/// vectors of different element counts each piece is the part of the
/// source that makes whole result elements, cast on its own first.
fn bitcast(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, src) = (r[0], r[1]);
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if src_ty.is_scalable() || dst_ty.is_scalable() {
        return unable(G_BITCAST, "scalable vectors have no pieces to unmerge");
    }
    let pieces = match (src_ty.is_vector(), dst_ty.is_vector()) {
        (true, true) => {
            let (src_elements, dst_elements) = (src_ty.num_elements(), dst_ty.num_elements());
            if !src_elements.max(dst_elements).is_multiple_of(src_elements.min(dst_elements)) {
                return unable(G_BITCAST, "one element count must divide the other");
            }
            let (piece_ty, cast_ty) = if src_elements < dst_elements {
                let per_piece = dst_elements / src_elements;
                (src_ty.element_type(), Llt::fixed_vector(per_piece, dst_ty.element_type()))
            } else if src_elements > dst_elements {
                let per_piece = src_elements / dst_elements;
                (Llt::fixed_vector(per_piece, src_ty.element_type()), dst_ty.element_type())
            } else {
                (src_ty.element_type(), dst_ty.element_type())
            };
            let pieces = h.split(src, piece_ty, (src_ty.size_in_bits() / piece_ty.size_in_bits()) as usize);
            pieces.into_iter().map(|piece| op(h, G_BITCAST, cast_ty, &[piece])).collect::<Vec<_>>()
        }
        (true, false) => h.split(src, src_ty.element_type(), src_ty.num_elements() as usize),
        (false, true) => h.split(src, dst_ty.element_type(), dst_ty.num_elements() as usize),
        (false, false) => return unable(G_BITCAST, "a scalar-to-scalar bitcast has no pieces"),
    };
    if pieces.len() < 2 {
        return unable(G_BITCAST, "the value is a single piece");
    }
    let opcode = match (dst_ty.is_vector(), h.func.ty(pieces[0]).is_vector()) {
        (false, _) => G_MERGE_VALUES,
        (true, false) => G_BUILD_VECTOR,
        (true, true) => G_CONCAT_VECTORS,
    };
    op_into(h, opcode, dst, &pieces);
    done(h, inst)
}

/// The immediate operand at `index`.
fn imm(h: &Helper<'_>, inst: Inst, index: usize) -> Option<i64> {
    match h.func.inst(inst).operands.get(index) {
        Some(Operand::Imm(v)) => Some(*v),
        _ => None,
    }
}

/// Whether an access of a power-of-two size is allowed (LLVM's
/// `allowsMemoryAccess`): naturally aligned, or misaligned where the
/// target allows it.
fn access_allowed(h: &Helper<'_>, mem: &MemOperand, ty: Llt) -> bool {
    mem.align() >= ty.size_in_bytes().max(1).next_power_of_two() || h.target.allows_misaligned_access(ty, mem.align())
}

/// Builds a load-like `opcode` of `ty` from `pointer`.
fn build_load(h: &mut Helper<'_>, opcode: Opcode, ty: Llt, pointer: VReg, mem: MemOperand) -> VReg {
    let (load, defs) = h.builder().build(opcode, &[ty], [Operand::vreg_use(pointer)]);
    h.func.modify(load, |d| d.mem.push(mem));
    defs[0]
}

/// Split sizes of a scalar access: `bit_floor` and the rest, or halves of
/// a power-of-two access that is not allowed.
fn split_sizes(h: &Helper<'_>, mem: &MemOperand, mem_ty: Llt) -> Option<(u64, u64)> {
    let bits = mem_ty.size_in_bits();
    if !bits.is_power_of_two() {
        let large = 1u64 << (63 - bits.leading_zeros());
        return Some((large, bits - large));
    }
    (!access_allowed(h, mem, mem_ty)).then_some((bits / 2, bits / 2))
}

/// `lowerLoad`: a byte-rounded load for sub-byte memory types, else two
/// loads, a power-of-two part at the address and the rest after it,
/// shifted and or'ed. On a big-endian target the part at the address is
/// the value's high part (LLVM 22 splits no big-endian load).
fn load(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let (dst, pointer) = (r[0], r[1]);
    let dst_ty = h.func.ty(dst);
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else { return unable(opcode, "no memory operand") };
    let Some(mem_ty) = mem.memory_type() else { return unable(opcode, "the memory size is unknown") };
    let mem_bits = mem_ty.size_in_bits();
    let store_bits = mem_ty.size_in_bytes() * 8;
    if mem_bits != store_bits {
        if mem_ty.is_vector() {
            return unable(opcode, "vector memory types of sub-byte size are not lowered");
        }
        let wide_mem = Llt::scalar(store_bits as u32);
        let new_mem = piece_mem(&mem, 0, wide_mem);
        let (load_reg, load_ty) =
            if store_bits > dst_ty.size_in_bits() { (h.func.new_vreg(wide_mem), wide_mem) } else { (dst, dst_ty) };
        if opcode == G_SEXTLOAD || opcode == G_ZEXTLOAD || wide_mem == load_ty {
            let loaded = build_load(h, G_LOAD, load_ty, pointer, new_mem);
            let ext = if opcode == G_SEXTLOAD { G_SEXT_INREG } else { G_ASSERT_ZEXT };
            let uses = vec![Operand::vreg_use(loaded), Operand::Imm(mem_bits as i64)];
            h.build_with(ext, &[load_reg], uses);
        } else {
            let (load, _) = h.builder().build(G_LOAD, &[], [Operand::vreg_use(pointer)]);
            h.func.modify(load, |d| {
                d.operands.insert(0, Operand::vreg_def(load_reg));
                d.num_defs = 1;
                d.mem.push(new_mem);
            });
        }
        if dst_ty != load_ty {
            op_into(h, G_TRUNC, dst, &[load_reg]);
        }
        return done(h, inst);
    }
    let Some((large, small)) = split_sizes(h, &mem, mem_ty) else {
        return unable(opcode, "the access is already allowed");
    };
    if mem_ty.is_vector() {
        return vector_load(h, inst, opcode, &mem, mem_ty, r);
    }
    let any_ext_ty = Llt::scalar(dst_ty.size_in_bits().next_power_of_two() as u32);
    let big_endian = h.target.is_big_endian();
    // The part holding the value's high bits keeps the load's extension;
    // the other is zero-extended under it.
    let (large_opcode, small_opcode) = if big_endian { (opcode, G_ZEXTLOAD) } else { (G_ZEXTLOAD, opcode) };
    let large_mem = piece_mem(&mem, 0, Llt::scalar(large as u32));
    let small_mem = piece_mem(&mem, large / 8, Llt::scalar(small as u32));
    let large_load = build_load(h, large_opcode, any_ext_ty, pointer, large_mem);
    let small_pointer = address_after_offset(h, pointer, large / 8);
    let small_load = build_load(h, small_opcode, any_ext_ty, small_pointer, small_mem);
    let (high, low, low_bits) =
        if big_endian { (large_load, small_load, small) } else { (small_load, large_load, large) };
    let amount = cst(h, any_ext_ty, i128::from(low_bits));
    let shifted = op(h, G_SHL, any_ext_ty, &[high, amount]);
    if any_ext_ty == dst_ty {
        op_into(h, G_OR, dst, &[shifted, low]);
    } else {
        let or = op(h, G_OR, any_ext_ty, &[shifted, low]);
        let cast = if any_ext_ty.size_in_bits() != dst_ty.size_in_bits() { G_TRUNC } else { G_INTTOPTR };
        op_into(h, cast, dst, &[or]);
    }
    done(h, inst)
}

/// A vector load of an odd size: one load of the next power-of-two count
/// when the alignment covers it, else one load per element.
fn vector_load(
    h: &mut Helper<'_>,
    inst: Inst,
    opcode: Opcode,
    mem: &MemOperand,
    mem_ty: Llt,
    r: &[VReg],
) -> StepResult {
    let (dst, pointer) = (r[0], r[1]);
    let dst_ty = h.func.ty(dst);
    if opcode != G_LOAD || mem_ty != dst_ty {
        return unable(opcode, "vector extending loads are not lowered");
    }
    if mem.align() * 8 > mem_ty.size_in_bits() && dst_ty.scalar_size_in_bits().is_power_of_two() {
        let wide_ty = Llt::fixed_vector((dst_ty.num_elements() + 1).next_power_of_two(), dst_ty.element_type());
        let wide = build_load(h, G_LOAD, wide_ty, pointer, piece_mem(mem, 0, wide_ty));
        delete_trailing_into(h, dst, wide);
        return done(h, inst);
    }
    load_store(h, inst, G_LOAD, 0, dst_ty.element_type())
}

/// `lowerStore`: a zero-extended byte-rounded store for sub-byte memory
/// types, else two truncating stores, a power-of-two part at the address
/// and the rest after it: the value's low part first on a little-endian
/// target, its high part first on a big-endian one.
fn store(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (mut src, pointer) = (r[0], r[1]);
    let mut src_ty = h.func.ty(src);
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else { return unable(G_STORE, "no memory operand") };
    let Some(mem_ty) = mem.memory_type() else { return unable(G_STORE, "the memory size is unknown") };
    let width = mem_ty.size_in_bits();
    let store_bits = mem_ty.size_in_bytes() * 8;
    if width != store_bits && !src_ty.is_vector() {
        let wide = Llt::scalar(store_bits as u32);
        if store_bits > src_ty.size_in_bits() {
            src = op(h, G_ANYEXT, wide, &[src]);
            src_ty = wide;
        }
        let mask = cst_ap(h, src_ty, ApInt::bit_range(src_ty.scalar_size_in_bits(), 0, width as u32));
        let zext = op(h, G_AND, src_ty, &[src, mask]);
        h.builder().store(zext, pointer, piece_mem(&mem, 0, wide));
        return done(h, inst);
    }
    if mem_ty.is_vector() {
        if mem_ty != src_ty {
            return store_packed_bits(h, inst, src, pointer, &mem, mem_ty);
        }
        return load_store(h, inst, G_STORE, 0, src_ty.element_type());
    }
    let Some((large, small)) = split_sizes(h, &mem, mem_ty) else {
        return unable(G_STORE, "the access is already allowed");
    };
    let new_src_ty = Llt::scalar(width.next_power_of_two() as u32);
    if src_ty.is_pointer() {
        src = op(h, G_PTRTOINT, Llt::scalar(src_ty.size_in_bits() as u32), &[src]);
        src_ty = h.func.ty(src);
    }
    let ext = match src_ty.size_in_bits().cmp(&new_src_ty.size_in_bits()) {
        std::cmp::Ordering::Less => G_ANYEXT,
        std::cmp::Ordering::Greater => G_TRUNC,
        std::cmp::Ordering::Equal => COPY,
    };
    let extended = op(h, ext, new_src_ty, &[src]);
    let big_endian = h.target.is_big_endian();
    let amount = cst(h, new_src_ty, i128::from(if big_endian { small } else { large }));
    let shifted = op(h, G_LSHR, new_src_ty, &[extended, amount]);
    let (large_value, small_value) = if big_endian { (shifted, extended) } else { (extended, shifted) };
    let small_pointer = offset_address(h, pointer, large / 8);
    h.builder().store(large_value, pointer, piece_mem(&mem, 0, Llt::scalar(large as u32)));
    h.builder().store(small_value, small_pointer, piece_mem(&mem, large / 8, Llt::scalar(small as u32)));
    done(h, inst)
}

/// `dst = zext(p0) | zext(p1) << size | ...`, cast to a pointer if needed.
fn merge(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, parts) = (r[0], &r[1..]);
    let dst_ty = h.func.ty(dst);
    let part_ty = h.func.ty(parts[0]);
    if !part_ty.is_scalar() || dst_ty.is_vector() {
        return unable(G_MERGE_VALUES, "only scalar parts are merged by shifts");
    }
    let part_bits = part_ty.size_in_bits();
    let wide = Llt::scalar(dst_ty.size_in_bits() as u32);
    let mut result = op(h, G_ZEXT, wide, &[parts[0]]);
    for (i, part) in parts.iter().enumerate().skip(1) {
        let extended = op(h, G_ZEXT, wide, &[*part]);
        let next = if i + 1 == parts.len() && wide == dst_ty { dst } else { h.func.new_vreg(wide) };
        let amount = cst(h, wide, i128::from(i as u64 * part_bits));
        let shifted = op(h, G_SHL, wide, &[extended, amount]);
        op_into(h, G_OR, next, &[result, shifted]);
        result = next;
    }
    if dst_ty.is_pointer() {
        op_into(h, G_INTTOPTR, dst, &[result]);
    }
    done(h, inst)
}

/// The source as an integer (`coerceToScalar`), `None` for pointer vectors.
fn coerce_to_scalar(h: &mut Helper<'_>, value: VReg) -> Option<VReg> {
    let ty = h.func.ty(value);
    let int_ty = Llt::scalar(ty.size_in_bits() as u32);
    if ty.is_scalar() {
        Some(value)
    } else if ty.is_pointer() {
        Some(op(h, G_PTRTOINT, int_ty, &[value]))
    } else if ty.is_pointer_vector() {
        None
    } else {
        Some(op(h, G_BITCAST, int_ty, &[value]))
    }
}

/// `dst_i = trunc(src >> i * size)`.
fn unmerge(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dsts, src) = (&r[..r.len() - 1], r[r.len() - 1]);
    let dst_ty = h.func.ty(dsts[0]);
    if dst_ty.is_pointer() || dst_ty.is_vector() {
        return unable(G_UNMERGE_VALUES, "only scalar pieces are unmerged by shifts");
    }
    let Some(src) = coerce_to_scalar(h, src) else {
        return unable(G_UNMERGE_VALUES, "pointer vector sources are not lowered");
    };
    let int_ty = h.func.ty(src);
    op_into(h, G_TRUNC, dsts[0], &[src]);
    let size = dst_ty.size_in_bits();
    for (i, dst) in dsts.iter().enumerate().skip(1) {
        let amount = cst(h, int_ty, i128::from(i as u64 * size));
        let shifted = op(h, G_LSHR, int_ty, &[src, amount]);
        op_into(h, G_TRUNC, *dst, &[shifted]);
    }
    done(h, inst)
}

/// `buildCast`: copy, pointer/integer conversion or bitcast.
fn cast_into(h: &mut Helper<'_>, dst: VReg, src: VReg) {
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let opcode = if dst_ty == src_ty {
        COPY
    } else if dst_ty.is_pointer() && src_ty.is_scalar() {
        G_INTTOPTR
    } else if src_ty.is_pointer() && dst_ty.is_scalar() {
        G_PTRTOINT
    } else {
        G_BITCAST
    };
    op_into(h, opcode, dst, &[src]);
}

/// Element-aligned pieces of vectors by unmerge; otherwise shift and
/// truncate an integer view.
fn extract(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, mut src) = (r[0], r[1]);
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let Some(offset) = imm(h, inst, 2).and_then(|v| u64::try_from(v).ok()) else {
        return unable(G_EXTRACT, "the offset must be a non-negative immediate");
    };
    if src_ty.is_vector() {
        let element = src_ty.element_type();
        let (element_bits, dst_bits) = (element.size_in_bits(), dst_ty.size_in_bits());
        if offset.is_multiple_of(element_bits)
            && dst_bits.is_multiple_of(element_bits)
            && offset + dst_bits <= src_ty.size_in_bits()
        {
            let pieces = h.split(src, element, src_ty.num_elements() as usize);
            let first = (offset / element_bits) as usize;
            let taken = &pieces[first..((offset + dst_bits) / element_bits) as usize];
            if taken.len() == 1 {
                op_into(h, COPY, dst, taken);
            } else {
                let opcode = if dst_ty.is_vector() { G_BUILD_VECTOR } else { G_MERGE_VALUES };
                op_into(h, opcode, dst, taken);
            }
            return done(h, inst);
        }
    }
    if !(dst_ty.is_scalar() && (src_ty.is_scalar() || (src_ty.is_vector() && dst_ty == src_ty.element_type()))) {
        return unable(G_EXTRACT, "only scalar pieces of scalars or vectors are extracted by shifts");
    }
    let mut int_ty = src_ty;
    if !src_ty.is_scalar() {
        int_ty = Llt::scalar(src_ty.size_in_bits() as u32);
        src = op(h, G_BITCAST, int_ty, &[src]);
    }
    if offset == 0 {
        op_into(h, G_TRUNC, dst, &[src]);
    } else {
        let amount = cst(h, int_ty, i128::from(offset));
        let shifted = op(h, G_LSHR, int_ty, &[src, amount]);
        op_into(h, G_TRUNC, dst, &[shifted]);
    }
    done(h, inst)
}

/// Element-aligned inserts into vectors by unmerge and merge; otherwise
/// mask, shift and or on integer views.
fn insert(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, mut src, mut value) = (r[0], r[1], r[2]);
    let (dst_ty, insert_ty) = (h.func.ty(src), h.func.ty(value));
    let Some(offset) = imm(h, inst, 3).and_then(|v| u64::try_from(v).ok()) else {
        return unable(G_INSERT, "the offset must be a non-negative immediate");
    };
    let insert_bits = insert_ty.size_in_bits();
    if dst_ty.is_vector() && !insert_ty.is_pointer() {
        let element = dst_ty.element_type();
        let element_bits = element.size_in_bits();
        if offset.is_multiple_of(element_bits)
            && insert_bits.is_multiple_of(element_bits)
            && offset + insert_bits <= dst_ty.size_in_bits()
        {
            let pieces = h.split(src, element, dst_ty.num_elements() as usize);
            let first = (offset / element_bits) as usize;
            let last = ((offset + insert_bits) / element_bits) as usize;
            let mut elements: Vec<VReg> = pieces[..first].to_vec();
            if insert_bits > element_bits {
                let inserted = h.split(value, element, last - first);
                elements.extend(inserted);
            } else {
                elements.push(value);
            }
            elements.extend_from_slice(&pieces[last.max(first + 1)..]);
            op_into(h, G_BUILD_VECTOR, dst, &elements);
            return done(h, inst);
        }
    }
    if insert_ty.is_vector() || (dst_ty.is_vector() && dst_ty.element_type() != insert_ty) {
        return unable(G_INSERT, "vector pieces that are not element-aligned are not inserted");
    }
    let int_dst_ty = Llt::scalar(dst_ty.size_in_bits() as u32);
    if !dst_ty.is_scalar() {
        let cast = h.func.new_vreg(int_dst_ty);
        cast_into(h, cast, src);
        src = cast;
    }
    if !insert_ty.is_scalar() {
        value = op(h, G_PTRTOINT, Llt::scalar(insert_bits as u32), &[value]);
    }
    let mut extended = op(h, G_ZEXT, int_dst_ty, &[value]);
    if offset != 0 {
        let amount = cst(h, int_dst_ty, i128::from(offset));
        extended = op(h, G_SHL, int_dst_ty, &[extended, amount]);
    }
    let bits = dst_ty.size_in_bits() as u32;
    let hole = ApInt::bit_range(bits, offset as u32, insert_bits as u32);
    let mask = cst_ap(h, int_dst_ty, hole.not());
    let masked = op(h, G_AND, int_dst_ty, &[src, mask]);
    let or = op(h, G_OR, int_dst_ty, &[masked, extended]);
    cast_into(h, dst, or);
    done(h, inst)
}

/// `(a & m) | (b & ~m)` with the condition widened into a mask.
fn select(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, mut mask, mut a, mut b) = (r[0], r[1], r[2], r[3]);
    let mut dst_ty = h.func.ty(dst);
    let mut mask_ty = h.func.ty(mask);
    let pointers = dst_ty.is_pointer_or_pointer_vector();
    if pointers {
        let int_ty = dst_ty.change_element_size(dst_ty.scalar_size_in_bits());
        a = op(h, G_PTRTOINT, int_ty, &[a]);
        b = op(h, G_PTRTOINT, int_ty, &[b]);
        dst_ty = int_ty;
    }
    if mask_ty.is_scalar() {
        let mut element = mask;
        if mask_ty != Llt::scalar(1) {
            let uses = vec![Operand::vreg_use(element), Operand::Imm(1)];
            element = h.builder().build(G_SEXT_INREG, &[mask_ty], uses).1[0];
        }
        let scalar = dst_ty.scalar_type();
        let ext = match mask_ty.size_in_bits().cmp(&scalar.size_in_bits()) {
            std::cmp::Ordering::Less => G_SEXT,
            std::cmp::Ordering::Greater => G_TRUNC,
            std::cmp::Ordering::Equal => COPY,
        };
        element = op(h, ext, scalar, &[element]);
        mask = if dst_ty.is_vector() { splat(h, dst_ty, element) } else { element };
        mask_ty = dst_ty;
    } else if !dst_ty.is_vector() {
        return unable(G_SELECT, "a vector condition with a scalar result");
    }
    if mask_ty.size_in_bits() != dst_ty.size_in_bits() {
        return unable(G_SELECT, "the mask and the result differ in size");
    }
    let inverted = not(h, mask_ty, mask);
    let first = op(h, G_AND, mask_ty, &[a, mask]);
    let second = op(h, G_AND, mask_ty, &[b, inverted]);
    if pointers {
        let or = op(h, G_OR, dst_ty, &[first, second]);
        op_into(h, G_INTTOPTR, dst, &[or]);
    } else {
        op_into(h, G_OR, dst, &[first, second]);
    }
    done(h, inst)
}

/// `buildShuffleSplat`: insert into lane 0 of an undef vector and shuffle
/// with an all-zero mask.
fn splat(h: &mut Helper<'_>, ty: Llt, element: VReg) -> VReg {
    let undef = h.builder().undef(ty);
    let zero = cst(h, Llt::scalar(64), 0);
    let inserted = op(h, G_INSERT_VECTOR_ELT, ty, &[undef, element, zero]);
    let mask = Operand::ShuffleMask(vec![Some(0); ty.num_elements() as usize].into());
    let uses = vec![Operand::vreg_use(inserted), Operand::vreg_use(undef), mask];
    h.builder().build(G_SHUFFLE_VECTOR, &[ty], uses).1[0]
}

/// One `G_EXTRACT_VECTOR_ELT` per mask lane (undef for `undef` lanes),
/// gathered with `G_BUILD_VECTOR`.
fn shuffle(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, src0, src1) = (r[0], r[1], r[2]);
    let Some(Operand::ShuffleMask(mask)) = h.func.inst(inst).operands.get(3).cloned() else {
        return unable(G_SHUFFLE_VECTOR, "no shuffle mask");
    };
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src0));
    let element = dst_ty.scalar_type();
    let mut undef = None;
    let mut lanes = Vec::with_capacity(mask.len());
    for lane in mask {
        let Some(index) = lane else {
            let u = *undef.get_or_insert_with(|| h.builder().undef(element));
            lanes.push(u);
            continue;
        };
        if src_ty.is_scalar() {
            lanes.push(if index == 0 { src0 } else { src1 });
            continue;
        }
        let count = src_ty.num_elements();
        let (vector, at) = if index < count { (src0, index) } else { (src1, index - count) };
        let at = cst(h, Llt::scalar(32), i128::from(at));
        lanes.push(op(h, G_EXTRACT_VECTOR_ELT, element, &[vector, at]));
    }
    if dst_ty.is_scalar() {
        op_into(h, COPY, dst, &lanes[..1]);
    } else {
        op_into(h, G_BUILD_VECTOR, dst, &lanes);
    }
    done(h, inst)
}

/// Constant in-range index: unmerge into elements, then copy one or
/// rebuild with one replaced. Variable indices need a stack temporary,
/// which is not implemented.
fn element(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let (dst, vector, index) = (r[0], r[1], r[r.len() - 1]);
    let vector_ty = h.func.ty(vector);
    let constant = constant_index(h, index);
    let count = vector_ty.num_elements();
    let Some(at) = constant.filter(|v| (0..i128::from(count)).contains(v)).map(|v| v as usize) else {
        return element_through_stack(h, inst, opcode, r, constant);
    };
    let mut elements = h.split(vector, vector_ty.element_type(), count as usize);
    if opcode == G_INSERT_VECTOR_ELT {
        elements[at] = r[2];
        op_into(h, G_BUILD_VECTOR, dst, &elements);
    } else {
        op_into(h, COPY, dst, &elements[at..=at]);
    }
    done(h, inst)
}

/// The value of `index` when a `G_CONSTANT` defines it.
fn constant_index(h: &Helper<'_>, index: VReg) -> Option<i128> {
    h.func.def_inst(index).and_then(|d| match &h.func.inst(d).operands.get(1) {
        Some(Operand::CImm(v)) if h.func.inst(d).is(G_CONSTANT) => v.to_i128(),
        _ => None,
    })
}

/// Element access at a variable index through a stack temporary
/// (`lowerExtractInsertVectorElt`): store the vector, then load the
/// element, or store the element and reload the vector.
fn element_through_stack(
    h: &mut Helper<'_>,
    inst: Inst,
    opcode: Opcode,
    r: &[VReg],
    constant: Option<i128>,
) -> StepResult {
    let (dst, vector, index) = (r[0], r[1], r[r.len() - 1]);
    let vector_ty = h.func.ty(vector);
    let element_ty = vector_ty.element_type();
    if !element_ty.is_byte_sized() || !vector_ty.is_fixed_vector() {
        return unable(opcode, "only fixed vectors of byte-sized elements go through the stack");
    }
    let vector_align = stack_temporary_align(vector_ty);
    let (base, stack_name) = h.stack_temporary(vector_ty.size_in_bytes(), vector_align);
    let slot_mem = |ty: Llt, flags: MemFlags, offset: i64, align: u64, pointer: Option<Box<str>>| MemOperand {
        pointer,
        offset,
        base_align: align,
        ..MemOperand::new(flags, ty)
    };
    h.builder().store(vector, base, slot_mem(vector_ty, MemFlags::STORE, 0, vector_align, Some(stack_name.clone())));
    let element_pointer = element_pointer(h, base, vector_ty, index, constant.is_some());
    let element_bytes = element_ty.size_in_bytes();
    // A known offset keeps the slot; a variable one loses it.
    let (pointer, offset, element_align) = match constant {
        Some(at) => {
            let offset = (at as i64).wrapping_mul(element_bytes as i64);
            (Some(stack_name), offset, vector_align)
        }
        None => (None, 0, stack_temporary_align(element_ty)),
    };
    if opcode == G_INSERT_VECTOR_ELT {
        let element_mem = slot_mem(element_ty, MemFlags::STORE, offset, element_align, pointer.clone());
        h.builder().store(r[2], element_pointer, element_mem);
        let reload = slot_mem(vector_ty, MemFlags::LOAD, offset, vector_align, pointer);
        load_into(h, dst, base, reload);
    } else {
        let element_mem = slot_mem(h.func.ty(dst), MemFlags::LOAD, offset, element_align, pointer);
        load_into(h, dst, element_pointer, element_mem);
    }
    done(h, inst)
}

/// `scalarizeVectorBooleanStore`: a vector stored as elements narrower
/// than a byte is packed into an integer of the memory's width, element
/// `i` at bit `i * width` (little-endian), and stored as that.
fn store_packed_bits(
    h: &mut Helper<'_>,
    inst: Inst,
    src: VReg,
    pointer: VReg,
    mem: &MemOperand,
    mem_ty: Llt,
) -> StepResult {
    let element_ty = mem_ty.element_type();
    if element_ty.is_byte_sized() {
        return unable(G_STORE, "vector stores of byte-sized elements of another type are not lowered");
    }
    let int_ty = Llt::scalar(mem_ty.size_in_bits() as u32);
    let index_ty = Llt::scalar(h.info.pointer_bits());
    let src_element_ty = h.func.ty(src).element_type();
    let mut packed = cst(h, int_ty, 0);
    for i in 0..mem_ty.num_elements() {
        let index = cst(h, index_ty, i128::from(i));
        let element = op(h, G_EXTRACT_VECTOR_ELT, src_element_ty, &[src, index]);
        let bits = op(h, G_TRUNC, element_ty, &[element]);
        let widened = op(h, G_ZEXT, int_ty, &[bits]);
        let amount = cst(h, int_ty, i128::from(i) * i128::from(element_ty.size_in_bits()));
        let shifted = op(h, G_SHL, int_ty, &[widened, amount]);
        packed = op(h, G_OR, int_ty, &[packed, shifted]);
    }
    let whole = MemOperand { size: MemSize::Type(int_ty), ..mem.clone() };
    h.builder().store(packed, pointer, whole);
    done(h, inst)
}

/// `dst = G_LOAD pointer` described by `mem`.
fn load_into(h: &mut Helper<'_>, dst: VReg, pointer: VReg, mem: MemOperand) {
    let load = h.build_with(G_LOAD, &[dst], [Operand::vreg_use(pointer)]);
    h.func.modify(load, |d| d.mem.push(mem));
}

/// `getVectorElementPointer`: `base + clamp(index) * element bytes`, the
/// index clamped into range (masked for a power-of-two count, else
/// `G_UMIN`) unless it is a constant.
fn element_pointer(h: &mut Helper<'_>, base: VReg, vector_ty: Llt, index: VReg, constant: bool) -> VReg {
    let mut index_ty = h.func.ty(index);
    let mut index = index;
    if !constant {
        let count = vector_ty.num_elements();
        index = if count.is_power_of_two() {
            let mask = cst(h, index_ty, i128::from(count - 1));
            op(h, G_AND, index_ty, &[index, mask])
        } else {
            let last = cst(h, index_ty, i128::from(count - 1));
            op(h, G_UMIN, index_ty, &[index, last])
        };
    }
    let pointer_bits = h.func.ty(base).size_in_bits() as u32;
    if index_ty.size_in_bits() != u64::from(pointer_bits) {
        let wide = Llt::scalar(pointer_bits);
        let cast = if index_ty.size_in_bits() < u64::from(pointer_bits) { G_SEXT } else { G_TRUNC };
        index = op(h, cast, wide, &[index]);
        index_ty = wide;
    }
    let bytes = cst(h, index_ty, i128::from(vector_ty.element_type().size_in_bytes()));
    let offset = op(h, G_MUL, index_ty, &[index, bytes]);
    op(h, G_PTR_ADD, h.func.ty(base), &[base, offset])
}
