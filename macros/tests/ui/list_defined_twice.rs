use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        let wide = [s64, s128];
        let wide = [s32, s64];
        G_ADD => legal_for(wide);
    }
}

fn main() {}
