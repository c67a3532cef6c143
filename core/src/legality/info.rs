//! [`LegalizerInfo`]: one rule set per legalizable opcode, the cached
//! `action` query, and construction-error reporting.

use std::fmt;

use super::action::{LegalizeAction, LegalizeStep};
use super::cache::{ActionCache, CacheKey};
use super::errors::{RuleError, StepError};
use super::query::LegalityQuery;
use super::rule_set::{RuleSet, check_step};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Default number of cache slots (about 90 KiB: a run touches every page
/// of a sparse table, and a real file asks far fewer distinct questions).
pub const DEFAULT_CACHE_SLOTS: usize = 1024;

/// A target's legality rules: one [`RuleSet`] per opcode in
/// `G_ADD..=G_UBFX` (opcodes given rules together share one set), and the
/// answer to any [`LegalityQuery`].
///
/// `action` takes `&self` and may be called from many threads at once; its
/// answers are cached in a lock-free table (see `cache.rs`). Any `&mut`
/// access that can change rules clears the cache.
pub struct LegalizerInfo {
    sets: Vec<RuleSet>,
    errors: Vec<RuleError>,
    scratch: RuleSet,
    cache: ActionCache,
    pointer_bits: u32,
}

fn first_legalizable() -> usize {
    Opcode::G_ADD.index()
}

fn slot_of(opcode: Opcode) -> Option<usize> {
    let index = opcode.index().checked_sub(first_legalizable())?;
    (index <= Opcode::G_UBFX.index() - first_legalizable()).then_some(index)
}

impl Default for LegalizerInfo {
    fn default() -> Self {
        LegalizerInfo::new()
    }
}

impl LegalizerInfo {
    /// No rules yet; pointers are 64 bits.
    pub fn new() -> LegalizerInfo {
        let count = Opcode::G_UBFX.index() - first_legalizable() + 1;
        LegalizerInfo {
            sets: vec![RuleSet::new(); count],
            errors: Vec::new(),
            scratch: RuleSet::new(),
            cache: ActionCache::new(DEFAULT_CACHE_SLOTS),
            pointer_bits: 64,
        }
    }

    /// Sets the pointer size of every address space (for sample types,
    /// the matrix and `assert_legality!`; rules themselves use explicit
    /// types).
    pub fn with_pointer_bits(mut self, bits: u32) -> LegalizerInfo {
        self.pointer_bits = bits.clamp(1, crate::ty::MAX_SCALAR_BITS);
        self
    }

    /// Resizes the answer cache (rounded up to a power of two; it is
    /// cleared).
    pub fn with_cache_slots(mut self, slots: usize) -> LegalizerInfo {
        self.cache = ActionCache::new(slots);
        self
    }

    /// Number of answer-cache slots.
    pub fn cache_slots(&self) -> usize {
        self.cache.capacity()
    }

    /// The pointer size in bits.
    pub fn pointer_bits(&self) -> u32 {
        self.pointer_bits
    }

    /// `p{address_space}` with this target's pointer size.
    pub fn pointer(&self, address_space: u32) -> Llt {
        Llt::pointer(address_space.min(crate::ty::MAX_ADDRESS_SPACE), self.pointer_bits)
    }

    /// The rule set to build for `opcodes` (LLVM's
    /// `getActionDefinitionsBuilder`): the first opcode is the
    /// representative and the others share its rules. Asking for an opcode
    /// that already has rules, a non-legalizable opcode, or no opcode
    /// records an error that [`LegalizerInfo::validate`] reports and
    /// returns a detached set, so a chain of builder calls still compiles
    /// and runs.
    pub fn rules_for(&mut self, opcodes: &[Opcode]) -> &mut RuleSet {
        self.cache.clear();
        self.scratch = RuleSet::new();
        let Some(&representative) = opcodes.first() else {
            self.errors.push(RuleError::NoOpcode);
            return &mut self.scratch;
        };
        let mut slots = Vec::with_capacity(opcodes.len());
        for (i, &opcode) in opcodes.iter().enumerate() {
            let Some(slot) = slot_of(opcode).filter(|_| opcode.is_legalizable()) else {
                self.errors.push(RuleError::NotLegalizable { opcode });
                return &mut self.scratch;
            };
            let first = match self.sets[slot].alias_of {
                Some(rep) => Some(rep),
                None if !self.sets[slot].opcodes.is_empty() => Some(opcode),
                None => opcodes[..i].contains(&opcode).then_some(representative),
            };
            if let Some(first) = first {
                self.errors.push(RuleError::OpcodeRequestedTwice { opcode, first });
                return &mut self.scratch;
            }
            slots.push(slot);
        }
        for &slot in &slots[1..] {
            self.sets[slot].alias_of = Some(representative);
        }
        let set = &mut self.sets[slots[0]];
        set.opcodes = opcodes.to_vec();
        set
    }

    /// The rule set `opcode` uses (through its alias), if it is
    /// legalizable.
    pub fn rule_set(&self, opcode: Opcode) -> Option<&RuleSet> {
        let set = &self.sets[slot_of(opcode)?];
        match set.alias_of {
            Some(rep) => slot_of(rep).map(|slot| &self.sets[slot]),
            None => Some(set),
        }
    }

    /// The opcode whose set `opcode` uses.
    pub fn representative(&self, opcode: Opcode) -> Opcode {
        slot_of(opcode).and_then(|slot| self.sets[slot].alias_of).unwrap_or(opcode)
    }

    /// Every legalizable opcode that has its own (non-alias) rules, with
    /// its set.
    pub fn rule_sets(&self) -> impl Iterator<Item = (Opcode, &RuleSet)> {
        self.sets
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alias_of.is_none() && !s.rules.is_empty())
            .filter_map(|(i, s)| Opcode::from_index(i + first_legalizable()).map(|op| (op, s)))
    }

    /// The answer to a query (LLVM's `getAction`), cached. The legacy
    /// answer of an empty rule set is resolved (`legacy_answer`).
    /// Opcodes the legalizer never visits (COPY, G_ASSERT_*) are `Legal`.
    #[inline]
    pub fn action(&self, q: &LegalityQuery<'_>) -> LegalizeStep {
        let mut key = CacheKey::EMPTY;
        if !key.fill(q) {
            return self.action_uncached(q);
        }
        if let Some(step) = self.cache.get(&key) {
            return step;
        }
        let step = self.action_uncached(q);
        self.cache.insert(&key, step);
        step
    }

    /// The answer without touching the cache, and the rule that decided.
    pub fn action_traced(&self, q: &LegalityQuery<'_>) -> (LegalizeStep, Option<usize>) {
        let Some(set) = self.rule_set(q.opcode) else {
            return (LegalizeStep::LEGAL, None);
        };
        let (step, rule) = set.apply_traced(q);
        if step.action == LegalizeAction::UseLegacyRules {
            return (legacy_answer(q), rule);
        }
        (step, rule)
    }

    /// The answer without touching the cache.
    pub fn action_uncached(&self, q: &LegalityQuery<'_>) -> LegalizeStep {
        self.action_traced(q).0
    }

    /// The answer, with LLVM's assert-only sanity checks
    /// (`mutationIsSane`, `hasNoSimpleLoops`) as an error.
    pub fn action_checked(&self, q: &LegalityQuery<'_>) -> Result<LegalizeStep, StepError> {
        let step = self.action(q);
        check_step(q, &step).map(|()| step)
    }

    /// `action(q)` is `Legal`.
    pub fn is_legal(&self, q: &LegalityQuery<'_>) -> bool {
        self.action(q).action == LegalizeAction::Legal
    }

    /// `action(q)` is `Legal` or `Custom`.
    pub fn is_legal_or_custom(&self, q: &LegalityQuery<'_>) -> bool {
        matches!(self.action(q).action, LegalizeAction::Legal | LegalizeAction::Custom)
    }

    /// Forgets cached answers.
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    /// Every construction and structural error: opcodes requested twice,
    /// bad builder arguments, type or memory indices past an opcode's
    /// last, unreachable rules. Coverage and the whole-target checks are
    /// in [`crate::legality::check`].
    pub fn validate(&self) -> Result<(), Vec<RuleError>> {
        let mut errors = self.errors.clone();
        for (_, set) in self.sets.iter().enumerate().filter(|(_, s)| s.alias_of.is_none()) {
            errors.extend(set.errors.iter().cloned());
            for &opcode in &set.opcodes {
                errors.extend(set.validate_for(opcode));
            }
        }
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }
}

