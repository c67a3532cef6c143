//! LLVM 22's AArch64 legality rules (`AArch64LegalizerInfo`'s
//! constructor), builder by builder in LLVM's order and with LLVM's rule
//! order inside each builder: the first matching rule wins, so the order
//! is what makes the output match `llc`.
//!
//! LLVM's bool-gated overloads (`legalFor(HasSVE, {..})`) are gated rules
//! (`legal_for(if st.sve, ..)`), so that a rule set keeps one body and its
//! rule order whatever the features; whole-set alternatives (the code
//! model, MOPS) are `if` blocks as in LLVM. The NEON and SVE vector types
//! are named lists, after their element sizes (B, H, S, D: 8 to 64 bits).

use gisel_core::legality::{Predicate, predicates};
use gisel_core::prelude::*;
use gisel_macros::legalizer;

use super::subtarget::{CodeModel, Subtarget};

const S8: Llt = Llt::scalar(8);
const S16: Llt = Llt::scalar(16);
const S32: Llt = Llt::scalar(32);
const S64: Llt = Llt::scalar(64);
const S128: Llt = Llt::scalar(128);
const P0: Llt = Llt::pointer(0, 64);
const V8S8: Llt = Llt::fixed_vector(8, S8);
const V16S8: Llt = Llt::fixed_vector(16, S8);
const V4S8: Llt = Llt::fixed_vector(4, S8);
const V2S16: Llt = Llt::fixed_vector(2, S16);
const V4S16: Llt = Llt::fixed_vector(4, S16);
const V8S16: Llt = Llt::fixed_vector(8, S16);
const V2S32: Llt = Llt::fixed_vector(2, S32);
const V4S32: Llt = Llt::fixed_vector(4, S32);
const V2S64: Llt = Llt::fixed_vector(2, S64);
const V2P0: Llt = Llt::fixed_vector(2, P0);
const NXV4S32: Llt = Llt::scalable_vector(4, S32);
const NXV2S64: Llt = Llt::scalable_vector(2, S64);

/// `p` when the feature is on, a predicate that never holds otherwise.
/// Rules use the DSL's gate (`legal_for(if st.sve, ..)`); this is for a
/// rule set whose only rule is gated (`G_SPLAT_VECTOR`), which the
/// compile-time coverage check would refuse as covering nothing.
pub fn gate(on: bool, p: Predicate) -> Predicate {
    if on { p } else { predicates::custom("feature_off", |_| false) }
}

/// The vector types NEON registers hold, for `G_EXTRACT_VECTOR_ELT`'s
/// custom rule.
fn neon_extract_vector(q: &LegalityQuery<'_>) -> bool {
    [V8S8, V16S8, V2S16, V4S16, V8S16, V2S32, V4S32, V2S64, V2P0].contains(&q.ty(1))
}

/// `G_ZEXT`/`G_SEXT`/`G_ANYEXT` between scalars that fit a register.
fn ext_legal(q: &LegalityQuery<'_>) -> bool {
    let dst = q.ty(0);
    if dst.is_vector() {
        return false;
    }
    let dst_size = dst.size_in_bits();
    if !(8..128).contains(&dst_size) || !dst_size.is_power_of_two() {
        return false;
    }
    let src_size = q.ty(1).size_in_bits();
    src_size >= 8 && src_size.is_power_of_two()
}

/// The legal merge/unmerge shapes: the wide type 32, 64 or 128 bits, the
/// narrow one 8 to 64 bits.
fn merge_sizes_legal(big: Llt, little: Llt) -> bool {
    matches!(big.size_in_bits(), 32 | 64 | 128) && matches!(little.size_in_bits(), 8 | 16 | 32 | 64)
}

/// The indexed-load types (`IndexedLoadBasicPred`).
fn indexed_load_basic(q: &LegalityQuery<'_>) -> bool {
    let all = [V16S8, V8S16, V4S32, V2S64, V2P0, V8S8, V4S16, V2S32, S8, S16, S32, S64, P0, S128];
    all.contains(&q.ty(0)) && q.ty(1) == P0
}

/// Extending indexed loads: a narrower memory type.
fn indexed_ext_load(q: &LegalityQuery<'_>) -> bool {
    let Some(mem) = q.mem(0) else { return false };
    let m = mem.memory_ty;
    if q.ty(1) != P0 {
        return false;
    }
    match q.ty(0) {
        t if t == S16 => m == S8,
        t if t == S32 => m == S8 || m == S16,
        t if t == S64 => m == S8 || m == S16 || m == S32,
        _ => false,
    }
}

/// An atomic `s128` access whose ordering is `ordering`.
fn s128_with_ordering(q: &LegalityQuery<'_>, ordering: AtomicOrdering) -> bool {
    q.ty(0) == S128 && q.mem(0).is_some_and(|m| m.ordering == ordering)
}

