//! Bless against LLVM's own generated tests: for each test in
//! `../shared/conformance/llvm/*/` that carries the note of
//! `update_mir_test_checks.py` and passes under llc 22 with our runner,
//! blessing it from llc's output must give back the same file (only the
//! note line differs). Tests whose checks were stripped are blessed from
//! llc's output and must then pass under both our FileCheck and LLVM's.
//! Skipped without LLVM or without the shared folder.

use gisel_tests::bless;
use gisel_tests::filetest::{self, Config, Tool, run_file};
use gisel_tests::runner::mir_files;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const LLC: &str = "/usr/lib/llvm-22/bin/llc";
const FILECHECK: &str = "/usr/lib/llvm-22/bin/FileCheck";

fn conformance_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/llvm");
    if Path::new(LLC).exists() && Path::new(FILECHECK).exists() && root.is_dir() {
        Some(root)
    } else {
        println!("skipped: needs {LLC}, {FILECHECK} and {}", root.display());
        None
    }
}

/// Runs every `llc | FileCheck` RUN line of `test` with LLVM's FileCheck.
fn passes_llvm_filecheck(test: &Path, config: &Config) -> Result<(), String> {
    let text = std::fs::read_to_string(test).map_err(|e| e.to_string())?;
    for plan in filetest::plan(test, &text).map_err(|f| f.to_string())? {
        let (Some(tool), Some((fc, _))) = (&plan.tool, &plan.filecheck) else {
            continue;
        };
        let out = filetest::run_tool(test, &plan, tool, config).map_err(|f| f.to_string())?;
        let mut child = Command::new(FILECHECK)
            .args(&fc.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        // FileCheck may exit before reading all input; its status tells.
        let _ = child.stdin.take().ok_or("no stdin")?.write_all(out.stdout.as_bytes());
        let result = child.wait_with_output().map_err(|e| e.to_string())?;
        if !result.status.success() {
            return Err(format!("{}: {}", plan.run.text, String::from_utf8_lossy(&result.stderr)));
        }
    }
    Ok(())
}

#[test]
fn bless_reproduces_llvm_generated_checks() {
    let Some(root) = conformance_root() else {
        return;
    };
    let config = Config::new(Tool::Llc(LLC.into()));
    let scratch = std::env::temp_dir().join(format!("gisel-conformance-bless-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let (mut compared, mut skipped) = (0, Vec::new());
    for file in mir_files(&root).expect("lists conformance tests") {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if !text.lines().next().is_some_and(|l| l.starts_with(bless::NOTE_MARK)) {
            continue;
        }
        if let Err(failure) = run_file(&file, &config) {
            // llc 22 disagrees with the recorded checks: nothing to compare.
            skipped.push(format!("{}: {:?}", file.display(), failure.reason));
            continue;
        }
        let copy = scratch.join(file.file_name().expect("file name"));
        std::fs::write(&copy, &text).expect("writes copy");
        let warnings = bless::bless_file(&copy, &config).unwrap_or_else(|f| panic!("{f}"));
        assert!(warnings.is_empty(), "{}: {warnings:?}", file.display());
        let blessed = std::fs::read_to_string(&copy).expect("reads copy");
        let body = |t: &str| t.lines().skip(1).map(str::to_owned).collect::<Vec<_>>();
        pretty_assertions::assert_eq!(body(&text), body(&blessed), "{}", file.display());
        compared += 1;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("compared {compared} LLVM-generated tests; skipped {}: {skipped:#?}", skipped.len());
    assert!(compared > 0 || !skipped.is_empty(), "no LLVM-generated tests found under {}", root.display());
}

#[test]
fn blessed_stripped_tests_pass_both_filechecks() {
    let Some(root) = conformance_root() else {
        return;
    };
    let config = Config::new(Tool::Llc(LLC.into()));
    let scratch = std::env::temp_dir().join(format!("gisel-conformance-stripped-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let (mut candidates, mut blessed) = (0, 0);
    for file in mir_files(&root).expect("lists conformance tests") {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(plans) = filetest::plan(&file, &text) else {
            continue;
        };
        let prefixes: Vec<String> = plans
            .iter()
            .filter_map(|p| p.filecheck.as_ref())
            .flat_map(|(_, i)| i.options.check_prefixes.clone())
            .collect();
        if text.lines().any(|l| bless::check_prefix(l).is_some_and(|p| prefixes.iter().any(|q| q == p))) {
            continue;
        }
        candidates += 1;
        let copy = scratch.join(file.file_name().expect("file name"));
        std::fs::write(&copy, &text).expect("writes copy");
        if let Err(f) = bless::bless_file(&copy, &config) {
            println!("not blessed (llc fails on it): {}: {:?}", file.display(), f.reason);
            continue;
        }
        if let Err(f) = run_file(&copy, &config) {
            panic!("our FileCheck rejects blessed {}:\n{f}", file.display());
        }
        if let Err(e) = passes_llvm_filecheck(&copy, &config) {
            panic!("LLVM FileCheck rejects blessed {}:\n{e}", file.display());
        }
        blessed += 1;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("blessed {blessed} of {candidates} stripped conformance tests; both FileChecks pass");
    assert!(candidates == 0 || blessed > 0, "llc failed on every stripped conformance test");
}
