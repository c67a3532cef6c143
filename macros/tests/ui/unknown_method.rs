use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_fro(s32).clamp_scaler(0, s32, s32);
    }
}

fn main() {}
