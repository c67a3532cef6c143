//! Runs a table of (check file, input, flags) cases through our FileCheck and
//! LLVM's, and asserts they agree on pass/fail. Skipped without LLVM.

use gisel_tests::filecheck::{Invocation, check};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const LLVM_FILECHECK: &str = "/usr/lib/llvm-22/bin/FileCheck";

/// (name, check file, input, extra flags)
const CASES: &[(&str, &str, &str, &[&str])] = &[
    ("plain", "; CHECK: b\n; CHECK: d\n", "a\nb\nc\nd\n", &[]),
    ("plain order", "; CHECK: d\n; CHECK: b\n", "a\nb\nc\nd\n", &[]),
    ("next ok", "; CHECK: a\n; CHECK-NEXT: b\n", "a\nb\n", &[]),
    ("next skipped line", "; CHECK: a\n; CHECK-NEXT: c\n", "a\nb\nc\n", &[]),
    ("next same line", "; CHECK: a\n; CHECK-NEXT: b\n", "a b\n", &[]),
    ("next first", "; CHECK-NEXT: a\n", "a\n", &[]),
    ("same ok", "; CHECK: a\n; CHECK-SAME: b\n", "a b\n", &[]),
    ("same bad", "; CHECK: a\n; CHECK-SAME: b\n", "a\nb\n", &[]),
    ("empty ok", "; CHECK: a\n; CHECK-EMPTY:\n; CHECK-NEXT: b\n", "a\n\nb\n", &[]),
    ("empty bad", "; CHECK: a\n; CHECK-EMPTY:\n", "a\nb\n\n", &[]),
    ("empty with text", "; CHECK: a\n; CHECK-EMPTY: x\n", "a\n\n", &[]),
    ("empty pattern", "; CHECK:\n", "a\n", &[]),
    ("not ok", "; CHECK: a\n; CHECK-NOT: x\n; CHECK: b\n", "a\ny\nb\nx\n", &[]),
    ("not bad", "; CHECK: a\n; CHECK-NOT: x\n; CHECK: b\n", "a\nx\nb\n", &[]),
    ("trailing not", "; CHECK: a\n; CHECK-NOT: z\n", "a\nz\n", &[]),
    ("leading not", "; CHECK-NOT: z\n; CHECK: a\n", "z\na\n", &[]),
    ("dag any order", "; CHECK-DAG: b\n; CHECK-DAG: a\n; CHECK: c\n", "a\nb\nc\n", &[]),
    ("dag no overlap", "; CHECK-DAG: a\n; CHECK-DAG: a\n", "a\n", &[]),
    ("dag two", "; CHECK-DAG: a\n; CHECK-DAG: a\n", "a a\n", &[]),
    ("dag after check", "; CHECK: c\n; CHECK-DAG: a\n", "a\nc\n", &[]),
    ("dag not dag bad", "; CHECK-DAG: a\n; CHECK-NOT: x\n; CHECK-DAG: b\n", "a\nx\nb\n", &[]),
    ("dag not dag ok", "; CHECK-DAG: a\n; CHECK-NOT: x\n; CHECK-DAG: b\n", "a\nb\nx\n", &[]),
    ("dag then next", "; CHECK-DAG: b\n; CHECK-DAG: a\n; CHECK-NEXT: c\n", "a\nb\nc\n", &[]),
    (
        "labels ok",
        "; CHECK-LABEL: name: f\n; CHECK: ret\n; CHECK-LABEL: name: g\n; CHECK: add\n",
        "name: f\nret\nname: g\nadd\n",
        &[],
    ),
    (
        "labels partition",
        "; CHECK-LABEL: name: f\n; CHECK: ret\n; CHECK-LABEL: name: g\n; CHECK: add\n",
        "name: f\nadd\nname: g\nret\nadd\n",
        &[],
    ),
    ("label missing", "; CHECK-LABEL: f\n; CHECK-LABEL: g\n", "f\n", &[]),
    ("label with var", "; CHECK-LABEL: [[X:a]]\n", "a\n", &[]),
    ("count ok", "; CHECK-COUNT-3: a\n", "a\na\na\n", &[]),
    ("count short", "; CHECK-COUNT-3: a\n", "a\na\n", &[]),
    ("count same line", "; CHECK-COUNT-2: a\n", "aa\n", &[]),
    ("whitespace runs", "; CHECK: a b\n", "a  \t  b\n", &[]),
    ("strict whitespace", "; CHECK: a b\n", "a  b\n", &["--strict-whitespace"]),
    ("pattern padding", ";    CHECK:    a    b   \n", "a b\n", &[]),
    ("full lines ok", "; CHECK: a b\n", "  a b\n", &["--match-full-lines"]),
    ("full lines bad", "; CHECK: a b\n", "a b c\n", &["--match-full-lines"]),
    ("regex", "; CHECK: a{{[0-9]+}}b\n", "xa12by\n", &[]),
    ("regex alternation", "; CHECK: abc{{x|z}}def\n", "abczdef\n", &[]),
    ("regex dollar", "; CHECK: a{{$}}\n", "ab\na\n", &[]),
    ("bad regex", "; CHECK: {{[}}\n", "[\n", &[]),
    ("unterminated regex", "; CHECK: {{abc\n", "abc\n", &[]),
    ("var def use", "; CHECK: [[X:%[0-9]+]] = COPY\n; CHECK: G_ADD [[X]]\n", "%3 = COPY\n%4 = G_ADD %3\n", &[]),
    ("var mismatch", "; CHECK: [[X:%[0-9]+]] = COPY\n; CHECK: G_ADD [[X]]\n", "%3 = COPY\n%4 = G_ADD %4\n", &[]),
    ("var undefined", "; CHECK: [[UNDEF]]\n", "x\n", &[]),
    ("var prefix of number", "; CHECK: [[X:%[0-9]+]] =\n; CHECK: use [[X]]\n", "%1 =\nuse %12\n", &[]),
    ("define flag", "; CHECK: COPY [[R]]\n", "COPY $x0\n", &["-DR=$x0"]),
    ("numeric", "; CHECK: x[[#N:]]\n; CHECK: y[[#N+1]]\n", "x41\ny42\n", &[]),
    ("numeric bad", "; CHECK: x[[#N:]]\n; CHECK: y[[#N+1]]\n", "x41\ny41\n", &[]),
    ("numeric hex", "; CHECK: x[[#%x,N:]]\n; CHECK: y[[#N+1]]\n", "xff\ny100\n", &[]),
    ("line var", "; CHECK: line [[@LINE]]\n", "line 1\n", &[]),
    ("custom prefix", "; FOO: a\n; CHECK: zzz\n", "a\n", &["--check-prefix=FOO"]),
    ("two prefixes", "; A: a\n; B-NEXT: b\n", "a\nb\n", &["--check-prefixes=A,B"]),
    ("unused prefix", "; A: a\n", "a\n", &["--check-prefixes=A,B"]),
    ("allow unused prefix", "; A: a\n", "a\n", &["--check-prefixes=A,B", "--allow-unused-prefixes"]),
    ("no checks", "nothing\n", "a\n", &[]),
    ("word prefix", "; XCHECK: zzz\n; CHECK: a\n", "a\n", &[]),
    ("comment line", "; COM: CHECK: zzz\n; CHECK: a\n", "a\n", &[]),
    ("run line", "; RUN: echo CHECK: zzz\n; CHECK: a\n", "a\n", &[]),
    ("implicit not ok", "; CHECK: a\n", "a\nb\n", &["--implicit-check-not=warning"]),
    ("implicit not bad", "; CHECK: b\n", "warning\nb\n", &["--implicit-check-not=warning"]),
    ("empty input", "; CHECK-NOT: a\n", "", &[]),
    ("allow empty", "; CHECK-NOT: a\n", "", &["--allow-empty"]),
    ("literal", "; CHECK{LITERAL}: [[x]] {{y}}\n", "a [[x]] {{y}}\n", &[]),
    (
        "var scope",
        "; CHECK-LABEL: f\n; CHECK: [[X:[a-z]]]\n; CHECK-LABEL: g\n; CHECK: [[X]]\n",
        "f\nq\ng\nq\n",
        &["--enable-var-scope"],
    ),
    (
        "mir body",
        "# CHECK-LABEL: name: f\n# CHECK: [[C:%[0-9]+]]:_(s32) = COPY $w0\n# CHECK-NEXT: {{  $}}\n# CHECK-NEXT: $w0 = COPY [[C]](s32)\n",
        "name: f\nbody: |\n  bb.0:\n    %0:_(s32) = COPY $w0\n  \n    $w0 = COPY %0(s32)\n",
        &[],
    ),
];

