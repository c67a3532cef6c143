//! The RV32 i16 example through the library: read `examples/rv32_i16.mir`,
//! legalize it for `riscv32` while watching each step, and check the
//! result: every instruction legal, no 16-bit value left, and the same
//! answers as the input on random arguments (the interpreter).
//!
//! ```sh
//! cargo run -p gisel-targets --example rv32_i16
//! ```

use gisel_core::interp::{Abi, Program, check_equivalent, random_inputs};
use gisel_core::ir::Function;
use gisel_core::legalize::{LegalizeEvent, LegalizeOptions, describe, legalize_traced};
use gisel_core::mir::{MachineFunction, print_body, read_mir};
use gisel_core::prelude::*;
use gisel_targets::{TargetOptions, target_for};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/rv32_i16.mir");

fn main() {
    let source = std::fs::read_to_string(PATH).expect("reads examples/rv32_i16.mir");
    let mut module = read_mir(&source, "rv32_i16.mir", Some("riscv32"), "").unwrap_or_else(|e| {
        panic!("{}", e.render(PATH, &source));
    });
    // llc's default optimization level, so the pass CSEs as llc does.
    let target = target_for("riscv32", &TargetOptions { opt_level: 2, ..TargetOptions::default() })
        .expect("gisel knows riscv32");
    let abi = Abi::for_target(&module.target).expect("the interpreter knows the RV32 calling convention");

    for function in &mut module.functions {
        let before: MachineFunction = function.clone();
        let mut steps = Vec::new();
        let stats = legalize_traced(
            &mut function.func,
            &target.info,
            target.hooks.as_ref(),
            LegalizeOptions::default(),
            &mut |event| {
                if let LegalizeEvent::Step { explanation: Some(why), .. } = event {
                    steps.push(why.summary());
                }
            },
        )
        .expect("RV32 legalizes i16 arithmetic");
        function.header.legalized = true;

        println!("{}: {} steps, {} combines", function.header.name, stats.steps, stats.combines);
        for step in &steps {
            println!("  {step}");
        }
        assert!(steps.iter().any(|s| s.starts_with("G_ADD(s16): rule 2 clamp_scalar")), "{steps:?}");

        assert_all_legal(&function.func, &target.info);
        assert!(!uses_type(&function.func, Llt::scalar(16)), "an s16 value is left");

        let (old, new) = (Program::from_machine_function(&before), Program::from_machine_function(function));
        let inputs = random_inputs(&old, &abi, 64, 16);
        let checked = check_equivalent(&old, &new, &abi, &inputs).expect("legalizing keeps the meaning");
        assert!(checked.compared > 0, "no input was compared");
        println!("  the interpreter agrees on {} random inputs", checked.compared);
        let mut body = String::new();
        print_body(&function.func, &mut body);
        print!("{body}");
    }
}

/// Panics unless the rules call every instruction of `func` legal.
fn assert_all_legal(func: &Function, info: &LegalizerInfo) {
    for inst in func.all_insts() {
        if let Some(parts) = describe(func, func.inst(inst)) {
            let step = info.action(&parts.query());
            assert_eq!(step.action, LegalizeAction::Legal, "{} is left as {step}", parts.query());
        }
    }
}

/// Whether a virtual register of `func` has type `ty`.
fn uses_type(func: &Function, ty: Llt) -> bool {
    func.all_insts().any(|inst| {
        func.inst(inst).operands.iter().filter_map(|op| op.as_reg()).any(|r| match r.reg {
            gisel_core::ir::Reg::Virtual(v) => func.ty(v) == ty,
            _ => false,
        })
    })
}
