//! The tutorial's malformed rule fails to compile with the message the
//! guide shows (`tests/ui/malformed_rule.stderr`; bless with
//! `TRYBUILD=overwrite`).

#[test]
fn malformed_rule_is_a_compile_error() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
