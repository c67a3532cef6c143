//! The legalizer pass (LLVM's `Legalizer::legalizeMachineFunction`): two
//! worklists, instructions and artifacts, filled in reverse post-order and
//! popped last-first; each step re-queries the rules; artifacts are
//! combined away when possible; a step budget turns any oscillation or
//! runaway growth into an error instead of a hang.

use super::combiner::{DeadInsts, try_combine};
use super::cse::{Cse, CseMode};
use super::helper::{Helper, StepResult};
use super::lineage::Lineage;
use super::query::{QueryParts, describe};
use super::salvage::salvage_debug_values;
use super::target::LegalizeTarget;
use super::trace::{LegalizeEvent, Tracer};
use super::worklist::WorkList;
use crate::ir::{
    Block, CreationMark, Function, Inst, InstOpcode, MemFlags, Operand, Reg, is_side_effect_free_target_generic,
};
use crate::legality::LegalizerInfo;
use crate::mir::print_inst;
use crate::opcode::{Opcode, flags};
use smallvec::{SmallVec, smallvec};
use std::collections::VecDeque;
use std::fmt;

/// Why legalization stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LegalizeError {
    /// No rule or helper could legalize an instruction.
    UnableToLegalize {
        /// The instruction as MIR text.
        inst: String,
        /// The function.
        function: String,
        /// The rules' answer and why it could not be applied.
        reason: String,
    },
    /// The step budget ran out: the rules oscillate or keep growing the
    /// function.
    NoProgress {
        /// The function.
        function: String,
        /// The last steps taken, most recent last.
        recent_steps: Vec<String>,
    },
}

