//! LLVM 22's Mips legality rules (`MipsLegalizerInfo`'s constructor),
//! builder by builder in LLVM's order. LLVM's `legalIf` lambdas that read
//! the subtarget become gated rules; the memory-access tests are the
//! predicate functions below, one per alignment regime.

use gisel_core::legality::LegalityQuery;
use gisel_core::prelude::*;
use gisel_macros::legalizer;

use super::subtarget::Subtarget;

const S32: Llt = Llt::scalar(32);
const S64: Llt = Llt::scalar(64);
const P0: Llt = Llt::pointer(0, 32);
/// The MSA vector types.
const MSA_VECTORS: [Llt; 4] = [
    Llt::fixed_vector(16, Llt::scalar(8)),
    Llt::fixed_vector(8, Llt::scalar(16)),
    Llt::fixed_vector(4, Llt::scalar(32)),
    Llt::fixed_vector(2, S64),
];

/// The memory size in bits of the query's access, if it has one.
fn mem_bits(q: &LegalityQuery<'_>) -> Option<u64> {
    q.mem(0).map(|m| m.memory_ty.size_in_bits())
}

/// A scalar or pointer access LLVM's Mips rules accept, where `unaligned`
/// says whether 2- and 8-byte accesses may be unaligned (byte and word
/// accesses always may: `lwl`/`lwr` and their stores).
fn scalar_access_legal(q: &LegalityQuery<'_>, unaligned: bool) -> bool {
    let (Some(bits), Some(mem)) = (mem_bits(q), q.mem(0)) else { return false };
    if !bits.is_power_of_two() || q.ty(1) != P0 {
        return false;
    }
    let any_align = match (q.ty(0), bits) {
        (t, 8 | 32) if t == S32 => true,
        (t, 32) if t == P0 => true,
        (t, 16) if t == S32 => unaligned,
        (t, 64) if t == S64 => unaligned,
        _ => return false,
    };
    any_align || bits <= mem.align_in_bits
}

/// A legal scalar access when only natural alignment is (release 5 and
/// earlier).
fn access_legal_aligned(q: &LegalityQuery<'_>) -> bool {
    scalar_access_legal(q, false)
}

/// A legal scalar access when unaligned accesses are supported (release 6).
fn access_legal_unaligned(q: &LegalityQuery<'_>) -> bool {
    scalar_access_legal(q, true)
}

/// A 128-bit MSA vector access, at any alignment.
fn msa_access_legal(q: &LegalityQuery<'_>) -> bool {
    MSA_VECTORS.contains(&q.ty(0)) && q.ty(1) == P0 && mem_bits(q) == Some(128)
}

/// A scalar access of at most 8 bytes that the custom hook splits, where
/// `unaligned` says whether the system handles unaligned accesses: any of
/// a size that is not a power of two, and unaligned 2- and 8-byte ones.
fn access_custom(q: &LegalityQuery<'_>, unaligned: bool) -> bool {
    let ty = q.ty(0);
    let (Some(bits), Some(mem)) = (mem_bits(q), q.mem(0)) else { return false };
    if !ty.is_scalar() || q.ty(1) != P0 || ty == Llt::scalar(1) || ty.size_in_bits() > 64 || bits > 64 {
        return false;
    }
    !bits.is_power_of_two() || (!unaligned && bits > mem.align_in_bits)
}

/// [`access_custom`] for release 5 and earlier.
fn access_custom_aligned(q: &LegalityQuery<'_>) -> bool {
    access_custom(q, false)
}

/// [`access_custom`] for release 6.
fn access_custom_unaligned(q: &LegalityQuery<'_>) -> bool {
    access_custom(q, true)
}

/// LLVM's `legalIf` that never holds, which only marks type indices as
/// covered.
fn never(_: &LegalityQuery<'_>) -> bool {
    false
}

