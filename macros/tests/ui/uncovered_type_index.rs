use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_SHL => legal_for(s32).clamp_scalar(0, s32, s32);
        G_ICMP => legal_for(s32).imm_idx(0);
    }
}

fn main() {}
