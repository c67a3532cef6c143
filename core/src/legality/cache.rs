//! The per-(opcode, types, memory descriptors) answer cache behind
//! [`crate::legality::LegalizerInfo::action`].
//!
//! A fixed-size, direct-mapped table of slots, each guarded by a sequence
//! lock made of plain atomics (no `unsafe`, no mutex): readers never block
//! and never write, so a hit costs one hash, about a dozen plain loads and
//! two fences; a writer that finds the slot busy simply does not cache.
//! Losing an entry (a collision overwrites it) only costs a re-evaluation,
//! because the rules are a pure function of the key.
//!
//! Key layout (`KEY_WORDS` `u64`s, unused words zero): word 0 packs the
//! opcode (bits 0..10), the type count (10..13), the memory-descriptor
//! count (13..15), both orderings of each descriptor (16..28) and a
//! marker bit 63 (so a key is never all zero); then one word per type; then
//! two per descriptor (memory type, alignment). Queries that do not fit
//! (more than 6 types or 2 descriptors, or more words than the key has)
//! bypass the cache.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, fence};

use super::action::{LegalizeAction, LegalizeStep};
use super::query::LegalityQuery;
use crate::ty::Llt;

const KEY_WORDS: usize = 8;

/// A packed query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheKey {
    words: [u64; KEY_WORDS],
    used: usize,
    hash: u64,
}

impl CacheKey {
    /// An unfilled key.
    pub(crate) const EMPTY: CacheKey = CacheKey { words: [0; KEY_WORDS], used: 0, hash: 0 };

    /// Packs a query in place (no copy of the key afterwards, which keeps
    /// store-to-load forwarding cheap on the hit path); false when it does
    /// not fit.
    #[inline]
    pub(crate) fn fill(&mut self, q: &LegalityQuery<'_>) -> bool {
        let (types, mems) = (q.types.len(), q.mem_descs.len());
        let used = 1 + types + 2 * mems;
        if types > 6 || mems > 2 || used > KEY_WORDS {
            return false;
        }
        let mut head = (q.opcode.index() as u64) | (types as u64) << 10 | (mems as u64) << 13 | 1 << 63;
        for (i, mem) in q.mem_descs.iter().enumerate() {
            let orderings = mem.ordering.code() | mem.failure_ordering.code() << 3;
            head |= orderings << (16 + 6 * i);
        }
        let mut hash = mix(0, head);
        self.words[0] = head;
        for (i, ty) in q.types.iter().enumerate() {
            self.words[1 + i] = ty.to_bits();
            hash = mix(hash, ty.to_bits());
        }
        for (i, mem) in q.mem_descs.iter().enumerate() {
            self.words[1 + types + 2 * i] = mem.memory_ty.to_bits();
            self.words[2 + types + 2 * i] = mem.align_in_bits;
            hash = mix(mix(hash, mem.memory_ty.to_bits()), mem.align_in_bits);
        }
        self.used = used;
        self.hash = hash;
        true
    }

    /// Packs a query into a new key, or `None` when it does not fit.
    #[cfg(test)]
    pub(crate) fn new(q: &LegalityQuery<'_>) -> Option<CacheKey> {
        let mut key = CacheKey::EMPTY;
        key.fill(q).then_some(key)
    }
}

#[inline]
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// One slot: an even `version` means stable, odd means being written, zero
/// means never written.
#[derive(Default)]
struct Slot {
    version: AtomicU64,
    key: [AtomicU64; KEY_WORDS],
    new_ty: AtomicU64,
    action_and_idx: AtomicU64,
}

/// The lock-free answer cache.
pub(crate) struct ActionCache {
    slots: Box<[Slot]>,
    shift: u32,
    /// Whether any slot may hold an answer: clearing a cache nothing was
    /// stored in (each rule set a target builds clears it) costs nothing.
    filled: AtomicBool,
}

impl ActionCache {
    /// A cache of `slots` entries, rounded up to a power of two (at least 2).
    pub(crate) fn new(slots: usize) -> ActionCache {
        let slots = slots.max(2).next_power_of_two();
        ActionCache {
            slots: (0..slots).map(|_| Slot::default()).collect(),
            shift: 64 - slots.trailing_zeros(),
            filled: AtomicBool::new(false),
        }
    }

