use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_AND => libcall_for(s32);
    }
}

fn main() {}
