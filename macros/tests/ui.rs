//! One trybuild case per compile-error class of `legalizer!`
//! (`tests/ui/*.rs` beside their `.stderr`; bless with
//! `TRYBUILD=overwrite`), and expansions that must compile
//! (`tests/ui/pass/*.rs`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
