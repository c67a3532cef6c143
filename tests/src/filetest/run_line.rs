//! `RUN:` lines: finding them (with `\` continuations), splitting them into
//! words like a shell would, substituting `%s`/`%t`/`%S`, and cutting them
//! into a pipeline of stages.

use std::path::Path;

/// One `RUN:` command, continuations joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLine {
    /// 1-based line of the first `RUN:` of the command.
    pub line: usize,
    /// The command text as written, continuations joined with a space.
    pub text: String,
}

/// Finds the `RUN:` lines of a test: `RUN:` preceded on its line only by
/// comment markers (`#`, `;`, `//`) and spaces.
pub fn run_lines(test: &str) -> Vec<RunLine> {
    let mut out: Vec<RunLine> = Vec::new();
    let mut continuing = false;
    for (idx, line) in test.lines().enumerate() {
        let Some(at) = line.find("RUN:") else {
            continuing = false;
            continue;
        };
        if !line[..at].chars().all(|c| matches!(c, '#' | ';' | '/' | ' ' | '\t')) {
            continue;
        }
        let body = line[at + 4..].trim();
        let (body, more) = match body.strip_suffix('\\') {
            Some(b) => (b.trim_end(), true),
            None => (body, false),
        };
        match out.last_mut() {
            Some(last) if continuing => {
                last.text.push(' ');
                last.text.push_str(body);
            }
            _ => out.push(RunLine { line: idx + 1, text: body.to_owned() }),
        }
        continuing = more;
    }
    out
}

/// A word of a command or a pipe between commands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Pipe,
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    tokens.push(Token::Word(w));
                }
            }
            '|' if chars.peek() == Some(&'|') => return Err("'||' is not supported".into()),
            '|' => {
                if let Some(w) = word.take() {
                    tokens.push(Token::Word(w));
                }
                tokens.push(Token::Pipe);
            }
            ';' | '<' | '`' => return Err(format!("shell construct '{c}' is not supported")),
            '&' if word.as_deref() != Some("2>") => {
                return Err("'&' is not supported (only 2>&1)".into());
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\' | '$')) => {
                            w.extend(chars.next());
                        }
                        Some(c) => w.push(c),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                let next = chars.next().ok_or("trailing backslash")?;
                word.get_or_insert_with(String::new).push(next);
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    tokens.extend(word.map(Token::Word));
    Ok(tokens)
}

/// What `%s`, `%t`, `%S` stand for.
#[derive(Clone, Debug)]
pub struct Substitutions {
    /// `%s`: the test file.
    pub source: String,
    /// `%t`: a scratch file for this test.
    pub temp: String,
    /// `%S` and `%p`: the test file's folder.
    pub source_dir: String,
}

impl Substitutions {
    /// The substitutions for the test at `path`, with `temp` as `%t`.
    pub fn for_test(path: &Path, temp: &Path) -> Self {
        let dir = path.parent().unwrap_or(Path::new("."));
        Substitutions {
            source: path.display().to_string(),
            temp: temp.display().to_string(),
            source_dir: dir.display().to_string(),
        }
    }

    fn apply(&self, word: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut chars = word.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('s') => out.push_str(&self.source),
                Some('t') => out.push_str(&self.temp),
                Some('S' | 'p') => out.push_str(&self.source_dir),
                Some('%') => out.push('%'),
                Some(other) => return Err(format!("unknown substitution '%{other}'")),
                None => return Err("lone '%' at end of word".into()),
            }
        }
        Ok(out)
    }
}

/// One command of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Prefixed with `not`: the command must exit with a non-zero code.
    pub negate: bool,
    /// Program and arguments, substitutions applied.
    pub argv: Vec<String>,
    /// `2>&1`: standard error goes where standard output goes.
    pub stderr_to_stdout: bool,
}

impl Stage {
    /// The program's name (`llc`, `gisel`, `FileCheck` ...).
    pub fn program(&self) -> &str {
        self.argv.first().map_or("", String::as_str)
    }
}

/// Splits a RUN command into its stages, substitutions applied.
pub fn parse_pipeline(text: &str, subst: &Substitutions) -> Result<Vec<Stage>, String> {
    let mut stages = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut tokens = tokenize(text)?;
    tokens.push(Token::Pipe);
    for token in tokens {
        match token {
            Token::Word(w) => current.push(w),
            Token::Pipe => {
                let words = std::mem::take(&mut current);
                if words.is_empty() {
                    return Err("empty command in pipeline".into());
                }
                stages.push(stage(words, subst)?);
            }
        }
    }
    Ok(stages)
}

fn stage(words: Vec<String>, subst: &Substitutions) -> Result<Stage, String> {
    let mut negate = false;
    let mut stderr_to_stdout = false;
    let mut argv = Vec::new();
    for (i, w) in words.into_iter().enumerate() {
        match w.as_str() {
            "not" if i == 0 => negate = true,
            "2>&1" => stderr_to_stdout = true,
            w if w.starts_with('>') || w.starts_with("2>") || w.starts_with("1>") => {
                return Err(format!("redirection '{w}' is not supported"));
            }
            w if argv.is_empty() && w.starts_with("--") && negate => {
                return Err(format!("'not {w}' is not supported"));
            }
            w => argv.push(subst.apply(w)?),
        }
    }
    if argv.is_empty() {
        return Err("command without a program".into());
    }
    Ok(Stage { negate, argv, stderr_to_stdout })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn subst() -> Substitutions {
        Substitutions::for_test(Path::new("/d/t.mir"), Path::new("/tmp/t.tmp"))
    }

    #[test]
    fn finds_run_lines_and_joins_continuations() {
        let text = "# RUN: llc -a %s \\\n# RUN:   -o - | FileCheck %s\n---\n; RUN: not gisel x\nfoo RUN: no\n";
        let got = run_lines(text);
        assert_eq!(
            got,
            vec![
                RunLine { line: 1, text: "llc -a %s -o - | FileCheck %s".into() },
                RunLine { line: 4, text: "not gisel x".into() },
            ]
        );
    }

    #[test]
    fn pipeline_with_not_and_stderr() {
        let stages =
            parse_pipeline("not llc -O0 %s -o - 2>&1 | FileCheck %s --check-prefix=ERR", &subst()).expect("parses");
        assert_eq!(stages.len(), 2);
        assert!(stages[0].negate && stages[0].stderr_to_stdout);
        assert_eq!(stages[0].argv, vec!["llc", "-O0", "/d/t.mir", "-o", "-"]);
        assert_eq!(stages[1].program(), "FileCheck");
        assert_eq!(stages[1].argv[1], "/d/t.mir");
    }

    #[test]
    fn quotes_and_substitutions() {
        let stages = parse_pipeline("llc 'a b' \"c\\\"d\" %t 100%% %S/x", &subst()).expect("parses");
        assert_eq!(stages[0].argv, vec!["llc", "a b", "c\"d", "/tmp/t.tmp", "100%", "/d/x"]);
    }

    #[test]
    fn rejects_unsupported_shell() {
        for bad in ["a && b", "a ; b", "a > f", "a < f", "a || b", "a |", "'open", "x %q", "not --crash llc"] {
            assert!(parse_pipeline(bad, &subst()).is_err(), "{bad}");
        }
    }
}
