//! `gisel`: print and verify `.mir` files, and an `llc`-compatible front
//! (`gisel llc -mtriple=aarch64 -run-pass=none FILE -o -`).

mod legalize_cmd;
mod llc_args;
mod rules_cmds;
mod verification;

use gisel_core::mir::{
    MachineFunction, MirError, MirModule, Target, read_mir, read_mir_documents, write_function, write_mir,
};
use llc_args::{LlcArgs, Pass};
use std::process::ExitCode;
use std::{env, fs, io::Write};
use verification::Verifier;

/// mimalloc: the legalizer allocates and frees many small vectors per
/// instruction, which the system allocator serves more slowly.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: gisel <command> [options]

commands:
  print  [-mtriple=T] [-mattr=A] FILE      parse FILE and print it as llc does
  verify [-mtriple=T] [-mattr=A] FILE      check every instruction against its opcode
  query  -mtriple=T OPCODE TYPE... [--mem=TYPE:ALIGN_BITS]
                                          the rule trail for one instruction shape
  rules  -mtriple=T [--matrix] [--html OUT] every rule, the legality matrix, or an HTML page
  llc    [-mtriple=T] [-mattr=A] [-O0] [-verify-machineinstrs]
         [-global-isel-abort=N] [--code-model=M] [--verify-semantics]
         [--explain] -run-pass=none|legalizer FILE [-o OUT]
                                          llc-compatible front (OUT '-' = stdout);
                                          --explain reports each step on stderr
";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "print" | "verify" | "llc" => LlcArgs::parse(rest).and_then(|parsed| run(command, &parsed)),
        "query" => rules_cmds::query(rest).and_then(|text| emit(&text, "-")),
        "rules" => rules_cmds::rules(rest).and_then(|text| emit(&text, "-")),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => Err(format!("gisel: unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            ExitCode::FAILURE
        }
    }
}

fn run(command: &str, args: &LlcArgs) -> Result<(), String> {
    if command == "llc" && args.pass == Some(Pass::Legalizer) {
        return legalize_file(args);
    }
    let mut module = load(args)?;
    let result = run_on(command, args, &mut module);
    // The process ends next: freeing every function one by one would only
    // cost time the operating system saves by dropping the heap whole.
    std::mem::forget(module);
    result
}

/// `print`, `verify` and `llc` without a pass or with `-run-pass=none`
/// (the legalizer reads as it goes, see [`legalize_file`]).
fn run_on(command: &str, args: &LlcArgs, module: &mut MirModule) -> Result<(), String> {
    match command {
        "verify" => Verifier::new(&module.target).check_module(module),
        "print" => emit(&write_mir(module), "-"),
        _ if args.pass.is_none() => Err("gisel llc: expected -run-pass=none or -run-pass=legalizer".to_owned()),
        _ => {
            let verifier = Verifier::new(&module.target);
            for function in &module.functions {
                verifier.check_input(function)?;
            }
            emit(&write_mir(module), args.output.as_deref().unwrap_or("-"))
        }
    }
}

/// `gisel llc -run-pass=legalizer`: reads, legalizes, verifies (with
/// `-verify-machineinstrs`) and writes one function at a time, so that each
/// function's memory is reused by the next. Everything printed is what
/// reading the whole file first prints: a body that cannot be read is
/// reported even after an earlier function failed, and with `--explain`
/// every body is read before the first step is reported.
fn legalize_file(args: &LlcArgs) -> Result<(), String> {
    let path = args.input.as_deref().ok_or("gisel: no input file")?;
    let source = fs::read_to_string(path).map_err(|e| format!("gisel: cannot read '{path}': {e}"))?;
    let render = |e: MirError| e.render(path, &source);
    let features = args.features.as_deref().unwrap_or("");
    let mut documents = read_mir_documents(&source, path, args.triple.as_deref(), features).map_err(render)?;
    let mut text = String::new();
    documents.write_prologue(&mut text);
    let docs = std::mem::take(&mut documents.functions);
    let reads = docs.into_iter().map(|doc| documents.read_function(doc).map_err(render));
    let text = if args.explain {
        let functions = reads.collect::<Result<Vec<_>, _>>()?;
        legalize_and_write(functions.into_iter().map(Ok), &documents.target, args, text)?
    } else {
        legalize_and_write(reads, &documents.target, args, text)?
    };
    emit(&text, args.output.as_deref().unwrap_or("-"))
}

/// Legalizes, verifies and appends to `text` each function as `functions`
/// reads it, then prints the remarks; a verifier report or a change of
/// meaning (`--verify-semantics`) fails the run after the remarks. A failure to legalize is returned only once every remaining
/// function has been read, since a read error takes precedence.
fn legalize_and_write(
    functions: impl Iterator<Item = Result<MachineFunction, String>>,
    target: &Target,
    args: &LlcArgs,
    mut text: String,
) -> Result<String, String> {
    let (legalizer, mut failure) = match legalize_cmd::ModuleLegalizer::new(target, args) {
        Ok(legalizer) => (Some(legalizer), None),
        Err(error) => (None, Some(error)),
    };
    let (mut remarks, mut mismatches, mut report) = (Vec::new(), Vec::new(), String::new());
    let verifier = Verifier::new(target);
    for function in functions {
        let mut function = function?;
        // llc verifies each function as it reads it and stops at the first
        // that breaks the rules, before any pass runs.
        verifier.check_input(&function)?;
        let Some(legalizer) = legalizer.as_ref().filter(|_| failure.is_none()) else { continue };
        if let Err(error) = legalizer.legalize(&mut function, target, &mut remarks, &mut mismatches) {
            failure = Some(error);
            continue;
        }
        if args.verify {
            verifier.report(&function, &mut report);
        }
        write_function(&function, target, &mut text);
    }
    if let Some(error) = failure {
        return Err(error);
    }
    for remark in remarks {
        eprintln!("{remark}");
    }
    report.extend(mismatches.iter().map(|m| format!("{m}\n")));
    if report.is_empty() { Ok(text) } else { Err(report) }
}

/// Reads and parses the input file, rendering errors with their location.
fn load(args: &LlcArgs) -> Result<MirModule, String> {
    let path = args.input.as_deref().ok_or("gisel: no input file")?;
    let source = fs::read_to_string(path).map_err(|e| format!("gisel: cannot read '{path}': {e}"))?;
    read_mir(&source, path, args.triple.as_deref(), args.features.as_deref().unwrap_or(""))
        .map_err(|e: MirError| e.render(path, &source))
}

fn emit(text: &str, output: &str) -> Result<(), String> {
    if output == "-" {
        std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("gisel: cannot write output: {e}"))
    } else {
        fs::write(output, text).map_err(|e| format!("gisel: cannot write '{output}': {e}"))
    }
}
