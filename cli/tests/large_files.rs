//! `gisel llc` on files larger than the batch it reads at a time: the
//! output and the errors are those of a run that reads the whole file
//! first, and a failed run leaves no output file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Functions to make a file of several megabytes (several batches).
const FUNCTIONS: usize = 8000;

/// One AArch64 function adding two `s8` values (`op` replaces the add).
fn function(index: usize, op: &str) -> String {
    format!(
        "---\nname:            f{index}\ntracksRegLiveness: true\nbody:             |\n  bb.0:\n    \
         liveins: $w0, $w1\n\n    %0:_(s32) = COPY $w0\n    %1:_(s32) = COPY $w1\n    \
         %2:_(s8) = G_TRUNC %0(s32)\n    %3:_(s8) = G_TRUNC %1(s32)\n    %4:_(s8) = {op} %2, %3\n    \
         %5:_(s32) = G_ANYEXT %4(s8)\n    $w0 = COPY %5(s32)\n    RET_ReallyLR implicit $w0\n...\n"
    )
}

/// A file of [`FUNCTIONS`] functions in a fresh directory, with `last`
/// (the whole text of a last document) appended.
fn large_file(name: &str, last: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gisel-large-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let mut text: String = (0..FUNCTIONS).map(|i| function(i, "G_ADD")).collect();
    text.push_str(last);
    assert!(text.len() > 2 << 20, "the file must span several batches");
    let path = dir.join("large.mir");
    std::fs::write(&path, text).expect("writes");
    path
}

/// `text` after an IR module defining the functions `f0` to `f{FUNCTIONS}`
/// (gisel then reads the file once, checking later headers only on an
/// error).
fn with_ir_module(text: &str) -> String {
    let mut module = String::from("--- |\n");
    for i in 0..=FUNCTIONS {
        module.push_str(&format!("  define void @f{i}() {{\n    ret void\n  }}\n\n"));
    }
    module + "...\n" + text
}

