use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_MEMSET => legal_for((p0, s8, s32));
    }
}

fn main() {}
