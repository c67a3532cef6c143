//! Small example targets built with the builder API, used by the docs,
//! the tests and the benchmarks.

use super::info::LegalizerInfo;
use super::predicate::TypePairAndMemDesc;
use super::predicates::{all, is_scalar};
use crate::opcode::Opcode::*;
use crate::ty::Llt;

/// A toy 32-bit target: s32 registers, 32-bit pointers, no vector unit,
/// no hardware divide or floating point (library calls), loads and stores
/// of 8, 16 and 32 bits. It passes every check in
/// [`crate::legality::check`].
pub fn toy32() -> LegalizerInfo {
    let s1 = Llt::scalar(1);
    let s8 = Llt::scalar(8);
    let s16 = Llt::scalar(16);
    let s32 = Llt::scalar(32);
    let s64 = Llt::scalar(64);
    let mut info = LegalizerInfo::new().with_pointer_bits(32);
    let p0 = info.pointer(0);

    info.rules_for(&[G_IMPLICIT_DEF, G_FREEZE, G_CONSTANT])
        .legal_for([s32, p0])
        .widen_scalar_to_next_pow2(0, 32)
        .clamp_scalar(0, s32, s32)
        .scalarize(0);
    info.rules_for(&[G_PHI])
        .legal_for([s32, p0])
        .widen_scalar_to_next_pow2(0, 32)
        .clamp_scalar(0, s32, s32)
        .scalarize(0);
    info.rules_for(&[G_ADD, G_SUB, G_AND, G_OR, G_XOR, G_MUL])
        .legal_for([s32])
        .widen_scalar_to_next_pow2(0, 32)
        .clamp_scalar(0, s32, s32)
        .scalarize(0);
    info.rules_for(&[G_SDIV, G_UDIV, G_SREM, G_UREM])
        .libcall_for([s32, s64])
        .widen_scalar_to_next_pow2(0, 32)
        .clamp_scalar(0, s32, s64)
        .scalarize(0);
    info.rules_for(&[G_SHL, G_LSHR, G_ASHR])
        .legal_for([(s32, s32)])
        .widen_scalar_to_next_pow2(0, 32)
        .clamp_scalar(0, s32, s32)
        .clamp_scalar(1, s32, s32)
        .scalarize(0)
        .scalarize(1);
    info.rules_for(&[G_ICMP])
        .legal_for([(s32, s32), (s32, p0)])
        .clamp_scalar(0, s32, s32)
        .widen_scalar_to_next_pow2(1, 32)
        .clamp_scalar(1, s32, s32)
        .scalarize(0)
        .scalarize(1);
    info.rules_for(&[G_SELECT])
        .legal_for([(s32, s32), (p0, s32)])
        .widen_scalar_to_next_pow2(0, 32)
        .clamp_scalar(0, s32, s32)
        .clamp_scalar(1, s32, s32)
        .scalarize(0)
        .scalarize(1);
    info.rules_for(&[G_ANYEXT])
        .legal_for_cartesian_product(&[&[s32], &[s1, s8, s16]])
        .clamp_scalar(0, s32, s32)
        .unsupported();
    info.rules_for(&[G_ZEXT, G_SEXT]).lower();
    info.rules_for(&[G_TRUNC]).legal_if(all([is_scalar(0), is_scalar(1)])).scalarize(0).scalarize(1);
    info.rules_for(&[G_LOAD, G_STORE])
        .legal_for_types_with_mem_desc(&[
            TypePairAndMemDesc::new(s32, p0, s8, 8),
            TypePairAndMemDesc::new(s32, p0, s16, 16),
            TypePairAndMemDesc::new(s32, p0, s32, 32),
            TypePairAndMemDesc::new(p0, p0, p0, 32),
        ])
        .clamp_scalar(0, s32, s32)
        .lower_if_mem_size_not_pow2()
        .lower();
    info.rules_for(&[G_PTR_ADD]).legal_for([(p0, s32)]).clamp_scalar(1, s32, s32);
    info.rules_for(&[G_FRAME_INDEX, G_GLOBAL_VALUE, G_BLOCK_ADDR]).legal_for([p0]);
    info.rules_for(&[G_BRCOND]).legal_for([s32]).clamp_scalar(0, s32, s32);
    info.rules_for(&[G_FADD, G_FSUB, G_FMUL, G_FDIV]).libcall_for([s32, s64]).scalarize(0);
    info.rules_for(&[G_SEXT_INREG]).lower();
    info.rules_for(&[G_MEMCPY, G_MEMMOVE, G_MEMSET]).libcall();
    info
}
