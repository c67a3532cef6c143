//! Replays the guide's `gisel` sessions (the `console` blocks of
//! `docs/src/*.md`) against the binary: each `$ gisel ARGS` line is run
//! from the repository's root and its standard output followed by its
//! standard error must match the lines below it, where a `...` line stands
//! for any number of lines. A command must fail exactly when its expected
//! output shows an `error:` line.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One `$ gisel ...` command and the output the guide shows for it.
struct Session {
    chapter: PathBuf,
    args: Vec<String>,
    expected: Vec<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every session of every chapter.
fn sessions() -> Vec<Session> {
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .expect("docs/src exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    let mut sessions = Vec::new();
    for chapter in chapters {
        let text = std::fs::read_to_string(&chapter).expect("chapter is readable");
        let mut in_console = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_console = line == "```console";
                continue;
            }
            if !in_console {
                continue;
            }
            if let Some(command) = line.strip_prefix("$ ") {
                let mut words = command.split_whitespace().map(str::to_owned);
                assert_eq!(words.next().as_deref(), Some("gisel"), "{}: only gisel sessions run", chapter.display());
                sessions.push(Session { chapter: chapter.clone(), args: words.collect(), expected: Vec::new() });
            } else if let Some(session) = sessions.last_mut() {
                session.expected.push(line.to_owned());
            }
        }
    }
    sessions
}

/// Matches `actual` against `expected`, where a `...` line in `expected`
/// matches any run of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => actual.first().is_some_and(|line| line == first) && matches(rest, &actual[1..]),
    }
}

#[test]
fn guide_sessions_print_what_the_guide_shows() {
    let sessions = sessions();
    assert!(sessions.len() >= 5, "the guide's sessions were not found");
    for session in sessions {
        let output = Command::new(env!("CARGO_BIN_EXE_gisel"))
            .args(&session.args)
            .current_dir(root())
            .output()
            .expect("gisel runs");
        let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        let actual: Vec<&str> = text.lines().collect();
        let context = format!("{}: $ gisel {}", session.chapter.display(), session.args.join(" "));
        assert!(
            matches(&session.expected, &actual),
            "{context}\nexpected:\n{}\ngot:\n{text}",
            session.expected.join("\n")
        );
        let should_fail = session.expected.iter().any(|line| line.starts_with("error:"));
        assert_eq!(!output.status.success(), should_fail, "{context}: exit status {}", output.status);
    }
}

#[test]
fn elision_matches_any_run_of_lines() {
    let expected: Vec<String> = ["a", "...", "d"].map(str::to_owned).to_vec();
    assert!(matches(&expected, &["a", "d"]));
    assert!(matches(&expected, &["a", "b", "c", "d"]));
    assert!(!matches(&expected, &["a", "b"]));
    assert!(!matches(&expected, &["x", "d"]));
}
