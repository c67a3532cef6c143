//! Legalizes a `.mir` file from Rust and prints it, as
//! `gisel llc -run-pass=legalizer FILE -o -` does.
//!
//! ```sh
//! cargo run -p gisel-targets --example legalize_file -- [FILE [TRIPLE]]
//! ```
//!
//! Without arguments it legalizes the bundled `examples/add.mir` for
//! `aarch64`. The triple may also come from the file's IR module.

use gisel_core::ir::verify;
use gisel_core::legalize::{LegalizeOptions, legalize};
use gisel_core::mir::{print_inst, read_mir, write_mir};
use gisel_targets::{TargetOptions, target_for};
use std::process::ExitCode;

const DEFAULT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/add.mir");

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, triple) = match args.as_slice() {
        [] => (DEFAULT_FILE, Some("aarch64")),
        [path] => (path.as_str(), None),
        [path, triple] => (path.as_str(), Some(triple.as_str())),
        _ => {
            eprintln!("usage: legalize_file [FILE [TRIPLE]]");
            return ExitCode::from(2);
        }
    };
    match run(path, triple) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads, verifies, legalizes and prints the module in `path`.
fn run(path: &str, triple: Option<&str>) -> Result<String, String> {
    let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let mut module = read_mir(&source, path, triple, "").map_err(|e| e.render(path, &source))?;
    let options = TargetOptions { opt_level: 2, ..TargetOptions::default() };
    let target = target_for(&module.target.triple, &options)?;
    for function in &mut module.functions {
        if let Some(error) = verify(&function.func).first() {
            let mut inst = String::new();
            print_inst(&function.func, function.func.inst(error.inst), &mut inst);
            return Err(format!("{path}: in function '{}': {}\n  {inst}", function.header.name, error.message));
        }
        legalize(&mut function.func, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
            .map_err(|e| format!("{path}: {e}"))?;
        function.header.legalized = true;
    }
    Ok(write_mir(&module))
}
