//! Runs one `.mir` test file: each `RUN:` pipeline `[not] llc|gisel ARGS
//! [2>&1] [| [not] FileCheck ARGS]` is run directly (no shell) and the
//! tool's output is checked with [`crate::filecheck`].

mod process;
pub mod run_line;

use crate::filecheck::{self, FileCheckError, Invocation};
pub use process::Output;
use run_line::{RunLine, Stage, Substitutions};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The program that `llc` and `gisel` in RUN lines stand for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// The gisel binary: `llc ARGS` runs `gisel llc ARGS`, `gisel ARGS`
    /// runs `gisel ARGS`.
    Gisel(PathBuf),
    /// A real `llc` (to prove tests and the runner on LLVM itself):
    /// `llc ARGS` runs it; `gisel` commands are an error.
    Llc(PathBuf),
}

/// How tests are run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The tool under test.
    pub tool: Tool,
    /// How long one command may run before it is killed.
    pub timeout: Duration,
}

impl Config {
    /// A configuration for `tool` with a 60 second timeout per command.
    pub fn new(tool: Tool) -> Self {
        Config { tool, timeout: Duration::from_secs(60) }
    }
}

/// Why a test failed.
#[derive(Debug)]
pub enum Reason {
    /// The test file could not be read.
    Io(String),
    /// The file has no `RUN:` line.
    NoRunLines,
    /// A RUN line this runner cannot run.
    BadRunLine(String),
    /// The program could not be started.
    Spawn(String),
    /// The program ran past the timeout and was killed.
    Timeout(Duration),
    /// The program's exit status was not the expected one.
    UnexpectedStatus {
        /// The RUN line said `not`.
        expected_failure: bool,
    },
    /// FileCheck found a mismatch.
    FileCheck(FileCheckError),
    /// `not FileCheck` expected a mismatch and found none.
    FileCheckPassed,
}

/// A failed test with everything needed to see why.
#[derive(Debug)]
pub struct Failure {
    /// The test file.
    pub file: PathBuf,
    /// The RUN command that failed, if any.
    pub run: Option<RunLine>,
    /// The command run (program and arguments), if it got that far.
    pub command: Vec<String>,
    /// The command's exit code (`None` if killed by a signal or not run).
    pub status: Option<i32>,
    /// The command's standard error.
    pub stderr: String,
    /// Why it failed.
    pub reason: Reason,
}

impl Failure {
    fn new(file: &Path, run: Option<&RunLine>, reason: Reason) -> Box<Self> {
        Box::new(Failure {
            file: file.to_owned(),
            run: run.cloned(),
            command: Vec::new(),
            status: None,
            stderr: String::new(),
            reason,
        })
    }
}

fn indented(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    for line in text.lines() {
        writeln!(f, "    {line}")?;
    }
    Ok(())
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "FAIL: {}", self.file.display())?;
        if let Some(run) = &self.run {
            writeln!(f, "  RUN (line {}): {}", run.line, run.text)?;
        }
        if !self.command.is_empty() {
            writeln!(f, "  command: {}", self.command.join(" "))?;
            match self.status {
                Some(code) => writeln!(f, "  exit status: {code}")?,
                None => writeln!(f, "  exit status: none (killed by a signal or not finished)")?,
            }
        }
        match &self.reason {
            Reason::Io(e) => writeln!(f, "  error: {e}")?,
            Reason::NoRunLines => writeln!(f, "  error: no RUN: lines")?,
            Reason::BadRunLine(e) => writeln!(f, "  error: cannot run this RUN line: {e}")?,
            Reason::Spawn(e) => writeln!(f, "  error: cannot start the program: {e}")?,
            Reason::Timeout(t) => writeln!(f, "  error: killed after {}s", t.as_secs())?,
            Reason::UnexpectedStatus { expected_failure: true } => {
                writeln!(f, "  error: expected a non-zero exit ('not'), but it succeeded")?;
            }
            Reason::UnexpectedStatus { expected_failure: false } => writeln!(f, "  error: the command failed")?,
            Reason::FileCheck(e) => {
                writeln!(f, "  FileCheck failed:")?;
                indented(f, &e.to_string())?;
            }
            Reason::FileCheckPassed => {
                writeln!(f, "  error: 'not FileCheck' expected a mismatch, but all checks passed")?
            }
        }
        if !self.stderr.trim().is_empty() {
            writeln!(f, "  stderr:")?;
            indented(f, &self.stderr)?;
        }
        Ok(())
    }
}

impl std::error::Error for Failure {}

/// One RUN command understood: the tool stage and the FileCheck stage.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The RUN command.
    pub run: RunLine,
    /// The tool stage (`llc`/`gisel`), absent for a lone FileCheck.
    pub tool: Option<Stage>,
    /// The FileCheck stage with its parsed arguments.
    pub filecheck: Option<(Stage, Invocation)>,
}

