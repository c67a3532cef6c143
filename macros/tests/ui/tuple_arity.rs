use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for((s32, s32));
        G_MEMSET => legal_for((p0, s8)).imm_idx(0).lower();
    }
}

fn main() {}
