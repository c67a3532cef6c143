//! Behaviour tests of the FileCheck subset; none needs LLVM.

use super::*;

fn run(checks: &str, input: &str) -> Result<(), FileCheckError> {
    check(checks, "t.mir", input, &Options::default())
}

fn ok(checks: &str, input: &str) {
    if let Err(e) = run(checks, input) {
        panic!("expected pass:\n{e}");
    }
}

fn fails(checks: &str, input: &str) -> FileCheckError {
    match run(checks, input) {
        Ok(()) => panic!("expected failure for checks:\n{checks}\ninput:\n{input}"),
        Err(e) => e,
    }
}

#[test]
fn plain_check_scans_forward_in_order() {
    ok("; CHECK: b\n; CHECK: d\n", "a\nb\nc\nd\n");
    fails("; CHECK: d\n; CHECK: b\n", "a\nb\nc\nd\n");
}

#[test]
fn next_same_and_empty_constrain_lines() {
    ok("; CHECK: a\n; CHECK-NEXT: b\n", "a\nb\n");
    let e = fails("; CHECK: a\n; CHECK-NEXT: c\n", "a\nb\nc\n");
    assert!(e.diagnostics[0].message.contains("not on the line after"), "{e}");
    ok("; CHECK: a\n; CHECK-SAME: b\n", "a b\n");
    fails("; CHECK: a\n; CHECK-SAME: b\n", "a\nb\n");
    ok("; CHECK: a\n; CHECK-EMPTY:\n; CHECK-NEXT: b\n", "a\n\nb\n");
    fails("; CHECK: a\n; CHECK-EMPTY:\n", "a\nb\n\n");
}

#[test]
fn not_and_dag() {
    ok("; CHECK: a\n; CHECK-NOT: x\n; CHECK: b\n", "a\ny\nb\nx\n");
    let e = fails("; CHECK: a\n; CHECK-NOT: x\n; CHECK: b\n", "a\nx\nb\n");
    assert!(e.diagnostics[0].message.contains("excluded string found"), "{e}");
    assert_eq!(e.diagnostics[0].directive, "CHECK-NOT");
    ok("; CHECK-DAG: b\n; CHECK-DAG: a\n; CHECK: c\n", "a\nb\nc\n");
    fails("; CHECK-DAG: a\n; CHECK-DAG: a\n", "a\n");
    ok("; CHECK-DAG: a\n; CHECK-DAG: a\n", "a a\n");
    fails("; CHECK: c\n; CHECK-DAG: a\n", "a\nc\n");
    // A NOT between DAG groups applies to the gap between them.
    fails("; CHECK-DAG: a\n; CHECK-NOT: x\n; CHECK-DAG: b\n", "a\nx\nb\n");
    ok("; CHECK-DAG: a\n; CHECK-NOT: x\n; CHECK-DAG: b\n", "a\nb\nx\n");
    // Trailing NOT is checked up to the end of input.
    fails("; CHECK: a\n; CHECK-NOT: z\n", "a\nz\n");
}

#[test]
fn labels_partition_the_input() {
    let checks = "; CHECK-LABEL: name: f\n; CHECK: ret\n; CHECK-LABEL: name: g\n; CHECK: add\n";
    ok(checks, "name: f\nret\nname: g\nadd\n");
    // `ret` only occurs in g's block: CHECK may not look past f's label block.
    let e = fails(checks, "name: f\nadd\nname: g\nret\nadd\n");
    assert_eq!(e.diagnostics[0].check_line, 2, "{e}");
    // A missing label fails the label itself.
    let e = fails(checks, "name: f\nret\n");
    assert_eq!(e.diagnostics[0].directive, "CHECK-LABEL");
}

#[test]
fn errors_in_several_blocks_are_all_reported() {
    let checks = "; CHECK-LABEL: f\n; CHECK: x\n; CHECK-LABEL: g\n; CHECK: y\n";
    let e = fails(checks, "f\n1\ng\n2\n");
    let lines: Vec<usize> = e.diagnostics.iter().map(|d| d.check_line).collect();
    assert_eq!(lines, vec![2, 4]);
}

#[test]
fn count() {
    ok("; CHECK-COUNT-3: a\n", "a\na\na\n");
    fails("; CHECK-COUNT-3: a\n", "a\na\n");
}

#[test]
fn whitespace_is_canonicalised_unless_strict() {
    ok("; CHECK: a b\n", "a  \t  b\n");
    ok("; CHECK:    a    b   \n", "a b\n");
    let strict = Options { strict_whitespace: true, ..Options::default() };
    assert!(check("; CHECK: a b\n", "t", "a  b\n", &strict).is_err());
}

#[test]
fn match_full_lines() {
    let opts = Options { match_full_lines: true, ..Options::default() };
    assert!(check("; CHECK: a b\n", "t", "  a b\n", &opts).is_ok());
    assert!(check("; CHECK: a b\n", "t", "a b c\n", &opts).is_err());
}

#[test]
fn variables_flow_between_lines() {
    ok("; CHECK: [[X:%[0-9]+]] = COPY\n; CHECK: G_ADD [[X]]\n", "%3 = COPY\n%4 = G_ADD %3\n");
    fails("; CHECK: [[X:%[0-9]+]] = COPY\n; CHECK: G_ADD [[X]]\n", "%3 = COPY\n%4 = G_ADD %4\n");
    let e = fails("; CHECK: [[UNDEF]]\n", "x\n");
    assert!(e.diagnostics[0].message.contains("undefined"), "{e}");
    let opts = Options { defines: vec![("R".into(), "$x0".into())], ..Options::default() };
    assert!(check("; CHECK: COPY [[R]]\n", "t", "COPY $x0\n", &opts).is_ok());
}

