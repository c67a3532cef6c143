use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD | G_SHL => legal_for(s32);
    }
}

fn main() {}
