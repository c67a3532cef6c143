//! Whether two versions of a function mean the same: both are run in the
//! interpreter on the same random inputs, as `gisel llc --verify-semantics`
//! does after legalizing and `gisel equiv` does for two files.

use gisel_core::interp::{Abi, CheckError, Checked, Mismatch, Program, check_equivalent_within, random_inputs};
use gisel_core::mir::{MachineFunction, Target};
use gisel_targets::TargetOptions;
use std::fmt;

/// Inputs per function.
const INPUTS: usize = 32;

/// The seed of the random inputs: the same for every run, so that a
/// difference found once is found again.
const INPUT_SEED: u64 = 0x9e37_79b9;

/// Instructions the reference may run on one input before the input is
/// skipped: loops bounded by random values often run for ever.
const STEP_LIMIT: u64 = 100_000;

/// What running two versions of a function on the same inputs showed.
#[derive(Debug)]
pub enum Verdict {
    /// The second refines the first on every input compared.
    Agree(Checked),
    /// The second does not refine the first: the input that shows it and
    /// what differs.
    Differ(Mismatch),
    /// Nothing could be concluded.
    NotChecked(Unchecked),
}

/// Why two versions of a function could not be compared.
#[derive(Debug)]
pub enum Unchecked {
    /// The target is big-endian and its memory is not modelled.
    BigEndian,
    /// On every input the reference has undefined behaviour or runs past
    /// the step limit.
    AllSkipped,
    /// No input compared defines anything observable (`skipped` others
    /// were skipped).
    NothingObservable {
        /// The inputs skipped.
        skipped: usize,
    },
    /// One version uses something the interpreter does not model.
    Unmodelled(CheckError),
}

impl fmt::Display for Unchecked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unchecked::BigEndian => write!(f, "big-endian memory is not modelled"),
            Unchecked::AllSkipped => {
                write!(f, "every input skipped (undefined behaviour or the step limit in the function before)")
            }
            Unchecked::NothingObservable { skipped } => {
                write!(f, "no input defines anything observable ({skipped} skipped)")
            }
            Unchecked::Unmodelled(error) => write!(f, "{error}"),
        }
    }
}

/// Runs `before` and `after` on the same random inputs for `target` and
/// says whether `after` refines `before`: a difference in a defined result
/// is [`Verdict::Differ`]. An error means the interpreter has no register
/// model for the target at all.
pub fn compare(before: &MachineFunction, after: &MachineFunction, target: &Target) -> Result<Verdict, String> {
    let abi = Abi::for_target(target).ok_or_else(|| format!("gisel: no interpreter ABI for {}", target.triple))?;
    if !Abi::memory_modelled(target) {
        return Ok(Verdict::NotChecked(Unchecked::BigEndian));
    }
    let (old, new) = (Program::from_machine_function(before), Program::from_machine_function(after));
    let inputs = random_inputs(&old, &abi, INPUTS, INPUT_SEED);
    Ok(match check_equivalent_within(&old, &new, &abi, &inputs, STEP_LIMIT) {
        Ok(checked) if checked.compared == 0 => Verdict::NotChecked(Unchecked::AllSkipped),
        Ok(checked) if checked.vacuous == checked.compared => {
            Verdict::NotChecked(Unchecked::NothingObservable { skipped: checked.skipped })
        }
        Ok(checked) => Verdict::Agree(checked),
        Err(CheckError::Mismatch(mismatch)) => Verdict::Differ(mismatch),
        Err(other) => Verdict::NotChecked(Unchecked::Unmodelled(other)),
    })
}

/// The target `function` is run for: the module's, with the features the
/// function's IR attributes give it under the command line's `options` (a
/// hard-float RISC-V function passes floats in `f` registers).
pub fn function_target(options: &TargetOptions, module_target: &Target, function: &MachineFunction) -> Target {
    let attributes = function.func.module.function(&function.header.name);
    Target { features: options.for_function(attributes).features, ..module_target.clone() }
}

#[cfg(test)]
mod tests {
    use super::{Unchecked, Verdict, compare};
    use gisel_core::mir::read_mir;

    /// A function whose body is `op` applied to an argument register and
    /// `rhs` (another argument register, or a constant).
    fn function(op: &str, rhs: &str) -> String {
        format!(
            "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $x0, $x1\n    \
             %0:_(s64) = COPY $x0\n    %1:_(s64) = {rhs}\n    %2:_(s64) = {op} %0, %1\n    \
             $x0 = COPY %2(s64)\n    RET_ReallyLR implicit $x0\n...\n"
        )
    }

    /// The verdict on the two versions of `f`, for `triple`.
    fn verdict(before: &str, after: &str, triple: &str) -> Verdict {
        let before = read_mir(before, "a.mir", Some(triple), "").expect("reads");
        let after = read_mir(after, "b.mir", Some(triple), "").expect("reads");
        compare(&before.functions[0], &after.functions[0], &before.target).expect("an ABI")
    }

    #[test]
    fn a_change_of_meaning_is_a_difference_with_its_input() {
        let add = function("G_ADD", "COPY $x1");
        match verdict(&add, &function("G_SUB", "COPY $x1"), "aarch64") {
            Verdict::Differ(mismatch) => assert!(mismatch.what.starts_with("$x0: before "), "{mismatch}"),
            other => panic!("expected a difference, got {other:?}"),
        }
        match verdict(&add, &add, "aarch64") {
            Verdict::Agree(checked) => assert_eq!(checked.compared, 32),
            other => panic!("expected agreement, got {other:?}"),
        }
    }

    #[test]
    fn big_endian_functions_are_not_checked() {
        let add = function("G_ADD", "COPY $x1");
        let verdict = verdict(&add, &add, "aarch64_be");
        assert!(matches!(verdict, Verdict::NotChecked(Unchecked::BigEndian)), "{verdict:?}");
    }

    #[test]
    fn nothing_run_is_not_called_agreement() {
        let always_undefined = function("G_UDIV", "G_CONSTANT i64 0");
        let verdict = verdict(&always_undefined, &always_undefined, "aarch64");
        assert!(matches!(verdict, Verdict::NotChecked(Unchecked::AllSkipped)), "{verdict:?}");
    }
}
