use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ASSERT_ZEXT => legal_for(s32);
        COPY => legal_for(s32);
    }
}

fn main() {}