/// LLVM 22's legacy answer when a target sets no legacy actions: the
/// defaults `LegacyLegalizerInfo`'s constructor installs make `G_TRUNC`
/// legal and `G_FNEG` lowered for scalars of every size; any other typed
/// query (and a pointer or vector there) is `NotFound`, and an opcode
/// without type indices is `Legal`.
fn legacy_answer(q: &LegalityQuery<'_>) -> LegalizeStep {
    let scalars = q.types.iter().all(|ty| ty.is_scalar());
    match q.opcode {
        _ if q.opcode.num_type_indices() == 0 => LegalizeStep::LEGAL,
        Opcode::G_TRUNC if scalars => LegalizeStep::LEGAL,
        Opcode::G_FNEG if scalars => LegalizeStep { action: LegalizeAction::Lower, type_idx: 0, new_ty: q.ty(0) },
        _ => LegalizeStep::new(LegalizeAction::NotFound),
    }
}

impl fmt::Display for LegalizerInfo {
    /// Every rule set with its rules, one opcode group per paragraph.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (opcode, set) in self.rule_sets() {
            let names: Vec<&str> = if set.opcodes.is_empty() {
                vec![opcode.name()]
            } else {
                set.opcodes.iter().map(|o| o.name()).collect()
            };
            writeln!(f, "{}:", names.join(" | "))?;
            write!(f, "{set}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for LegalizerInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LegalizerInfo")
            .field("rule_sets", &self.rule_sets().count())
            .field("errors", &self.errors)
            .field("cache", &self.cache)
            .field("pointer_bits", &self.pointer_bits)
            .finish()
    }
}
