//! The gisel guide. Its pages are the mdBook in `docs/src`; this crate
//! makes each page that carries Rust code the doc comment of a module, so
//! `cargo test --workspace` compiles and runs every Rust block in them.
//! The tutorial's code is the `wren` crate (`docs/tutorial/wren`) and the
//! compile-error pages include the macro crate's trybuild cases; the
//! tests in `docs/tests/` check that the pages and the code agree.

#[doc = include_str!("src/introduction.md")]
pub mod introduction {}

#[doc = include_str!("src/model.md")]
pub mod model {}

#[doc = include_str!("src/dsl.md")]
pub mod dsl {}

#[doc = include_str!("src/mir-tests.md")]
pub mod mir_tests {}

#[doc = include_str!("src/cli.md")]
pub mod cli {}

#[doc = include_str!("src/llvm.md")]
pub mod llvm {}
