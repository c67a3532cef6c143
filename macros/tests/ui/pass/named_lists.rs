//! Named type lists (plain, gated, spliced, in tuples for cartesian
//! products) and gates on single rules, expanded and run.

use gisel_core::assert_legality;
use gisel_core::legality::check;
use gisel_core::prelude::*;
use gisel_macros::legalizer;

pub struct Subtarget {
    pub is_64bit: bool,
    pub has_v: bool,
    pub has_e64: bool,
    pub has_outline: bool,
}

legalizer! {
    pub fn target(st: &Subtarget) -> LegalizerInfo {
        let xlen = if st.is_64bit { s64 } else { s32 };
        let e64 = st.has_e64;
        let e64_vecs = [if e64, nxv1s8, nxv1s64];
        let int_vecs = [if st.has_v, nxv2s8, nxv4s8, e64_vecs];
        let bool_vecs = [if st.has_v, nxv2s1, nxv4s1, [if e64, nxv1s1]];
        let scalars = [s32, xlen];
        // A later `let` does not change what the list means.
        let e64 = false;

        G_ADD | G_SUB => legal_for(s32, int_vecs)
            .unsupported_for(if st.is_64bit, s16)
            .clamp_scalar(if !st.is_64bit, 0, s32, s32)
            .widen_scalar_to_next_pow2(0);
        G_ICMP => legal_for((s32, [s32, p0]))
            .legal_for_cartesian_product(bool_vecs, int_vecs)
            .clamp_scalar(0, s32, s32)
            .clamp_scalar(1, s32, s32);
        G_SELECT => legal_for((int_vecs, bool_vecs), (s32, s32)).clamp_scalar(0, s32, s32).clamp_scalar(1, s32, s32);
        G_ABS => lower_if(if e64 || st.has_v, is_vector(0)).legal_if(type_in_set(0, scalars));
        G_ATOMICRMW_ADD => legal_for(if !st.has_outline, (s32, p0), (s64, p0))
            .libcall_for(if st.has_outline, (s32, p0), (s64, p0))
            .clamp_scalar(0, s32, s64);
    }
}

fn main() {
    let all = target(&Subtarget { is_64bit: true, has_v: true, has_e64: true, has_outline: false });
    assert!(all.validate().is_ok(), "{:?}", all.validate());
    assert!(check::check_coverage(&all).is_empty());
    assert_legality!(all, G_ADD(nxv1s64) => Legal);
    assert_legality!(all, G_ADD(s16) => Unsupported);
    assert_legality!(all, G_ICMP(nxv1s1, nxv1s8) => Legal);
    assert_legality!(all, G_ICMP(s32, p0) => Legal);
    assert_legality!(all, G_SELECT(nxv4s8, nxv2s1) => Legal);
    assert_legality!(all, G_ABS(nxv2s8) => Lower);
    assert_legality!(all, G_ABS(s64) => Legal);
    assert_legality!(all, G_ATOMICRMW_ADD(s64, p0) => Legal);

    let small = target(&Subtarget { is_64bit: false, has_v: true, has_e64: false, has_outline: true });
    assert!(small.validate().is_ok(), "{:?}", small.validate());
    assert_legality!(small, G_ADD(nxv2s8) => Legal);
    assert_legality!(small, G_ADD(nxv1s64) => Unsupported);
    assert_legality!(small, G_ADD(s64) => NarrowScalar(0, s32));
    assert_legality!(small, G_ADD(s16) => WidenScalar(0, s32));
    assert_legality!(small, G_ICMP(nxv1s1, nxv1s8) => Unsupported);
    assert_legality!(small, G_ATOMICRMW_ADD(s64, p0) => Libcall);

    let scalar = target(&Subtarget { is_64bit: false, has_v: false, has_e64: false, has_outline: false });
    assert!(scalar.validate().is_ok(), "{:?}", scalar.validate());
    assert_legality!(scalar, G_ADD(nxv2s8) => Unsupported);
    assert_legality!(scalar, G_ABS(nxv2s8) => Unsupported);
    assert_eq!(scalar.rule_set(Opcode::G_ICMP).map(|s| s.to_string().contains("cartesian")), Some(false));
}
