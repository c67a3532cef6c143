use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        let none = [];
        G_ADD => legal_for(s32, none);
    }
}

fn main() {}