#[test]
fn var_scope_clears_locals_at_labels() {
    let checks = "; CHECK-LABEL: f\n; CHECK: [[X:[a-z]]]\n; CHECK-LABEL: g\n; CHECK: [[X]]\n";
    let input = "f\nq\ng\nq\n";
    ok(checks, input);
    let opts = Options { enable_var_scope: true, ..Options::default() };
    assert!(check(checks, "t", input, &opts).is_err());
}

#[test]
fn implicit_check_not() {
    let opts = Options { implicit_check_not: vec!["warning".into()], ..Options::default() };
    assert!(check("; CHECK: a\n", "t", "a\nb\n", &opts).is_ok());
    assert!(check("; CHECK: b\n", "t", "warning\nb\n", &opts).is_err());
    assert!(check("; CHECK: a\n", "t", "a\nwarning\n", &opts).is_err());
}

#[test]
fn empty_input_needs_allow_empty() {
    fails("; CHECK-NOT: a\n", "");
    let opts = Options { allow_empty: true, ..Options::default() };
    assert!(check("; CHECK-NOT: a\n", "t", "", &opts).is_ok());
}

#[test]
fn literal_modifier() {
    ok("; CHECK{LITERAL}: [[x]] {{y}}\n", "a [[x]] {{y}}\n");
}

#[test]
fn error_names_the_directive_line_and_input() {
    let e = fails("# CHECK: a\n# CHECK-NEXT: zzz\n", "a\nb c\nd\n");
    let text = e.to_string();
    assert!(text.contains("t.mir:2: error: CHECK-NEXT: expected string not found in input"), "{text}");
    assert!(text.contains("<input>:2: note: scanning from here"), "{text}");
    assert!(text.contains("b c"), "{text}");
}

#[test]
fn malformed_checks_are_errors_not_panics() {
    for checks in ["; CHECK: {{[}}\n", "; CHECK: [[\n", "; CHECK: {{\n", "; CHECK: [[#%,]]\n", "; CHECK-COUNT-0: a\n"] {
        fails(checks, "anything\n");
    }
    // Multi-byte text around the directives must not split characters.
    ok("; CHECK: é{{.}}ü\n", "xéöü\n");
}

#[test]
fn invocation_parses_llvm_style_flags() {
    let inv = Invocation::from_args(&["%s", "--check-prefixes=A,B", "-implicit-check-not", "x", "--match-full-lines"])
        .expect("parses");
    assert_eq!(inv.check_file, "%s");
    assert_eq!(inv.options.check_prefixes, vec!["A", "B"]);
    assert_eq!(inv.options.implicit_check_not, vec!["x"]);
    assert!(inv.options.match_full_lines);
    let inv = Invocation::from_args(&["f", "--check-prefix", "X", "-DVAR=1"]).expect("parses");
    assert_eq!(inv.options.check_prefixes, vec!["X"]);
    assert_eq!(inv.options.defines, vec![("VAR".to_owned(), "1".to_owned())]);
    assert!(Invocation::from_args(&["f", "--check-prefix=1bad"]).is_err());
    assert!(Invocation::from_args(&["f", "--check-prefixes=A,A"]).is_err());
    assert!(Invocation::from_args(&["f", "--frobnicate"]).is_err());
    assert!(Invocation::from_args::<&str>(&[]).is_err());
}

/// A small deterministic generator, so the no-panic test needs no crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 33) as usize
    }

    fn text(&mut self, alphabet: &[&str], len: usize) -> String {
        (0..len).map(|_| alphabet[self.next() % alphabet.len()]).collect()
    }
}

#[test]
fn random_check_files_and_inputs_never_panic() {
    let alphabet = [
        "; ",
        "CHECK",
        "-NEXT",
        "-SAME",
        "-NOT",
        "-DAG",
        "-LABEL",
        "-EMPTY",
        "-COUNT-",
        "2",
        "0",
        ":",
        "{{",
        "}}",
        "[[",
        "]]",
        "#",
        "%",
        "@LINE",
        "+",
        "-",
        "X",
        "é",
        "ü",
        "a",
        " ",
        "\t",
        "\n",
        "\\",
        "[",
        "]",
        "(",
        "|",
        "$",
        "{LITERAL}",
        "RUN:",
        "É",
    ];
    let prefixes = [vec!["CHECK".to_owned()], vec!["É".to_owned(), "X".to_owned()], vec![String::new()]];
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for round in 0..3000 {
        let (check_len, input_len) = (rng.next() % 40, rng.next() % 40);
        let mut checks = rng.text(&alphabet, check_len);
        if round % 2 == 1 {
            // Well-formed directives around random patterns reach the matcher.
            let (a, b) = (rng.text(&alphabet[9..], 4), rng.text(&alphabet[9..], 4));
            checks = format!("; CHECK: {a}\n; CHECK-NEXT: {b}\n; CHECK-DAG: {a}\n{checks}");
        }
        let input = rng.text(&alphabet, input_len);
        let opts = Options {
            check_prefixes: prefixes[round % prefixes.len()].clone(),
            match_full_lines: round % 5 == 0,
            strict_whitespace: round % 7 == 0,
            implicit_check_not: if round % 11 == 0 { vec!["a".into()] } else { Vec::new() },
            ..Options::default()
        };
        // Any outcome is fine; rendering the error must not panic either.
        if let Err(e) = check(&checks, "t", &input, &opts) {
            let _ = e.to_string();
        }
    }
}