legalizer! {
    /// The AArch64 rules for `st` (LLVM 22's `AArch64LegalizerInfo`).
    /// Without NEON or FP-ARMv8 LLVM defines no rules at all; so does this.
    pub fn aarch64_rules(st: &Subtarget) -> LegalizerInfo {
        custom = crate::aarch64::hooks::AArch64Hooks;

        let min_fp = if st.full_fp16 { s16 } else { s32 };
        let outline = st.use_outline_atomics();

        let neon_bhs = [v8s8, v16s8, v4s16, v8s16, v2s32, v4s32];
        let neon_bhsd = [neon_bhs, v2s64];
        let neon_h = [v4s16, v8s16];
        let neon_sd = [v2s32, v4s32, v2s64];
        let sve_bhsd = [nxv16s8, nxv8s16, nxv4s32, nxv2s64];

        if st.has_rules() {
        // --- undef, phi, insert, extract ---
        G_IMPLICIT_DEF | G_FREEZE | G_CONSTANT_FOLD_BARRIER => legal_for(p0, s8, s16, s32, s64)
            .legal_for(v2s8, v4s8, v2s16, neon_bhsd, v2p0)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s8, s64)
            .more_elements_to_next_pow2(0)
            .widen_vector_elts_to_vector_min_size(0, 64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, p0, 2)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);

        G_PHI => legal_for(p0, s16, s32, s64)
            .legal_for(neon_bhsd, v2p0)
            .widen_scalar_to_next_pow2(0)
            .more_elements_to_next_pow2(0)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .clamp_scalar(0, s16, s64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, p0, 2);

        G_INSERT => legal_if(all(type_in_set(0, [s32, s64, p0]), type_in_set(1, [s8, s16, s32]), smaller_than(1, 0)))
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, s64)
            .widen_scalar_to_next_pow2(1)
            .min_scalar(1, s8)
            .max_scalar_if(type_in_set(0, [s32]), 1, s16)
            .max_scalar_if(type_in_set(0, [s64, p0]), 1, s32);

        G_EXTRACT => legal_if(all(type_in_set(0, [s16, s32, s64, p0]), type_in_set(1, [s32, s64, s128, p0]), smaller_than(0, 1)))
            .widen_scalar_to_next_pow2(1)
            .clamp_scalar(1, s32, s128)
            .widen_scalar_to_next_pow2(0)
            .min_scalar(0, s16)
            .max_scalar_if(type_in_set(1, [s32]), 0, s16)
            .max_scalar_if(type_in_set(1, [s64, p0]), 0, s32)
            .max_scalar_if(type_in_set(1, [s128]), 0, s64);

        // --- integer arithmetic ---
        G_ADD | G_SUB | G_AND | G_OR | G_XOR => legal_for(s32, s64, neon_bhsd)
            .legal_for(if st.sve, sve_bhsd)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, s64)
            .clamp_max_num_elements(0, s8, 16)
            .clamp_max_num_elements(0, s16, 8)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .min_scalar_or_elt_if(|q| q.ty(0).num_elements() <= 2, 0, s32)
            .min_scalar_or_elt_if(|q| q.ty(0).num_elements() <= 4, 0, s16)
            .min_scalar_or_elt_if(|q| q.ty(0).num_elements() <= 16, 0, s8)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .more_elements_to_next_pow2(0);

        G_MUL => legal_for(s32, s64, neon_bhsd)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, s64)
            .clamp_max_num_elements(0, s8, 16)
            .clamp_max_num_elements(0, s16, 8)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .min_scalar_or_elt_if(|q| q.ty(0).num_elements() <= 2, 0, s32)
            .min_scalar_or_elt_if(|q| q.ty(0).num_elements() <= 4, 0, s16)
            .min_scalar_or_elt_if(|q| q.ty(0).num_elements() <= 16, 0, s8)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .more_elements_to_next_pow2(0);

        G_SHL | G_ASHR | G_LSHR => custom_if(|q| !q.ty(0).is_vector() && q.ty(0).size_in_bits() == 32 && q.ty(1).size_in_bits() == 32)
            .legal_for(
                (s32, s32), (s32, s64), (s64, s64), (v8s8, v8s8), (v16s8, v16s8), (v4s16, v4s16),
                (v8s16, v8s16), (v2s32, v2s32), (v4s32, v4s32), (v2s64, v2s64),
            )
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(1, s32, s64)
            .clamp_scalar(0, s32, s64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0)
            .min_scalar_same_as(1, 0)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .min_scalar_elt_same_as_if(is_vector(0), 1, 0)
            .max_scalar_elt_same_as_if(is_vector(0), 1, 0);

        G_PTR_ADD => legal_for((p0, s64), (v2p0, v2s64))
            .clamp_scalar_or_elt(1, s64, s64)
            .clamp_num_elements(0, v2p0, v2p0);

        G_PTRMASK => legal_for((p0, s64));

        G_SDIV | G_UDIV => legal_for(s32, s64)
            .libcall_for(s128)
            .clamp_scalar(0, s32, s64)
            .widen_scalar_to_next_pow2(0)
            .scalarize(0);

        // One builder in LLVM; the `G_*DIVREM` half answers `Unsupported`
        // where LLVM answers a `Libcall` its helper cannot emit (both fail).
        G_SREM | G_UREM => lower_for(s8, s16, s32, s64, neon_sd)
            .libcall_for(s128)
            .widen_scalar_or_elt_to_next_pow2(0)
            .min_scalar_or_elt(0, s32)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .scalarize(0);
        G_SDIVREM | G_UDIVREM => lower_for(s8, s16, s32, s64, neon_sd)
            .unsupported_for(s128)
            .widen_scalar_or_elt_to_next_pow2(0)
            .min_scalar_or_elt(0, s32)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .scalarize(0);

        G_SMULO | G_UMULO => widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s64)
            .lower();

        G_SMULH | G_UMULH => legal_for(s64, v16s8, v8s16, v4s32).lower();

        G_SMIN | G_SMAX | G_UMIN | G_UMAX => legal_for(neon_bhs)
            .legal_for(if st.cssc, s32, s64)
            .min_scalar_if(if st.cssc, always(), 0, s32)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .lower();

        G_ABS => legal_for(if st.cssc, s32, s64)
            .legal_for(neon_bhsd, v2p0)
            .custom_if(|q| q.ty(0).is_scalar() && q.ty(0).size_in_bits() < 128)
            .widen_scalar_if(|q| q.ty(0) == V4S8, change_to(0, v4s16))
            .widen_scalar_if(|q| q.ty(0) == V2S16, change_to(0, v2s32))
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0)
            .lower();

        G_ABDS | G_ABDU => legal_for(neon_bhs).lower();

        // Made only from the NEON halving adds (`uhadd`, `srhadd`, ...),
        // which come in these types; llc 22 keeps every one.
        G_UAVGFLOOR | G_UAVGCEIL | G_SAVGFLOOR | G_SAVGCEIL => legal_for(neon_bhsd);

        G_SADDE | G_SSUBE | G_UADDE | G_USUBE | G_SADDO | G_SSUBO | G_UADDO | G_USUBO =>
            legal_for((s32, s32), (s64, s32))
            .clamp_scalar(0, s32, s64)
            .clamp_scalar(1, s32, s64)
            .widen_scalar_to_next_pow2(0);

        G_FSHL | G_FSHR => custom_for((s32, s32), (s32, s64), (s64, s64)).lower();

        G_ROTR => legal_for((s32, s64), (s64, s64))
            .custom_if(|q| q.ty(0).is_scalar() && q.ty(1).scalar_size_in_bits() < 64)
            .lower();
        G_ROTL => lower();

        G_SBFX | G_UBFX => custom_for((s32, s32), (s64, s64));

        G_CTPOP => legal_for(if st.cssc, (s32, s32), (s64, s64))
            .legal_for((v8s8, v8s8), (v16s8, v16s8))
            .custom_for(if !st.cssc, (s32, s32), (s64, s64))
            .custom_for((s128, s128), (v4s16, v4s16), (v8s16, v8s16), (v2s32, v2s32), (v4s32, v4s32), (v2s64, v2s64))
            .clamp_scalar(0, s32, s128)
            .widen_scalar_to_next_pow2(0)
            .min_scalar_elt_same_as_if(always(), 1, 0)
            .max_scalar_elt_same_as_if(always(), 1, 0)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);

        G_CTLZ => legal_for(
                (s32, s32), (s64, s64), (v8s8, v8s8), (v16s8, v16s8), (v4s16, v4s16),
                (v8s16, v8s16), (v2s32, v2s32), (v4s32, v4s32),
            )
            .widen_scalar_to_next_pow2(1, 32)
            .clamp_scalar(1, s32, s64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .more_elements_to_next_pow2(0)
            .scalarize_if(scalar_or_elt_wider_than(0, 32), 0)
            .scalar_same_size_as(0, 1);

        G_CTLZ_ZERO_UNDEF => lower();

        G_CTTZ => lower_if(is_vector(0))
            .widen_scalar_to_next_pow2(1, 32)
            .clamp_scalar(1, s32, s64)
            .scalar_same_size_as(0, 1)
            .legal_for(if st.cssc, s32, s64)
            .custom_for(if !st.cssc, s32, s64);

        G_CTTZ_ZERO_UNDEF => lower();

        G_BITREVERSE => legal_for(s32, s64, v8s8, v16s8)
            .widen_scalar_to_next_pow2(0, 32)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(0, 8)
            .clamp_scalar(0, s32, s64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .more_elements_to_next_pow2(0)
            .lower();

        G_BSWAP => legal_for(s32, s64, neon_h, neon_sd)
            .widen_scalar_or_elt_to_next_pow2(0, 16)
            .clamp_scalar(0, s32, s64)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0);

        G_UADDSAT | G_SADDSAT | G_USUBSAT | G_SSUBSAT => legal_for(neon_bhsd)
            .legal_for(if st.sve, sve_bhsd)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .more_elements_to_next_pow2(0)
            .lower();

        // --- floating point ---
        G_FADD | G_FSUB | G_FMUL | G_FDIV | G_FMA | G_FSQRT | G_FMAXNUM | G_FMINNUM
        | G_FCEIL | G_FFLOOR | G_FRINT | G_FNEARBYINT | G_INTRINSIC_TRUNC | G_INTRINSIC_ROUND
        | G_INTRINSIC_ROUNDEVEN => legal_for(s32, s64, neon_sd)
            .legal_for(if st.full_fp16, s16, neon_h)
            .libcall_for(s128)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .min_scalar_or_elt(0, min_fp)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0);
        // Same builder in LLVM; no runtime function exists for `s128`.
        G_FMAXIMUM | G_FMINIMUM => legal_for(s32, s64, neon_sd)
            .legal_for(if st.full_fp16, s16, neon_h)
            .unsupported_for(s128)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .min_scalar_or_elt(0, min_fp)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0);

        G_FABS | G_FNEG => legal_for(s32, s64, neon_sd)
            .legal_for(if st.full_fp16, s16, neon_h)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .lower_if(scalar_or_elt_wider_than(0, 64))
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .more_elements_to_next_pow2(0)
            .lower_for(s16, neon_h);

        G_FREM => libcall_for(s32, s64, s128).min_scalar(0, s32).scalarize(0);

        G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT => legal_for((s64, min_fp), (s64, s32), (s64, s64))
            .libcall_for((s64, s128))
            .min_scalar_or_elt(1, min_fp);

        G_FCOS | G_FSIN | G_FPOW | G_FLOG | G_FLOG2 | G_FLOG10 | G_FTAN | G_FEXP | G_FEXP2 | G_FEXP10 | G_FACOS
        | G_FASIN | G_FATAN | G_FATAN2 | G_FCOSH | G_FSINH | G_FTANH | G_FMODF => scalarize(0)
            .min_scalar(0, s32)
            .libcall_for(s32, s64, s128);

        G_FPOWI | G_FLDEXP => scalarize(0)
            .min_scalar(0, s32)
            .libcall_for((s32, s32), (s64, s32), (s128, s32));

        G_LROUND | G_LLROUND => legal_for((s64, s32), (s64, s64));

        G_FCOPYSIGN => more_elements_if(
                |q| q.ty(0).is_scalar(),
                |q| (0, Llt::fixed_vector(if q.ty(0) == S16 { 4 } else { 2 }, q.ty(0))),
            )
            .lower();

        G_FMAD => lower();

        // --- memory ---
        G_SEXTLOAD => lower_if(atomic_ordering_at_least_or_stronger_than(0, Unordered))
            .legal_for_types_with_mem_desc(
                (s32, p0, s8, 8), (s32, p0, s16, 8), (s32, p0, s32, 8), (s64, p0, s8, 2),
                (s64, p0, s16, 2), (s64, p0, s32, 4), (s64, p0, s64, 8), (p0, p0, s64, 8),
                (v2s32, p0, s64, 8),
            )
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, s64)
            .unsupported_if_mem_size_not_pow2()
            .lower();
        G_ZEXTLOAD => legal_for_types_with_mem_desc(
                (s32, p0, s8, 8), (s32, p0, s16, 8), (s32, p0, s32, 8), (s64, p0, s8, 2),
                (s64, p0, s16, 2), (s64, p0, s32, 4), (s64, p0, s64, 8), (p0, p0, s64, 8),
                (v2s32, p0, s64, 8),
            )
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, s64)
            .unsupported_if_mem_size_not_pow2()
            .lower();

        G_LOAD => custom_if(if st.rcpc3, |q| s128_with_ordering(q, AtomicOrdering::Acquire))
            .custom_if(|q| q.ty(0) == S128 && q.mem(0).is_some_and(|m| m.ordering != AtomicOrdering::NotAtomic))
            .legal_for_types_with_mem_desc(
                (s8, p0, s8, 8), (s16, p0, s16, 8), (s32, p0, s32, 8), (s64, p0, s64, 8),
                (p0, p0, s64, 8), (s128, p0, s128, 8), (v8s8, p0, s64, 8), (v16s8, p0, s128, 8),
                (v4s16, p0, s64, 8), (v8s16, p0, s128, 8), (v2s32, p0, s64, 8), (v4s32, p0, s128, 8),
                (v2s64, p0, s128, 8),
            )
            .legal_for_types_with_mem_desc((s32, p0, s8, 8), (s32, p0, s16, 8), (s64, p0, s32, 8))
            .legal_for_types_with_mem_desc(
                (nxv16s8, p0, nxv16s8, 8), (nxv8s16, p0, nxv8s16, 8), (nxv4s32, p0, nxv4s32, 8),
                (nxv2s64, p0, nxv2s64, 8),
            )
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_max_num_elements(0, s8, 16)
            .clamp_max_num_elements(0, s16, 8)
            .clamp_max_num_elements(0, s32, 4)
            .clamp_max_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, p0, 2)
            .lower_if_mem_size_not_byte_size_pow2()
            .clamp_scalar(0, s8, s64)
            .narrow_scalar_if(
                |q| q.ty(0).is_scalar() && q.mem(0).is_some_and(|m| m.memory_ty != q.ty(0)) && q.ty(0).size_in_bits() > 32,
                change_to(0, s32),
            )
            .bitcast_if(type_in_set(0, [v4s8]), |q| (0, Llt::scalar(q.ty(0).size_in_bits() as u32)))
            .custom_if(|q| q.ty(0).is_pointer_vector() && q.ty(0).address_space() == 0)
            .scalarize_if(type_in_set(0, [v2s16, v2s8]), 0)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);

        G_STORE => custom_if(if st.rcpc3, |q| s128_with_ordering(q, AtomicOrdering::Release))
            .custom_if(|q| q.ty(0) == S128 && q.mem(0).is_some_and(|m| m.ordering != AtomicOrdering::NotAtomic))
            .legal_for_types_with_mem_desc(
                (s8, p0, s8, 8), (s16, p0, s8, 8), (s32, p0, s8, 8), (s64, p0, s8, 8),
                (s16, p0, s16, 8), (s32, p0, s16, 8), (s64, p0, s16, 8), (s32, p0, s32, 8),
                (s64, p0, s64, 8), (s64, p0, s32, 8), (p0, p0, s64, 8), (s128, p0, s128, 8),
                (v16s8, p0, s128, 8), (v8s8, p0, s64, 8), (v4s16, p0, s64, 8), (v8s16, p0, s128, 8),
                (v2s32, p0, s64, 8), (v4s32, p0, s128, 8), (v2s64, p0, s128, 8),
            )
            .legal_for_types_with_mem_desc(
                (nxv16s8, p0, nxv16s8, 8), (nxv8s16, p0, nxv8s16, 8), (nxv4s32, p0, nxv4s32, 8),
                (nxv2s64, p0, nxv2s64, 8),
            )
            .clamp_scalar(0, s8, s64)
            .min_scalar_or_elt(0, s8)
            .lower_if(|q| q.ty(0).is_scalar() && q.mem(0).is_some_and(|m| m.memory_ty != q.ty(0)))
            .clamp_max_num_elements(0, s8, 16)
            .clamp_max_num_elements(0, s16, 8)
            .clamp_max_num_elements(0, s32, 4)
            .clamp_max_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, p0, 2)
            .lower_if_mem_size_not_pow2()
            .bitcast_if(
                all(type_in_set(0, [v4s8]), |q| q.mem(0).is_some_and(|m| m.memory_ty.size_in_bits() == q.ty(0).size_in_bits())),
                |q| (0, Llt::scalar(q.ty(0).size_in_bits() as u32)),
            )
            .custom_if(|q| q.ty(0).is_pointer_vector() && q.ty(0).address_space() == 0)
            .scalarize_if(type_in_set(0, [v2s16, v2s8]), 0)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .lower();

        G_INDEXED_STORE => legal_for_types_with_mem_desc(
                (p0, s8, s8, 8), (p0, s16, s16, 8), (p0, s32, s8, 8), (p0, s32, s16, 8),
                (p0, s32, s32, 8), (p0, s64, s64, 8), (p0, p0, p0, 8), (p0, v8s8, v8s8, 8),
                (p0, v16s8, v16s8, 8), (p0, v4s16, v4s16, 8), (p0, v8s16, v8s16, 8), (p0, v2s32, v2s32, 8),
                (p0, v4s32, v4s32, 8), (p0, v2s64, v2s64, 8), (p0, v2p0, v2p0, 8), (p0, s128, s128, 8),
            )
            .unsupported();

        G_INDEXED_LOAD => unsupported_if(atomic_ordering_at_least_or_stronger_than(0, Unordered))
            .legal_if(indexed_load_basic)
            .unsupported();
        G_INDEXED_SEXTLOAD | G_INDEXED_ZEXTLOAD => unsupported_if(atomic_ordering_at_least_or_stronger_than(0, Unordered))
            .legal_if(all(type_in_set(0, [s16, s32, s64]), indexed_ext_load))
            .unsupported();

        // --- constants ---
        G_CONSTANT => legal_for(p0, s8, s16, s32, s64)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s8, s64);
        G_FCONSTANT => legal_for(s16, s32, s64, s128).clamp_scalar(0, min_fp, s128);

        // --- compares ---
        G_ICMP => legal_for((s32, s32), (s32, s64), (s32, p0))
            .widen_scalar_or_elt_to_next_pow2(1)
            .clamp_scalar(1, s32, s64)
            .clamp_scalar(0, s32, s32)
            .scalarize_if(scalar_or_elt_wider_than(1, 64), 1)
            .min_scalar_elt_same_as_if(
                |q| q.ty(0).is_vector() && !q.ty(1).is_pointer_vector() && q.ty(0).element_type() != q.ty(1).element_type(),
                0, 1,
            )
            .min_scalar_or_elt_if(|q| q.ty(1) == V2S16, 1, s32)
            .min_scalar_or_elt_if(|q| q.ty(1).is_pointer_vector(), 0, s64)
            .more_elements_to_next_pow2(1)
            .clamp_num_elements(1, v8s8, v16s8)
            .clamp_num_elements(1, v4s16, v8s16)
            .clamp_num_elements(1, v2s32, v4s32)
            .clamp_num_elements(1, v2s64, v2s64)
            .clamp_num_elements(1, v2p0, v2p0)
            .custom_if(is_vector(0));

        G_FCMP => legal_for((s32, s32), (s32, s64), (v4s32, v4s32), (v2s32, v2s32), (v2s64, v2s64))
            .legal_for(if st.full_fp16, (s32, s16), (v4s16, v4s16), (v8s16, v8s16))
            .widen_scalar_or_elt_to_next_pow2(1)
            .clamp_scalar(0, s32, s32)
            .min_scalar_or_elt(1, min_fp)
            .scalarize_if(scalar_or_elt_wider_than(1, 64), 1)
            .min_scalar_elt_same_as_if(
                |q| q.ty(0).is_vector() && !q.ty(1).is_pointer_vector() && q.ty(0).element_type() != q.ty(1).element_type(),
                0, 1,
            )
            .clamp_num_elements(1, v4s16, v8s16)
            .clamp_num_elements(1, v2s32, v4s32)
            .clamp_max_num_elements(1, s64, 2)
            .more_elements_to_next_pow2(1)
            .libcall_for((s32, s128));

        // --- extensions and truncation ---
        G_ZEXT | G_SEXT | G_ANYEXT => legal_if(ext_legal)
            .legal_for((v8s16, v8s8), (v4s32, v4s16), (v2s64, v2s32))
            .clamp_scalar(0, s64, s64)
            .more_elements_to_next_pow2(0)
            .clamp_max_num_elements(1, s8, 8)
            .clamp_max_num_elements(1, s16, 4)
            .clamp_max_num_elements(1, s32, 2)
            .lower_if(|q| {
                let (dst, src) = (q.ty(0), q.ty(1));
                dst.scalar_size_in_bits() > src.scalar_size_in_bits() * 2
                    && dst.is_vector()
                    && matches!(src.scalar_size_in_bits(), 8 | 16)
            })
            .clamp_min_num_elements(1, s8, 8)
            .clamp_min_num_elements(1, s16, 4)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);

        G_TRUNC => legal_for((v8s8, v8s16), (v4s16, v4s32), (v2s32, v2s64))
            .more_elements_to_next_pow2(0)
            .clamp_max_num_elements(0, s8, 8)
            .clamp_max_num_elements(0, s16, 4)
            .clamp_max_num_elements(0, s32, 2)
            .min_scalar_or_elt_if(is_vector(0), 0, s8)
            .lower_if(|q| {
                let (dst, src) = (q.ty(0), q.ty(1));
                dst.is_vector() && src.size_in_bits() > 128 && dst.scalar_size_in_bits() * 2 <= src.scalar_size_in_bits()
            })
            .clamp_min_num_elements(0, s8, 8)
            .clamp_min_num_elements(0, s16, 4)
            .always_legal();

        G_TRUNC_SSAT_S | G_TRUNC_SSAT_U | G_TRUNC_USAT_U => legal_for((v8s8, v8s16), (v4s16, v4s32), (v2s32, v2s64));

        G_SEXT_INREG => legal_for(s32, s64)
            .legal_for(neon_bhsd, v2p0)
            .max_scalar(0, s64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .lower();

        // --- floating-point conversions ---
        G_FPTRUNC => legal_for((s16, s32), (s16, s64), (s32, s64), (v4s16, v4s32), (v2s32, v2s64))
            .libcall_for((s16, s128), (s32, s128), (s64, s128))
            .custom_if(|q| {
                q.ty(0).is_fixed_vector()
                    && q.ty(1).is_fixed_vector()
                    && q.ty(0).scalar_size_in_bits() == 16
                    && q.ty(1).scalar_size_in_bits() == 64
                    && q.ty(1).num_elements().is_power_of_two()
            })
            .clamp_num_elements(0, v4s16, v4s16)
            .clamp_num_elements(0, v2s32, v2s32)
            .scalarize(0);

        G_FPEXT => legal_for((s32, s16), (s64, s16), (s64, s32), (v4s32, v4s16), (v2s64, v2s32))
            .libcall_for((s128, s64), (s128, s32), (s128, s16))
            .more_elements_to_next_pow2(0)
            .widen_scalar_if(
                |q| q.ty(0).is_vector() && q.ty(1).is_vector()
                    && q.ty(1).scalar_size_in_bits() == 16 && q.ty(0).scalar_size_in_bits() == 64,
                change_element_to(1, s32))
            .clamp_num_elements(0, v4s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .scalarize(0);

        G_FPTOSI | G_FPTOUI => legal_for(([s32, s64], [s32, s64]), (v2s32, v2s32), (v4s32, v4s32), (v2s64, v2s64))
            .legal_for(if st.full_fp16, ([s32, s64], s16), (v4s16, v4s16), (v8s16, v8s16))
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .scalarize_if(scalar_or_elt_wider_than(1, 64), 1)
            .narrow_scalar_if(|q| q.ty(1) == S16 && q.ty(0).size_in_bits() > 64, change_to(0, s64))
            .more_elements_to_next_pow2(0)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(0)
            .min_scalar(0, s32)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(1, { if st.full_fp16 { 16 } else { 32 } })
            .widen_scalar_if(
                |q| q.ty(0).scalar_size_in_bits() <= 64 && q.ty(0).scalar_size_in_bits() > q.ty(1).scalar_size_in_bits(),
                change_element_size_to(1, 0),
            )
            .widen_scalar_if(
                |q| q.ty(1).scalar_size_in_bits() <= 64 && q.ty(0).scalar_size_in_bits() < q.ty(1).scalar_size_in_bits(),
                change_element_size_to(0, 1),
            )
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .libcall_for(([s32, s64, s128], s128), (s128, [s32, s64]));

        G_FPTOSI_SAT | G_FPTOUI_SAT => legal_for(([s32, s64], [s32, s64]), (v2s32, v2s32), (v4s32, v4s32), (v2s64, v2s64))
            .legal_for(if st.full_fp16, ([s16, s32, s64], s16), (v4s16, v4s16), (v8s16, v8s16))
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .scalarize_if(scalar_or_elt_wider_than(1, 64), 1)
            .narrow_scalar_if(|q| q.ty(1) == S16 && q.ty(0).size_in_bits() > 64, change_to(0, s64))
            .lower_if(any(scalar_wider_than(0, 64), scalar_wider_than(1, 64)))
            .more_elements_to_next_pow2(0)
            .widen_scalar_to_next_pow2(0, 32)
            .min_scalar(0, s32)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(1, { if st.full_fp16 { 16 } else { 32 } })
            .widen_scalar_if(
                |q| matches!(q.ty(0).scalar_size_in_bits(), 16 | 32 | 64) && q.ty(0).scalar_size_in_bits() > q.ty(1).scalar_size_in_bits(),
                change_element_size_to(1, 0),
            )
            .widen_scalar_if(
                |q| matches!(q.ty(1).scalar_size_in_bits(), 16 | 32 | 64) && q.ty(0).scalar_size_in_bits() < q.ty(1).scalar_size_in_bits(),
                change_element_size_to(0, 1),
            )
            .widen_scalar_or_elt_to_next_pow2(0)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2);

        G_SITOFP | G_UITOFP => legal_for(([s32, s64], [s32, s64]), (v2s32, v2s32), (v4s32, v4s32), (v2s64, v2s64))
            .legal_for(if st.full_fp16, (s16, [s32, s64]), (v4s16, v4s16), (v8s16, v8s16))
            .scalarize_if(scalar_or_elt_wider_than(1, 64), 1)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .more_elements_to_next_pow2(1)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(1)
            .min_scalar(1, s32)
            .lower_if(|q| q.ty(1).is_vector() && q.ty(1).scalar_size_in_bits() == 64 && q.ty(0).scalar_size_in_bits() == 16)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(0, { if st.full_fp16 { 16 } else { 32 } })
            .scalarize_if(|q| q.ty(0).scalar_size_in_bits() == 32 && q.ty(1).scalar_size_in_bits() == 64, 0)
            .widen_scalar_if(
                |q| q.ty(1).scalar_size_in_bits() <= 64 && q.ty(0).scalar_size_in_bits() < q.ty(1).scalar_size_in_bits(),
                change_element_size_to(0, 1),
            )
            .widen_scalar_if(
                |q| q.ty(0).scalar_size_in_bits() <= 64 && q.ty(0).scalar_size_in_bits() > q.ty(1).scalar_size_in_bits(),
                change_element_size_to(1, 0),
            )
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .libcall_for(([s16, s32, s64, s128], s128), (s128, [s32, s64]));

        // --- control flow ---
        G_BR => always_legal();
        G_BRCOND => legal_for(s32).clamp_scalar(0, s32, s32);
        G_BRINDIRECT => legal_for(p0);

        G_SELECT => legal_for((s32, s32), (s64, s32), (p0, s32))
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, s64)
            .clamp_scalar(1, s32, s32)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .min_scalar_elt_same_as_if(all(is_vector(0), is_vector(1)), 1, 0)
            .lower_if(is_vector(0));

        // --- pointers ---
        G_FRAME_INDEX => legal_for(p0);

        if st.code_model == CodeModel::Small {
            G_GLOBAL_VALUE => custom();
        } else {
            G_GLOBAL_VALUE => legal_for(p0);
        }

        G_PTRAUTH_GLOBAL_VALUE => legal_if(all(type_is(0, p0), type_is(1, p0)));

        G_PTRTOINT => legal_for((s64, p0), (v2s64, v2p0))
            .widen_scalar_to_next_pow2(0, 64)
            .clamp_scalar(0, s64, s64)
            .clamp_max_num_elements(0, s64, 2);

        G_INTTOPTR => unsupported_if(|q| q.ty(0).size_in_bits() != q.ty(1).size_in_bits())
            .legal_for((p0, s64), (v2p0, v2s64))
            .clamp_max_num_elements(1, s64, 2);

        G_BITCAST => legal_for_cartesian_product([s32, v2s16, v4s8])
            .legal_for_cartesian_product([s64, v8s8, v4s16, v2s32])
            .legal_for_cartesian_product([s128, v16s8, v8s16, v4s32, v2s64, v2p0])
            .custom_if(|q| q.ty(0).is_scalar() && q.ty(1).is_vector() && q.ty(1).scalar_size_in_bits() == 1)
            .lower_if(|q| q.ty(0).is_vector() != q.ty(1).is_vector())
            .more_elements_to_next_pow2(0)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .lower();

        G_VASTART => legal_for(p0);

        G_VAARG => custom_for_cartesian_product([s8, s16, s32, s64, p0], [p0])
            .clamp_scalar(0, s8, s64)
            .widen_scalar_to_next_pow2(0, 8);

        // --- atomics ---
        G_ATOMIC_CMPXCHG_WITH_SUCCESS => lower_if(all(type_in_set(0, [s8, s16, s32, s64, s128]), type_is(2, p0)));

        G_ATOMIC_CMPXCHG => legal_for(if !outline, ([s32, s64], p0))
            .custom_for(if !outline, (s128, p0))
            .libcall_for(if outline, ([s8, s16, s32, s64, s128], p0))
            .clamp_scalar(0, s32, s64);

        G_ATOMICRMW_XCHG | G_ATOMICRMW_ADD | G_ATOMICRMW_SUB | G_ATOMICRMW_AND | G_ATOMICRMW_OR | G_ATOMICRMW_XOR =>
            legal_for(if !outline, ([s32, s64], p0))
            .libcall_for(if outline, ([s8, s16, s32, s64], p0))
            .clamp_scalar(0, s32, s64);

        G_ATOMICRMW_MIN | G_ATOMICRMW_MAX | G_ATOMICRMW_UMIN | G_ATOMICRMW_UMAX =>
            legal_if(all(type_in_set(0, [s32, s64]), type_is(1, p0)))
            .clamp_scalar(0, s32, s64);

        G_BLOCK_ADDR => legal_for(p0);

        // --- merge and unmerge ---
        G_MERGE_VALUES => widen_scalar_to_next_pow2(1, 8)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(1, s8, s64)
            .clamp_scalar(0, s32, s128)
            .legal_if(|q| merge_sizes_legal(q.ty(0), q.ty(1)));
        G_UNMERGE_VALUES => widen_scalar_to_next_pow2(0, 8)
            .widen_scalar_to_next_pow2(1, 32)
            .clamp_scalar(0, s8, s64)
            .clamp_scalar(1, s32, s128)
            .legal_if(|q| merge_sizes_legal(q.ty(1), q.ty(0)));

        // --- vectors ---
        G_EXTRACT_VECTOR_ELT => legal_for(if st.sve, (s16, nxv16s8, s64), (s16, nxv8s16, s64), (s32, nxv4s32, s64), (s64, nxv2s64, s64))
            .unsupported_if(|q| !q.ty(1).is_scalable() && q.ty(0) != q.ty(1).element_type())
            .min_scalar(2, s64)
            .custom_if(neon_extract_vector)
            .min_scalar_or_elt_if(|q| q.ty(1).is_fixed_vector() && q.ty(1).num_elements() <= 2, 0, s64)
            .min_scalar_or_elt_if(|q| q.ty(1).is_fixed_vector() && q.ty(1).num_elements() <= 4, 0, s32)
            .min_scalar_or_elt_if(|q| q.ty(1).is_fixed_vector() && q.ty(1).num_elements() <= 8, 0, s16)
            .min_scalar_or_elt_if(|q| q.ty(1).is_fixed_vector() && q.ty(1).num_elements() <= 16, 0, s8)
            .min_scalar_or_elt(0, s8)
            .more_elements_to_next_pow2(1)
            .clamp_max_num_elements(1, s64, 2)
            .clamp_max_num_elements(1, s32, 4)
            .clamp_max_num_elements(1, s16, 8)
            .clamp_max_num_elements(1, s8, 16)
            .clamp_max_num_elements(1, p0, 2)
            .scalarize_if(scalar_or_elt_wider_than(1, 64), 1);

        G_INSERT_VECTOR_ELT => legal_if(type_in_set(0, [neon_bhsd, v2p0]))
            .legal_for(if st.sve, (nxv16s8, s32, s64), (nxv8s16, s32, s64), (nxv4s32, s32, s64), (nxv2s64, s64, s64))
            .more_elements_to_next_pow2(0)
            .widen_vector_elts_to_vector_min_size(0, 64)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v2s32, v4s32)
            .clamp_max_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, p0, 2)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);

        G_BUILD_VECTOR => legal_for(
                (v8s8, s8), (v16s8, s8), (v4s16, s16), (v8s16, s16), (v2s32, s32), (v4s32, s32),
                (v2s64, s64), (v2p0, p0),
            )
            .clamp_num_elements(0, v4s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .min_scalar_or_elt(0, s8)
            .widen_vector_elts_to_vector_min_size(0, 64)
            .widen_scalar_or_elt_to_next_pow2(0)
            .min_scalar_same_as(1, 0);

        // LLVM says `lower()`, which its helper cannot do for this opcode.
        G_BUILD_VECTOR_TRUNC => unsupported();

        G_SHUFFLE_VECTOR => legal_if(|q| q.ty(0) == q.ty(1) && [V8S8, V16S8, V4S16, V8S16, V2S32, V4S32, V2S64].contains(&q.ty(0)))
            .lower_if(|q| !q.ty(0).is_vector() || !q.ty(1).is_vector())
            .more_elements_if(
                |q| q.ty(0).is_vector() && q.ty(1).is_vector() && q.ty(0).num_elements() > q.ty(1).num_elements(),
                change_to_type_of(1, 0),
            )
            .more_elements_to_next_pow2(0)
            .more_elements_if(
                |q| q.ty(0).is_vector() && q.ty(1).is_vector() && q.ty(0).num_elements() < q.ty(1).num_elements(),
                change_to_type_of(0, 1),
            )
            .widen_scalar_or_elt_to_next_pow2_or_min_size(0, 8)
            .clamp_num_elements(0, v8s8, v16s8)
            .clamp_num_elements(0, v4s16, v8s16)
            .clamp_num_elements(0, v4s32, v4s32)
            .clamp_num_elements(0, v2s64, v2s64)
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
            .bitcast_if(is_pointer_vector(0), |q| (0, q.ty(0).change_element_size(64)));

        G_CONCAT_VECTORS => legal_for((v16s8, v8s8), (v8s16, v4s16), (v4s32, v2s32))
            .bitcast_if(
                |q| q.ty(0).size_in_bits() <= 128 && q.ty(1).size_in_bits() <= 64,
                |q| {
                    let (dst, src) = (q.ty(0), q.ty(1));
                    let count = dst.num_elements() / src.num_elements();
                    (0, dst.change_element_size(src.size_in_bits() as u32).change_element_count(count, false))
                },
            );

        G_EXTRACT_SUBVECTOR => legal_for((v8s8, v16s8), (v4s16, v8s16), (v2s32, v4s32))
            .widen_scalar_or_elt_to_next_pow2(0)
            .imm_idx(0);

        G_SPLAT_VECTOR => legal_if({ gate(st.sve, predicates::type_pair_in_set(0, 1, &[(NXV4S32, S32), (NXV2S64, S64)])) });

        G_JUMP_TABLE => legal_for(p0);
        G_BRJT => legal_for((p0, s64));

        G_TRAP | G_DEBUGTRAP | G_UBSANTRAP => always_legal();

        G_DYN_STACKALLOC => custom();
        G_STACKSAVE | G_STACKRESTORE => lower();

        if st.mops {
            G_BZERO => unsupported();
            G_MEMSET => legal_for_cartesian_product([p0], [s64], [s64])
                .custom_for_cartesian_product([p0], [s8], [s64])
                .imm_idx(0);
            G_MEMCPY | G_MEMMOVE => legal_for_cartesian_product([p0], [p0], [s64]).imm_idx(0);
            G_MEMCPY_INLINE => legal_for_cartesian_product([p0], [p0], [s64]);
        } else {
            G_BZERO => libcall();
            G_MEMCPY | G_MEMMOVE | G_MEMSET => libcall();
        }

        // --- reductions ---
        G_VECREDUCE_FADD => legal_for((s32, v2s32), (s32, v4s32), (s64, v2s64))
            .legal_for(if st.full_fp16, (s16, v4s16), (s16, v8s16))
            .min_scalar_or_elt(0, min_fp)
            .clamp_max_num_elements(1, s64, 2)
            .clamp_max_num_elements(1, s32, 4)
            .clamp_max_num_elements(1, s16, 8)
            .more_elements_to_next_pow2(1)
            .scalarize(1)
            .lower();

        G_VECREDUCE_FMUL => min_scalar_or_elt(0, min_fp)
            .clamp_max_num_elements(1, s64, 2)
            .clamp_max_num_elements(1, s32, 4)
            .clamp_max_num_elements(1, s16, 8)
            .clamp_max_num_elements(1, s32, 2)
            .clamp_max_num_elements(1, s16, 4)
            .scalarize(1)
            .lower();

        G_VECREDUCE_SEQ_FADD | G_VECREDUCE_SEQ_FMUL => scalarize(2).unsupported();

        G_VECREDUCE_ADD => legal_for((s8, v8s8), (s8, v16s8), (s16, v4s16), (s16, v8s16), (s32, v2s32), (s32, v4s32), (s64, v2s64))
            .more_elements_to_next_pow2(1)
            .clamp_max_num_elements(1, s64, 2)
            .clamp_max_num_elements(1, s32, 4)
            .clamp_max_num_elements(1, s16, 8)
            .clamp_max_num_elements(1, s8, 16)
            .widen_vector_elts_to_vector_min_size(1, 64)
            .scalarize(1);

        G_VECREDUCE_FMIN | G_VECREDUCE_FMAX | G_VECREDUCE_FMINIMUM | G_VECREDUCE_FMAXIMUM =>
            legal_for((s32, v2s32), (s32, v4s32), (s64, v2s64))
            .legal_for(if st.full_fp16, (s16, v4s16), (s16, v8s16))
            .min_scalar_or_elt(0, min_fp)
            .clamp_max_num_elements(1, s64, 2)
            .clamp_max_num_elements(1, s32, 4)
            .clamp_max_num_elements(1, s16, 8)
            .scalarize(1)
            .lower();

        G_VECREDUCE_MUL => clamp_max_num_elements(1, s32, 2)
            .clamp_max_num_elements(1, s16, 4)
            .clamp_max_num_elements(1, s8, 8)
            .scalarize(1)
            .lower();

        G_VECREDUCE_SMIN | G_VECREDUCE_SMAX | G_VECREDUCE_UMIN | G_VECREDUCE_UMAX =>
            legal_for((s8, v8s8), (s8, v16s8), (s16, v4s16), (s16, v8s16), (s32, v2s32), (s32, v4s32))
            .more_elements_if(
                |q| q.ty(1).is_vector() && q.ty(1).element_type() != S8 && q.ty(1).num_elements() % 2 == 1,
                more_elements_to_next_pow2(1),
            )
            .clamp_max_num_elements(1, s64, 2)
            .clamp_max_num_elements(1, s32, 4)
            .clamp_max_num_elements(1, s16, 8)
            .clamp_max_num_elements(1, s8, 16)
            .scalarize(1)
            .lower();

        G_VECREDUCE_OR | G_VECREDUCE_AND | G_VECREDUCE_XOR => fewer_elements_if(
                |q| {
                    let src = q.ty(1);
                    src.is_vector() && src.num_elements().is_power_of_two() && src.size_in_bits() > 64
                },
                |q| (1, q.ty(1).change_element_count(q.ty(1).num_elements() / 2, false)),
            )
            .scalarize(1)
            .lower();

        G_VECTOR_COMPRESS => lower();

        G_GET_FPENV | G_SET_FPENV | G_GET_FPMODE | G_SET_FPMODE => libcall();
        G_RESET_FPENV | G_RESET_FPMODE => libcall();

        G_IS_FPCLASS => lower();
        G_PREFETCH => custom();
        G_SCMP | G_UCMP => lower();
        }
    }
}
