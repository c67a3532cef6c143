//! Builder methods one by one (a matching and a non-matching query each),
//! evaluation semantics, aliasing, errors, explain, and the toy target.

use super::mutations as m;
use super::predicates::*;
use super::*;
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

const S1: Llt = Llt::scalar(1);
const S8: Llt = Llt::scalar(8);
const S16: Llt = Llt::scalar(16);
const S24: Llt = Llt::scalar(24);
const S32: Llt = Llt::scalar(32);
const S40: Llt = Llt::scalar(40);
const S64: Llt = Llt::scalar(64);
const S128: Llt = Llt::scalar(128);
const P0: Llt = Llt::pointer(0, 64);

const fn v(n: u32, e: Llt) -> Llt {
    Llt::fixed_vector(n, e)
}

use LegalizeAction::*;

fn st(action: LegalizeAction) -> LegalizeStep {
    LegalizeStep::new(action)
}

fn to(action: LegalizeAction, idx: u8, ty: Llt) -> LegalizeStep {
    LegalizeStep::with_type(action, idx, ty)
}

/// Builds a one-opcode info with `build` and asks it.
fn ask(opcode: Opcode, build: impl FnOnce(&mut RuleSet), types: &[Llt], mems: &[MemDesc]) -> LegalizeStep {
    let mut info = LegalizerInfo::new();
    build(info.rules_for(&[opcode]));
    info.action(&LegalityQuery::with_mem(opcode, types, mems))
}

/// `case!(OPCODE, |r| ..., [types] (; mem)? => expected)`.
macro_rules! case {
    ($op:ident, $build:expr, [$($t:expr),*] $(; $mem:expr)? => $expect:expr) => {
        assert_eq!(
            ask($op, $build, &[$($t),*], &[$($mem)?]),
            $expect,
            "{} on {}({})", stringify!($build), stringify!($op), stringify!($($t),*)
        )
    };
}

#[test]
fn legal_builders() {
    case!(G_ADD, |r| { r.legal_if(is_scalar(0)); }, [S32] => st(Legal));
    case!(G_ADD, |r| { r.legal_if(is_scalar(0)); }, [P0] => st(Unsupported));
    case!(G_ADD, |r| { r.legal_for([S32]); }, [S32] => st(Legal));
    case!(G_ADD, |r| { r.legal_for([S32]); }, [S64] => st(Unsupported));
    case!(G_SHL, |r| { r.legal_for([(S32, S64)]); }, [S32, S64] => st(Legal));
    case!(G_SHL, |r| { r.legal_for([(S32, S64)]); }, [S64, S32] => st(Unsupported));
    case!(G_INSERT_VECTOR_ELT, |r| { r.legal_for([(v(4, S32), S32, S64)]); }, [v(4, S32), S32, S64] => st(Legal));
    case!(G_INSERT_VECTOR_ELT, |r| { r.legal_for([(v(4, S32), S32, S64)]); }, [v(4, S32), S32, S32] => st(Unsupported));
    case!(G_SEXT_INREG, |r| { r.legal_for_type_with_any_imm([S32]); }, [S32] => st(Legal));
    case!(G_SEXT_INREG, |r| { r.legal_for_type_with_any_imm([S32]); }, [S64] => st(Unsupported));
    let mem_rules = |r: &mut RuleSet| {
        r.legal_for_types_with_mem_desc(&[TypePairAndMemDesc::new(S32, P0, S16, 16)]);
    };
    case!(G_LOAD, mem_rules, [S32, P0]; MemDesc::new(S16, 16) => st(Legal));
    case!(G_LOAD, mem_rules, [S32, P0]; MemDesc::new(S16, 8) => st(Unsupported));
    case!(G_SHL, |r| { r.legal_for_cartesian_product(&[&[S32, S64]]); }, [S64, S32] => st(Legal));
    case!(G_SHL, |r| { r.legal_for_cartesian_product(&[&[S32, S64]]); }, [S64, S16] => st(Unsupported));
    case!(G_SHL, |r| { r.legal_for_cartesian_product(&[&[S32], &[S16, S64]]); }, [S32, S16] => st(Legal));
    case!(G_SHL, |r| { r.legal_for_cartesian_product(&[&[S32], &[S16, S64]]); }, [S16, S32] => st(Unsupported));
    let three = |r: &mut RuleSet| {
        r.legal_for_cartesian_product(&[&[v(2, S32)], &[S32], &[S32, S64]]);
    };
    case!(G_INSERT_VECTOR_ELT, three, [v(2, S32), S32, S64] => st(Legal));
    case!(G_INSERT_VECTOR_ELT, three, [v(2, S32), S64, S64] => st(Unsupported));
    // Unconditional: matches scalars, pointers and vectors alike.
    for ty in [S1, P0, v(4, S32)] {
        case!(G_ADD, |r| { r.always_legal(); }, [ty] => st(Legal));
    }
}

