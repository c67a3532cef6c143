// The tutorial's malformed rule: Wren's add rule with the clamp bounds
// swapped.
use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn wren() -> LegalizerInfo {
        pointer_bits = 16;
        // ANCHOR: malformed
        G_ADD | G_SUB | G_AND | G_OR | G_XOR => legal_for(s16)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s32, s16);
        // ANCHOR_END: malformed
    }
}

fn main() {}
