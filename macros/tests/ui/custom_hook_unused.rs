use gisel_core::prelude::*;
use gisel_macros::legalizer;

pub fn legalize_custom() {}

legalizer! {
    pub fn target() -> LegalizerInfo {
        custom = crate::legalize_custom;
        G_ADD => legal_for(s32);
    }
}

fn main() {}
