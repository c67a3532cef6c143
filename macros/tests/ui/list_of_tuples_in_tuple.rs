use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        let shifts = [(s32, s32), (s64, s64)];
        G_SHL => legal_for(shifts);
        G_MEMSET => legal_for((shifts, s64)).imm_idx(0);
        G_ICMP => legal_for_cartesian_product([s32], shifts);
    }
}

fn main() {}
