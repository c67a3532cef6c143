//! The interpreter against llc: every function of the legalizer sweep
//! (`../shared/conformance/sweep/<config>/*.mir`) must mean the same as
//! llc-22's legalized output (`*.0.expected.mir`) on random inputs. A few
//! pairs are bundled under `tests/data/interp/` so the test runs anywhere.

use gisel_core::interp::{Abi, CheckError, Program, check_equivalent, random_inputs};
use gisel_core::mir::read_mir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const INPUTS_PER_FUNCTION: usize = 24;

/// Functions where llc-22's own output does not refine its input, checked
/// by hand: (configuration prefix, function, the bug).
const KNOWN_LLC_BUGS: &[(&str, &str, &str)] = &[
    ("aarch64", "insert_s8_into_s96_at_8", "narrowScalarInsert writes 16 bits for an s8 insert"),
    ("aarch64", "insert_s8_into_s128_at_8", "narrowScalarInsert writes 16 bits for an s8 insert"),
    ("aarch64", "insert_s8_into_s256_at_8", "narrowScalarInsert writes 16 bits for an s8 insert"),
    ("riscv", "bitreverse_s24", "lowerBswap drops the middle byte of an odd number of bytes"),
    ("riscv32", "load_s128_from_s64_a1", "G_SHL of an s32 by 32 (poison) in the narrowed load"),
    ("riscv64", "bswap_s128", "lowerBswap mask 0xFF << 24 is sign-extended to 64 bits"),
    ("riscv64", "bswap_s256", "lowerBswap mask 0xFF << 24 is sign-extended to 64 bits"),
    ("riscv64", "bitreverse_s64", "lowerBswap mask 0xFF << 24 is sign-extended to 64 bits"),
    ("riscv64", "bitreverse_s128", "lowerBswap mask 0xFF << 24 is sign-extended to 64 bits"),
    ("riscv64", "bitreverse_s256", "lowerBswap mask 0xFF << 24 is sign-extended to 64 bits"),
    ("arm-soft", "ctlz_s8_to_s32", "__clzsi2 of the unextended s8, its count not reduced by 24"),
    ("arm-soft", "ctlz_s16_to_s32", "__clzsi2 of the unextended s16, its count not reduced by 16"),
    ("mips", "load_s16_a1", "big-endian: the unaligned s16 load widened to s32 keeps the wrong half"),
    ("mips", "load_s64_a2", "big-endian: the unaligned s64 load split low word first"),
    ("mips", "store_s16_a1", "big-endian: the unaligned s16 store split low byte first"),
];

/// The X86 truncating stores llc 22 widens (docs/src/llvm.md, "X86
/// truncating stores"): the store writes bytes past its memory.
const X86_TRUNCATING_STORES: &[&str] = &[
    "store_s24_a1",
    "store_s24_a2",
    "store_s24_a4",
    "store_s48_a1",
    "store_s48_a2",
    "store_s48_a8",
    "store_s96_a1",
    "store_s96_a2",
    "store_s96_a16",
    "store_s16_to_s8_a1",
    "store_s32_to_s8_a1",
    "store_s32_to_s16_a1",
    "store_s32_to_s16_a2",
    "store_s64_to_s8_a1",
    "store_s64_to_s16_a1",
    "store_s64_to_s16_a2",
    "store_s64_to_s32_a1",
    "store_s64_to_s32_a4",
    "store_s128_to_s64_a1",
    "store_s128_to_s64_a8",
];

fn known_bug(config: &str, function: &str) -> Option<&'static str> {
    let x86 = ["x86_64", "i386", "i686"].iter().any(|prefix| config.starts_with(prefix));
    if x86 && X86_TRUNCATING_STORES.contains(&function) {
        return Some("legalizeNarrowingStore stores the value's type, past the memory");
    }
    KNOWN_LLC_BUGS.iter().find(|(c, f, _)| config.starts_with(c) && *f == function).map(|(_, _, why)| *why)
}

#[derive(Default, Debug)]
struct Tally {
    equal: usize,
    /// Equal, but no input gave the reference a defined observable bit.
    vacuous: usize,
    mismatch: Vec<String>,
    known_bugs: Vec<String>,
    unsupported: BTreeMap<String, usize>,
    unreadable: usize,
}

impl Tally {
    fn total(&self) -> usize {
        self.equal + self.mismatch.len() + self.known_bugs.len() + self.unsupported.values().sum::<usize>()
    }
}

/// The reason an unsupported case names, shortened to its opcode or callee.
fn reason(error: &CheckError) -> String {
    let text = match error {
        CheckError::Interp { error, .. } => error.to_string(),
        CheckError::Mismatch(m) => m.to_string(),
    };
    text.split(" with ").next().unwrap_or(&text).to_owned()
}

