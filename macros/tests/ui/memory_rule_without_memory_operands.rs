use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_ADD => legal_for(s32).lower_if_mem_size_not_pow2();
        G_SUB => legal_if(mem_size_in_bytes_not_pow2(0));
    }
}

fn main() {}