    /// Number of slots.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn slot(&self, key: &CacheKey) -> &Slot {
        &self.slots[(key.hash >> self.shift) as usize]
    }

    /// The cached answer for `key`, if present.
    #[inline]
    pub(crate) fn get(&self, key: &CacheKey) -> Option<LegalizeStep> {
        let slot = self.slot(key);
        let before = slot.version.load(Ordering::Acquire);
        if before == 0 || before & 1 == 1 {
            return None;
        }
        // Word 0 holds the type and descriptor counts, so equal heads mean
        // equal lengths and only the used words need comparing.
        for (stored, &want) in slot.key.iter().zip(&key.words[..key.used]) {
            if stored.load(Ordering::Relaxed) != want {
                return None;
            }
        }
        let new_ty = slot.new_ty.load(Ordering::Relaxed);
        let packed = slot.action_and_idx.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        if slot.version.load(Ordering::Relaxed) != before {
            return None;
        }
        Some(LegalizeStep {
            action: LegalizeAction::from_code(packed & 0xff),
            type_idx: (packed >> 8) as u8,
            new_ty: Llt::from_bits(new_ty),
        })
    }

    /// Stores an answer; gives up silently when another writer holds the
    /// slot.
    pub(crate) fn insert(&self, key: &CacheKey, step: LegalizeStep) {
        let slot = self.slot(key);
        let version = slot.version.load(Ordering::Relaxed);
        if version & 1 == 1
            || slot.version.compare_exchange(version, version + 1, Ordering::Relaxed, Ordering::Relaxed).is_err()
        {
            return;
        }
        fence(Ordering::Release);
        for (stored, &word) in slot.key.iter().zip(&key.words) {
            stored.store(word, Ordering::Relaxed);
        }
        slot.new_ty.store(step.new_ty.to_bits(), Ordering::Relaxed);
        slot.action_and_idx.store(step.action.code() | u64::from(step.type_idx) << 8, Ordering::Relaxed);
        slot.version.store(version + 2, Ordering::Release);
        self.filled.store(true, Ordering::Relaxed);
    }

    /// Forgets everything (needs exclusive access, so no reader can be in
    /// the middle of a slot).
    pub(crate) fn clear(&mut self) {
        if !std::mem::take(self.filled.get_mut()) {
            return;
        }
        for slot in self.slots.iter_mut() {
            *slot.version.get_mut() = 0;
        }
    }
}

impl std::fmt::Debug for ActionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ActionCache").field("slots", &self.slots.len()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legality::query::{AtomicOrdering, MemDesc};
    use crate::opcode::Opcode;

    #[test]
    fn keys_distinguish_everything_in_the_query() {
        let s32 = Llt::scalar(32);
        let p0 = Llt::pointer(0, 64);
        let m = [MemDesc::new(s32, 32)];
        let m_atomic = [MemDesc::new(s32, 32).with_ordering(AtomicOrdering::Acquire)];
        let m_aligned = [MemDesc::new(s32, 8)];
        let keys = [
            CacheKey::new(&LegalityQuery::new(Opcode::G_ADD, &[s32])),
            CacheKey::new(&LegalityQuery::new(Opcode::G_SUB, &[s32])),
            CacheKey::new(&LegalityQuery::new(Opcode::G_ADD, &[p0])),
            CacheKey::new(&LegalityQuery::with_mem(Opcode::G_LOAD, &[s32, p0], &m)),
            CacheKey::new(&LegalityQuery::with_mem(Opcode::G_LOAD, &[s32, p0], &m_atomic)),
            CacheKey::new(&LegalityQuery::with_mem(Opcode::G_LOAD, &[s32, p0], &m_aligned)),
        ];
        for (i, a) in keys.iter().enumerate() {
            for (j, b) in keys.iter().enumerate() {
                assert_eq!(i == j, a == b, "{i} vs {j}");
            }
        }
        let too_many = [s32; 7];
        assert!(CacheKey::new(&LegalityQuery::new(Opcode::G_ADD, &too_many)).is_none());
    }

    #[test]
    fn insert_then_get_and_clear() {
        let mut cache = ActionCache::new(3);
        assert_eq!(cache.capacity(), 4);
        let types = [Llt::scalar(7)];
        let key = CacheKey::new(&LegalityQuery::new(Opcode::G_ADD, &types)).expect("fits");
        assert_eq!(cache.get(&key), None);
        let step = LegalizeStep::with_type(LegalizeAction::WidenScalar, 0, Llt::scalar(32));
        cache.insert(&key, step);
        assert_eq!(cache.get(&key), Some(step));
        cache.clear();
        assert_eq!(cache.get(&key), None);
    }

    #[test]
    fn concurrent_readers_and_writers_never_see_torn_entries() {
        let cache = ActionCache::new(2);
        let keys: Vec<(Vec<Llt>, LegalizeStep)> = (1..=64u32)
            .map(|bits| {
                (
                    vec![Llt::scalar(bits)],
                    LegalizeStep::with_type(LegalizeAction::WidenScalar, 0, Llt::scalar(bits * 2)),
                )
            })
            .collect();
        std::thread::scope(|scope| {
            for t in 0..4 {
                let (cache, keys) = (&cache, &keys);
                scope.spawn(move || {
                    for round in 0..2000 {
                        let (types, step) = &keys[(round * 7 + t) % keys.len()];
                        let key = CacheKey::new(&LegalityQuery::new(Opcode::G_ADD, types)).expect("fits");
                        if let Some(got) = cache.get(&key) {
                            assert_eq!(got, *step);
                        } else {
                            cache.insert(&key, *step);
                        }
                    }
                });
            }
        });
    }
}
