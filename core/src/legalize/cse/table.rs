//! Where the CSE table keeps its instructions: one open-addressed table of
//! 8-byte slots, each an instruction and the hash of its key.
//!
//! The table is probed at random by every instruction the legalizer
//! builds, so its size is what its time goes to: a slot holds no more than
//! the key's hash, from which its place is found again when the table
//! grows, and slots whose instructions left the table are reused or let go
//! rather than kept.

use crate::ir::Inst;
use hashbrown::HashTable;

/// Instructions by the hash of their CSE key; a hash may hold several.
pub(super) struct KeyTable {
    slots: HashTable<Slot>,
}

/// One instruction under the hash of its key.
#[derive(Clone, Copy)]
struct Slot {
    hash: u32,
    inst: Inst,
}

/// The 64 bits the table places a slot by, from the slot's 32: the
/// multiplication spreads them into the top bits the table's probes
/// compare first.
fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl KeyTable {
    /// An empty table with room for `capacity` slots.
    pub(super) fn with_capacity(capacity: usize) -> KeyTable {
        KeyTable { slots: HashTable::with_capacity(capacity) }
    }

    /// The first instruction under `hash` that `matches` accepts.
    pub(super) fn find(&self, hash: u32, mut matches: impl FnMut(Inst) -> bool) -> Option<Inst> {
        self.slots.find(spread(hash), |slot| slot.hash == hash && matches(slot.inst)).map(|slot| slot.inst)
    }

    /// Puts `inst` under `hash`, in the slot of an instruction under the
    /// same hash that `is_live` rejects when there is one. A full table
    /// first lets go of every slot `is_live` rejects, and grows only when
    /// that leaves it more than half full.
    pub(super) fn insert(&mut self, hash: u32, inst: Inst, is_live: impl Fn(Inst) -> bool) {
        if let Some(slot) = self.slots.find_mut(spread(hash), |slot| slot.hash == hash && !is_live(slot.inst)) {
            slot.inst = inst;
            return;
        }
        if self.slots.len() == self.slots.capacity() {
            self.slots.retain(|slot| is_live(slot.inst));
            if self.slots.len() * 2 > self.slots.capacity() {
                self.slots.reserve(self.slots.len(), |slot| spread(slot.hash));
            }
        }
        self.slots.insert_unique(spread(hash), Slot { hash, inst }, |slot| spread(slot.hash));
    }
}
