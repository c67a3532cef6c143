//! The reader and writer against `llc -run-pass=none`: what gisel prints
//! for a parsed `.mir` file must be byte-for-byte what llc 22 prints.
//!
//! `samples` holds inputs with llc's full output (readable diffs, no
//! external files needed); `digests.tsv` holds the SHA-256 of llc's output
//! for every input of the shared conformance corpus, checked when that
//! corpus sits beside the project (as in CI). Both were produced by
//! `tools/gen_none_digests.py` and the sample script it documents.

use gisel_core::mir::{read_mir, write_mir};
use pretty_assertions::assert_eq;
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/none")
}

/// Rows of a `file<TAB>mtriple<TAB>mattr[<TAB>...]` table.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(path).expect("read table");
    text.lines().skip(1).map(|l| l.split('\t').map(str::to_owned).collect()).collect()
}

fn print(source: &str, name: &str, triple: &str, features: &str) -> Result<String, String> {
    let triple = (!triple.is_empty()).then_some(triple);
    read_mir(source, name, triple, features).map(|m| write_mir(&m)).map_err(|e| e.render(name, source))
}

#[test]
fn samples_print_exactly_like_llc() {
    let samples = data_dir().join("samples");
    let table = rows(&data_dir().join("samples.tsv"));
    assert!(table.len() >= 20);
    for row in table {
        let (file, triple, features) = (&row[0], &row[1], &row[2]);
        let source = fs::read_to_string(samples.join(file)).expect("read sample");
        let expected = fs::read_to_string(samples.join(file.replace(".mir", ".none.mir"))).expect("read expected");
        let printed = print(&source, file, triple, features).unwrap_or_else(|e| panic!("{e}"));
        if file.ends_with("legalize-global.mir") {
            // llc re-prints the embedded IR module with LLVM's IR printer;
            // gisel keeps IR text verbatim, so only the machine part is compared.
            let machine = |text: &str| text[text.find("\n---\n").expect("function document")..].to_owned();
            assert_eq!(machine(&printed), machine(&expected), "{file}");
            continue;
        }
        assert_eq!(printed, expected, "{file}");
    }
}

#[test]
fn printing_is_a_fixed_point() {
    let samples = data_dir().join("samples");
    for row in rows(&data_dir().join("samples.tsv")) {
        let (file, triple, features) = (&row[0], &row[1], &row[2]);
        let source = fs::read_to_string(samples.join(file)).expect("read sample");
        if source.contains("fixedStack:") {
            // llc numbers fixed objects in reverse order of creation, so each
            // round trip through llc (and gisel) reverses them again.
            continue;
        }
        let once = print(&source, file, triple, features).unwrap_or_else(|e| panic!("{e}"));
        let twice = print(&once, file, triple, features).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(once, twice, "{file}");
    }
}

/// Inputs whose llc output gisel cannot reproduce, with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str)] =
    &[("llvm/aarch64/legalize-global.mir", "llc re-prints the embedded IR module; gisel keeps it verbatim")];

#[test]
fn whole_corpus_matches_llc_digests() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is absent (it is present in CI)", corpus.display());
        return;
    }
    let mut mismatches = Vec::new();
    let table = rows(&data_dir().join("digests.tsv"));
    for row in &table {
        let (file, triple, features, digest) = (&row[0], &row[1], &row[2], &row[3]);
        let source = fs::read_to_string(corpus.join(file)).expect("read corpus file");
        match print(&source, file, triple, features) {
            Ok(text) => {
                let ours = format!("{:x}", Sha256::digest(text.as_bytes()));
                if &ours != digest {
                    mismatches.push(file.clone());
                }
            }
            Err(e) => mismatches.push(format!("{file}: {e}")),
        }
    }
    let expected: Vec<String> = KNOWN_DIFFERENCES.iter().map(|(f, _)| (*f).to_owned()).collect();
    assert_eq!(mismatches, expected, "files whose printed form differs from llc's ({} checked)", table.len());
}
