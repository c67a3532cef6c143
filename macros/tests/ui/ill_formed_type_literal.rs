use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s0, v1s32, p, <4 x s0>, <0 x s32>);
    }
}

fn main() {}