#[test]
fn lower_libcall_custom_bitcast_builders() {
    case!(G_ADD, |r| { r.bitcast_if(type_is(0, v(4, S8)), m::change_to(0, S32)); }, [v(4, S8)] => to(Bitcast, 0, S32));
    case!(G_ADD, |r| { r.bitcast_if(type_is(0, v(4, S8)), m::change_to(0, S32)); }, [S32] => st(Unsupported));
    for ty in [S1, P0, v(4, S32)] {
        case!(G_ADD, |r| { r.lower(); }, [ty] => st(Lower));
        case!(G_ADD, |r| { r.libcall(); }, [ty] => st(Libcall));
        case!(G_ADD, |r| { r.custom(); }, [ty] => st(Custom));
        case!(G_ADD, |r| { r.unsupported().legal_for([S1]); }, [ty] => st(Unsupported));
    }
    case!(G_ADD, |r| { r.lower_if(is_vector(0)); }, [v(4, S32)] => st(Lower));
    case!(G_ADD, |r| { r.lower_if(is_vector(0)); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.lower_if_with(is_vector(0), m::scalarize(0)); }, [v(4, S32)] => to(Lower, 0, S32));
    case!(G_ADD, |r| { r.lower_if_with(is_vector(0), m::scalarize(0)); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.lower_for([S64]); }, [S64] => st(Lower));
    case!(G_ADD, |r| { r.lower_for([S64]); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.lower_for_with([S64], m::change_to(0, S32)); }, [S64] => to(Lower, 0, S32));
    case!(G_ADD, |r| { r.lower_for_with([S64], m::change_to(0, S32)); }, [S32] => st(Unsupported));
    case!(G_SHL, |r| { r.lower_for_cartesian_product(&[&[S32], &[S64]]); }, [S32, S64] => st(Lower));
    case!(G_SHL, |r| { r.lower_for_cartesian_product(&[&[S32], &[S64]]); }, [S64, S32] => st(Unsupported));
    case!(G_LOAD, |r| { r.lower_if_mem_size_not_pow2(); }, [S32, P0]; MemDesc::new(S24, 8) => st(Lower));
    case!(G_LOAD, |r| { r.lower_if_mem_size_not_pow2(); }, [S32, P0]; MemDesc::new(S16, 8) => st(Unsupported));
    case!(G_LOAD, |r| { r.lower_if_mem_size_not_byte_size_pow2(); }, [S32, P0]; MemDesc::new(Llt::scalar(7), 8) => st(Lower));
    case!(G_LOAD, |r| { r.lower_if_mem_size_not_byte_size_pow2(); }, [S32, P0]; MemDesc::new(S16, 8) => st(Unsupported));
    case!(G_SDIV, |r| { r.libcall_if(is_scalar(0)); }, [S128] => st(Libcall));
    case!(G_SDIV, |r| { r.libcall_if(is_scalar(0)); }, [v(4, S32)] => st(Unsupported));
    case!(G_SDIV, |r| { r.libcall_for([S128]); }, [S128] => st(Libcall));
    case!(G_SDIV, |r| { r.libcall_for([S128]); }, [S64] => st(Unsupported));
    case!(G_FPTOSI, |r| { r.libcall_for_cartesian_product(&[&[S32, S64]]); }, [S32, S64] => st(Libcall));
    case!(G_FPTOSI, |r| { r.libcall_for_cartesian_product(&[&[S32, S64]]); }, [S16, S32] => st(Unsupported));
    case!(G_ADD, |r| { r.custom_if(is_pointer(0)); }, [P0] => st(Custom));
    case!(G_ADD, |r| { r.custom_if(is_pointer(0)); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.custom_for([P0]); }, [P0] => st(Custom));
    case!(G_ADD, |r| { r.custom_for([P0]); }, [S32] => st(Unsupported));
    case!(G_SHL, |r| { r.custom_for_cartesian_product(&[&[S32], &[S32, S64]]); }, [S32, S64] => st(Custom));
    case!(G_SHL, |r| { r.custom_for_cartesian_product(&[&[S32], &[S32, S64]]); }, [S64, S64] => st(Unsupported));
    case!(G_ADD, |r| { r.unsupported_if(type_is(0, S64)).always_legal(); }, [S64] => st(Unsupported));
    case!(G_ADD, |r| { r.unsupported_if(type_is(0, S64)).always_legal(); }, [S32] => st(Legal));
    case!(G_ADD, |r| { r.unsupported_for([S64]).always_legal(); }, [S64] => st(Unsupported));
    case!(G_ADD, |r| { r.unsupported_for([S64]).always_legal(); }, [S32] => st(Legal));
    let gated = |r: &mut RuleSet| {
        r.unsupported_if_mem_size_not_pow2().always_legal();
    };
    case!(G_LOAD, gated, [S32, P0]; MemDesc::new(S24, 8) => st(Unsupported));
    case!(G_LOAD, gated, [S32, P0]; MemDesc::new(S32, 8) => st(Legal));
    case!(G_ADD, |r| { r.action_if(Custom, is_scalar(0), None); }, [S32] => st(Custom));
    case!(G_ADD, |r| { r.action_if(Custom, is_scalar(0), None); }, [P0] => st(Unsupported));
}

