//! Any byte string decodes into a random integer program that legalizes for
//! RISC-V rv64 with M into fully legal code meaning the same as its input:
//! the property `targets/tests/legalize_prop.rs` runs in `cargo test`, from
//! the same generator and check.
#![no_main]

#[path = "../../targets/tests/common/random_program.rs"]
mod random_program;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    random_program::check(&random_program::decode(data)).unwrap_or_else(|e| panic!("{e}"));
});
