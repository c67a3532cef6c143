use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).clamp_scalar(0, s64, s32);
    }
}

fn main() {}
