//! Code the integration tests share. `random_program` is also the fuzz
//! target `fuzz/fuzz_targets/legalize.rs`, which includes it by path.

pub mod random_program;
