use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32, s64, s32);
        G_SHL => legal_for((s32, s32), (s32, s32));
    }
}

fn main() {}
