use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(v4s32).clamp_num_elements(0, v2s32, v8s16);
        G_SUB => legal_for(v4s32).clamp_num_elements(0, v8s32, v2s32);
    }
}

fn main() {}
