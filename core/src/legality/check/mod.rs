//! Whole-target checks that LLVM does only in assert builds or not at all:
//! type- and immediate-index coverage ([`coverage`]), the documented
//! minimum rule set ([`minimum`]), and termination of the type steps
//! ([`termination`]). Each returns structured findings with a readable
//! `Display`; [`check_all`] runs them together.

pub mod coverage;
pub mod minimum;
pub mod samples;
pub mod termination;

#[cfg(test)]
mod tests;

use std::fmt;

pub use coverage::{CoverageFinding, check_coverage};
pub use minimum::{MinimumRuleFinding, TypeUsage, check_minimum_rule_set, producer_consumer_types};
pub use samples::Samples;
pub use termination::{DEFAULT_STEP_BUDGET, TerminationFinding, TraceStep, check_termination};

use super::info::LegalizerInfo;

/// The findings of every check.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Construction and structural errors ([`LegalizerInfo::validate`]).
    pub errors: Vec<super::RuleError>,
    /// Coverage findings.
    pub coverage: Vec<CoverageFinding>,
    /// Minimum-rule-set findings.
    pub minimum: Vec<MinimumRuleFinding>,
    /// Termination findings.
    pub termination: Vec<TerminationFinding>,
}

impl Report {
    /// True when no check found anything.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.coverage.is_empty() && self.minimum.is_empty() && self.termination.is_empty()
    }
}

impl fmt::Display for Report {
    /// One section per check that found something; "no findings" otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_clean() {
            return writeln!(f, "no findings");
        }
        fn section<T: fmt::Display>(f: &mut fmt::Formatter<'_>, title: &str, items: &[T]) -> fmt::Result {
            if items.is_empty() {
                return Ok(());
            }
            writeln!(f, "{title} ({}):", items.len())?;
            for item in items {
                writeln!(f, "  {item}")?;
            }
            Ok(())
        }
        section(f, "rule errors", &self.errors)?;
        section(f, "coverage", &self.coverage)?;
        section(f, "minimum rule set", &self.minimum)?;
        section(f, "termination", &self.termination)
    }
}

/// Runs every check with the target's sample types and the default step
/// budget.
pub fn check_all(info: &LegalizerInfo) -> Report {
    let samples = Samples::for_target(info);
    Report {
        errors: info.validate().err().unwrap_or_default(),
        coverage: check_coverage(info),
        minimum: check_minimum_rule_set(info, &samples),
        termination: check_termination(info, &samples, DEFAULT_STEP_BUDGET),
    }
}
