use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).clamp_scalar(s32, s32, s64).legal_if(0);
    }
}

fn main() {}
