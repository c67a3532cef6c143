use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_SHL => legal_for((s32, s32), s64).legal_if(type_pair_in_set(0, 1, [s32]));
    }
}

fn main() {}
