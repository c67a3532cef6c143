//! The fuzz target's property (`fuzz/fuzz_targets/read_mir.rs`), run in
//! `cargo test` over the sample corpus and deterministic token-level
//! mutations of it: no input panics the reader, and whatever reads
//! round-trips through the writer.

use gisel_core::mir::check_round_trip;
use std::fs;
use std::path::Path;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Fragments that hit the body grammar's corners.
const FRAGMENTS: &[&str] = &[
    "%",
    "$",
    "(",
    ")",
    ",",
    "=",
    ":",
    "::",
    "(s32)",
    "(<4 x s32>)",
    "(p0)",
    "(s0)",
    "i32 -1",
    "float 1.5",
    "half 0xH3C00",
    "intpred(",
    "floatpred(oeq)",
    "shufflemask(0, undef)",
    "%bb.",
    "%bb.9",
    "%stack.0",
    "@g + 4",
    "&memcpy",
    "implicit-def",
    "killed",
    "(tied-def 0)",
    ":: (load (s8) from unknown-address + 1, align 1)",
    "G_ADD",
    "G_ADDD",
    "COPY",
    "\n",
    "  ",
    "bb.1:",
    "successors: %bb.0(0x40000000)",
    "liveins: $x0",
    ";",
    "\"",
    "!0",
    "debug-location !12",
    "target-flags(",
    "<mcsymbol x>",
    "nsw",
    "%99:_(s7)",
    "%0:gpr64",
    "\u{e9}",
    "\t",
];

fn mutate(source: &str, rng: &mut Rng) -> String {
    let mut text = source.to_owned();
    for _ in 0..1 + rng.below(4) {
        let mut at = rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        match rng.below(3) {
            0 => text.insert_str(at, FRAGMENTS[rng.below(FRAGMENTS.len())]),
            1 => {
                let mut end = (at + 1 + rng.below(12)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(at..end, "");
            }
            _ => text.truncate(at),
        }
    }
    text
}

#[test]
fn mutated_inputs_never_panic_and_always_round_trip() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/none");
    let table = fs::read_to_string(data.join("samples.tsv")).expect("sample table");
    let mut inputs = Vec::new();
    for row in table.lines().skip(1) {
        let mut cols = row.split('\t');
        let (Some(file), Some(triple)) = (cols.next(), cols.next()) else { continue };
        let triple = if triple.is_empty() { "aarch64" } else { triple };
        let source = fs::read_to_string(data.join("samples").join(file)).expect("read sample");
        inputs.push((source, triple.to_owned()));
    }
    assert!(inputs.len() >= 20);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for (source, triple) in &inputs {
        check_round_trip(source, triple).unwrap_or_else(|e| panic!("unmutated input: {e}"));
        for _ in 0..50 {
            let mutated = mutate(source, &mut rng);
            if let Err(e) = check_round_trip(&mutated, triple) {
                panic!("{e}\n--- input\n{mutated}");
            }
            checked += 1;
        }
    }
    assert!(checked > 1000);
}
