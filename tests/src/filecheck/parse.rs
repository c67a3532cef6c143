//! Finds the directives of a check file and groups them into check strings:
//! each positive directive carries the `CHECK-DAG`/`CHECK-NOT` patterns that
//! precede it, and trailing ones go to an implicit end-of-input check.

use super::pattern::Pattern;
use super::{Diagnostic, Options};

/// The kind of a directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    Count(usize),
    /// The implicit check at the end of the input.
    Eof,
}

impl Kind {
    fn suffix(self) -> String {
        match self {
            Kind::Plain | Kind::Eof => String::new(),
            Kind::Next => "-NEXT".into(),
            Kind::Same => "-SAME".into(),
            Kind::Not => "-NOT".into(),
            Kind::Dag => "-DAG".into(),
            Kind::Label => "-LABEL".into(),
            Kind::Empty => "-EMPTY".into(),
            Kind::Count(n) => format!("-COUNT-{n}"),
        }
    }
}

/// Where a directive came from, for diagnostics.
#[derive(Clone, Debug)]
pub(crate) struct Origin {
    /// 1-based line in the check file (0 for command-line patterns).
    pub line: usize,
    /// The directive's name, e.g. `CHECK-NEXT`.
    pub directive: String,
    /// The whole check-file line.
    pub text: String,
}

/// One directive with its pattern (`None` for EMPTY and EOF).
#[derive(Clone, Debug)]
pub(crate) struct Directive {
    pub kind: Kind,
    pub pattern: Option<Pattern>,
    pub origin: Origin,
}

/// A positive directive plus the DAG/NOT directives before it.
#[derive(Clone, Debug)]
pub(crate) struct CheckString {
    pub check: Directive,
    pub dag_nots: Vec<Directive>,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Parses what follows a prefix: the directive kind, whether it is
/// `{LITERAL}`, and the length of the suffix including the colon.
fn parse_suffix(rest: &str) -> Option<(Kind, bool, usize)> {
    let (kind, mut len) = if rest.starts_with(':') || rest.starts_with("{LITERAL}") {
        (Kind::Plain, 0)
    } else if let Some(count) = rest.strip_prefix("-COUNT-") {
        let digits = count.bytes().take_while(u8::is_ascii_digit).count();
        let n: usize = count[..digits].parse().ok()?;
        (Kind::Count(n), 7 + digits)
    } else {
        let table = [
            ("-NEXT", Kind::Next),
            ("-SAME", Kind::Same),
            ("-NOT", Kind::Not),
            ("-DAG", Kind::Dag),
            ("-LABEL", Kind::Label),
            ("-EMPTY", Kind::Empty),
        ];
        let (s, k) = table.into_iter().find(|(s, _)| rest.starts_with(s))?;
        (k, s.len())
    };
    let literal = rest[len..].starts_with("{LITERAL}");
    if literal {
        len += "{LITERAL}".len();
    }
    rest[len..].starts_with(':').then_some((kind, literal, len + 1))
}

/// What a check-file line holds.
enum Found<'a> {
    Comment,
    Check { prefix: &'a str, kind: Kind, literal: bool, pattern: &'a str },
}

/// The byte index of the character after the one at `at`.
fn next_char(line: &str, at: usize) -> usize {
    at + line[at..].chars().next().map_or(1, char::len_utf8)
}

fn find_directive<'a>(line: &'a str, opts: &'a Options) -> Option<Found<'a>> {
    let bytes = line.as_bytes();
    let mut from = 0;
    while from < line.len() {
        // Earliest occurrence of any prefix; the longest one wins a tie.
        let mut best: Option<(usize, &str, bool)> = None;
        let all = opts.check_prefixes.iter().map(|p| (p, false));
        let comments = opts.comment_prefixes.iter().map(|p| (p, true));
        for (prefix, comment) in all.chain(comments).filter(|(p, _)| !p.is_empty()) {
            let mut search = from;
            while let Some(off) = line[search..].find(prefix.as_str()) {
                let at = search + off;
                if at == 0 || !is_word_byte(bytes[at - 1]) {
                    let better = match best {
                        None => true,
                        Some((b, bp, _)) => at < b || (at == b && prefix.len() > bp.len()),
                    };
                    if better {
                        best = Some((at, prefix, comment));
                    }
                    break;
                }
                search = next_char(line, at);
            }
        }
        let (at, prefix, comment) = best?;
        let rest = &line[at + prefix.len()..];
        if comment {
            if rest.starts_with(':') {
                return Some(Found::Comment);
            }
        } else if let Some((kind, literal, len)) = parse_suffix(rest) {
            return Some(Found::Check { prefix, kind, literal, pattern: &rest[len..] });
        }
        from = next_char(line, at);
    }
    None
}