#[test]
fn widen_builders() {
    let w = |ty| to(WidenScalar, 0, ty);
    case!(G_ADD, |r| { r.widen_scalar_if(scalar_narrower_than(0, 32), m::change_to(0, S32)); }, [S16] => w(S32));
    case!(G_ADD, |r| { r.widen_scalar_if(scalar_narrower_than(0, 32), m::change_to(0, S32)); }, [S64] => st(Unsupported));
    case!(G_ADD, |r| { r.widen_scalar_to_next_pow2(0, 0); }, [S24] => w(S32));
    case!(G_ADD, |r| { r.widen_scalar_to_next_pow2(0, 0); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.widen_scalar_to_next_pow2(0, 32); }, [Llt::scalar(7)] => w(S32));
    case!(G_ADD, |r| { r.widen_scalar_to_next_multiple_of(0, 32); }, [S40] => w(S64));
    case!(G_ADD, |r| { r.widen_scalar_to_next_multiple_of(0, 32); }, [S64] => st(Unsupported));
    case!(G_ADD, |r| { r.widen_scalar_or_elt_to_next_pow2(0, 0); }, [v(2, S24)] => w(v(2, S32)));
    case!(G_ADD, |r| { r.widen_scalar_or_elt_to_next_pow2(0, 0); }, [v(4, S32)] => st(Unsupported));
    case!(G_ADD, |r| { r.widen_scalar_or_elt_to_next_pow2_or_min_size(0, 32); }, [S16] => w(S32));
    case!(G_ADD, |r| { r.widen_scalar_or_elt_to_next_pow2_or_min_size(0, 32); }, [S64] => st(Unsupported));
    case!(G_ADD, |r| { r.min_scalar(0, S32); }, [S16] => w(S32));
    case!(G_ADD, |r| { r.min_scalar(0, S32); }, [v(4, S16)] => st(Unsupported));
    case!(G_SHL, |r| { r.min_scalar_if(type_is(1, S32), 0, S32); }, [S16, S32] => w(S32));
    case!(G_SHL, |r| { r.min_scalar_if(type_is(1, S32), 0, S32); }, [S16, S64] => st(Unsupported));
    case!(G_ADD, |r| { r.min_scalar_or_elt(0, S32); }, [v(4, S16)] => w(v(4, S32)));
    case!(G_ADD, |r| { r.min_scalar_or_elt(0, S32); }, [v(4, S32)] => st(Unsupported));
    case!(G_ADD, |r| { r.min_scalar_or_elt_if(is_vector(0), 0, S32); }, [v(4, S16)] => w(v(4, S32)));
    case!(G_ADD, |r| { r.min_scalar_or_elt_if(is_vector(0), 0, S32); }, [S16] => st(Unsupported));
    case!(G_SHL, |r| { r.min_scalar_same_as(1, 0); }, [S64, S32] => to(WidenScalar, 1, S64));
    case!(G_SHL, |r| { r.min_scalar_same_as(1, 0); }, [S32, S64] => st(Unsupported));
    let elt_same = |r: &mut RuleSet| {
        r.min_scalar_elt_same_as_if(is_vector(0), 1, 0);
    };
    case!(G_SHL, elt_same, [v(2, S64), v(2, S32)] => to(WidenScalar, 1, v(2, S64)));
    case!(G_SHL, elt_same, [v(2, S32), v(2, S32)] => st(Unsupported));
    case!(G_ADD, |r| { r.widen_vector_elts_to_vector_min_size(0, 64); }, [v(4, S8)] => w(v(4, S16)));
    case!(G_ADD, |r| { r.widen_vector_elts_to_vector_min_size(0, 64); }, [v(8, S8)] => st(Unsupported));
}

