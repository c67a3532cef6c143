use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_BUILD_VECTOR => legal_for((v4s32, s32)).clamp_scalar(0, s32, s64);
    }
}

fn main() {}
