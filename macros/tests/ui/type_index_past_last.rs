use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).clamp_scalar(1, s32, s64).legal_if(is_vector(3));
    }
}

fn main() {}
