//! `-` as the input reads standard input, as `llc -x mir -` does: the
//! output is the file's, with the module named `<stdin>`, and errors are
//! located in `<stdin>`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `gisel llc -x mir -mtriple=aarch64 -run-pass=legalizer - -o -`
/// with `input` on standard input.
fn gisel_from_stdin(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gisel"))
        .args(["llc", "-x", "mir", "-mtriple=aarch64", "-run-pass=legalizer", "-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs gisel");
    child.stdin.take().expect("a pipe").write_all(input).expect("writes the input");
    child.wait_with_output().expect("gisel ends")
}

#[test]
fn standard_input_gives_the_files_output_under_the_name_stdin() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/add.mir");
    let from_file = Command::new(env!("CARGO_BIN_EXE_gisel"))
        .args(["llc", "-mtriple=aarch64", "-run-pass=legalizer"])
        .arg(&path)
        .args(["-o", "-"])
        .output()
        .expect("runs gisel");
    assert!(from_file.status.success());
    let from_stdin = gisel_from_stdin(&std::fs::read(&path).expect("reads the example"));
    assert!(from_stdin.status.success(), "{}", String::from_utf8_lossy(&from_stdin.stderr));
    let (file_text, stdin_text) =
        (String::from_utf8_lossy(&from_file.stdout), String::from_utf8_lossy(&from_stdin.stdout));
    let name = path.to_string_lossy();
    assert!(stdin_text.contains("; ModuleID = '<stdin>'\n  source_filename = \"<stdin>\"\n"), "{stdin_text}");
    assert_eq!(
        stdin_text,
        file_text.replace(&format!("'{name}'"), "'<stdin>'").replace(&format!("\"{name}\""), "\"<stdin>\"")
    );
}

#[test]
fn an_error_in_standard_input_is_located_there() {
    let output = gisel_from_stdin(b"---\nname: f\nbody: |\n  bb.0:\n    %0:_(s32) = G_BOGUS\n");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("<stdin>:5:17: error: unknown machine instruction name 'G_BOGUS'"), "{stderr}");
}