#[test]
fn narrow_and_clamp_builders() {
    let n = |ty| to(NarrowScalar, 0, ty);
    case!(G_ADD, |r| { r.narrow_scalar_if(scalar_wider_than(0, 32), m::change_to(0, S32)); }, [S64] => n(S32));
    case!(G_ADD, |r| { r.narrow_scalar_if(scalar_wider_than(0, 32), m::change_to(0, S32)); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.narrow_scalar_for([S128], m::change_to(0, S64)); }, [S128] => n(S64));
    case!(G_ADD, |r| { r.narrow_scalar_for([S128], m::change_to(0, S64)); }, [S64] => st(Unsupported));
    case!(G_ADD, |r| { r.narrow_scalar(0, m::change_to(0, S32)); }, [S64] => n(S32));
    case!(G_ADD, |r| { r.narrow_scalar(0, m::change_to(0, S32)); }, [v(2, S64)] => st(Unsupported));
    case!(G_ADD, |r| { r.max_scalar(0, S32); }, [S64] => n(S32));
    case!(G_ADD, |r| { r.max_scalar(0, S32); }, [v(2, S64)] => st(Unsupported));
    case!(G_SHL, |r| { r.max_scalar_if(type_is(1, S32), 0, S32); }, [S64, S32] => n(S32));
    case!(G_SHL, |r| { r.max_scalar_if(type_is(1, S32), 0, S32); }, [S64, S64] => st(Unsupported));
    case!(G_ADD, |r| { r.max_scalar_or_elt(0, S32); }, [v(2, S64)] => n(v(2, S32)));
    case!(G_ADD, |r| { r.max_scalar_or_elt(0, S32); }, [v(2, S32)] => st(Unsupported));
    case!(G_SHL, |r| { r.max_scalar_same_as(1, 0); }, [S32, S64] => to(NarrowScalar, 1, S32));
    case!(G_SHL, |r| { r.max_scalar_same_as(1, 0); }, [S64, S32] => st(Unsupported));
    let elt_same = |r: &mut RuleSet| {
        r.max_scalar_elt_same_as_if(is_vector(0), 1, 0);
    };
    case!(G_SHL, elt_same, [v(2, S32), v(2, S64)] => to(NarrowScalar, 1, v(2, S32)));
    case!(G_SHL, elt_same, [v(2, S64), v(2, S32)] => st(Unsupported));
    let clamp = |r: &mut RuleSet| {
        r.clamp_scalar(0, S32, S64);
    };
    case!(G_ADD, clamp, [S16] => to(WidenScalar, 0, S32));
    case!(G_ADD, clamp, [S128] => n(S64));
    case!(G_ADD, clamp, [S32] => st(Unsupported));
    let clamp_elt = |r: &mut RuleSet| {
        r.clamp_scalar_or_elt(0, S16, S32);
    };
    case!(G_ADD, clamp_elt, [v(4, S8)] => to(WidenScalar, 0, v(4, S16)));
    case!(G_ADD, clamp_elt, [S64] => n(S32));
    case!(G_ADD, clamp_elt, [v(4, S16)] => st(Unsupported));
    let same = |r: &mut RuleSet| {
        r.scalar_same_size_as(1, 0);
    };
    case!(G_SHL, same, [S64, S32] => to(WidenScalar, 1, S64));
    case!(G_SHL, same, [S32, S64] => to(NarrowScalar, 1, S32));
    case!(G_SHL, same, [S32, S32] => st(Unsupported));
}

