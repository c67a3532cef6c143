use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    pub fn target() -> LegalizerInfo {
        G_LOAD => legal_for_types_with_mem_desc((s32, p0, s32, 32)).scalarize(1);
        G_BRCOND => legal_for(s32).clamp_max_num_elements(0, s32, 4);
    }
}

fn main() {}
