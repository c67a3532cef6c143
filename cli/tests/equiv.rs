//! `gisel equiv` on the x86-64 example whose 24-bit store llc 22
//! legalizes into a 32-bit one (`examples/store-i24-x86.mir`): llc's
//! output differs in meaning, gisel's agrees, and bad input is an error
//! that says where.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)
}

fn gisel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gisel")).args(args).output().expect("runs gisel")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A fresh directory for this test's files, removed when the test ends,
/// whether it passes or not.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("gisel-equiv-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        Scratch(dir)
    }

    /// The path of `file` in the directory.
    fn join(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Best effort: a directory left behind fails no test.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `gisel equiv -mtriple=x86_64 EXAMPLE AFTER`.
fn equiv_with_example(after: &Path) -> Output {
    let before = example("store-i24-x86.mir");
    gisel(&["equiv", "-mtriple=x86_64", before.to_str().expect("UTF-8 path"), after.to_str().expect("UTF-8 path")])
}

#[test]
fn llc_22s_truncating_store_differs_and_the_run_fails() {
    let output = equiv_with_example(&example("store-i24-x86.llc22.mir"));
    assert!(!output.status.success());
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("store24: differ: memory at 0x3: "), "{stdout}");
    assert!(lines[0].contains("(inputs: $rdi="), "{stdout}");
    assert_eq!(lines[1], "add: agree (32 inputs compared, 0 skipped, 0 with nothing defined)");
    assert_eq!(text(&output.stderr), "error: 1 of 2 functions differ in meaning\n");
}

#[test]
fn gisels_legalized_output_agrees() {
    let dir = Scratch::new("agrees");
    let legalized = dir.join("legalized.mir");
    let before = example("store-i24-x86.mir");
    let legalize = gisel(&[
        "llc",
        "-mtriple=x86_64",
        "-run-pass=legalizer",
        before.to_str().expect("UTF-8 path"),
        "-o",
        legalized.to_str().expect("UTF-8 path"),
    ]);
    assert!(legalize.status.success(), "{}", text(&legalize.stderr));
    let output = equiv_with_example(&legalized);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.lines().all(|line| line.ends_with(": agree (32 inputs compared, 0 skipped, 0 with nothing defined)"))
    );
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
}

#[test]
fn bad_input_is_an_error_with_its_place() {
    let dir = Scratch::new("bad");
    let unknown_opcode = dir.join("unknown.mir");
    let llc = std::fs::read_to_string(example("store-i24-x86.llc22.mir")).expect("reads");
    std::fs::write(&unknown_opcode, llc.replace("G_ADD %0, %1", "G_ADDD %0, %1")).expect("writes");
    let output = equiv_with_example(&unknown_opcode);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "nothing is run");
    let stderr = text(&output.stderr);
    assert!(stderr.contains("unknown.mir:") && stderr.contains(": error: unknown generic opcode 'G_ADDD'"), "{stderr}");

    let invalid = dir.join("invalid.mir");
    std::fs::write(&invalid, llc.replace("G_ADD %0, %1", "G_TRUNC %0(s32)")).expect("writes");
    let stderr = text(&equiv_with_example(&invalid).stderr);
    assert!(stderr.contains("invalid.mir: error: in function 'add': G_TRUNC result s32"), "{stderr}");

    let one = gisel(&["equiv", example("store-i24-x86.mir").to_str().expect("UTF-8 path")]);
    assert!(text(&one.stderr).starts_with("gisel equiv: expected two files"), "{}", text(&one.stderr));
}

#[test]
fn both_files_must_be_for_one_target() {
    let dir = Scratch::new("targets");
    let riscv = dir.join("riscv.mir");
    std::fs::write(&riscv, "--- |\n  target triple = \"riscv64\"\n...\n").expect("writes");
    let llc = example("store-i24-x86.llc22.mir");
    let output = gisel(&["equiv", llc.to_str().expect("UTF-8 path"), riscv.to_str().expect("UTF-8 path")]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(stderr.contains("store-i24-x86.llc22.mir' is for x86_64 but '"), "{stderr}");
    assert!(stderr.ends_with("riscv.mir' is for riscv64 (both must be for one target)\n"), "{stderr}");
}

/// A function reading two stack arguments, as llc prints it (`gisel llc
/// -run-pass=none` numbers fixed stack objects the other way round), means
/// what it meant: incoming arguments are found by their offset, not by the
/// number a file gives their object.
#[test]
fn a_reprinted_function_with_stack_arguments_agrees() {
    let dir = Scratch::new("reprinted");
    let before = dir.join("before.mir");
    let after = dir.join("after.mir");
    std::fs::write(
        &before,
        "---\nname: sub_args\ntracksRegLiveness: true\nfixedStack:\n  \
         - { id: 0, offset: 4, size: 4, alignment: 4, isImmutable: true }\n  \
         - { id: 1, offset: 0, size: 4, alignment: 16, isImmutable: true }\n\
         body: |\n  bb.0:\n    %0:_(p0) = G_FRAME_INDEX %fixed-stack.1\n    \
         %1:_(s32) = G_LOAD %0(p0) :: (invariant load (s32) from %fixed-stack.1, align 16)\n    \
         %2:_(p0) = G_FRAME_INDEX %fixed-stack.0\n    \
         %3:_(s32) = G_LOAD %2(p0) :: (invariant load (s32) from %fixed-stack.0)\n    \
         %4:_(s32) = G_SUB %1, %3\n    $eax = COPY %4(s32)\n    RET 0, implicit $eax\n...\n",
    )
    .expect("writes the input");
    let path = |p: &Path| p.to_str().expect("UTF-8 path").to_owned();
    let print = gisel(&["llc", "-mtriple=i386", "-run-pass=none", &path(&before), "-o", &path(&after)]);
    assert!(print.status.success(), "{}", text(&print.stderr));
    assert!(text(&std::fs::read(&after).expect("reads the output")).contains("G_FRAME_INDEX %fixed-stack.0\n"));
    let output = gisel(&["equiv", "-mtriple=i386", &path(&before), &path(&after)]);
    assert!(output.status.success(), "{}{}", text(&output.stdout), text(&output.stderr));
    assert!(text(&output.stdout).starts_with("sub_args: agree"), "{}", text(&output.stdout));
}
