//! Watching the pass: [`legalize_traced`](super::legalize_traced) reports
//! every legalization step and artifact combine as a [`LegalizeEvent`]
//! (the instruction as MIR text, the rule trail that chose the step, what
//! the step left in its place). Without an observer the pass formats
//! nothing: all text is made here, only when someone listens.

use super::query::QueryParts;
use crate::ir::{CreationMark, Function, Inst};
use crate::legality::{Explanation, LegalizerInfo};
use crate::mir::print_inst;
use std::fmt;

/// One thing the legalizer did to an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LegalizeEvent {
    /// The rules chose an action for an instruction and the helper applied it.
    Step {
        /// The instruction before the step, as MIR text.
        inst: String,
        /// Why: the rules tried, the one that decided, the action
        /// (`None` only for an instruction the rules cannot describe).
        explanation: Option<Explanation>,
        /// The instructions the step built or changed, in block order.
        result: Vec<String>,
    },
    /// The artifact combiner folded an artifact (`G_TRUNC`, `G_ANYEXT`,
    /// `G_MERGE_VALUES`, ...) into what it feeds from.
    Combine {
        /// The artifact before the combine, as MIR text.
        inst: String,
        /// The instructions the combine built or changed, in block order.
        result: Vec<String>,
    },
}

impl fmt::Display for LegalizeEvent {
    /// `step:` or `combine:` and the instruction, the rule trail indented
    /// under it, then one `=>` line per instruction left in its place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = match self {
            LegalizeEvent::Step { inst, explanation, result } => {
                writeln!(f, "step: {inst}")?;
                match explanation {
                    Some(explanation) => {
                        for line in explanation.to_string().lines() {
                            writeln!(f, "  {line}")?;
                        }
                    }
                    None => writeln!(f, "  (no rule query for this instruction)")?,
                }
                result
            }
            LegalizeEvent::Combine { inst, result } => {
                writeln!(f, "combine: {inst}")?;
                result
            }
        };
        if result.is_empty() {
            writeln!(f, "  => (folded away)")?;
        }
        for line in result {
            writeln!(f, "  => {line}")?;
        }
        Ok(())
    }
}

/// The pass's side of an observer: captures an instruction's text before
/// it is rewritten and reports what replaced it.
pub(super) struct Tracer<'o> {
    observer: &'o mut dyn FnMut(&LegalizeEvent),
}

impl<'o> Tracer<'o> {
    /// A tracer reporting to `observer`.
    pub(super) fn new(observer: &'o mut dyn FnMut(&LegalizeEvent)) -> Tracer<'o> {
        Tracer { observer }
    }

    /// `inst` as MIR text, taken before the pass touches it.
    pub(super) fn capture(&self, func: &Function, inst: Inst) -> String {
        inst_text(func, inst)
    }

    /// Reports a step applied to `inst` (text `before`); `created_from` is
    /// the instruction capacity before the step.
    pub(super) fn step(
        &mut self,
        func: &Function,
        info: &LegalizerInfo,
        before: String,
        query: Option<&QueryParts>,
        inst: Inst,
        created_from: CreationMark,
    ) {
        let explanation = query.map(|parts| info.explain(&parts.query()));
        let result = result_text(func, inst, created_from);
        (self.observer)(&LegalizeEvent::Step { inst: before, explanation, result });
    }

    /// Reports a combine of the artifact `inst` (text `before`).
    pub(super) fn combine(&mut self, func: &Function, before: String, inst: Inst, created_from: CreationMark) {
        let result = result_text(func, inst, created_from);
        (self.observer)(&LegalizeEvent::Combine { inst: before, result });
    }
}

fn inst_text(func: &Function, inst: Inst) -> String {
    let mut text = String::new();
    print_inst(func, func.inst(inst), &mut text);
    text
}

/// The instructions created since `created_from` that are still in the
/// function, and `inst` itself if it survived (changed in place), in the
/// order of their blocks.
fn result_text(func: &Function, inst: Inst, created_from: CreationMark) -> Vec<String> {
    let created = func.created_since(created_from);
    let shown = |i: Inst| i == inst || created.contains(&i);
    let mut blocks = Vec::new();
    for &i in created.iter().chain([&inst]) {
        if let Some(block) = func.inst_block(i)
            && !blocks.contains(&block)
        {
            blocks.push(block);
        }
    }
    blocks
        .into_iter()
        .flat_map(|block| func.block_insts(block).filter(|&i| shown(i)).collect::<Vec<_>>())
        .map(|i| inst_text(func, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::LegalizeEvent;
    use crate::legality::{LegalizeAction, examples::toy32};
    use crate::legalize::{DefaultTarget, LegalizeOptions, legalize, legalize_traced};
    use crate::mir::{parse_body, print_body};

    const BODY: &str = "bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = COPY $r1\n  %2:_(s8) = G_TRUNC %0(s32)\n  \
                        %3:_(s8) = G_TRUNC %1(s32)\n  %4:_(s8) = G_ADD %2, %3\n  %5:_(s32) = G_ANYEXT %4(s8)\n  \
                        $r0 = COPY %5(s32)\n";

    fn traced() -> (Vec<LegalizeEvent>, String) {
        let mut func = parse_body("f", BODY, &[], &|_| 32).expect("parses");
        let mut events = Vec::new();
        legalize_traced(&mut func, &toy32(), &DefaultTarget, LegalizeOptions::default(), &mut |e| {
            events.push(e.clone())
        })
        .expect("legalizes");
        let mut out = String::new();
        print_body(&func, &mut out);
        (events, out)
    }

    #[test]
    fn reports_the_widening_step_with_its_rule_and_result() {
        let (events, _) = traced();
        let LegalizeEvent::Step { inst, explanation: Some(why), result } = &events[0] else {
            panic!("the first event is a step with a rule trail: {events:?}")
        };
        assert_eq!(inst, "%4:_(s8) = G_ADD %2, %3");
        assert_eq!(why.step.action, LegalizeAction::WidenScalar);
        assert!(why.summary().starts_with("G_ADD(s8): rule 2 clamp_scalar(0, s32, s32)"), "{}", why.summary());
        assert_eq!(
            result,
            &[
                "%6:_(s32) = G_ANYEXT %2(s8)",
                "%7:_(s32) = G_ANYEXT %3(s8)",
                "%8:_(s32) = G_ADD %6, %7",
                "%4:_(s8) = G_TRUNC %8(s32)"
            ]
        );
        let text = events[0].to_string();
        assert!(text.starts_with("step: %4:_(s8) = G_ADD %2, %3\n  G_ADD(s8): rule 2"), "{text}");
        assert!(text.ends_with("  => %4:_(s8) = G_TRUNC %8(s32)\n"), "{text}");
    }

    #[test]
    fn reports_every_combine_and_changes_nothing() {
        let (events, traced_out) = traced();
        let combines: Vec<&str> = events
            .iter()
            .filter_map(|e| match e {
                LegalizeEvent::Combine { inst, .. } => Some(inst.as_str()),
                LegalizeEvent::Step { .. } => None,
            })
            .collect();
        assert!(combines.contains(&"%5:_(s32) = G_ANYEXT %4(s8)"), "{combines:?}");
        let mut func = parse_body("f", BODY, &[], &|_| 32).expect("parses");
        let stats = legalize(&mut func, &toy32(), &DefaultTarget, LegalizeOptions::default()).expect("legalizes");
        assert_eq!(stats.steps + stats.combines, events.len());
        let mut out = String::new();
        print_body(&func, &mut out);
        assert_eq!(out, traced_out, "tracing does not change the result");
    }
}
