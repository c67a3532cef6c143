use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target(has_zbb: bool) -> LegalizerInfo {
        G_ABS => lower_if(if has_zbb, is_scalar(0)).legal_for(s32);
    }
}

fn main() {}
