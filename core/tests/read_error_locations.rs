//! Where the reader locates errors in an instruction line: at the token
//! that is wrong, with the line and column llc 22 reports for the same
//! input (each expected position was read off `llc -run-pass=legalizer`).

use gisel_core::mir::read_mir;

/// The 1-based line and column of the error reading a function whose
/// body's instruction line is `line` (the file's line 7).
fn error_position(line: &str) -> (usize, usize) {
    let source = format!(
        "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    %0:_(s64) = COPY $x0\n    {line}\n    RET_ReallyLR\n"
    );
    let Err(error) = read_mir(&source, "t.mir", Some("aarch64"), "") else { panic!("'{line}' should not read") };
    error.line_column(&source)
}

#[test]
fn an_unknown_instruction_is_located_at_its_name() {
    assert_eq!(error_position("%1:_(s32) = G_BOGUS"), (7, 17));
    assert_eq!(error_position("%1:_(s32) = G_ADDD %0, %0"), (7, 17));
}

#[test]
fn a_malformed_constant_is_located_at_its_literal() {
    assert_eq!(error_position("%1:_(s64) = G_CONSTANT i64 zz"), (7, 32));
    assert_eq!(error_position("%1:_(s32) = G_FCONSTANT float zz"), (7, 35));
}

#[test]
fn an_unknown_predicate_is_located_at_its_name() {
    assert_eq!(error_position("%1:_(s1) = G_ICMP intpred(foo), %0(s64), %0"), (7, 31));
}

#[test]
fn a_generic_definition_without_a_type_is_located_after_the_register() {
    // llc 22 prints the second result of G_FMODF so (its type index was
    // printed already) and cannot read it back; nor can gisel.
    assert_eq!(error_position("%1:_(s64), %2:_ = G_FMODF %0"), (7, 21));
    assert_eq!(error_position("%1:_ = G_FNEG %0"), (7, 10));
}
