use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADDD => legal_for(s32);
        G_SUBB | G_MUL => legal_for(s32);
    }
}

fn main() {}