#[test]
fn element_count_builders() {
    let more = |ty| to(MoreElements, 0, ty);
    let fewer = |ty| to(FewerElements, 0, ty);
    let pow2 = |r: &mut RuleSet| {
        r.more_elements_if(num_elements_not_pow2(0), m::more_elements_to_next_pow2(0, 0));
    };
    case!(G_ADD, pow2, [v(3, S16)] => more(v(4, S16)));
    case!(G_ADD, pow2, [v(4, S16)] => st(Unsupported));
    case!(G_ADD, |r| { r.more_elements_to_next_pow2(0); }, [v(3, S32)] => more(v(4, S32)));
    case!(G_ADD, |r| { r.more_elements_to_next_pow2(0); }, [v(4, S32)] => st(Unsupported));
    case!(G_ADD, |r| { r.clamp_min_num_elements(0, S32, 4); }, [v(2, S32)] => more(v(4, S32)));
    case!(G_ADD, |r| { r.clamp_min_num_elements(0, S32, 4); }, [v(2, S16)] => st(Unsupported));
    case!(G_ADD, |r| { r.align_num_elements_to(0, S16, 4); }, [v(6, S16)] => more(v(8, S16)));
    case!(G_ADD, |r| { r.align_num_elements_to(0, S16, 4); }, [v(8, S16)] => st(Unsupported));
    let split = |r: &mut RuleSet| {
        r.fewer_elements_if(vector_element_count_is_greater_than(0, 4), m::change_element_count_to(0, 4));
    };
    case!(G_ADD, split, [v(8, S32)] => fewer(v(4, S32)));
    case!(G_ADD, split, [v(4, S32)] => st(Unsupported));
    case!(G_ADD, |r| { r.clamp_max_num_elements(0, S32, 2); }, [v(4, S32)] => fewer(v(2, S32)));
    case!(G_ADD, |r| { r.clamp_max_num_elements(0, S32, 1); }, [v(4, S32)] => fewer(S32));
    case!(G_ADD, |r| { r.clamp_max_num_elements(0, S32, 2); }, [v(2, S32)] => st(Unsupported));
    let strict = |r: &mut RuleSet| {
        r.clamp_max_num_elements_strict(0, S32, 4);
    };
    case!(G_ADD, strict, [v(6, S32)] => more(v(8, S32)));
    case!(G_ADD, strict, [v(8, S32)] => fewer(v(4, S32)));
    case!(G_ADD, strict, [v(4, S32)] => st(Unsupported));
    let clamp = |r: &mut RuleSet| {
        r.clamp_num_elements(0, v(2, S32), v(4, S32));
    };
    case!(G_ADD, clamp, [v(8, S32)] => fewer(v(4, S32)));
    case!(G_ADD, clamp, [v(1, S32)] => more(v(2, S32)));
    case!(G_ADD, clamp, [v(2, S32)] => st(Unsupported));
    case!(G_ADD, |r| { r.scalarize(0); }, [v(4, S32)] => fewer(S32));
    case!(G_ADD, |r| { r.scalarize(0); }, [S32] => st(Unsupported));
    case!(G_ADD, |r| { r.scalarize_if(element_type_is(0, S64), 0); }, [v(2, S64)] => fewer(S64));
    case!(G_ADD, |r| { r.scalarize_if(element_type_is(0, S64), 0); }, [v(2, S32)] => st(Unsupported));
}

