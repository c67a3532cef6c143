use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        let scalars = [s32, s64];
        G_ADD => legal_for(s32, s64);
    }
}

fn main() {}
