//! The toy target passes every check; broken copies fail each one.

use super::*;
use crate::legality::examples::toy32;
use crate::legality::matrix::LegalityMatrix;
use crate::legality::mutations as m;
use crate::legality::predicates::*;
use crate::legality::{LegalityQuery, LegalizeAction, LegalizerInfo};
use crate::opcode::Opcode::*;
use crate::ty::Llt;

const S16: Llt = Llt::scalar(16);
const S32: Llt = Llt::scalar(32);
const S64: Llt = Llt::scalar(64);

#[test]
fn toy_target_passes_every_check() {
    let info = toy32();
    let report = check_all(&info);
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.to_string(), "no findings\n");
    let usage = producer_consumer_types(&info, &Samples::for_target(&info));
    let p0 = info.pointer(0);
    assert_eq!(usage.produced.iter().copied().collect::<Vec<_>>(), [S32, p0]);
    assert!(usage.consumed.contains(&p0) && usage.consumed.contains(&S32));
}

#[test]
fn uncovered_type_index_is_found() {
    let mut info = toy32();
    info.rules_for(&[G_ROTL]).legal_for([S32]).clamp_scalar(0, S32, S32);
    let findings = check_coverage(&info);
    assert_eq!(findings, [CoverageFinding::TypeIndexUncovered { opcode: G_ROTL, first_uncovered: 1, count: 2 }]);
    assert_eq!(
        findings[0].to_string(),
        "G_ROTL: no rule mentions type index 1 (of 2); add a rule for it or one that covers all"
    );
}

#[test]
fn missing_minimum_rules_are_found() {
    // A legal 64-bit multiply-high makes s64 a producer and a consumer
    // type, which the toy's G_IMPLICIT_DEF, G_PHI and G_ANYEXT lack.
    let mut info = toy32();
    info.rules_for(&[G_UMULH]).legal_for([S64]);
    let findings = check_minimum_rule_set(&info, &Samples::for_target(&info));
    let text: Vec<String> = findings.iter().map(ToString::to_string).collect();
    for want in [
        "G_ANYEXT(s64, s32) must be legal (producer s32 to larger consumer s64), got NarrowScalar type0 to s32",
        "G_IMPLICIT_DEF(s64) must be legal (s64 is produced by a legal instruction), got NarrowScalar type0 to s32",
        "G_PHI(s64) must be legal (s64 is produced or consumed by a legal instruction), got NarrowScalar type0 to s32",
    ] {
        assert!(text.iter().any(|t| t == want), "missing {want:?} in {text:#?}");
    }
    // G_TRUNC is legal between any two scalars in the toy.
    assert!(!findings.iter().any(|f| matches!(f, MinimumRuleFinding::TruncNotLegal { .. })));

    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_ADD]).legal_for([S32]);
    let findings = check_minimum_rule_set(&info, &Samples::for_target(&info));
    assert!(findings.contains(&MinimumRuleFinding::NoLegalPointerFor { opcode: G_FRAME_INDEX }));
    assert!(findings.contains(&MinimumRuleFinding::NoLegalPointerFor { opcode: G_BLOCK_ADDR }));
}

#[test]
fn widen_narrow_cycle_is_found_with_its_rules() {
    let mut info = toy32();
    info.rules_for(&[G_ROTR])
        .widen_scalar_if(type_is(0, S16), m::change_to(0, S32))
        .narrow_scalar_if(type_is(0, S32), m::change_to(0, S16));
    let findings = check_termination(&info, &Samples::for_target(&info), DEFAULT_STEP_BUDGET);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let TerminationFinding::Cycle { opcode: G_ROTR, steps } = &findings[0] else {
        panic!("expected a cycle: {findings:#?}")
    };
    assert_eq!(steps.len(), 2);
    let text = findings[0].to_string();
    assert!(text.contains("G_ROTR: cycle of 2 steps"), "{text}");
    assert!(
        text.contains("--rule 0 widen_scalar_if(type_is(0, s16), change_to(0, s32))--> WidenScalar type0 to s32"),
        "{text}"
    );
    assert!(
        text.contains("--rule 1 narrow_scalar_if(type_is(0, s32), change_to(0, s16))--> NarrowScalar type0 to s16"),
        "{text}"
    );
}

#[test]
fn step_blow_up_and_insane_steps_are_found() {
    let mut info = toy32();
    info.rules_for(&[G_CTPOP]).more_elements_if(
        is_fixed_vector_of_any(),
        m::custom("one_more_element", |q| {
            let ty = q.ty(0);
            (0, Llt::fixed_vector(ty.num_elements() + 1, ty.element_type()))
        }),
    );
    info.rules_for(&[G_BSWAP]).widen_scalar_if(is_scalar(0), m::widen_scalar_or_elt_to_next_pow2(0, 0));
    let findings = check_termination(&info, &Samples::for_target(&info), DEFAULT_STEP_BUDGET);
    assert!(
        findings
            .iter()
            .any(|f| matches!(f, TerminationFinding::StepBudgetExceeded { opcode: G_CTPOP, budget: 32, .. })),
        "{findings:#?}"
    );
    let insane = findings
        .iter()
        .find(|f| matches!(f, TerminationFinding::InsaneStep { opcode: G_BSWAP, .. }))
        .expect("G_BSWAP s32 widens to s32");
    assert!(insane.to_string().contains("size did not increase"), "{insane}");
}

fn is_fixed_vector_of_any() -> crate::legality::Predicate {
    crate::legality::Predicate::IsFixedVector(0)
}

#[test]
fn matrix_tabulates_answers() {
    let info = toy32();
    let p0 = info.pointer(0);
    let types = [Llt::scalar(7), S32, S64, Llt::fixed_vector(4, S32), p0];
    let matrix = LegalityMatrix::build(&info, &[G_ADD, G_SHL, G_LOAD, G_PTR_ADD], &types);
    assert_eq!(matrix.rows[0].cells[0].action, LegalizeAction::WidenScalar);
    let text = matrix.render_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "opcode    | s7     | s32 | s64    | <4 x s32> | p0");
    assert_eq!(lines[2], "G_ADD     | W s32  | L   | N s32  | F s32     | U");
    assert_eq!(lines[3], "G_SHL     | W s32  | L   | N s32  | F s32     | U");
    assert_eq!(lines[4], "G_LOAD    | W s32  | L   | N s32  | Lo        | L");
    assert_eq!(lines[5], "G_PTR_ADD | W1 s32 | L   | N1 s32 | U         | U");
    let all = LegalityMatrix::build_for_all(&info, &types);
    assert!(all.rows.iter().any(|r| r.opcode == G_MEMCPY));
    assert!(info.is_legal(&LegalityQuery::new(G_PTR_ADD, &[p0, S32])));
}