#[test]
fn when_imm_idx_and_fallback() {
    let gated = |r: &mut RuleSet| {
        r.when(true, |r| r.legal_for([S32])).when(false, |r| r.legal_for([S64]));
    };
    case!(G_ADD, gated, [S32] => st(Legal));
    case!(G_ADD, gated, [S64] => st(Unsupported));

    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_SEXT_INREG]).legal_for([S32]);
    info.rules_for(&[G_SBFX]).legal_for([(S32, S32)]).imm_idx(0);
    let findings = check::check_coverage(&info);
    assert_eq!(
        findings,
        [check::CoverageFinding::ImmIndexUncovered { opcode: G_SEXT_INREG, first_uncovered: 0, count: 1 }]
    );
    // imm_idx past the opcode's immediates is a validation error (G_SBFX has none).
    let errors = info.validate().expect_err("imm index out of range");
    assert!(matches!(errors[..], [RuleError::ImmIndexOutOfRange { opcode: G_SBFX, idx: 0, count: 0 }]), "{errors:?}");
    info.rules_for(&[G_ADD]).fallback();
    info.rules_for(&[G_FENCE]).fallback();
    assert_eq!(info.action(&LegalityQuery::new(G_ADD, &[S32])), st(NotFound));
    assert_eq!(info.action(&LegalityQuery::new(G_FENCE, &[])), st(Legal));
}

#[test]
fn empty_rule_sets_use_the_legacy_answer() {
    let info = LegalizerInfo::new();
    // No type indices: Legal; typed: NotFound (LLVM 22 with empty legacy tables).
    for op in [G_FENCE, G_BR, G_TRAP] {
        assert_eq!(info.action(&LegalityQuery::new(op, &[])), st(Legal), "{op}");
    }
    assert_eq!(info.action(&LegalityQuery::new(G_READCYCLECOUNTER, &[S64])), st(NotFound));
    // The legacy defaults: scalar truncations are legal, scalar negations lowered.
    assert_eq!(info.action(&LegalityQuery::new(G_TRUNC, &[S32, S64])), st(Legal));
    assert_eq!(info.action(&LegalityQuery::new(G_FNEG, &[S32])).action, Lower);
    let v2s32 = Llt::fixed_vector(2, S32);
    assert_eq!(info.action(&LegalityQuery::new(G_FNEG, &[v2s32])), st(NotFound));
    assert_eq!(info.action(&LegalityQuery::new(G_TRUNC, &[v2s32, Llt::fixed_vector(2, S64)])), st(NotFound));
    // Never-visited opcodes are legal; a non-empty set with no match is Unsupported.
    assert_eq!(info.action(&LegalityQuery::new(COPY, &[])), st(Legal));
    assert_eq!(
        ask(
            G_ADD,
            |r| {
                r.legal_for([S32]);
            },
            &[S64],
            &[]
        ),
        st(Unsupported)
    );
}

#[test]
fn first_match_wins_and_aliases_share_rules() {
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_ADD, G_SUB]).legal_for([S32]).clamp_scalar(0, S32, S32).always_legal();
    assert_eq!(info.action(&LegalityQuery::new(G_SUB, &[S16])), to(WidenScalar, 0, S32));
    assert_eq!(info.representative(G_SUB), G_ADD);
    assert!(info.rule_set(G_SUB).is_some_and(|s| s.is_aliased_by_another()));
    assert_eq!(info.rule_set(G_ADD).map(|s| s.rules().len()), Some(4));
    // The "always legal" rule after the clamp is reached only by vectors.
    assert_eq!(info.action(&LegalityQuery::new(G_ADD, &[v(2, S64)])), st(Legal));
}

