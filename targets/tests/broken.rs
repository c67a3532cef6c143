//! Deliberately broken copies of the toy target, one per whole-target
//! check, to show that each check catches what it is for.
//!
//! The macro already rejects an uncovered type index at compile time (see
//! `macros/tests/ui/uncovered_type_index.rs`), so the coverage copy is
//! built with the plain builder API; the minimum-rule-set and termination
//! copies are accepted by the macro, because only the whole-target checks
//! can see those problems.

use gisel_core::legality::LegalizerInfo;
use gisel_core::legality::check::{
    CoverageFinding, DEFAULT_STEP_BUDGET, MinimumRuleFinding, Samples, TerminationFinding, check_all, check_coverage,
    check_minimum_rule_set, check_termination,
};
use gisel_core::opcode::Opcode;
use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    /// The toy target's core, with vectors that no G_PHI or
    /// G_IMPLICIT_DEF accepts.
    fn no_vector_phi() -> LegalizerInfo {
        pointer_bits = 32;
        G_IMPLICIT_DEF | G_PHI => legal_for(s32, p0)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .scalarize(0);
        G_ADD => legal_for(s32, v4s8)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s32, s32)
            .clamp_max_num_elements(0, s8, 4)
            .scalarize(0);
        G_FRAME_INDEX | G_BLOCK_ADDR => legal_for(p0);
    }
}

legalizer! {
    /// Widening s16 to s32 and narrowing s32 back to s16: each rule is
    /// fine alone, together they never settle.
    fn ping_pong() -> LegalizerInfo {
        pointer_bits = 32;
        G_IMPLICIT_DEF | G_PHI => legal_for(s16, p0).clamp_scalar(0, s16, s16).scalarize(0);
        G_MUL => widen_scalar_if(type_is(0, s16), change_to(0, s32))
            .narrow_scalar_if(type_is(0, s32), change_to(0, s16));
        G_FRAME_INDEX | G_BLOCK_ADDR => legal_for(p0);
    }
}

/// A small copy of the toy target whose G_SHL rules never mention the
/// shift-amount index (type index 1).
fn uncovered_shift() -> LegalizerInfo {
    let s32 = Llt::scalar(32);
    let mut info = LegalizerInfo::new().with_pointer_bits(32);
    let p0 = info.pointer(0);
    info.rules_for(&[Opcode::G_IMPLICIT_DEF, Opcode::G_PHI])
        .legal_for([s32, p0])
        .clamp_scalar(0, s32, s32)
        .scalarize(0);
    info.rules_for(&[Opcode::G_SHL]).legal_for([s32]).clamp_scalar(0, s32, s32);
    info.rules_for(&[Opcode::G_FRAME_INDEX, Opcode::G_BLOCK_ADDR]).legal_for([p0]);
    info
}

#[test]
fn the_toy_target_is_clean() {
    let report = check_all(&gisel_targets::toy::toy());
    assert!(report.is_clean(), "{report}");
}

#[test]
fn coverage_check_catches_an_uncovered_index() {
    let info = uncovered_shift();
    let findings = check_coverage(&info);
    assert_eq!(findings, [CoverageFinding::TypeIndexUncovered { opcode: Opcode::G_SHL, first_uncovered: 1, count: 2 }]);
    assert!(!check_all(&info).is_clean());
}

#[test]
fn minimum_check_catches_missing_vector_phi() {
    let info = no_vector_phi();
    assert!(info.validate().is_ok());
    assert!(check_coverage(&info).is_empty());
    let findings = check_minimum_rule_set(&info, &Samples::for_target(&info));
    let v4s8 = Llt::fixed_vector(4, Llt::scalar(8));
    assert!(
        findings.iter().any(|f| matches!(f, MinimumRuleFinding::PhiNotLegal { ty, .. } if *ty == v4s8)),
        "{findings:?}"
    );
    assert!(
        findings.iter().any(|f| matches!(f, MinimumRuleFinding::ImplicitDefNotLegal { ty, .. } if *ty == v4s8)),
        "{findings:?}"
    );
}

#[test]
fn termination_check_catches_a_cycle() {
    let info = ping_pong();
    assert!(info.validate().is_ok());
    assert!(check_coverage(&info).is_empty());
    let findings = check_termination(&info, &Samples::for_target(&info), DEFAULT_STEP_BUDGET);
    assert!(
        findings.iter().any(|f| matches!(f, TerminationFinding::Cycle { opcode: Opcode::G_MUL, .. })),
        "{findings:?}"
    );
}
