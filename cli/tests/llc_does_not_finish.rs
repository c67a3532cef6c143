//! Inputs llc 22 never finishes legalizing (it runs out of memory): gisel
//! stops with an error naming the function and its last steps, and exits
//! non-zero, or with `-global-isel-abort=2` reports it and goes on.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn gisel_llc(input: &str, extra: &[&str]) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new(env!("CARGO_BIN_EXE_gisel"))
        .args(["llc", "-mtriple=x86_64-unknown-linux-gnu", "-run-pass=legalizer"])
        .arg(root.join("../tests/mir/Inputs").join(input))
        .args(["-o", "-"])
        .args(extra)
        .output()
        .expect("runs gisel")
}

#[test]
fn a_build_vector_widened_forever_is_an_error() {
    let output = gisel_llc("build-vector-store-loop-x86_64.mir", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("unable to legalize function 'header': legalization does not terminate"), "{stderr}");
    assert!(stderr.contains("G_BUILD_VECTOR(<4 x s8>, s8)"), "{stderr}");
}

#[test]
fn with_fallback_it_is_a_remark() {
    let output = gisel_llc("build-vector-store-loop-x86_64.mir", &["-global-isel-abort=2"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.starts_with("remark: unable to legalize function 'header'"), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("failedISel:      true"));
}

#[test]
fn a_cycle_is_found_however_large_the_function() {
    // The same cycle among 20,000 unrelated additions: a budget of steps
    // that grows with the function would let the cycle fill the memory
    // first.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input = std::fs::read_to_string(root.join("../tests/mir/Inputs/build-vector-store-loop-x86_64.mir"))
        .expect("reads the input");
    let additions: String = (0..20_000)
        .map(|i| format!("    %a{i}:_(s64) = G_ADD %x, %x\n    G_STORE %a{i}(s64), %0(p0) :: (store (s64))\n"))
        .collect();
    let input = input.replace(
        "    %0:_(p0) = COPY $rdi\n",
        &format!("    %0:_(p0) = COPY $rdi\n    %x:_(s64) = COPY $rdi\n{additions}"),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_gisel"))
        .args(["llc", "-mtriple=x86_64-unknown-linux-gnu", "-run-pass=legalizer", "-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs gisel");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("writes the input");
    let output = child.wait_with_output().expect("waits for gisel");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("unable to legalize function 'header': legalization does not terminate"), "{stderr}");
}
