//! Why a query got its answer: [`Explanation`], the trail of rules tried.

use std::fmt;

use super::action::LegalizeStep;
use super::errors::StepError;
use super::info::LegalizerInfo;
use super::query::{LegalityQuery, MemDesc};
use super::rule_set::check_step;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// One rule tried while answering a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleTrial {
    /// The rule's position in its set.
    pub index: usize,
    /// The builder call that created it.
    pub origin: String,
    /// The rule itself, printed.
    pub rule: String,
    /// The predicate held (only the last trial can match: first match wins).
    pub matched: bool,
}

/// The trail of a query through its rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The query's opcode.
    pub opcode: Opcode,
    /// The query's types.
    pub types: Vec<Llt>,
    /// The query's memory descriptors.
    pub mem_descs: Vec<MemDesc>,
    /// The opcode whose rule set answered (differs for aliases), `None`
    /// for opcodes the legalizer never visits.
    pub rule_set_of: Option<Opcode>,
    /// The rules tried, in order, up to the first that matched.
    pub trail: Vec<RuleTrial>,
    /// The position of the rule that decided, if any.
    pub decided_by: Option<usize>,
    /// The answer.
    pub step: LegalizeStep,
    /// The sanity checks on the answer.
    pub sanity: Result<(), StepError>,
}

impl Explanation {
    /// The query, printed.
    pub fn query_text(&self) -> String {
        LegalityQuery::with_mem(self.opcode, &self.types, &self.mem_descs).to_string()
    }

    /// One line: `G_ADD(s7): rule 2 clamp_scalar(0, s32, s64) -> WidenScalar type0 to s32`.
    pub fn summary(&self) -> String {
        let query = self.query_text();
        match self.decided_by.and_then(|i| self.trail.get(i)) {
            Some(t) => format!("{query}: rule {} {} -> {}", t.index, t.origin, self.step),
            None if self.rule_set_of.is_none() => {
                format!("{query}: not legalized -> {}", self.step)
            }
            None if self.trail.is_empty() => {
                format!("{query}: no rules (legacy answer) -> {}", self.step)
            }
            None => format!("{query}: no rule matched -> {}", self.step),
        }
    }
}

impl fmt::Display for Explanation {
    /// The summary, then one line per rule tried, then any sanity error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        if let Some(rep) = self.rule_set_of.filter(|&rep| rep != self.opcode) {
            writeln!(f, "  (rules of {rep})")?;
        }
        for t in &self.trail {
            let verdict = if t.matched { "match" } else { "no match" };
            writeln!(f, "  rule {:>2} {}: {verdict}   [{}]", t.index, t.origin, t.rule)?;
        }
        if let Err(e) = &self.sanity {
            writeln!(f, "  insane step: {e}")?;
        }
        Ok(())
    }
}

impl LegalizerInfo {
    /// Explains a query: every rule tried, which one decided, and the
    /// sanity checks on the answer. Bypasses the cache.
    pub fn explain(&self, q: &LegalityQuery<'_>) -> Explanation {
        let (step, decided_by) = self.action_traced(q);
        let set = self.rule_set(q.opcode);
        let tried = match (set, decided_by) {
            (Some(set), Some(i)) => &set.rules()[..=i],
            (Some(set), None) => set.rules(),
            (None, _) => &[],
        };
        let trail = tried
            .iter()
            .enumerate()
            .map(|(index, rule)| RuleTrial {
                index,
                origin: rule.origin.to_string(),
                rule: rule.to_string(),
                matched: Some(index) == decided_by,
            })
            .collect();
        Explanation {
            opcode: q.opcode,
            types: q.types.to_vec(),
            mem_descs: q.mem_descs.to_vec(),
            rule_set_of: set.map(|_| self.representative(q.opcode)),
            trail,
            decided_by,
            step,
            sanity: check_step(q, &step),
        }
    }
}
