//! Wren, a made-up 16-bit machine: 16-bit registers and pointers, 8- and
//! 16-bit loads and stores, add/sub with carry, no multiplier.

// ANCHOR: rules
use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    /// Wren's legality rules.
    pub fn wren() -> LegalizerInfo {
        pointer_bits = 16;

        // The minimum rule set: values can be created, merged at block
        // joins, extended, truncated, and addressed on the stack.
        G_IMPLICIT_DEF | G_FREEZE | G_PHI => legal_for(s1, s16, p0)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);
        G_ANYEXT => legal_for_cartesian_product([s16], [s1, s8])
            .clamp_scalar(0, s16, s16)
            .unsupported();
        G_TRUNC => legal_for_cartesian_product([s1, s8], [s16])
            .clamp_scalar(1, s16, s16)
            .unsupported();
        G_FRAME_INDEX | G_GLOBAL_VALUE | G_BLOCK_ADDR => legal_for(p0);

        // Arithmetic: everything is done on s16.
        G_CONSTANT => legal_for(s16, p0)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);
        G_ADD | G_SUB | G_AND | G_OR | G_XOR => legal_for(s16)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);
        G_UADDO | G_UADDE | G_USUBO | G_USUBE => legal_for((s16, s1))
            .clamp_scalar(0, s16, s16);
        G_MUL => libcall_for(s16).clamp_scalar(0, s16, s16);

        // Memory: 8- and 16-bit accesses; loads of 8 bits extend.
        G_LOAD | G_STORE => legal_for_types_with_mem_desc(
                (s16, p0, s8, 8),
                (s16, p0, s16, 16),
                (p0, p0, p0, 16),
            )
            .clamp_scalar(0, s16, s16)
            .lower();
    }
}
// ANCHOR_END: rules
