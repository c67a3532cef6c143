//! Termination of the type steps: from every sample query, apply each
//! answer's new type to the query and ask again, until the answer no
//! longer changes a type. A state seen twice is a cycle (widen then narrow
//! forever); a chain longer than the budget is a blow-up; a step that
//! fails LLVM's sanity checks is reported too. Findings name the rules
//! involved and are deduplicated per (opcode, rules).

use std::collections::BTreeSet;
use std::fmt;

use super::samples::Samples;
use crate::legality::action::LegalizeStep;
use crate::legality::errors::StepError;
use crate::legality::info::LegalizerInfo;
use crate::legality::query::{LegalityQuery, MemDesc};
use crate::legality::rule_set::check_step;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Steps after which a chain is reported as a blow-up.
pub const DEFAULT_STEP_BUDGET: usize = 32;

/// One simulated step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The types queried.
    pub types: Vec<Llt>,
    /// The rule that answered.
    pub rule: Option<usize>,
    /// That rule's builder call.
    pub origin: String,
    /// The answer.
    pub step: LegalizeStep,
}

impl fmt::Display for TraceStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types: Vec<String> = self.types.iter().map(Llt::to_string).collect();
        match self.rule {
            Some(r) => write!(f, "({}) --rule {r} {}--> {}", types.join(", "), self.origin, self.step),
            None => write!(f, "({}) --> {}", types.join(", "), self.step),
        }
    }
}

/// A way the type steps of a rule set fail to finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TerminationFinding {
    /// The steps come back to a state already seen.
    Cycle {
        /// The opcode (representative of its set).
        opcode: Opcode,
        /// The steps of the loop, in order.
        steps: Vec<TraceStep>,
    },
    /// More steps than the budget.
    StepBudgetExceeded {
        /// The opcode.
        opcode: Opcode,
        /// The budget.
        budget: usize,
        /// The first steps of the chain.
        first_steps: Vec<TraceStep>,
    },
    /// A step that fails the sanity checks.
    InsaneStep {
        /// The opcode.
        opcode: Opcode,
        /// The step.
        step: TraceStep,
        /// What is wrong.
        error: StepError,
    },
}

impl fmt::Display for TerminationFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TerminationFinding::Cycle { opcode, steps } => {
                writeln!(f, "{opcode}: cycle of {} steps", steps.len())?;
                for s in steps {
                    writeln!(f, "      {s}")?;
                }
                Ok(())
            }
            TerminationFinding::StepBudgetExceeded { opcode, budget, first_steps } => {
                writeln!(f, "{opcode}: more than {budget} steps without reaching a final action")?;
                for s in first_steps {
                    writeln!(f, "      {s}")?;
                }
                Ok(())
            }
            TerminationFinding::InsaneStep { opcode, step, error } => write!(f, "{opcode}: {step}: {error}"),
        }
    }
}

/// Simulates every rule set from every sample query.
pub fn check_termination(info: &LegalizerInfo, samples: &Samples, budget: usize) -> Vec<TerminationFinding> {
    let mut findings = Vec::new();
    let mut reported: BTreeSet<(Opcode, u8, Vec<Option<usize>>)> = BTreeSet::new();
    for (opcode, _) in info.rule_sets() {
        samples.for_each_query(opcode, &mut |q| {
            if let Some((kind, finding)) = simulate(info, q, budget) {
                let rules = match &finding {
                    TerminationFinding::Cycle { steps, .. } => {
                        let mut r: Vec<_> = steps.iter().map(|s| s.rule).collect();
                        r.sort();
                        r.dedup();
                        r
                    }
                    TerminationFinding::StepBudgetExceeded { first_steps, .. } => {
                        let mut r: Vec<_> = first_steps.iter().map(|s| s.rule).collect();
                        r.sort();
                        r.dedup();
                        r
                    }
                    TerminationFinding::InsaneStep { step, .. } => vec![step.rule],
                };
                if reported.insert((opcode, kind, rules)) {
                    findings.push(finding);
                }
            }
        });
    }
    findings
}

fn simulate(info: &LegalizerInfo, start: &LegalityQuery<'_>, budget: usize) -> Option<(u8, TerminationFinding)> {
    let opcode = start.opcode;
    let mems: Vec<MemDesc> = start.mem_descs.to_vec();
    let mut types = start.types.to_vec();
    let mut trace: Vec<TraceStep> = Vec::new();
    loop {
        if let Some(pos) = trace.iter().position(|s| s.types == types) {
            return Some((0, TerminationFinding::Cycle { opcode, steps: trace.split_off(pos) }));
        }
        if trace.len() >= budget {
            trace.truncate(8);
            return Some((1, TerminationFinding::StepBudgetExceeded { opcode, budget, first_steps: trace }));
        }
        let q = LegalityQuery::with_mem(opcode, &types, &mems);
        let (step, rule) = info.action_traced(&q);
        if !step.action.changes_type() {
            return None;
        }
        let origin = rule
            .and_then(|r| info.rule_set(opcode).and_then(|s| s.rules().get(r)))
            .map(|r| r.origin.to_string())
            .unwrap_or_default();
        let trace_step = TraceStep { types: types.clone(), rule, origin, step };
        if let Err(error) = check_step(&q, &step) {
            return Some((2, TerminationFinding::InsaneStep { opcode, step: trace_step, error }));
        }
        trace.push(trace_step);
        types[usize::from(step.type_idx)] = step.new_ty;
    }
}
