//! Where the CSE table keeps its instructions: one open-addressed array of
//! 8-byte slots, each an instruction and the hash of its key, probed
//! linearly.
//!
//! The table is probed at random by every instruction the legalizer
//! builds, so what its time goes to is cache misses: a lookup reads the
//! slot its hash points at and, as the table is kept at most half full,
//! rarely more than the next few in the same cache line; the instruction a
//! slot names is read only when the whole 32-bit hash matches. Slots whose
//! instructions left the table are taken over by a later instruction of
//! the same hash, or let go when the table fills, rather than kept.

use crate::ir::Inst;

/// Instructions by the hash of their CSE key; a hash may hold several.
pub(super) struct KeyTable {
    /// A power of two of slots, at most half of them used.
    slots: Vec<Slot>,
    /// The slots holding an instruction, whether still in the table or not.
    used: usize,
}

/// One instruction under the hash of its key, or an empty slot.
#[derive(Clone, Copy)]
struct Slot {
    hash: u32,
    inst: u32,
}

/// The `inst` of an empty slot (no instruction has this index).
const EMPTY: u32 = u32::MAX;

/// An empty slot.
const FREE: Slot = Slot { hash: 0, inst: EMPTY };

impl KeyTable {
    /// An empty table with room for `capacity` instructions.
    pub(super) fn with_capacity(capacity: usize) -> KeyTable {
        KeyTable { slots: vec![FREE; (2 * capacity).next_power_of_two().max(16)], used: 0 }
    }

    /// Where the probe of `hash` starts: the top bits of the multiplied
    /// hash, its best mixed.
    fn probe_start(&self, hash: u32) -> usize {
        (u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (self.slots.len() - 1)
    }

    /// The first instruction under `hash` that `matches` accepts.
    pub(super) fn find(&self, hash: u32, mut matches: impl FnMut(Inst) -> bool) -> Option<Inst> {
        let mask = self.slots.len() - 1;
        let mut at = self.probe_start(hash);
        loop {
            let slot = self.slots[at];
            if slot.inst == EMPTY {
                return None;
            }
            if slot.hash == hash && matches(Inst::new(slot.inst as usize)) {
                return Some(Inst::new(slot.inst as usize));
            }
            at = (at + 1) & mask;
        }
    }

    /// Puts `inst` under `hash`, in the slot of an instruction under the
    /// same hash that `is_live` rejects when there is one. A table that
    /// would be more than half full first lets go of every slot `is_live`
    /// rejects, and doubles only when that leaves it more than a quarter
    /// full.
    pub(super) fn insert(&mut self, hash: u32, inst: Inst, is_live: impl Fn(Inst) -> bool) {
        let slot = Slot { hash, inst: u32::try_from(inst.index()).expect("instruction index fits in 32 bits") };
        let mask = self.slots.len() - 1;
        let mut at = self.probe_start(hash);
        while self.slots[at].inst != EMPTY {
            let held = self.slots[at];
            if held.hash == hash && !is_live(Inst::new(held.inst as usize)) {
                self.slots[at] = slot;
                return;
            }
            at = (at + 1) & mask;
        }
        if 2 * (self.used + 1) > self.slots.len() {
            self.rebuild(&is_live);
            self.place(slot);
        } else {
            self.slots[at] = slot;
            self.used += 1;
        }
    }

    /// Lays the live slots out again, in a table twice as large when they
    /// fill more than a quarter of this one.
    fn rebuild(&mut self, is_live: &impl Fn(Inst) -> bool) {
        let live: Vec<Slot> =
            self.slots.iter().copied().filter(|s| s.inst != EMPTY && is_live(Inst::new(s.inst as usize))).collect();
        let len = if 4 * (live.len() + 1) > self.slots.len() { 2 * self.slots.len() } else { self.slots.len() };
        self.slots = vec![FREE; len];
        self.used = 0;
        for slot in live {
            self.place(slot);
        }
    }

    /// Puts `slot` in the first empty slot of its probe.
    fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut at = self.probe_start(slot.hash);
        while self.slots[at].inst != EMPTY {
            at = (at + 1) & mask;
        }
        self.slots[at] = slot;
        self.used += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(index: usize) -> Inst {
        Inst::new(index)
    }

    #[test]
    fn finds_what_it_holds_under_its_hash_only() {
        let mut table = KeyTable::with_capacity(4);
        table.insert(7, inst(1), |_| true);
        table.insert(7, inst(2), |_| true);
        table.insert(9, inst(3), |_| true);
        assert_eq!(table.find(7, |i| i == inst(2)), Some(inst(2)));
        assert_eq!(table.find(7, |_| true), Some(inst(1)));
        assert_eq!(table.find(9, |i| i == inst(1)), None);
        assert_eq!(table.find(8, |_| true), None);
    }

    #[test]
    fn a_slot_whose_instruction_left_is_taken_over() {
        let mut table = KeyTable::with_capacity(4);
        table.insert(7, inst(1), |_| true);
        table.insert(7, inst(2), |i| i != inst(1));
        assert_eq!(table.used, 1);
        assert_eq!(table.find(7, |i| i == inst(1)), None);
        assert_eq!(table.find(7, |i| i == inst(2)), Some(inst(2)));
    }

    #[test]
    fn filling_up_keeps_the_live_and_lets_go_of_the_rest() {
        let mut table = KeyTable::with_capacity(1);
        let live = |i: Inst| i.index().is_multiple_of(2);
        for index in 0..1000 {
            table.insert(index as u32 * 31, inst(index), live);
        }
        assert!(2 * table.used <= table.slots.len());
        for index in 0..1000 {
            if live(inst(index)) {
                assert_eq!(table.find(index as u32 * 31, |i| i == inst(index)), Some(inst(index)), "{index}");
            }
        }
        assert!(table.used < 1000, "dead slots were let go: {}", table.used);
    }
}