legalizer! {
    /// The Mips (O32) rules for `st`.
    pub fn mips(st: &Subtarget) -> LegalizerInfo {
        custom = crate::mips::hooks::MipsHooks;
        pointer_bits = 32;

        let msa = st.has_msa();
        let unaligned = st.supports_unaligned_access();
        let r2 = st.has_mips32r2();

        // ANCHOR: arithmetic
        G_ADD | G_SUB | G_MUL => legal_for(s32)
            .legal_for(if msa, v16s8, v8s16, v4s32, v2s64)
            .clamp_scalar(0, s32, s32);
        // ANCHOR_END: arithmetic

        G_UADDO | G_UADDE | G_USUBO | G_USUBE | G_UMULO => lower_for((s32, s1));

        G_UMULH => legal_for(s32).max_scalar(0, s32);

        G_LOAD | G_STORE => legal_if(if unaligned, access_legal_unaligned)
            .legal_if(if !unaligned, access_legal_aligned)
            .legal_if(if msa, msa_access_legal)
            .custom_if(if unaligned, access_custom_unaligned)
            .custom_if(if !unaligned, access_custom_aligned)
            .min_scalar(0, s32)
            .lower();

        G_IMPLICIT_DEF => legal_for(s32, s64);

        G_UNMERGE_VALUES => legal_for((s32, s64));

        G_MERGE_VALUES => legal_for((s64, s32));

        G_ZEXTLOAD | G_SEXTLOAD => legal_for_types_with_mem_desc((s32, p0, s8, 8), (s32, p0, s16, 8))
            .clamp_scalar(0, s32, s32);

        G_ZEXT | G_SEXT | G_ANYEXT => legal_if(never).max_scalar(0, s32);

        G_TRUNC => legal_if(never).max_scalar(1, s32);

        G_SELECT => legal_for_cartesian_product([p0, s32, s64], [s32]).min_scalar(0, s32).min_scalar(1, s32);

        G_BRCOND => legal_for(s32).min_scalar(0, s32);

        G_BRJT => legal_for((p0, s32));

        G_BRINDIRECT => legal_for(p0);

        G_PHI => legal_for(p0, s32, s64).min_scalar(0, s32);

        G_AND | G_OR | G_XOR => legal_for(s32).clamp_scalar(0, s32, s32);

        G_SDIV | G_SREM | G_UDIV | G_UREM => legal_for(s32)
            .legal_for(if msa, v16s8, v8s16, v4s32, v2s64)
            .min_scalar(0, s32)
            .libcall_for(s64);

        G_SHL | G_ASHR | G_LSHR => legal_for((s32, s32)).clamp_scalar(1, s32, s32).clamp_scalar(0, s32, s32);

        G_ICMP => legal_for_cartesian_product([s32], [s32, p0]).clamp_scalar(1, s32, s32).min_scalar(0, s32);

        G_CONSTANT => legal_for(s32).clamp_scalar(0, s32, s32);

        G_PTR_ADD | G_INTTOPTR => legal_for((p0, s32));

        G_PTRTOINT => legal_for((s32, p0));

        G_FRAME_INDEX => legal_for(p0);

        G_GLOBAL_VALUE | G_JUMP_TABLE => legal_for(p0);

        G_DYN_STACKALLOC => lower_for((p0, s32));

        G_VASTART => legal_for(p0);

        G_BSWAP => legal_for(if r2, s32).lower_for(if !r2, s32).max_scalar(0, s32);

        G_BITREVERSE => lower_for(s32).max_scalar(0, s32);

        G_CTLZ => legal_for((s32, s32)).max_scalar(0, s32).max_scalar(1, s32);
        G_CTLZ_ZERO_UNDEF => lower_for((s32, s32));

        G_CTTZ => lower_for((s32, s32)).max_scalar(0, s32).max_scalar(1, s32);
        G_CTTZ_ZERO_UNDEF => lower_for((s32, s32), (s64, s64));

        G_CTPOP => lower_for((s32, s32)).clamp_scalar(0, s32, s32).clamp_scalar(1, s32, s32);

        G_FCONSTANT => legal_for(s32, s64);

        G_FADD | G_FSUB | G_FMUL | G_FDIV | G_FABS | G_FSQRT => legal_for(s32, s64)
            .legal_for(if msa, v16s8, v8s16, v4s32, v2s64);

        G_FCMP => legal_for((s32, s32), (s32, s64)).min_scalar(0, s32);

        G_FCEIL | G_FFLOOR => libcall_for(s32, s64);

        G_FPEXT => legal_for((s64, s32));

        G_FPTRUNC => legal_for((s32, s64));

        G_FPTOSI => legal_for_cartesian_product([s32], [s64, s32])
            .libcall_for_cartesian_product([s64], [s64, s32])
            .min_scalar(0, s32);

        G_FPTOUI => libcall_for_cartesian_product([s64], [s64, s32])
            .lower_for_cartesian_product([s32], [s64, s32])
            .min_scalar(0, s32);

        G_SITOFP => legal_for_cartesian_product([s64, s32], [s32])
            .libcall_for_cartesian_product([s64, s32], [s64])
            .min_scalar(1, s32);

        G_UITOFP => libcall_for_cartesian_product([s64, s32], [s64])
            .custom_for_cartesian_product([s64, s32], [s32])
            .min_scalar(1, s32);

        G_SEXT_INREG => lower();

        G_MEMCPY | G_MEMMOVE | G_MEMSET => libcall();
    }
}
