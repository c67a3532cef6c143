//! Checking that a function refines another on the same inputs: the same
//! calls made to functions the interpreter cannot run (see
//! [`ExternalCall`](super::ExternalCall)), the same registers returned,
//! each defined bit of the reference reproduced, and the same bytes of
//! memory (outside the stack) written.

use super::abi::Abi;
use super::machine::{Inputs, Options, Outcome, replay, run};
use super::memory::byte_refines;
use super::{InterpError, Program};
use std::fmt;

/// Which of the two functions a message is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The reference (`before`).
    Before,
    /// The function under test (`after`).
    After,
}

/// A witness that `after` does not refine `before`.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The input that shows it.
    pub input: Inputs,
    /// What differs.
    pub what: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (inputs:", self.what)?;
        for (r, v) in &self.input.regs {
            write!(f, " ${r}={v}")?;
        }
        for (offset, v) in &self.input.stack {
            write!(f, " stack+{offset}={v}")?;
        }
        write!(f, ", memory seed {:#x})", self.input.memory_seed)
    }
}

/// Why a check did not pass.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CheckError {
    /// The functions differ.
    #[error("mismatch: {0}")]
    Mismatch(Mismatch),
    /// One function uses something the interpreter does not model.
    #[error("{side:?}: {error}")]
    Interp {
        /// Which function.
        side: Side,
        /// The error.
        error: InterpError,
    },
}

/// A check that passed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Inputs on which both ran and agreed.
    pub compared: usize,
    /// Inputs skipped because the reference has undefined behaviour on
    /// them (or runs too long).
    pub skipped: usize,
    /// Compared inputs on which the reference defined no observable bit
    /// (every returned bit undefined, nothing stored, no call made): they
    /// prove nothing.
    pub vacuous: usize,
}

/// Runs `before` and `after` on every input and checks that `after`
/// refines `before`, with the default step limit.
pub fn check_equivalent(
    before: &Program<'_>,
    after: &Program<'_>,
    abi: &Abi,
    inputs: &[Inputs],
) -> Result<Checked, CheckError> {
    check_equivalent_within(before, after, abi, inputs, Options::default().step_limit)
}

/// [`check_equivalent`] giving up on an input after `step_limit`
/// instructions of `before` (the input is skipped); `after`, whose
/// legalized code may need more instructions, gets four times as many.
pub fn check_equivalent_within(
    before: &Program<'_>,
    after: &Program<'_>,
    abi: &Abi,
    inputs: &[Inputs],
    step_limit: u64,
) -> Result<Checked, CheckError> {
    let reference = Options { step_limit, ..Options::default() };
    let candidate = Options { freeze_picks_zero: true, step_limit: step_limit.saturating_mul(4) };
    let mut checked = Checked::default();
    for input in inputs {
        let b = match run(before, abi, input, &reference) {
            Ok(b) => b,
            Err(InterpError::Undefined(_) | InterpError::StepLimit) => {
                checked.skipped += 1;
                continue;
            }
            Err(error) => return Err(CheckError::Interp { side: Side::Before, error }),
        };
        let a = match replay(after, abi, input, &candidate, &b.calls) {
            Ok(a) => a,
            Err(InterpError::Undefined(why)) => {
                let what = format!("after has undefined behaviour ({why}) where before has none");
                return Err(CheckError::Mismatch(Mismatch { input: input.clone(), what }));
            }
            Err(InterpError::Diverged(what)) => {
                return Err(CheckError::Mismatch(Mismatch { input: input.clone(), what }));
            }
            Err(error) => return Err(CheckError::Interp { side: Side::After, error }),
        };
        if let Some(what) = compare(&b, &a) {
            return Err(CheckError::Mismatch(Mismatch { input: input.clone(), what }));
        }
        checked.compared += 1;
        let nothing_defined = b.results.iter().all(|(_, v)| v.undef_mask().is_all_ones());
        if nothing_defined && b.calls.is_empty() && b.memory.written_outside_stack().is_empty() {
            checked.vacuous += 1;
        }
    }
    Ok(checked)
}

/// The first observable difference, if any.
fn compare(before: &Outcome, after: &Outcome) -> Option<String> {
    if let Some(missing) = before.calls.get(after.calls.len()) {
        return Some(format!("call #{} {missing} is made before but not after", after.calls.len()));
    }
    // A tail call returns whatever its callee returns in; registers the
    // reference does not return are not observed.
    for (name, b) in &before.results {
        let Some((_, a)) = after.results.iter().find(|(n, _)| n == name) else {
            return Some(format!("${name} is returned before but not after"));
        };
        if !b.refined_by(a) {
            return Some(format!("${name}: before {b}, after {a}"));
        }
    }
    let mut addrs = before.memory.written_outside_stack();
    addrs.extend(after.memory.written_outside_stack());
    addrs.sort_unstable();
    addrs.dedup();
    for addr in addrs {
        let (b, a) = (before.memory.byte(addr), after.memory.byte(addr));
        if !byte_refines(b, a) {
            let ((bv, bu), (av, au)) = (b, a);
            return Some(format!(
                "memory at {addr:#x}: before {bv:#04x} (undef {bu:#04x}), after {av:#04x} (undef {au:#04x})"
            ));
        }
    }
    None
}
