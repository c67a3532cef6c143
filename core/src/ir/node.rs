//! Where each instruction sits in the layout: its block, its neighbours
//! and its sequence number, kept apart from the instruction's data (as
//! Cranelift's `Layout` keeps them apart from its `DataFlowGraph`), in 16
//! bytes, so that walking a block reads few cache lines.

use super::{Block, Inst};

/// The packed value of an absent block or neighbour.
const NONE: u32 = u32::MAX;

/// The layout links of one instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Node {
    block: u32,
    prev: u32,
    next: u32,
    /// Increasing along the block, so that order queries take O(1).
    pub(super) seq: u32,
}

impl Node {
    /// An instruction in no block.
    pub(super) const UNPLACED: Node = Node { block: NONE, prev: NONE, next: NONE, seq: 0 };

    /// A placed instruction's links (its sequence number still to come).
    pub(super) fn placed(block: Block, prev: Option<Inst>, next: Option<Inst>) -> Node {
        Node {
            block: pack(Some(block.index())),
            prev: pack(prev.map(Inst::index)),
            next: pack(next.map(Inst::index)),
            seq: 0,
        }
    }

    /// The block, if the instruction is placed.
    pub(super) fn block(self) -> Option<Block> {
        unpack(self.block).map(Block::new)
    }

    /// The previous instruction in the block.
    pub(super) fn prev(self) -> Option<Inst> {
        unpack(self.prev).map(Inst::new)
    }

    /// The next instruction in the block.
    pub(super) fn next(self) -> Option<Inst> {
        unpack(self.next).map(Inst::new)
    }

    /// Sets the previous instruction.
    pub(super) fn set_prev(&mut self, prev: Option<Inst>) {
        self.prev = pack(prev.map(Inst::index));
    }

    /// Sets the next instruction.
    pub(super) fn set_next(&mut self, next: Option<Inst>) {
        self.next = pack(next.map(Inst::index));
    }
}

fn pack(index: Option<usize>) -> u32 {
    index.map_or(NONE, |i| u32::try_from(i).ok().filter(|&i| i != NONE).expect("arena index fits in u32"))
}

fn unpack(packed: u32) -> Option<usize> {
    (packed != NONE).then_some(packed as usize)
}