#[test]
fn construction_errors_are_reported_not_panics() {
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_ADD, G_SUB]).legal_for([S32]);
    info.rules_for(&[G_SUB]).legal_for([S64]).clamp_scalar(0, S64, S32);
    info.rules_for(&[G_MUL, G_MUL]).legal_for([S32]);
    info.rules_for(&[COPY]).legal_for([S32]);
    info.rules_for(&[]).legal_for([S32]);
    info.rules_for(&[G_AND]).clamp_scalar(0, S64, S32).clamp_num_elements(0, v(2, S32), v(4, S16));
    info.rules_for(&[G_OR]).legal_for([(S32, S32)]).always_legal().lower();
    info.rules_for(&[G_XOR]).lower_if_mem_size_not_pow2().legal_for(Vec::<Llt>::new());
    info.rules_for(&[G_UMIN]).legal_for_cartesian_product(&[]);
    info.rules_for(&[G_UMAX]).action_if(WidenScalar, always(), None);
    let errors = info.validate().expect_err("broken rules");
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let expect = [
        "G_SUB was given a rule set twice (first in the set of G_ADD); the second one is ignored",
        "G_MUL was given a rule set twice (first in the set of G_MUL); the second one is ignored",
        "COPY is not a legalizable opcode; rules for it are never consulted",
        "rules_for called with no opcode",
        "clamp_scalar(0, s64, s32): minimum s64 is larger than maximum s32",
        "clamp_num_elements(0, <2 x s32>, <4 x s16>): element types of <2 x s32> and <4 x s16> differ",
        "G_OR rule 1 type index 1 is out of range",
        "G_OR rule 2 lower() is unreachable: rule 1 always_legal() always applies first",
        "G_XOR rule 0 lower_if_mem_size_not_pow2(): memory operand 0 is out of range (G_XOR has 0)",
        "legal_for(): the type list is empty",
        "legal_for_cartesian_product(): a cartesian product takes 1 to 3 type lists, not 0",
        "action WidenScalar changes a type but the rule has no mutation",
    ];
    for want in expect {
        let want = want.replace("G_OR rule 1 type index 1", "G_OR rule 0 legal_for((s32, s32)): type index 1");
        assert!(text.iter().any(|t| t.contains(&want)), "missing {want:?} in\n{}", text.join("\n"));
    }
    // The detached sets never reached the table.
    assert_eq!(info.action(&LegalityQuery::new(G_SUB, &[S32])), st(Legal));
    assert_eq!(info.action(&LegalityQuery::new(G_SUB, &[S64])), st(Unsupported));
}

#[test]
fn sanity_checks_are_queryable() {
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_ADD])
        .widen_scalar_if(type_is(0, S64), m::change_to(0, S32))
        .narrow_scalar_if(type_is(0, S32), m::change_to(0, S32))
        .fewer_elements_if(is_scalar(0), m::change_to(0, S16))
        .bitcast_if(always(), m::change_to(0, S16));
    let check = |ty| info.action_checked(&LegalityQuery::new(G_ADD, &[ty]));
    assert!(matches!(check(S64), Err(StepError::NotSane { reason: "size did not increase", .. })));
    assert!(matches!(check(S32), Err(StepError::NotSane { reason: "size did not decrease", .. })));
    assert!(matches!(check(S16), Err(StepError::NotSane { reason: "fewer elements of a non-vector", .. })));
    assert!(check(v(2, S8)).is_ok());
    let types = [v(2, S16)];
    let q = LegalityQuery::new(G_ADD, &types);
    assert!(matches!(check_step(&q, &to(Bitcast, 0, S16)), Err(StepError::NotSane { .. })));
    assert!(matches!(check_step(&q, &to(MoreElements, 0, v(2, S16))), Err(StepError::NotSane { .. })));
    assert!(matches!(check_step(&q, &to(WidenScalar, 0, Llt::INVALID)), Err(StepError::InvalidNewType { .. })));
    assert!(matches!(check_step(&q, &to(WidenScalar, 3, S32)), Err(StepError::TypeIndexOutOfRange { .. })));
    let e = check_step(&q, &to(NarrowScalar, 0, v(2, S16))).expect_err("no change");
    assert_eq!(e.to_string(), "NarrowScalar of type0 from <2 x s16> to <2 x s16> is not sane: size did not decrease");
}

