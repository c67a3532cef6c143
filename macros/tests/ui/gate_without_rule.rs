use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target(has_mops: bool) -> LegalizerInfo {
        G_MEMSET => legal_for((p0, s8, s64)).imm_idx(if has_mops, 0);
    }
}

fn main() {}
