use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_LOAD => legal_for((s32, s32)).lower();
        G_BUILD_VECTOR => legal_for((s32, s32));
    }
}

fn main() {}
