//! `gisel`: print and verify `.mir` files, and an `llc`-compatible front
//! (`gisel llc -mtriple=aarch64 -run-pass=none FILE -o -`).

mod legalize_cmd;
mod llc_args;
mod rules_cmds;

use gisel_core::ir::{Function, verify};
use gisel_core::mir::{
    MachineFunction, MirError, MirModule, print_inst, read_mir, write_function, write_mir, write_module_prologue,
};
use llc_args::{LlcArgs, Pass};
use std::process::ExitCode;
use std::{env, fs, io::Write};

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
    let mut module = load(args)?;
    let result = run_on(command, args, &mut module);
    // The process ends next: freeing every function one by one would only
    // cost time the operating system saves by dropping the heap whole.
    std::mem::forget(module);
    result
}

fn run_on(command: &str, args: &LlcArgs, module: &mut MirModule) -> Result<(), String> {
    match command {
        "verify" => verify_module(module),
        "print" => emit(&write_mir(module), "-"),
        _ => match args.pass {
            Some(Pass::None) => {
                if args.verify {
                    verify_module(module)?;
                }
                emit(&write_mir(module), args.output.as_deref().unwrap_or("-"))
            }
            Some(Pass::Legalizer) => {
                let text = legalize_and_write(module, args)?;
                emit(&text, args.output.as_deref().unwrap_or("-"))
            }
            None => Err("gisel llc: expected -run-pass=none or -run-pass=legalizer".to_owned()),
        },
    }
}

/// Legalizes, verifies (with `-verify-machineinstrs`) and writes each
/// function in turn, then prints the remarks; a verifier report fails the
/// run after the remarks. Each function is freed once written, so the next
/// one reuses its memory.
fn legalize_and_write(module: &mut MirModule, args: &LlcArgs) -> Result<String, String> {
    let legalizer = legalize_cmd::ModuleLegalizer::new(&module.target, args)?;
    let mut text = String::new();
    write_module_prologue(module, &mut text);
    let (mut remarks, mut report) = (Vec::new(), String::new());
    for function in &mut module.functions {
        legalizer.legalize(function, &module.target, &mut remarks)?;
        if args.verify {
            verify_function(function, &mut report);
        }
        write_function(function, &module.target, &mut text);
        function.func = Function::default();
    }
    for remark in remarks {
        eprintln!("{remark}");
    }
    if report.is_empty() { Ok(text) } else { Err(report) }
}

/// Reads and parses the input file, rendering errors with their location.
fn load(args: &LlcArgs) -> Result<MirModule, String> {
    let path = args.input.as_deref().ok_or("gisel: no input file")?;
    let source = fs::read_to_string(path).map_err(|e| format!("gisel: cannot read '{path}': {e}"))?;
    read_mir(&source, path, args.triple.as_deref(), args.features.as_deref().unwrap_or(""))
        .map_err(|e: MirError| e.render(path, &source))
}

fn verify_module(module: &MirModule) -> Result<(), String> {
    let mut report = String::new();
    for function in &module.functions {
        verify_function(function, &mut report);
    }
    if report.is_empty() { Ok(()) } else { Err(report) }
}

/// Adds the verifier's complaints about `function` to `report`.
fn verify_function(function: &MachineFunction, report: &mut String) {
    for error in verify(&function.func) {
        let mut text = String::new();
        print_inst(&function.func, function.func.inst(error.inst), &mut text);
        report.push_str(&format!(
            "error: in function '{}': {}\n  instruction: {text}\n",
            function.header.name, error.message
        ));
    }
}

fn emit(text: &str, output: &str) -> Result<(), String> {
    if output == "-" {
        std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("gisel: cannot write output: {e}"))
    } else {
        fs::write(output, text).map_err(|e| format!("gisel: cannot write '{output}': {e}"))
    }
}
