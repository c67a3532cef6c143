use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_SEXT_INREG => lower().legal_for(s32);
        G_ADD => legal_if(always()).clamp_scalar(0, s32, s32);
    }
}

fn main() {}
