//! How many steps and combines each instruction descends from. Every
//! legalization LLVM's rules describe ends after a bounded chain of them,
//! whatever the size of the function; a chain that keeps growing means the
//! rules go round in a cycle (a vector widened, split back and widened
//! again), each turn building new instructions.

use crate::ir::Inst;

/// The longest chain of steps and combines an instruction may descend
/// from before the pass reports that it does not terminate. The longest
/// in the conformance corpora and the real-code corpus is 111.
pub(super) const MAX_GENERATIONS: u32 = 4096;

/// The generation of each instruction: 0 for those of the input, one more
/// than its parent's for what a step or combine builds.
#[derive(Default)]
pub(super) struct Lineage {
    generations: Vec<u32>,
}

impl Lineage {
    /// Records that the instructions `created` were built by a step or
    /// combine on `parent`, which itself moves on a generation (it may
    /// have been changed in place). Returns whether the chain has grown
    /// past [`MAX_GENERATIONS`].
    pub(super) fn descend(&mut self, parent: Inst, created: &[Inst]) -> bool {
        let end = created.iter().chain([&parent]).map(|i| i.index() + 1).max().unwrap_or(0);
        if self.generations.len() < end {
            self.generations.resize(end, 0);
        }
        let next = self.generations[parent.index()] + 1;
        self.generations[parent.index()] = next;
        for inst in created {
            self.generations[inst.index()] = next;
        }
        next > MAX_GENERATIONS
    }

    /// Forgets `inst`, whose slot a new instruction of generation 0 may
    /// take.
    pub(super) fn forget(&mut self, inst: Inst) {
        if let Some(generation) = self.generations.get_mut(inst.index()) {
            *generation = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_of_rebuilt_instructions_runs_out() {
        let mut lineage = Lineage::default();
        // Each turn builds one instruction from the last one built.
        let mut last = Inst::new(0);
        for built in 1..=MAX_GENERATIONS as usize {
            assert!(!lineage.descend(last, &[Inst::new(built)]), "turn {built}");
            last = Inst::new(built);
        }
        assert!(lineage.descend(last, &[Inst::new(MAX_GENERATIONS as usize + 1)]));
    }

    #[test]
    fn siblings_share_a_generation() {
        let mut lineage = Lineage::default();
        // Many instructions of the input, each legalized once in a few
        // steps, never come near the limit.
        for parent in 0..10_000 {
            let built: Vec<Inst> = (10_000 + 3 * parent..10_003 + 3 * parent).map(Inst::new).collect();
            assert!(!lineage.descend(Inst::new(parent), &built));
        }
    }
}
