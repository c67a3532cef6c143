//! `gisel`: print and verify `.mir` files, and an `llc`-compatible front
//! (`gisel llc -mtriple=aarch64 -run-pass=none FILE -o -`).

mod legalize_cmd;
mod llc_args;
mod pipeline;
mod rules_cmds;
mod verification;

use gisel_core::mir::{MirError, MirModule, read_mir, read_mir_documents, write_mir};
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
/// `-verify-machineinstrs`) and writes one function at a time (see
/// [`pipeline`]), so that each function's memory is reused by the next.
/// Everything printed is what reading the whole file first prints: a body
/// that cannot be read is reported even after an earlier function failed,
/// and with `--explain` every body is read before the first step is
/// reported.
fn legalize_file(args: &LlcArgs) -> Result<(), String> {
    let path = args.input.as_deref().ok_or("gisel: no input file")?;
    let source = fs::read_to_string(path).map_err(|e| format!("gisel: cannot read '{path}': {e}"))?;
    let render = |e: MirError| e.render(path, &source);
    let features = args.features.as_deref().unwrap_or("");
    let mut documents = read_mir_documents(&source, path, args.triple.as_deref(), features).map_err(render)?;
    let mut prologue = String::new();
    documents.write_prologue(&mut prologue);
    let docs = std::mem::take(&mut documents.functions);
    let pieces = pipeline::legalize_documents(&documents, docs, args, prologue, &render)?;
    emit_pieces(&pieces, args.output.as_deref().unwrap_or("-"))
}

/// Reads and parses the input file, rendering errors with their location.
fn load(args: &LlcArgs) -> Result<MirModule, String> {
    let path = args.input.as_deref().ok_or("gisel: no input file")?;
    let source = fs::read_to_string(path).map_err(|e| format!("gisel: cannot read '{path}': {e}"))?;
    read_mir(&source, path, args.triple.as_deref(), args.features.as_deref().unwrap_or(""))
        .map_err(|e: MirError| e.render(path, &source))
}

fn emit(text: &str, output: &str) -> Result<(), String> {
    emit_pieces(&[text], output)
}

/// Writes `pieces` one after another to `output` (`-` is stdout).
fn emit_pieces(pieces: &[impl AsRef<str>], output: &str) -> Result<(), String> {
    let write = |sink: &mut dyn Write| pieces.iter().try_for_each(|piece| sink.write_all(piece.as_ref().as_bytes()));
    if output == "-" {
        write(&mut std::io::stdout().lock()).map_err(|e| format!("gisel: cannot write output: {e}"))
    } else {
        let mut file = fs::File::create(output).map_err(|e| format!("gisel: cannot write '{output}': {e}"))?;
        write(&mut file).map_err(|e| format!("gisel: cannot write '{output}': {e}"))
    }
}
