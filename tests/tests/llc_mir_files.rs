//! Proves the runner and bless on a real tool: runs `tests/mir/*.mir` with
//! LLVM's own llc 22, and checks that blessing them from llc's output
//! reproduces the committed files (a fixed point). Skipped without LLVM.
//!
//! `GISEL_BLESS=1` rewrites the generated example tests from llc's output.

use gisel_tests::filetest::{Config, Failure, Reason, Tool, run_file};
use gisel_tests::{bless, run_dir_with};
use std::path::{Path, PathBuf};

const LLC: &str = "/usr/lib/llvm-22/bin/llc";

fn mir_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mir")
}

fn blessing() -> bool {
    std::env::var_os("GISEL_BLESS").is_some_and(|v| v == "1")
}

/// llc as the tool, or `None` (with a message) when it is absent or when
/// another test of this file is rewriting the examples (`GISEL_BLESS=1`).
fn llc() -> Option<Config> {
    if blessing() {
        println!("skipped while blessing");
        None
    } else if Path::new(LLC).exists() {
        Some(Config::new(Tool::Llc(LLC.into())))
    } else {
        println!("skipped: {LLC} not found");
        None
    }
}

#[test]
fn example_tests_pass_under_llc() {
    if !Path::new(LLC).exists() {
        println!("skipped: {LLC} not found");
        return;
    }
    let config = Config::new(Tool::Llc(LLC.into()));
    let report = run_dir_with(&mir_dir(), &config, blessing());
    print!("{report}");
    // Tests of gisel's own commands (`gisel verify`) cannot run under llc.
    let unexpected: Vec<_> = report
        .failed
        .iter()
        .filter(|f| !std::fs::read_to_string(&f.file).is_ok_and(|t| uses_gisel_commands(&t)))
        .collect();
    assert!(unexpected.is_empty(), "{report}");
    assert!(report.passed.len() >= 4, "{report}");
}

/// True when a RUN line calls a gisel command llc does not have.
fn uses_gisel_commands(text: &str) -> bool {
    text.lines().any(|l| l.contains("RUN:") && (l.contains(": gisel ") || l.contains(": not gisel ")))
}

#[test]
fn blessing_from_llc_is_a_fixed_point() {
    let Some(config) = llc() else { return };
    let scratch = std::env::temp_dir().join(format!("gisel-bless-fixed-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut blessed = 0;
    for file in gisel_tests::runner::mir_files(&mir_dir()).expect("lists tests") {
        let committed = std::fs::read_to_string(&file).expect("reads test");
        if !committed.lines().any(|l| l.starts_with(bless::NOTE_MARK)) {
            continue;
        }
        let copy = scratch.join(file.file_name().expect("file name"));
        std::fs::write(&copy, &committed).expect("writes copy");
        let warnings = bless::bless_file(&copy, &config).unwrap_or_else(|f| panic!("{f}"));
        assert!(warnings.is_empty(), "{warnings:?}");
        let again = std::fs::read_to_string(&copy).expect("reads copy");
        pretty_assertions::assert_eq!(committed, again, "re-blessing {} changed it", file.display());
        blessed += 1;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(blessed >= 3, "only {blessed} generated example tests");
}

#[test]
fn a_broken_check_fails_with_a_readable_report() {
    let Some(config) = llc() else { return };
    let scratch = std::env::temp_dir().join(format!("gisel-broken-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let test = scratch.join("broken.mir");
    let text = std::fs::read_to_string(mir_dir().join("add.mir")).expect("reads add.mir");
    std::fs::write(&test, text.replacen("= G_ADD [[COPY]], [[COPY1]]", "= G_SUB [[COPY]], [[COPY1]]", 1))
        .expect("writes");
    let failure: Box<Failure> = run_file(&test, &config).expect_err("G_SUB is not in the output");
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(matches!(failure.reason, Reason::FileCheck(_)), "{failure}");
    let shown = failure.to_string();
    for needle in
        ["FAIL: ", "RUN (line 2): llc -mtriple=aarch64", "command: /usr/lib/llvm-22/bin/llc", "exit status: 0"]
    {
        assert!(shown.contains(needle), "missing {needle:?} in:\n{shown}");
    }
    assert!(shown.contains("CHECK-NEXT: expected string not found in input"), "{shown}");
    assert!(shown.contains("scanning from here"), "{shown}");
}
