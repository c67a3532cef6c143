use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        let int_vecs = [v2s32, v4s32];
        G_ADD => legal_for(s32).legal_if(type_in_set(0, int_vec));
        G_SUB => legal_for(int_vecs);
    }
}

fn main() {}