impl fmt::Display for LegalizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LegalizeError::UnableToLegalize { inst, function, reason } => {
                write!(f, "unable to legalize instruction: {inst} (in function: {function})\n  rules: {reason}")
            }
            LegalizeError::NoProgress { function, recent_steps } => {
                writeln!(
                    f,
                    "unable to legalize function '{function}': legalization does not terminate; the last steps were:"
                )?;
                for step in recent_steps {
                    writeln!(f, "  {step}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LegalizeError {}

/// What a successful run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegalizeStats {
    /// Legalization steps applied.
    pub steps: usize,
    /// Artifacts combined away.
    pub combines: usize,
}

/// How many steps per initial instruction the pass may take before it
/// reports that it does not terminate.
const STEPS_PER_INSTRUCTION: usize = 256;
/// How many recent steps an error report lists.
const RECENT_STEPS: usize = 12;

/// How the pass builds instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegalizeOptions {
    /// CSE and constant-fold what the pass builds, as llc does unless `-O0`.
    pub cse: CseMode,
    /// How deep value tracking follows definitions for the artifact
    /// combiner's known bits and sign bits: 6, or 2 as llc's
    /// `GISelValueTrackingAnalysis` at `-O0`.
    pub known_bits_depth: u32,
}

impl Default for LegalizeOptions {
    fn default() -> LegalizeOptions {
        LegalizeOptions { cse: CseMode::Full, known_bits_depth: super::known_bits::MAX_DEPTH }
    }
}

/// Legalizes `func` for `info` and `target`.
pub fn legalize(
    func: &mut Function,
    info: &LegalizerInfo,
    target: &dyn LegalizeTarget,
    options: LegalizeOptions,
) -> Result<LegalizeStats, LegalizeError> {
    run(func, info, target, options, None)
}

/// Legalizes as [`legalize`] does, reporting each step and combine to
/// `observer` as it happens (for `gisel llc --explain`).
pub fn legalize_traced(
    func: &mut Function,
    info: &LegalizerInfo,
    target: &dyn LegalizeTarget,
    options: LegalizeOptions,
    observer: &mut dyn FnMut(&LegalizeEvent),
) -> Result<LegalizeStats, LegalizeError> {
    run(func, info, target, options, Some(Tracer::new(observer)))
}

fn run(
    func: &mut Function,
    info: &LegalizerInfo,
    target: &dyn LegalizeTarget,
    options: LegalizeOptions,
    mut tracer: Option<Tracer<'_>>,
) -> Result<LegalizeStats, LegalizeError> {
    let mut cse = Cse::new(func, options.cse);
    let mut lists = Lists::default();
    for block in reverse_post_order(func) {
        for inst in func.block_insts(block).collect::<Vec<_>>() {
            lists.queue(func, inst);
        }
    }
    let budget = STEPS_PER_INSTRUCTION * (func.inst_capacity() + 16);
    let mut stats = LegalizeStats::default();
    let mut recent: VecDeque<QueryParts> = VecDeque::new();
    let mut lineage = Lineage::default();
    let mut helper = Helper::new(func, info, target);
    helper.known_bits_depth = options.known_bits_depth;
    loop {
        let mut retry: Vec<(Inst, String)> = Vec::new();
        loop {
            // An artifact waiting for a retry that was erased since leaves
            // the list before a new instruction can take its slot.
            if !retry.is_empty() {
                retry.retain(|(inst, _)| helper.func.inst_block(*inst).is_some());
            }
            recycle(helper.func, &mut lists, &mut cse, &mut lineage);
            let Some(inst) = lists.instructions.pop() else { break };
            if is_trivially_dead(helper.func, inst) {
                salvage_debug_values(helper.func, inst);
                erase(&mut lists, helper.func, inst);
                continue;
            }
            if stats.steps >= budget {
                return Err(no_progress(&helper, &recent));
            }
            let before = helper.func.creation_mark();
            helper.take_explicit_defs();
            helper.builder_loc.clone_from(&helper.func.inst(inst).debug_loc);
            let query = describe(helper.func, helper.func.inst(inst));
            let shown = tracer.as_ref().map(|t| t.capture(helper.func, inst));
            match helper.legalize_step(inst, query.as_ref()) {
                StepResult::AlreadyLegal => {}
                StepResult::Legalized => {
                    stats.steps += 1;
                    let explicit = helper.take_explicit_defs();
                    stamp_debug_loc(helper.func, before, helper.builder_loc.as_deref());
                    cse.process_new(helper.func, before, &explicit, helper.builder_loc.as_deref());
                    if let (Some(tracer), Some(shown)) = (tracer.as_mut(), shown) {
                        tracer.step(helper.func, helper.info, shown, query.as_ref(), inst, before);
                    }
                    if let Some(query) = query {
                        remember(&mut recent, query);
                    }
                    requeue(&mut lists, &mut helper, &mut cse, before);
                    if lineage.descend(inst, helper.func.created_since(before)) {
                        return Err(no_progress(&helper, &recent));
                    }
                }
                StepResult::Unable(reason) => {
                    if is_artifact(helper.func, inst) {
                        retry.push((inst, reason));
                        continue;
                    }
                    return Err(unable(helper.func, inst, reason));
                }
            }
        }
        if !retry.is_empty() {
            if lists.artifacts.is_empty() {
                let (inst, why) = &retry[0];
                let step = describe_step(&helper, *inst);
                return Err(unable(
                    helper.func,
                    *inst,
                    format!("{step}: {why}; no new artifacts were created, not retrying"),
                ));
            }
            for (inst, _) in retry.into_iter().rev() {
                lists.artifacts.insert(inst);
            }
        }
        loop {
            recycle(helper.func, &mut lists, &mut cse, &mut lineage);
            let Some(inst) = lists.artifacts.pop() else { break };
            if is_trivially_dead(helper.func, inst) {
                salvage_debug_values(helper.func, inst);
                erase(&mut lists, helper.func, inst);
                continue;
            }
            let before = helper.func.creation_mark();
            helper.take_explicit_defs();
            let opcode = helper.func.inst(inst).known_opcode();
            let loc = helper.func.inst(inst).debug_loc.clone();
            if sets_builder_loc_first(opcode) {
                helper.builder_loc.clone_from(&loc);
            }
            let mut dead = DeadInsts::new();
            let shown = tracer.as_ref().map(|t| t.capture(helper.func, inst));
            let combined = try_combine(&mut helper, inst, &mut dead);
            if combined && sets_builder_loc_when_combining(opcode) {
                helper.builder_loc = loc;
            }
            // A failed combine may still have built a value (the value
            // finder's undef); what was built is CSE'd either way, as llc's
            // builder does.
            let explicit = helper.take_explicit_defs();
            stamp_debug_loc(helper.func, before, helper.builder_loc.as_deref());
            cse.process_new(helper.func, before, &explicit, helper.builder_loc.as_deref());
            if combined {
                stats.combines += 1;
                if lineage.descend(inst, helper.func.created_since(before)) {
                    return Err(no_progress(&helper, &recent));
                }
                for d in dead {
                    erase(&mut lists, helper.func, d);
                }
                if let (Some(tracer), Some(shown)) = (tracer.as_mut(), shown) {
                    tracer.combine(helper.func, shown, inst, before);
                }
            }
            // What the attempt built is queued first, as LLVM's observer
            // queues each instruction when it is built; an artifact left
            // as it was then joins the instructions, to be legalized
            // before them (the worklist is last in, first out).
            requeue(&mut lists, &mut helper, &mut cse, before);
            if !combined {
                lists.instructions.insert(inst);
            }
        }
        if lists.instructions.is_empty() {
            return Ok(stats);
        }
    }
}

/// Combines that set the builder's location to their artifact's before
/// anything else (`setInstrAndDebugLoc` at the start of LLVM's
/// `tryCombineAnyExt`, `ZExt`, `SExt`, `UnmergeValues`); truncations only
/// move the insertion point.
fn sets_builder_loc_first(opcode: Option<Opcode>) -> bool {
    use Opcode::*;
    matches!(opcode, Some(G_ANYEXT | G_ZEXT | G_SEXT | G_UNMERGE_VALUES))
}

/// Combines that set it only on the way that builds (extracts and
/// merge-likes).
fn sets_builder_loc_when_combining(opcode: Option<Opcode>) -> bool {
    use Opcode::*;
    matches!(opcode, Some(G_EXTRACT | G_MERGE_VALUES | G_BUILD_VECTOR | G_CONCAT_VECTORS))
}

/// Gives the instructions created since `first_new` the debug location
/// `loc` of the instruction a step or combine worked on, as LLVM's builder
/// does after `setInstrAndDebugLoc`; constants get none (`buildConstant`
/// drops it, since CSE shares and hoists them).
fn stamp_debug_loc(func: &mut Function, first_new: CreationMark, loc: Option<&str>) {
    let Some(loc) = loc else { return };
    for k in 0..func.created_since(first_new).len() {
        let inst = func.created_since(first_new)[k];
        let data = func.inst(inst);
        let constant = data.is(Opcode::G_CONSTANT) || data.is(Opcode::G_FCONSTANT);
        if func.inst_block(inst).is_some() && data.debug_loc.is_none() && !constant {
            func.set_debug_loc(inst, Some(loc.into()));
        }
    }
}

/// The two worklists.
#[derive(Default)]
struct Lists {
    instructions: WorkList,
    artifacts: WorkList,
}

impl Lists {
    fn queue(&mut self, func: &Function, inst: Inst) {
        let data = func.inst(inst);
        if func.inst_block(inst).is_none() || !data.known_opcode().is_some_and(Opcode::is_legalizable) {
            return;
        }
        if is_artifact(func, inst) { self.artifacts.insert(inst) } else { self.instructions.insert(inst) }
    }
}

/// Queues every placed instruction created since `before` (in creation
/// order) and every instruction changed in place (which CSE re-keys).
fn requeue(lists: &mut Lists, helper: &mut Helper<'_>, cse: &mut Cse, before: CreationMark) {
    for &inst in helper.func.created_since(before) {
        lists.queue(helper.func, inst);
    }
    for inst in helper.take_changed() {
        if helper.func.inst_block(inst).is_some() {
            cse.remember(helper.func, inst);
        }
        lists.queue(helper.func, inst);
    }
}

/// Lets the function give new instructions the slots of those erased so
/// far, once the worklists, CSE and the lineage hold none of them.
fn recycle(func: &mut Function, lists: &mut Lists, cse: &mut Cse, lineage: &mut Lineage) {
    func.recycle_erased(|inst| {
        lists.instructions.remove(inst);
        lists.artifacts.remove(inst);
        cse.forget(inst);
        lineage.forget(inst);
    });
}

/// Erases `inst`, then every definition feeding it that becomes trivially
/// dead, transitively (LLVM's `eraseInstrs`).
fn erase(lists: &mut Lists, func: &mut Function, inst: Inst) {
    let mut chain: SmallVec<[Inst; 4]> = smallvec![inst];
    let mut first = true;
    while let Some(dead) = chain.pop() {
        if func.inst_block(dead).is_none() || (!first && !is_trivially_dead(func, dead)) {
            continue;
        }
        first = false;
        for op in func.inst(dead).uses() {
            if let Some(Reg::Virtual(v)) = op.as_reg().map(|r| r.reg)
                && let Some(def) = func.def_inst(v)
                && def != dead
                && !chain.contains(&def)
            {
                chain.push(def);
            }
        }
        lists.instructions.remove(dead);
        lists.artifacts.remove(dead);
        func.erase(dead);
    }
}

/// The report that the pass does not terminate, with its last steps.
fn no_progress(helper: &Helper<'_>, recent: &VecDeque<QueryParts>) -> LegalizeError {
    let recent_steps = recent.iter().map(|q| helper.info.explain(&q.query()).summary()).collect();
    LegalizeError::NoProgress { function: helper.func.name.clone(), recent_steps }
}

/// Keeps the queries of the last few steps, for a report if the pass
/// does not terminate (described only then: formatting every step would
/// cost more than the step).
fn remember(recent: &mut VecDeque<QueryParts>, step: QueryParts) {
    if recent.len() == RECENT_STEPS {
        recent.pop_front();
    }
    recent.push_back(step);
}

fn describe_step(helper: &Helper<'_>, inst: Inst) -> String {
    let mut text = String::new();
    print_inst(helper.func, helper.func.inst(inst), &mut text);
    match describe(helper.func, helper.func.inst(inst)) {
        Some(parts) => format!("{text}  ->  {}", helper.info.explain(&parts.query()).summary()),
        None => text,
    }
}

fn unable(func: &Function, inst: Inst, reason: String) -> LegalizeError {
    let mut text = String::new();
    print_inst(func, func.inst(inst), &mut text);
    LegalizeError::UnableToLegalize { inst: text, function: func.name.clone(), reason }
}

/// LLVM's artifacts: the glue the legalizer creates and the combiner folds.
pub(super) fn is_artifact(func: &Function, inst: Inst) -> bool {
    use Opcode::*;
    matches!(
        func.inst(inst).known_opcode(),
        Some(
            G_TRUNC
                | G_ZEXT
                | G_ANYEXT
                | G_SEXT
                | G_MERGE_VALUES
                | G_UNMERGE_VALUES
                | G_CONCAT_VECTORS
                | G_BUILD_VECTOR
                | G_EXTRACT
                | G_INSERT
        )
    )
}

/// No side effects and every def is an unused virtual register.
pub(super) fn is_trivially_dead(func: &Function, inst: Inst) -> bool {
    let data = func.inst(inst);
    // Uses by debug instructions do not count (LLVM's `use_nodbg_empty`).
    // Looked at first: most instructions have a used def.
    let only_debug_uses = |v| func.uses_with_opcodes(v).all(|(_, opcode)| opcode.is_some_and(Opcode::is_debug));
    let unused =
        data.defs().iter().all(|op| matches!(op.as_reg().map(|r| r.reg), Some(Reg::Virtual(v)) if only_debug_uses(v)));
    if !unused {
        return false;
    }
    match data.opcode {
        InstOpcode::Known(opcode) => {
            let info = opcode.info();
            let side_effects = info.has(flags::HAS_SIDE_EFFECTS)
                || info.has(flags::MAY_STORE)
                || info.has(flags::IS_TERMINATOR)
                || info.has(flags::IS_BRANCH);
            let ordered_memory = data.mem.iter().any(|m| m.flags.contains(MemFlags::VOLATILE) || m.is_atomic());
            !side_effects && !ordered_memory && !data.operands.iter().any(|op| matches!(op, Operand::Intrinsic(_)))
        }
        InstOpcode::Target(name) => is_side_effect_free_target_generic(func.names.resolve(name)),
    }
}

/// Blocks in reverse post-order from the entry.
fn reverse_post_order(func: &Function) -> Vec<Block> {
    let Some(&entry) = func.blocks().first() else { return Vec::new() };
    let mut seen = vec![false; func.blocks().iter().map(|b| b.index() + 1).max().unwrap_or(0)];
    let mut order = Vec::new();
    let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
    seen[entry.index()] = true;
    while let Some((block, next)) = stack.pop() {
        let successors = &func.block(block).successors;
        if let Some(succ) = successors.get(next) {
            stack.push((block, next + 1));
            if !seen[succ.block.index()] {
                seen[succ.block.index()] = true;
                stack.push((succ.block, 0));
            }
        } else {
            order.push(block);
        }
    }
    order.reverse();
    order
}
