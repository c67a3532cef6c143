use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        let scalars = [s32, s64];
        G_BUILD_VECTOR => legal_for((v2s32, s32), (scalars, s32));
    }
}

fn main() {}