/// Collapses runs of spaces and tabs into one space.
pub(crate) fn canonicalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_space = false;
    for c in text.chars() {
        if c == ' ' || c == '\t' {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

fn error(origin: &Origin, message: String) -> Diagnostic {
    Diagnostic {
        check_line: origin.line,
        directive: origin.directive.clone(),
        check_text: origin.text.clone(),
        message,
        input_line: None,
        input_excerpt: String::new(),
    }
}

fn directive(kind: Kind, literal: bool, text: &str, origin: Origin, opts: &Options) -> Result<Directive, Diagnostic> {
    let text = if opts.strict_whitespace { text.to_owned() } else { canonicalize(text) };
    let text = if opts.strict_whitespace && opts.match_full_lines { &text[..] } else { text.trim_start() };
    let text = text.trim_end_matches([' ', '\t', '\r']);
    if kind == Kind::Empty {
        if !text.is_empty() {
            let msg = format!("found non-empty check string for empty check with prefix '{}:'", origin.directive);
            return Err(error(&origin, msg));
        }
        return Ok(Directive { kind, pattern: None, origin });
    }
    if text.is_empty() {
        let msg = format!("found empty check string with prefix '{}:'", origin.directive);
        return Err(error(&origin, msg));
    }
    let full = opts.match_full_lines && kind != Kind::Not;
    let pattern = Pattern::parse(text, literal, full, origin.line).map_err(|e| error(&origin, e))?;
    if kind == Kind::Label && pattern.has_variables() {
        let msg = format!("found '{}:' with variable definition or use", origin.directive);
        return Err(error(&origin, msg));
    }
    Ok(Directive { kind, pattern: Some(pattern), origin })
}

/// Parses the check file into check strings, or every error found.
pub(crate) fn parse(check_text: &str, opts: &Options) -> Result<Vec<CheckString>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut implicit = Vec::new();
    for pat in &opts.implicit_check_not {
        let origin = Origin { line: 0, directive: "IMPLICIT-CHECK-NOT".into(), text: pat.clone() };
        match directive(Kind::Not, false, pat, origin, opts) {
            Ok(d) => implicit.push(d),
            Err(e) => errors.push(e),
        }
    }
    let mut used = vec![false; opts.check_prefixes.len()];
    let mut strings: Vec<CheckString> = Vec::new();
    let mut pending = implicit.clone();
    for (idx, line) in check_text.lines().enumerate() {
        let Some(Found::Check { prefix, kind, literal, pattern }) = find_directive(line, opts) else {
            continue;
        };
        if let Some(i) = opts.check_prefixes.iter().position(|p| p == prefix) {
            used[i] = true;
        }
        let origin = Origin { line: idx + 1, directive: format!("{prefix}{}", kind.suffix()), text: line.to_owned() };
        if kind == Kind::Count(0) {
            errors.push(error(&origin, format!("invalid count in -COUNT specification on prefix '{prefix}'")));
            continue;
        }
        if matches!(kind, Kind::Next | Kind::Same | Kind::Empty) && strings.is_empty() {
            let msg = format!("found '{}' without previous '{prefix}: line", origin.directive);
            errors.push(error(&origin, msg));
            continue;
        }
        match directive(kind, literal, pattern, origin, opts) {
            Ok(d) if matches!(kind, Kind::Dag | Kind::Not) => pending.push(d),
            Ok(d) => {
                strings.push(CheckString { check: d, dag_nots: std::mem::replace(&mut pending, implicit.clone()) })
            }
            Err(e) => errors.push(e),
        }
    }
    let unused: Vec<&String> = opts.check_prefixes.iter().zip(&used).filter(|(_, u)| !**u).map(|(p, _)| p).collect();
    let none_used = !used.iter().any(|u| *u);
    if none_used || (!opts.allow_unused_prefixes && !unused.is_empty()) {
        let list = if none_used { opts.check_prefixes.iter().collect() } else { unused };
        let names: Vec<String> = list.iter().map(|p| format!("'{p}:'")).collect();
        let plural = if names.len() > 1 { "es" } else { "" };
        errors.push(Diagnostic::global(format!("no check strings found with prefix{plural} {}", names.join(", "))));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if !pending.is_empty() {
        let directive = opts.check_prefixes.first().cloned().unwrap_or_default();
        let origin = Origin { line: 0, directive, text: "(end of input)".into() };
        strings.push(CheckString { check: Directive { kind: Kind::Eof, pattern: None, origin }, dag_nots: pending });
    }
    Ok(strings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, opts: &Options) -> Vec<(Kind, Vec<Kind>)> {
        let strings = parse(text, opts).expect("parses");
        strings.iter().map(|s| (s.check.kind, s.dag_nots.iter().map(|d| d.kind).collect())).collect()
    }

    #[test]
    fn finds_directives_after_comment_markers() {
        let opts = Options::default();
        let text = "# CHECK: a\n; CHECK-NEXT: b\n// CHECK-NOT: c\nCHECK-DAG: d\n  CHECK-LABEL: e\n;CHECK-COUNT-2: f\n";
        let got = kinds(text, &opts);
        let want = vec![
            (Kind::Plain, vec![]),
            (Kind::Next, vec![]),
            (Kind::Label, vec![Kind::Not, Kind::Dag]),
            (Kind::Count(2), vec![]),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn ignores_words_containing_the_prefix_and_comment_lines() {
        let opts = Options::default();
        let text =
            "; XCHECK: a\n; CHECKS: b\n; RUN: llc | FileCheck --check-prefix=CHECK: c\n; COM: CHECK: d\n; CHECK: e\n";
        let strings = parse(text, &opts).expect("parses");
        assert_eq!(strings.len(), 1);
        assert_eq!(strings[0].check.origin.line, 5);
    }

    #[test]
    fn trailing_not_goes_to_eof_and_custom_prefixes() {
        let opts = Options { check_prefixes: vec!["A".into(), "B".into()], ..Options::default() };
        let got = kinds("; A: x\n; B-NOT: y\n", &opts);
        assert_eq!(got, vec![(Kind::Plain, vec![]), (Kind::Eof, vec![Kind::Not])]);
    }

    #[test]
    fn reports_structural_errors() {
        let opts = Options::default();
        let errs = |t: &str| parse(t, &opts).expect_err("must fail");
        assert!(errs("; CHECK-NEXT: a\n")[0].message.contains("without previous"));
        assert!(errs("; CHECK:\n")[0].message.contains("empty check string"));
        assert!(errs("; CHECK: a\n; CHECK-EMPTY: b\n")[0].message.contains("non-empty"));
        assert!(errs("; CHECK-LABEL: [[X:a]]\n")[0].message.contains("variable"));
        assert!(errs("nothing here\n")[0].message.contains("no check strings found"));
        let bad = errs("; CHECK: a\n; CHECK: {{(}}\n");
        assert_eq!(bad[0].check_line, 2);
        let two = Options { check_prefixes: vec!["CHECK".into(), "FOO".into()], ..Options::default() };
        let unused = parse("; CHECK: a\n", &two).expect_err("FOO unused");
        assert!(unused[0].message.contains("'FOO:'"), "{}", unused[0].message);
    }

    #[test]
    fn canonicalizes_whitespace() {
        assert_eq!(canonicalize("a  \t b\tc"), "a b c");
    }
}
