//! The subset of LLVM FileCheck that LLVM's MIR tests use.
//!
//! Directives: `CHECK:`, `-NEXT:`, `-SAME:`, `-NOT:`, `-DAG:`, `-LABEL:`,
//! `-EMPTY:`, `-COUNT-n:` and the `{LITERAL}` modifier, under any prefix
//! (`--check-prefix`, `--check-prefixes`), found anywhere on a line (after
//! `;`, `#`, `//` ...). Lines holding a comment prefix (`COM:`, `RUN:` by
//! default) first are ignored. Patterns hold `{{regex}}` blocks,
//! `[[VAR:regex]]` definitions, `[[VAR]]` uses, and numeric variables
//! (`[[#N:]]`, `[[#%x,N:]]`, `[[#N+1]]`, `[[@LINE-1]]`). Options:
//! `--match-full-lines`, `--strict-whitespace`, `--implicit-check-not`,
//! `--enable-var-scope`, `-D`, `--allow-empty`, `--allow-unused-prefixes`.
//!
//! ```
//! use gisel_tests::filecheck::{check, Options};
//! let checks = "; CHECK: [[A:%[0-9]+]]:_(s32) = COPY $w0\n; CHECK-NEXT: G_ADD [[A]], [[A]]\n";
//! let input = "%0:_(s32) = COPY $w0\n%1:_(s32) = G_ADD %0, %0\n";
//! check(checks, "test.mir", input, &Options::default()).unwrap();
//! ```

mod matcher;
mod parse;
mod pattern;

use std::fmt;

/// FileCheck's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Check prefixes; `["CHECK"]` by default.
    pub check_prefixes: Vec<String>,
    /// Comment prefixes; `["COM", "RUN"]` by default.
    pub comment_prefixes: Vec<String>,
    /// `--match-full-lines`: a pattern must match a whole input line.
    pub match_full_lines: bool,
    /// `--strict-whitespace`: do not canonicalise horizontal whitespace.
    pub strict_whitespace: bool,
    /// `--implicit-check-not`: patterns that must not occur between matches.
    pub implicit_check_not: Vec<String>,
    /// `--enable-var-scope`: forget non-`$` variables at each label block.
    pub enable_var_scope: bool,
    /// `-D NAME=VALUE`: predefined string variables.
    pub defines: Vec<(String, String)>,
    /// `--allow-empty`: accept an empty input.
    pub allow_empty: bool,
    /// `--allow-unused-prefixes`: a prefix with no directive is no error.
    pub allow_unused_prefixes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            check_prefixes: vec!["CHECK".into()],
            comment_prefixes: vec!["COM".into(), "RUN".into()],
            match_full_lines: false,
            strict_whitespace: false,
            implicit_check_not: Vec::new(),
            enable_var_scope: false,
            defines: Vec::new(),
            allow_empty: false,
            allow_unused_prefixes: false,
        }
    }
}

/// A FileCheck command line: the check file and the options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// The check file (the positional argument).
    pub check_file: String,
    /// `--input-file`, when given; standard input otherwise.
    pub input_file: Option<String>,
    /// The options.
    pub options: Options,
}

fn is_prefix_name(p: &str) -> bool {
    p.starts_with(|c: char| c.is_ascii_alphabetic())
        && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn parse_bool(flag: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("true" | "1") => Ok(true),
        Some("false" | "0") => Ok(false),
        Some(v) => Err(format!("invalid value '{v}' for {flag}")),
    }
}