fn gisel(args: &[&str], input: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gisel")).args(args).arg(input).output().expect("runs gisel")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// One AArch64 function of `count` additions in a chain.
fn long_function(name: &str, count: usize) -> String {
    let mut text = format!(
        "---\nname:            {name}\ntracksRegLiveness: true\nbody:             |\n  bb.0:\n    \
         liveins: $x0\n\n    %0:_(s64) = COPY $x0\n"
    );
    for i in 1..=count {
        text.push_str(&format!("    %{i}:_(s64) = G_ADD %{}, %0\n", i - 1));
    }
    text + &format!("    $x0 = COPY %{count}(s64)\n    RET_ReallyLR implicit $x0\n...\n")
}

#[test]
fn a_function_written_in_pieces_prints_as_a_whole() {
    // Large enough to be written to the output a piece at a time, between
    // functions that are not.
    let text = function(0, "G_ADD") + &long_function("long", 40_000) + &function(1, "G_SUB");
    let dir = std::env::temp_dir().join(format!("gisel-large-{}-pieces", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let path = dir.join("long.mir");
    std::fs::write(&path, text).expect("writes");
    let pieces = gisel(&["llc", "-mtriple=aarch64", "-run-pass=none", "-o", "-"], &path);
    assert!(pieces.status.success(), "{}", stderr(&pieces));
    let whole = gisel(&["print", "-mtriple=aarch64"], &path);
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert!(whole.stdout.len() > 1 << 20, "the long function's text spans many pieces");
    assert_eq!(pieces.stdout, whole.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_large_file_prints_as_the_whole_file_reader_prints_it() {
    let path = large_file("print", &function(FUNCTIONS, "G_SUB"));
    let streamed = gisel(&["llc", "-mtriple=aarch64", "-run-pass=none", "-o", "-"], &path);
    assert!(streamed.status.success(), "{}", stderr(&streamed));
    let whole = gisel(&["print", "-mtriple=aarch64"], &path);
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert_eq!(streamed.stdout, whole.stdout);
    let legalized = gisel(&["llc", "-mtriple=aarch64", "-run-pass=legalizer", "-o", "-"], &path);
    assert!(legalized.status.success(), "{}", stderr(&legalized));
    let text = String::from_utf8(legalized.stdout).expect("UTF-8");
    assert_eq!(text.matches("legalized:       true").count(), FUNCTIONS + 1);
    assert!(text.contains(&format!("define void @f{FUNCTIONS}()")), "the prologue names every function");
    std::fs::remove_dir_all(path.parent().expect("a directory")).expect("removes");
}

#[test]
fn a_header_error_at_the_end_is_reported_before_a_body_error_at_the_start() {
    let mut text = function(0, "G_NOT_AN_OPCODE");
    text.push_str(&(1..FUNCTIONS).map(|i| function(i, "G_ADD")).collect::<String>());
    text.push_str("---\nname: [ unclosed\nbody: |\n  bb.0:\n...\n");
    let path = large_file("header", "");
    for text in [text.clone(), with_ir_module(&text)] {
        std::fs::write(&path, &text).expect("writes");
        let output = gisel(&["llc", "-mtriple=aarch64", "-run-pass=legalizer", "-o", "-"], &path);
        assert!(!output.status.success());
        // The error is in the last document's header (its last four lines).
        let message = stderr(&output);
        let line: usize = message
            .split("large.mir:")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no location in {message}"));
        assert!(line + 4 >= text.lines().count(), "{message}");
        assert!(!message.contains("G_NOT_AN_OPCODE"), "{message}");
    }
    std::fs::remove_dir_all(path.parent().expect("a directory")).expect("removes");
}

#[test]
fn a_name_defined_twice_far_apart_is_an_error() {
    let path = large_file("twice", &function(7, "G_ADD"));
    let text = std::fs::read_to_string(&path).expect("reads");
    for text in [text.clone(), with_ir_module(&text.replacen("G_ADD", "G_NOT_AN_OPCODE", 1))] {
        std::fs::write(&path, &text).expect("writes");
        let output = gisel(&["llc", "-mtriple=aarch64", "-run-pass=none", "-o", "-"], &path);
        assert!(!output.status.success());
        assert!(stderr(&output).contains("redefinition of machine function 'f7'"), "{}", stderr(&output));
        assert!(output.stdout.is_empty());
    }
    std::fs::remove_dir_all(path.parent().expect("a directory")).expect("removes");
}

#[test]
fn a_quoted_name_far_on_is_read_from_its_header() {
    let quoted = function(FUNCTIONS, "G_SUB").replacen(&format!("f{FUNCTIONS}"), "'g h'", 1);
    let path = large_file("quoted", &quoted);
    let output = gisel(&["llc", "-mtriple=aarch64", "-run-pass=none", "-o", "-"], &path);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(text.contains("define void @\"g h\"()"), "the prologue names every function");
    std::fs::remove_dir_all(path.parent().expect("a directory")).expect("removes");
}

#[test]
fn a_failed_run_leaves_no_output_file() {
    // llc 22 cannot legalize an s256 G_CTLZ for AArch64 either.
    let unlegalizable = "---\nname: ctlz\nbody: |\n  bb.0:\n    liveins: $x0\n\n    %0:_(s64) = COPY $x0\n    \
                         %1:_(s256) = G_MERGE_VALUES %0(s64), %0(s64), %0(s64), %0(s64)\n    \
                         %2:_(s256) = G_CTLZ %1(s256)\n    %3:_(s64) = G_TRUNC %2(s256)\n    \
                         $x0 = COPY %3(s64)\n    RET_ReallyLR implicit $x0\n...\n";
    let path = large_file("fails", unlegalizable);
    let out = path.with_file_name("out.mir");
    let output = gisel(&["llc", "-mtriple=aarch64", "-run-pass=legalizer", "-o", out.to_str().expect("UTF-8")], &path);
    assert!(!output.status.success(), "{}", stderr(&output));
    assert!(!out.exists(), "the partial output was left behind");
    std::fs::remove_dir_all(path.parent().expect("a directory")).expect("removes");
}
