//! `gisel`: print and verify `.mir` files, and an `llc`-compatible front
//! (`gisel llc -mtriple=aarch64 -run-pass=none FILE -o -`).

mod equiv_cmd;
mod input;
mod legalize_cmd;
mod llc_args;
mod output;
mod pipeline;
mod rules_cmds;
mod semantics;
mod temp_file;
mod verification;

use gisel_core::mir::{MirError, MirModule, read_mir, write_mir};
use input::Input;
use llc_args::LlcArgs;
use std::process::ExitCode;
use std::{env, fs, io::Write};
use verification::Verifier;

/// mimalloc: the legalizer allocates and frees many small vectors per
/// instruction, which the system allocator serves more slowly.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the same in its v2 and v3 headers).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory in the process instead of handing it back to the
/// system: a run is short and its peak is bounded by its largest function,
/// while purging (at exit above all) cost ~6 % of a real-code run in
/// `madvise` calls and page faults.
#[allow(unsafe_code)]
fn keep_freed_memory() {
    // SAFETY: called first in `main`, before any other thread exists;
    // mimalloc reads the option each time it would purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

const USAGE: &str = "\
usage: gisel <command> [options]

commands:
  print  [-mtriple=T] [-mattr=A] FILE      parse FILE and print it as llc does
  verify [-mtriple=T] [-mattr=A] FILE      check every instruction against its opcode
  query  -mtriple=T OPCODE TYPE... [--mem=TYPE:ALIGN_BITS]
                                          the rule trail for one instruction shape
  rules  -mtriple=T [--matrix] [--html OUT] every rule, the legality matrix, or an HTML page
  llc    [-mtriple=T] [-mattr=A] [-O0] [-verify-machineinstrs]
         [-global-isel-abort=N] [--code-model=M] [-float-abi=soft|hard]
         [--verify-semantics]
         [--explain] -run-pass=none|legalizer FILE [-o OUT]
                                          llc-compatible front (OUT '-' = stdout);
                                          --explain reports each step on stderr
  equiv  [-mtriple=T] [-mattr=A] BEFORE AFTER
                                          whether each function of AFTER means what
                                          BEFORE's of the same name does, on random inputs
";

fn main() -> ExitCode {
    keep_freed_memory();
    let args: Vec<String> = env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "print" | "verify" | "llc" => LlcArgs::parse(rest).and_then(|parsed| run(command, &parsed)),
        "equiv" => LlcArgs::parse(rest).and_then(|parsed| equiv_cmd::equiv(&parsed)),
        "query" => rules_cmds::query(rest).and_then(|text| emit(&text)),
        "rules" => rules_cmds::rules(rest).and_then(|text| emit(&text)),
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
    if command == "llc" {
        let pass = args.pass.ok_or("gisel llc: expected -run-pass=none or -run-pass=legalizer")?;
        return pipeline::run_llc(args, pass);
    }
    let module = load(args.input()?, args)?;
    let result = match command {
        "verify" => Verifier::new(&module.target).check_module(&module),
        _ => emit(&write_mir(&module)),
    };
    // The process ends next: freeing every function one by one would only
    // cost time the operating system saves by dropping the heap whole.
    std::mem::forget(module);
    result
}

/// Reads and parses the file at `path` (`-`: standard input) for the
/// target `args` give, rendering errors with their location.
fn load(path: &str, args: &LlcArgs) -> Result<MirModule, String> {
    let input = Input::open(path)?;
    let name = &input.name;
    let source = fs::read_to_string(&input.path).map_err(|e| format!("gisel: cannot read '{name}': {e}"))?;
    read_mir(&source, name, args.triple.as_deref(), args.features.as_deref().unwrap_or(""))
        .map_err(|e: MirError| e.render(name, &source))
}

/// Prints `text` on stdout.
fn emit(text: &str) -> Result<(), String> {
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("gisel: cannot write output: {e}"))
}
