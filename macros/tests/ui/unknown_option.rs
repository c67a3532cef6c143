use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        pointer_bitz = 32;
        G_ADD => legal_for(s32);
    }
}

fn main() {}
