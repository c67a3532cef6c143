//! Every form the grammar accepts, expanded and run.

use gisel_core::legality::{LegalityQuery, LegalizeAction, check};
use gisel_core::prelude::*;
use gisel_macros::legalizer;

pub struct Subtarget {
    pub is_64bit: bool,
    pub has_m: bool,
    pub has_v: bool,
}

/// The hook custom actions go to.
pub fn legalize_custom() {}

fn wide(q: &LegalityQuery<'_>) -> bool {
    q.ty(0).size_in_bits() > 64
}

legalizer! {
    /// Rules for a RISC-V-like target.
    pub(crate) fn target(st: &Subtarget) -> LegalizerInfo {
        custom = crate::legalize_custom;
        pointer_bits = { if st.is_64bit { 64 } else { 32 } };
        let xlen = if st.is_64bit { s64 } else { s32 };
        let p0_ty = p0;

        G_ADD | G_SUB | G_AND | G_OR | G_XOR => legal_for(xlen, v2s32, <4 x s32>, <vscale x 2 x s64>, nxv4s32)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, { xlen })
            .clamp_num_elements(0, v2s32, <4 x s32>)
            .scalarize(0);
        G_SHL | G_LSHR => legal_for((s32, s32), (xlen, xlen))
            .legal_for(if st.is_64bit, (s64, s32))
            .clamp_scalar(1, s32, s64)
            .clamp_scalar(0, s32, s64);
        if st.has_m {
            G_MUL => legal_for(xlen).clamp_scalar(0, s32, s64);
        } else if st.has_v {
            G_MUL => legal_for(v2s32).libcall_for(xlen).scalarize(0);
        } else {
            G_MUL => libcall_for(xlen).clamp_scalar(0, s32, s64);
        }
        G_ABS => custom_if(|q| q.types[0].is_scalar()).lower();
        G_SMIN => custom_if(wide).legal_if(all(is_scalar(0), not(type_is(0, s1)), any(always())));
        G_SMAX => lower_if({ gisel_core::legality::predicates::is_vector(0) })
            .widen_scalar_if(scalar_narrower_than(0, 32), change_to(0, s32))
            .legal_for(s32)
            .min_scalar_or_elt_if(is_vector(0), 0, s16);
        G_ICMP => legal_for_cartesian_product([s32], [s32, xlen, p0_ty]).clamp_scalar(1, s32, s64).scalarize(0);
        G_LOAD | G_STORE => legal_for_types_with_mem_desc((s32, p0, s8, 8), (xlen, p0, xlen, { 32 }))
            .lower_if(atomic_ordering_at_least_or_stronger_than(0, Acquire))
            .lower();
        G_MEMSET => legal_for((p0, s8, s32)).imm_idx(0);
        G_FMA => libcall();
    }
}

fn main() {
    let info = target(&Subtarget { is_64bit: false, has_m: false, has_v: true });
    assert!(info.validate().is_ok(), "{:?}", info.validate());
    assert_eq!(info.pointer_bits(), 32);
    let s32 = Llt::scalar(32);
    let types = [s32];
    let q = LegalityQuery::new(Opcode::G_MUL, &types);
    assert_eq!(info.action(&q).action, LegalizeAction::Libcall);
    let q = LegalityQuery::new(Opcode::G_ABS, &types);
    assert_eq!(info.action(&q).action, LegalizeAction::Custom);
    assert!(check::check_coverage(&info).is_empty());
    let text = info.to_string();
    assert!(text.contains("custom(|q| q.types[0].is_scalar())"), "{text}");
}