fn llvm_passes(dir: &Path, idx: usize, checks: &str, input: &str, flags: &[&str]) -> Option<bool> {
    let path = dir.join(format!("case{idx}.txt"));
    std::fs::write(&path, checks).ok()?;
    let mut child = Command::new(LLVM_FILECHECK)
        .arg(&path)
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // FileCheck may exit (bad check file) before reading: a broken pipe is fine.
    let _ = child.stdin.take()?.write_all(input.as_bytes());
    Some(child.wait().ok()?.success())
}

#[test]
fn agrees_with_llvm_filecheck() {
    if !Path::new(LLVM_FILECHECK).exists() {
        println!("skipped: {LLVM_FILECHECK} not found");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gisel-filecheck-agree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut disagreements = Vec::new();
    let mut llvm_passed = 0;
    for (idx, (name, checks, input, flags)) in CASES.iter().enumerate() {
        let mut args = vec!["check.txt"];
        args.extend_from_slice(flags);
        let ours = match Invocation::from_args(&args) {
            Ok(inv) => check(checks, "check.txt", input, &inv.options).is_ok(),
            Err(_) => false,
        };
        let theirs = llvm_passes(&dir, idx, checks, input, flags).expect("LLVM FileCheck runs");
        llvm_passed += usize::from(theirs);
        if ours != theirs {
            disagreements.push(format!("{name}: ours {ours}, LLVM {theirs}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{} cases, {llvm_passed} pass under LLVM FileCheck", CASES.len());
    // The table must exercise both outcomes to mean anything.
    assert!(llvm_passed > 10 && CASES.len() - llvm_passed > 10, "{llvm_passed} of {} pass", CASES.len());
    assert!(disagreements.is_empty(), "disagreements:\n{}", disagreements.join("\n"));
}