#[test]
fn explain_prints_the_trail() {
    let info = examples::toy32();
    let e = info.explain(&LegalityQuery::new(G_SUB, &[S64]));
    assert_eq!(e.summary(), "G_SUB(s64): rule 3 clamp_scalar(0, s32, s32) -> NarrowScalar type0 to s32");
    let text = e.to_string();
    assert!(text.contains("(rules of G_ADD)"), "{text}");
    assert!(text.contains("rule  0 legal_for(s32): no match"), "{text}");
    assert!(text.contains("rule  2 clamp_scalar(0, s32, s32): no match"), "{text}");
    assert!(text.contains("rule  3 clamp_scalar(0, s32, s32): match"), "{text}");
    assert_eq!(e.decided_by, Some(3));
    let e = info.explain(&LegalityQuery::new(G_READCYCLECOUNTER, &[S64]));
    assert_eq!(e.summary(), "G_READCYCLECOUNTER(s64): no rules (legacy answer) -> NotFound");
    let e = info.explain(&LegalityQuery::new(G_ANYEXT, &[S32, S32]));
    assert!(e.summary().ends_with("rule 3 unsupported() -> Unsupported"), "{}", e.summary());
}

#[test]
fn assert_legality_macro_reads_in_one_line() {
    let info = examples::toy32();
    crate::assert_legality!(info, G_ADD(s32) => Legal);
    crate::assert_legality!(info, G_ADD(s7) => WidenScalar(0, s32));
    crate::assert_legality!(info, G_ADD(v4s32) => FewerElements(0, s32));
    crate::assert_legality!(info, G_SHL(s32, s64) => NarrowScalar(1, s32));
    crate::assert_legality!(info, G_LOAD(s32, p0; s16 @ 16) => Legal);
    crate::assert_legality!(info, G_LOAD(s32, p0; s24 @ 8) => Lower);
    crate::assert_legality!(info, G_ICMP(s1, "p0") => WidenScalar(0, s32));
    crate::assert_legality!(info, G_FENCE() => Legal);
    let failure = std::panic::catch_unwind(|| crate::assert_legality!(info, G_ADD(s7) => Legal));
    let message = failure.expect_err("must fail");
    let message = message.downcast_ref::<String>().expect("a formatted message");
    assert!(message.contains("expected: Legal"), "{message}");
    assert!(message.contains("got: WidenScalar type0 to s32"), "{message}");
    assert!(message.contains("rule  1 widen_scalar_to_next_pow2(0, 32): match"), "{message}");
}

#[test]
fn action_is_shared_across_threads() {
    let info = examples::toy32();
    std::thread::scope(|scope| {
        for t in 0..4u32 {
            let info = &info;
            scope.spawn(move || {
                for bits in 1..300u32 {
                    let types = [Llt::scalar(bits + t)];
                    let q = LegalityQuery::new(G_ADD, &types);
                    assert_eq!(info.action(&q), info.action_uncached(&q));
                }
            });
        }
    });
}

#[test]
fn rule_listing_prints_every_rule_with_its_origin() {
    let info = examples::toy32();
    let text = info.to_string();
    assert!(text.contains("G_ADD | G_SUB | G_AND | G_OR | G_XOR | G_MUL:"), "{text}");
    assert!(text.contains("1 widen_scalar_to_next_pow2(0, 32): WidenScalar if size_not_pow2(0) => widen_scalar_or_elt_to_next_pow2(0, 32)"), "{text}");
}
