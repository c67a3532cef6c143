//! The legalizer's worklists: a stack of instructions with O(1) insert
//! (ignoring duplicates), remove and pop, as LLVM's `GISelWorkList`.

use crate::ir::Inst;

const ABSENT: u32 = u32::MAX;

/// A LIFO set of instructions.
#[derive(Default, Debug)]
pub struct WorkList {
    items: Vec<Option<Inst>>,
    position: Vec<u32>,
    live: usize,
}

impl WorkList {
    /// Pushes `inst` unless it is already queued.
    pub fn insert(&mut self, inst: Inst) {
        if inst.index() >= self.position.len() {
            self.position.resize(inst.index() + 1, ABSENT);
        }
        if self.position[inst.index()] != ABSENT {
            return;
        }
        self.position[inst.index()] = self.items.len() as u32;
        self.items.push(Some(inst));
        self.live += 1;
    }

    /// Drops `inst` if it is queued.
    pub fn remove(&mut self, inst: Inst) {
        if let Some(pos) = self.position.get_mut(inst.index())
            && *pos != ABSENT
        {
            self.items[*pos as usize] = None;
            *pos = ABSENT;
            self.live -= 1;
        }
    }

    /// Pops the most recently inserted instruction.
    pub fn pop(&mut self) -> Option<Inst> {
        while let Some(slot) = self.items.pop() {
            if let Some(inst) = slot {
                self.position[inst.index()] = ABSENT;
                self.live -= 1;
                return Some(inst);
            }
        }
        None
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifo_without_duplicates() {
        let mut list = WorkList::default();
        for i in [1, 2, 3, 2] {
            list.insert(Inst::new(i));
        }
        list.remove(Inst::new(2));
        assert_eq!(list.pop(), Some(Inst::new(3)));
        assert_eq!(list.pop(), Some(Inst::new(1)));
        assert_eq!(list.pop(), None);
        assert!(list.is_empty());
    }
}
