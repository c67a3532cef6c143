use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).min_scalar(0, s32).max_scalar(0, s16);
    }
}

fn main() {}
