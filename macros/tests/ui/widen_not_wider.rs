use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).widen_scalar_if(type_is(0, s64), change_to(0, s32));
        G_SUB => legal_for(s32).narrow_scalar_if(type_in_set(0, [s16]), change_to(0, s32));
    }
}

fn main() {}
