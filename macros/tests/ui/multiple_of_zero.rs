use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).widen_scalar_to_next_multiple_of(0, 0);
    }
}

fn main() {}