/// Reads the RUN lines of `text` (the test at `path`) and understands them.
pub fn plan(path: &Path, text: &str) -> Result<Vec<Plan>, Box<Failure>> {
    let runs = run_line::run_lines(text);
    if runs.is_empty() {
        return Err(Failure::new(path, None, Reason::NoRunLines));
    }
    let stem = path.file_name().map_or("test".into(), |s| s.to_string_lossy().into_owned());
    let temp = std::env::temp_dir().join("gisel-tests").join(format!("{stem}.{}.tmp", std::process::id()));
    let subst = Substitutions::for_test(path, &temp);
    let mut plans = Vec::new();
    for run in runs {
        let bad = |e: String| Failure::new(path, Some(&run), Reason::BadRunLine(e));
        let mut stages = run_line::parse_pipeline(&run.text, &subst).map_err(bad)?;
        let filecheck = match stages.last() {
            Some(s) if s.program() == "FileCheck" => {
                let inv = Invocation::from_args(&s.argv[1..]).map_err(bad)?;
                stages.pop().map(|s| (s, inv))
            }
            _ => None,
        };
        if stages.len() > 1 {
            return Err(bad("only 'TOOL | FileCheck' pipelines are supported".into()));
        }
        let tool = stages.pop();
        if let Some(t) = &tool {
            if !matches!(t.program(), "llc" | "gisel") {
                return Err(bad(format!("unknown program '{}' (expected llc, gisel or FileCheck)", t.program())));
            }
        } else if filecheck.as_ref().is_none_or(|(_, inv)| inv.input_file.is_none()) {
            return Err(bad("FileCheck without a tool needs --input-file".into()));
        }
        if temp.parent().is_some_and(|d| std::fs::create_dir_all(d).is_err()) {
            return Err(bad("cannot create the folder for %t".into()));
        }
        plans.push(Plan { run, tool, filecheck });
    }
    Ok(plans)
}

/// The program and arguments that `stage` runs as, given the tool.
pub fn command_for(stage: &Stage, tool: &Tool) -> Result<Vec<String>, String> {
    let args = stage.argv[1..].iter().cloned();
    let mut argv = Vec::new();
    match (tool, stage.program()) {
        (Tool::Gisel(p), "llc") => argv.extend([p.display().to_string(), "llc".into()]),
        (Tool::Gisel(p), _) | (Tool::Llc(p), "llc") => argv.push(p.display().to_string()),
        (Tool::Llc(_), other) => {
            return Err(format!("'{other}' cannot run when the tool is a real llc"));
        }
    }
    argv.extend(args);
    Ok(argv)
}

/// Runs the tool stage of `plan` and checks its exit status.
pub fn run_tool(path: &Path, plan: &Plan, stage: &Stage, config: &Config) -> Result<Output, Box<Failure>> {
    let command =
        command_for(stage, &config.tool).map_err(|e| Failure::new(path, Some(&plan.run), Reason::BadRunLine(e)))?;
    let fail = |reason, out: Option<&Output>| {
        Box::new(Failure {
            command: command.clone(),
            status: out.and_then(|o| o.status),
            stderr: out.map(|o| o.stderr.clone()).unwrap_or_default(),
            ..*Failure::new(path, Some(&plan.run), reason)
        })
    };
    let out = process::run(&command, config.timeout).map_err(|e| fail(Reason::Spawn(e), None))?;
    if out.timed_out {
        return Err(fail(Reason::Timeout(config.timeout), Some(&out)));
    }
    let ok = if stage.negate { out.status.is_some_and(|c| c != 0) } else { out.status == Some(0) };
    if !ok {
        return Err(fail(Reason::UnexpectedStatus { expected_failure: stage.negate }, Some(&out)));
    }
    Ok(out)
}

/// Runs every RUN command of the test at `path`.
pub fn run_file(path: &Path, config: &Config) -> Result<(), Box<Failure>> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::new(path, None, Reason::Io(e.to_string())))?;
    for plan in plan(path, &text)? {
        let output = match &plan.tool {
            Some(stage) => Some((run_tool(path, &plan, stage, config)?, stage)),
            None => None,
        };
        let Some((fc_stage, inv)) = &plan.filecheck else {
            continue;
        };
        let io = |e: String| Failure::new(path, Some(&plan.run), Reason::Io(e));
        let input = match (&inv.input_file, &output) {
            (Some(file), _) => std::fs::read_to_string(file).map_err(|e| io(format!("{file}: {e}")))?,
            (None, Some((out, stage))) if stage.stderr_to_stdout => {
                format!("{}{}", out.stdout, out.stderr)
            }
            (None, Some((out, _))) => out.stdout.clone(),
            (None, None) => String::new(),
        };
        let checks = std::fs::read_to_string(&inv.check_file).map_err(|e| io(format!("{}: {e}", inv.check_file)))?;
        let result = filecheck::check(&checks, &inv.check_file, &input, &inv.options);
        let reason = match (result, fc_stage.negate) {
            (Ok(()), false) | (Err(_), true) => continue,
            (Err(e), false) => Reason::FileCheck(e),
            (Ok(()), true) => Reason::FileCheckPassed,
        };
        let mut failure = Failure::new(path, Some(&plan.run), reason);
        if let Some((out, stage)) = output {
            failure.command = command_for(stage, &config.tool).unwrap_or_default();
            failure.status = out.status;
            failure.stderr = out.stderr;
        }
        return Err(failure);
    }
    Ok(())
}