impl Invocation {
    /// Parses FileCheck's arguments (without the program name).
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<Self, String> {
        let mut options = Options::default();
        let mut prefixes: Vec<String> = Vec::new();
        let (mut check_file, mut input_file) = (None, None);
        let mut it = args.iter().map(AsRef::as_ref);
        while let Some(arg) = it.next() {
            if !arg.starts_with('-') || arg == "-" {
                if check_file.replace(arg.to_owned()).is_some() {
                    return Err(format!("FileCheck: more than one check file ('{arg}')"));
                }
                continue;
            }
            if let Some(def) = arg.strip_prefix("-D") {
                let def = if def.is_empty() { it.next().ok_or("-D needs NAME=VALUE")? } else { def };
                let (name, value) = def.split_once('=').ok_or_else(|| format!("-D{def}: missing '='"))?;
                options.defines.push((name.to_owned(), value.to_owned()));
                continue;
            }
            let flag = arg.trim_start_matches('-');
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (flag, None),
            };
            let takes_value = matches!(
                name,
                "check-prefix" | "check-prefixes" | "comment-prefixes" | "implicit-check-not" | "input-file"
            );
            let value = match (takes_value, inline) {
                (true, Some(v)) => Some(v.to_owned()),
                (true, None) => Some(it.next().ok_or_else(|| format!("{arg} needs a value"))?.to_owned()),
                (false, v) => v.map(str::to_owned),
            };
            let text = value.clone().unwrap_or_default();
            match name {
                "check-prefix" | "check-prefixes" => prefixes.extend(text.split(',').map(str::to_owned)),
                "comment-prefixes" => options.comment_prefixes = text.split(',').map(str::to_owned).collect(),
                "implicit-check-not" => options.implicit_check_not.push(text),
                "input-file" => input_file = Some(text),
                "match-full-lines" => options.match_full_lines = parse_bool(arg, value.as_deref())?,
                "strict-whitespace" => options.strict_whitespace = parse_bool(arg, value.as_deref())?,
                "enable-var-scope" => options.enable_var_scope = parse_bool(arg, value.as_deref())?,
                "allow-empty" => options.allow_empty = parse_bool(arg, value.as_deref())?,
                "allow-unused-prefixes" => options.allow_unused_prefixes = parse_bool(arg, value.as_deref())?,
                "v" | "vv" | "color" | "dump-input" | "dump-input-filter" | "dump-input-context" => {}
                _ => return Err(format!("FileCheck: unsupported option '{arg}'")),
            }
        }
        if !prefixes.is_empty() {
            options.check_prefixes = prefixes;
        }
        for p in options.check_prefixes.iter().chain(&options.comment_prefixes) {
            if !is_prefix_name(p) {
                return Err(format!("supplied prefix '{p}' is not a valid identifier"));
            }
        }
        let all: Vec<&String> = options.check_prefixes.iter().chain(&options.comment_prefixes).collect();
        if (1..all.len()).any(|i| all[..i].contains(&all[i])) {
            return Err("supplied check prefixes and comment prefixes must be unique".into());
        }
        let check_file = check_file.ok_or("FileCheck: no check file given")?;
        Ok(Invocation { check_file, input_file, options })
    }
}

/// One FileCheck error: the directive and check-file line, and, when it
/// failed on the input, where scanning started with a few lines from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line in the check file; 0 when not tied to a line.
    pub check_line: usize,
    /// The directive, e.g. `CHECK-NEXT`; empty when not tied to one.
    pub directive: String,
    /// The check-file line as written.
    pub check_text: String,
    /// What went wrong, e.g. "expected string not found in input".
    pub message: String,
    /// 1-based input line where the excerpt starts, for match failures.
    pub input_line: Option<usize>,
    /// A few lines of (canonicalised) input from where scanning started.
    pub input_excerpt: String,
}

impl Diagnostic {
    fn global(message: String) -> Self {
        Diagnostic {
            check_line: 0,
            directive: String::new(),
            check_text: String::new(),
            message,
            input_line: None,
            input_excerpt: String::new(),
        }
    }
}

/// Every error of one FileCheck run, rendered like FileCheck's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCheckError {
    /// The check file's name, as shown in messages.
    pub check_name: String,
    /// The errors, in check-file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for FileCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.diagnostics {
            match (d.check_line, d.directive.is_empty()) {
                (0, true) => writeln!(f, "error: {}", d.message)?,
                (0, false) => writeln!(f, "error: {}: {}", d.directive, d.message)?,
                (line, _) => writeln!(f, "{}:{line}: error: {}: {}", self.check_name, d.directive, d.message)?,
            }
            if !d.check_text.is_empty() {
                writeln!(f, "  {}", d.check_text.trim())?;
            }
            if let Some(line) = d.input_line {
                writeln!(f, "<input>:{line}: note: scanning from here")?;
                for (i, text) in d.input_excerpt.lines().enumerate() {
                    writeln!(f, "  {:>5} | {text}", line + i)?;
                }
            }
        }
        Ok(())
    }
}

impl std::error::Error for FileCheckError {}

/// Checks `input` against the directives in `check_text`. `check_name`
/// names the check file in messages. Never panics on malformed input.
pub fn check(check_text: &str, check_name: &str, input: &str, options: &Options) -> Result<(), FileCheckError> {
    let error = |diagnostics| FileCheckError { check_name: check_name.to_owned(), diagnostics };
    let strings = parse::parse(check_text, options).map_err(error)?;
    if input.is_empty() && !options.allow_empty {
        return Err(error(vec![Diagnostic::global("input is empty; use --allow-empty to accept".into())]));
    }
    let canonical;
    let input = if options.strict_whitespace {
        input
    } else {
        canonical = parse::canonicalize(input);
        &canonical
    };
    let mut vars = pattern::Vars::default();
    for (name, value) in &options.defines {
        vars.set_string(name, value);
    }
    let mut matcher = matcher::Matcher::new(input, vars, options.enable_var_scope);
    if matcher.run(&strings) { Ok(()) } else { Err(error(matcher.diags)) }
}

#[cfg(test)]
mod tests;