/// Drops the `registers:` list: llc declares registers its body no longer
/// uses, which the reader rejects as untyped generic registers.
fn without_register_list(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for line in text.lines() {
        if line.starts_with("registers:") {
            out.push_str("registers: []\n");
            skipping = !line.contains('[');
            continue;
        }
        if skipping && line.starts_with("  ") {
            continue;
        }
        skipping = false;
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn check_pair(config: &str, input: &Path, expected: &Path, triple: &str, mattr: &str, tally: &mut Tally) {
    let (Ok(src), Ok(out)) = (std::fs::read_to_string(input), std::fs::read_to_string(expected)) else {
        tally.unreadable += 1;
        return;
    };
    let out = without_register_list(&out);
    let name = input.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let (before, after) = match (read_mir(&src, name, Some(triple), mattr), read_mir(&out, name, Some(triple), mattr)) {
        (Ok(b), Ok(a)) => (b, a),
        (b, a) => {
            if std::env::var_os("INTERP_VERBOSE").is_some() {
                println!("unreadable {}: {:?} / {:?}", input.display(), b.err(), a.err());
            }
            tally.unreadable += 1;
            return;
        }
    };
    let Some(abi) = Abi::for_target(&before.target) else {
        tally.unreadable += 1;
        return;
    };
    for b in &before.functions {
        let Some(a) = after.functions.iter().find(|f| f.header.name == b.header.name) else { continue };
        let (pb, pa) = (Program::from_machine_function(b), Program::from_machine_function(a));
        let inputs = random_inputs(&pb, &abi, INPUTS_PER_FUNCTION, 0x5eed);
        match check_equivalent(&pb, &pa, &abi, &inputs) {
            Ok(c) => {
                tally.equal += 1;
                if c.compared == c.vacuous {
                    tally.vacuous += 1;
                }
            }
            Err(CheckError::Mismatch(m)) => {
                let line = format!("{}::{}: {m}", input.display(), b.header.name);
                match known_bug(config, &b.header.name) {
                    Some(why) => tally.known_bugs.push(format!("{line}\n        known llc bug: {why}")),
                    None => tally.mismatch.push(line),
                }
            }
            Err(e) => *tally.unsupported.entry(reason(&e)).or_default() += 1,
        }
    }
}

fn report(config: &str, t: &Tally) {
    let mut unsupported: Vec<_> = t.unsupported.iter().collect();
    unsupported.sort_by(|a, b| b.1.cmp(a.1));
    let n: usize = t.unsupported.values().sum();
    println!(
        "{config}: {} functions: {} equal ({} vacuously), {} mismatch, {} known llc bugs, {n} unsupported ({:.1}% supported){}",
        t.total(),
        t.equal,
        t.vacuous,
        t.mismatch.len(),
        t.known_bugs.len(),
        100.0 * (t.total() - n) as f64 / t.total().max(1) as f64,
        if t.unreadable > 0 { format!(", {} unreadable files", t.unreadable) } else { String::new() }
    );
    for (why, count) in unsupported {
        println!("    {count:4} {why}");
    }
    for m in &t.mismatch {
        println!("    MISMATCH {m}");
    }
    for m in &t.known_bugs {
        println!("    llc bug {m}");
    }
}

/// (config dir, file, triple, mattr) from the sweep's manifest.
fn manifest(root: &Path) -> Vec<(String, String, String, String)> {
    let Ok(text) = std::fs::read_to_string(root.join("MANIFEST.tsv")) else { return Vec::new() };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (f.len() >= 5 && f[2] == "0").then(|| (f[0].to_owned(), f[1].to_owned(), f[3].to_owned(), f[4].to_owned()))
        })
        .collect()
}

/// Checks every input/output pair listed in `<root>/MANIFEST.tsv`, per
/// configuration; `None` when the corpus is absent.
fn run_corpus(root: &Path) -> Option<BTreeMap<String, Tally>> {
    let entries = manifest(root);
    if entries.is_empty() {
        println!("skipped: no corpus at {}", root.display());
        return None;
    }
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for (config, file, triple, mattr) in entries {
        let input = root.join(&config).join(&file);
        let expected = input.with_extension("0.expected.mir");
        if !expected.exists() {
            continue;
        }
        let tally = tallies.entry(config.clone()).or_default();
        check_pair(&config, &input, &expected, &triple, &mattr, tally);
    }
    for (config, t) in &tallies {
        report(config, t);
    }
    Some(tallies)
}

#[test]
fn sweep_corpus_matches_llc() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/sweep");
    let Some(tallies) = run_corpus(&root) else { return };
    let mismatches: usize = tallies.values().map(|t| t.mismatch.len()).sum();
    assert_eq!(mismatches, 0, "llc's own output must never mismatch its input");
}

#[test]
fn llvm_tests_match_llc() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/llvm");
    let Some(tallies) = run_corpus(&root) else { return };
    let mismatches: usize = tallies.values().map(|t| t.mismatch.len()).sum();
    assert_eq!(mismatches, 0, "llc's own output must never mismatch its input");
}

#[test]
fn bundled_pairs_match() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/interp");
    let mut tally = Tally::default();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    files.sort();
    for input in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "mir") && !p.to_string_lossy().ends_with(".expected.mir"))
    {
        let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        // <config>--<name>.mir: the config picks the triple and features.
        let config = stem.split("--").next().unwrap_or("");
        let (triple, mattr) = match config {
            "aarch64" => ("aarch64", ""),
            "riscv32" => ("riscv32", ""),
            "riscv32-m" => ("riscv32", "+m"),
            "riscv64-mfd" => ("riscv64", "+m,+f,+d"),
            "riscv64-m" => ("riscv64", "+m"),
            _ => ("riscv64", ""),
        };
        check_pair(config, input, &input.with_extension("0.expected.mir"), triple, mattr, &mut tally);
    }
    report("bundled", &tally);
    assert!(tally.equal > 0, "no bundled pair was checked");
    assert!(tally.mismatch.is_empty());
    assert_eq!(tally.unreadable, 0);
}
