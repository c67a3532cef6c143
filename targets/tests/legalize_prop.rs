//! Property: random integer GMIR (any widths from s1 to s128), legalized for
//! RISC-V rv64 with M (rules written with `legalizer!`), ends fully legal and
//! means the same as before on random inputs (checked by the interpreter).
//! The generator and the check live in `common/random_program.rs`, which
//! the fuzz target `fuzz/fuzz_targets/legalize.rs` shares.

mod common;

use common::random_program::{BINARY, SHIFTS, Step, WIDTHS, check, decode};
use proptest::prelude::*;

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (any::<usize>(), 0..WIDTHS.len(), any::<bool>()).prop_map(|(value, width, signed)| Step::Resize {
            value,
            width,
            signed
        }),
        (0..BINARY.len(), any::<usize>(), any::<usize>()).prop_map(|(op, lhs, rhs)| Step::Binary { op, lhs, rhs }),
        (0..SHIFTS.len(), any::<usize>(), 0u32..130).prop_map(|(op, value, amount)| Step::Shift { op, value, amount }),
        (any::<usize>(), any::<usize>(), any::<bool>()).prop_map(|(lhs, rhs, unsigned)| Step::Compare {
            lhs,
            rhs,
            unsigned
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn legalized_programs_are_legal_and_mean_the_same(steps in prop::collection::vec(step(), 1..12)) {
        check(&steps).map_err(TestCaseError::fail)?;
    }
}

/// The fuzz target's input path: byte strings from a fixed-seed generator,
/// decoded into programs. `LEGALIZE_FUZZ_CASES` sets how many (64 by
/// default, to keep `cargo test` quick).
#[test]
fn fuzz_target_property_on_generated_bytes() {
    let cases: u64 = std::env::var("LEGALIZE_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(64);
    let mut state = 0x5eed_u64;
    let mut next = || {
        // xorshift64
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut steps_seen = 0;
    for case in 0..cases {
        let len = 3 + next() % 34;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let steps = decode(&bytes);
        steps_seen += steps.len();
        if let Err(e) = check(&steps) {
            panic!("case {case} (bytes {bytes:02x?}):\n{e}");
        }
    }
    println!("{cases} generated programs ({steps_seen} steps) legal and equivalent");
}
