//! The machine verifier as the CLI runs it: every instruction against its
//! opcode and the target's vector index width, and, where the target's
//! registers are known, every copy between a virtual and a physical
//! register keeping its width.

use gisel_core::interp::Abi;
use gisel_core::ir::{RegisterBits, TargetFacts, verify_for_target};
use gisel_core::mir::{MachineFunction, MirModule, Target, print_inst};

/// Verifies the functions of one target.
pub struct Verifier {
    registers: Option<Abi>,
    vector_index_bits: u32,
}

impl Verifier {
    /// A verifier for `target`'s functions.
    pub fn new(target: &Target) -> Verifier {
        Verifier { registers: Abi::for_target(target), vector_index_bits: target.pointer_bits(0) }
    }

    /// Every finding in `module`, as one error.
    pub fn check_module(&self, module: &MirModule) -> Result<(), String> {
        let mut report = String::new();
        for function in &module.functions {
            self.report(function, &mut report);
        }
        if report.is_empty() { Ok(()) } else { Err(report) }
    }

    /// The findings in a function as read, as an error that says nothing
    /// was run.
    pub fn check_input(&self, function: &MachineFunction) -> Result<(), String> {
        let mut report = String::new();
        self.report(function, &mut report);
        if report.is_empty() {
            return Ok(());
        }
        report.push_str(&format!(
            "gisel: function '{}' is not valid machine IR; nothing was run\n",
            function.header.name
        ));
        Err(report)
    }

    /// Adds the findings in `function` to `report`, a line and the
    /// instruction for each.
    pub fn report(&self, function: &MachineFunction, report: &mut String) {
        let register_bits = self.registers.as_ref().map(|abi| move |name: &str| abi.copy_width(name));
        let facts = TargetFacts {
            register_bits: register_bits.as_ref().map(|bits| bits as RegisterBits<'_>),
            vector_index_bits: Some(self.vector_index_bits),
        };
        let errors = verify_for_target(&function.func, facts);
        for error in errors {
            let mut text = String::new();
            print_inst(&function.func, function.func.inst(error.inst), &mut text);
            report.push_str(&format!(
                "error: in function '{}': {}\n  instruction: {text}\n",
                function.header.name, error.message
            ));
        }
    }
}
