//! A toy 32-bit target: 32-bit registers and pointers, a small SIMD unit
//! on 32-bit vectors (`v4s8`, `v2s16`), loads and stores of 8, 16 and 32
//! bits (extending and truncating), no hardware divide (library calls),
//! remainder lowered through division. It passes every check in
//! [`gisel_core::legality::check`].

use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    /// The toy target's rules.
    pub fn toy() -> LegalizerInfo {
        pointer_bits = 32;

        // --- the minimum rule set ---
        G_IMPLICIT_DEF | G_FREEZE | G_PHI => legal_for(s32, p0, v4s8, v2s16)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .clamp_max_num_elements(0, s8, 4)
            .clamp_max_num_elements(0, s16, 2)
            .scalarize(0);
        G_ANYEXT => legal_for_cartesian_product([s32], [s1, s8, s16])
            .clamp_scalar(0, s32, s32)
            .unsupported();
        G_TRUNC => legal_for_cartesian_product([s1, s8, s16], [s32])
            .clamp_scalar(1, s32, s32)
            .unsupported();
        G_ZEXT | G_SEXT => lower();
        G_SEXT_INREG => lower();
        G_FRAME_INDEX | G_GLOBAL_VALUE | G_BLOCK_ADDR => legal_for(p0);

        // --- integer arithmetic ---
        G_CONSTANT => legal_for(s32, p0)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32);
        G_ADD | G_SUB | G_AND | G_OR | G_XOR => legal_for(s32, v4s8, v2s16)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .clamp_max_num_elements(0, s8, 4)
            .clamp_max_num_elements(0, s16, 2)
            .scalarize(0);
        G_MUL => legal_for(s32)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .scalarize(0);
        G_SDIV | G_UDIV => libcall_for(s32, s64)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s64)
            .scalarize(0);
        G_SREM | G_UREM => lower();
        G_SHL | G_LSHR | G_ASHR => legal_for((s32, s32))
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .clamp_scalar(1, s32, s32)
            .scalarize(0)
            .scalarize(1);
        G_ICMP => legal_for((s32, s32), (s32, p0))
            .clamp_scalar(0, s32, s32)
            .widen_scalar_to_next_pow2(1, 32)
            .clamp_scalar(1, s32, s32)
            .scalarize(0)
            .scalarize(1);
        G_SELECT => legal_for((s32, s32), (p0, s32))
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .clamp_scalar(1, s32, s32)
            .scalarize(0)
            .scalarize(1);

        // --- memory ---
        G_LOAD | G_STORE => legal_for_types_with_mem_desc(
                (s32, p0, s8, 8),
                (s32, p0, s16, 16),
                (s32, p0, s32, 32),
                (p0, p0, p0, 32),
                (v4s8, p0, v4s8, 32),
                (v2s16, p0, v2s16, 32),
            )
            .clamp_scalar(0, s32, s32)
            .lower_if_mem_size_not_pow2()
            .lower();
        G_PTR_ADD => legal_for((p0, s32)).clamp_scalar(1, s32, s32);

        // --- control flow ---
        G_BRCOND => legal_for(s32).clamp_scalar(0, s32, s32);
    }
}

#[cfg(test)]
mod tests {
    use gisel_core::assert_legality;
    use gisel_core::legality::check;

    use super::toy;

    #[test]
    fn passes_every_check() {
        let info = toy();
        assert!(info.validate().is_ok(), "{:?}", info.validate());
        let report = check::check_all(&info);
        assert!(report.is_clean(), "{report}");
    }

    #[test]
    fn answers() {
        let info = toy();
        assert_legality!(info, G_ADD(s32) => Legal);
        assert_legality!(info, G_ADD(v4s8) => Legal);
        assert_legality!(info, G_ADD(s7) => WidenScalar(0, s32));
        assert_legality!(info, G_ADD(s64) => NarrowScalar(0, s32));
        assert_legality!(info, G_ADD(v8s8) => FewerElements(0, v4s8));
        assert_legality!(info, G_SDIV(s32) => Libcall);
        assert_legality!(info, G_SREM(s32) => Lower);
        assert_legality!(info, G_LOAD(s32, p0; s8 @ 8) => Legal);
        assert_legality!(info, G_LOAD(s32, p0; s24 @ 32) => Lower);
        assert_legality!(info, G_PTR_ADD(p0, s32) => Legal);
        assert_legality!(info, G_FRAME_INDEX(p0) => Legal);
        assert_eq!(info.pointer_bits(), 32);
    }
}
