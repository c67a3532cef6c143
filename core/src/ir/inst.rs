//! Instructions: an opcode, operands (defs first), flags, memory operands
//! and trailing annotations, linked into their block's list.

use super::{MemOperand, Operand, Symbol};
use crate::opcode::Opcode;
use smallvec::SmallVec;

/// The opcode of an instruction: one of the target-independent opcodes,
/// or a target instruction by interned name (`RET_ReallyLR`, `G_ADD_LOW`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstOpcode {
    /// COPY, PHI, G_ADD, ...
    Known(Opcode),
    /// A target instruction.
    Target(Symbol),
}

impl InstOpcode {
    /// The target-independent opcode, if it is one.
    pub fn known(self) -> Option<Opcode> {
        match self {
            InstOpcode::Known(op) => Some(op),
            InstOpcode::Target(_) => None,
        }
    }

    /// True for a generic `G_*` opcode.
    pub fn is_generic(self) -> bool {
        self.known().is_some_and(Opcode::is_generic)
    }
}

/// Instruction flags, in the order LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct InstFlags(u32);

/// Every instruction flag with its MIR spelling, in print order.
pub const INST_FLAG_NAMES: [(InstFlags, &str); 21] = [
    (InstFlags::FRAME_SETUP, "frame-setup"),
    (InstFlags::FRAME_DESTROY, "frame-destroy"),
    (InstFlags::NNAN, "nnan"),
    (InstFlags::NINF, "ninf"),
    (InstFlags::NSZ, "nsz"),
    (InstFlags::ARCP, "arcp"),
    (InstFlags::CONTRACT, "contract"),
    (InstFlags::AFN, "afn"),
    (InstFlags::REASSOC, "reassoc"),
    (InstFlags::NUW, "nuw"),
    (InstFlags::NSW, "nsw"),
    (InstFlags::EXACT, "exact"),
    (InstFlags::NOFPEXCEPT, "nofpexcept"),
    (InstFlags::NOMERGE, "nomerge"),
    (InstFlags::UNPREDICTABLE, "unpredictable"),
    (InstFlags::NOCONVERGENT, "noconvergent"),
    (InstFlags::NNEG, "nneg"),
    (InstFlags::DISJOINT, "disjoint"),
    (InstFlags::NUSW, "nusw"),
    (InstFlags::SAMESIGN, "samesign"),
    (InstFlags::INBOUNDS, "inbounds"),
];

#[allow(missing_docs)]
impl InstFlags {
    pub const NONE: InstFlags = InstFlags(0);
    pub const FRAME_SETUP: InstFlags = InstFlags(1 << 0);
    pub const FRAME_DESTROY: InstFlags = InstFlags(1 << 1);
    pub const NNAN: InstFlags = InstFlags(1 << 2);
    pub const NINF: InstFlags = InstFlags(1 << 3);
    pub const NSZ: InstFlags = InstFlags(1 << 4);
    pub const ARCP: InstFlags = InstFlags(1 << 5);
    pub const CONTRACT: InstFlags = InstFlags(1 << 6);
    pub const AFN: InstFlags = InstFlags(1 << 7);
    pub const REASSOC: InstFlags = InstFlags(1 << 8);
    pub const NUW: InstFlags = InstFlags(1 << 9);
    pub const NSW: InstFlags = InstFlags(1 << 10);
    pub const EXACT: InstFlags = InstFlags(1 << 11);
    pub const NOFPEXCEPT: InstFlags = InstFlags(1 << 12);
    pub const NOMERGE: InstFlags = InstFlags(1 << 13);
    pub const UNPREDICTABLE: InstFlags = InstFlags(1 << 14);
    pub const NOCONVERGENT: InstFlags = InstFlags(1 << 15);
    pub const NNEG: InstFlags = InstFlags(1 << 16);
    pub const DISJOINT: InstFlags = InstFlags(1 << 17);
    pub const NUSW: InstFlags = InstFlags(1 << 18);
    pub const SAMESIGN: InstFlags = InstFlags(1 << 19);
    pub const INBOUNDS: InstFlags = InstFlags(1 << 20);
}

impl InstFlags {
    /// True when every bit of `other` is set.
    pub fn contains(self, other: InstFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the bits of `other`.
    pub fn insert(&mut self, other: InstFlags) {
        self.0 |= other.0;
    }

    /// Clears the bits of `other`.
    pub fn remove(&mut self, other: InstFlags) {
        self.0 &= !other.0;
    }

    /// The flag spelled `name`.
    pub fn from_name(name: &str) -> Option<InstFlags> {
        INST_FLAG_NAMES.iter().find(|(_, n)| *n == name).map(|(f, _)| *f)
    }
}

/// An instruction's data.
#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    /// The opcode.
    pub opcode: InstOpcode,
    /// Operands; the first `num_defs` are the defs written before `=`.
    pub operands: SmallVec<[Operand; 4]>,
    /// Number of defs written before `=`.
    pub num_defs: u16,
    /// Flags (`nsw`, `frame-setup`, ...).
    pub flags: InstFlags,
    /// Memory operands.
    pub mem: Vec<MemOperand>,
    /// Trailing annotations after the operands, as written
    /// (`pre-instr-symbol <mcsymbol x>`, `heap-alloc-marker !3`, `pcsections !4`,
    /// `mmra !5`, `cfi-type 3`, `debug-instr-number 2`); a boxed slice,
    /// as few instructions have any.
    annotations: Option<Box<[Box<str>]>>,
    /// `debug-location !N` or an inline `DILocation(...)`, as written.
    pub debug_loc: Option<Box<str>>,
}

impl InstData {
    /// A new, unplaced instruction.
    pub fn new(opcode: InstOpcode) -> InstData {
        InstData {
            opcode,
            operands: SmallVec::new(),
            num_defs: 0,
            flags: InstFlags::NONE,
            mem: Vec::new(),
            annotations: None,
            debug_loc: None,
        }
    }

    /// The trailing annotations, as written.
    pub fn annotations(&self) -> &[Box<str>] {
        self.annotations.as_deref().unwrap_or_default()
    }

    /// Adds a trailing annotation.
    pub fn push_annotation(&mut self, text: Box<str>) {
        let mut annotations = self.annotations.take().map(Vec::from).unwrap_or_default();
        annotations.push(text);
        self.annotations = Some(annotations.into_boxed_slice());
    }

    /// The target-independent opcode, if any.
    pub fn known_opcode(&self) -> Option<Opcode> {
        self.opcode.known()
    }

    /// True when the opcode is `op`.
    pub fn is(&self, op: Opcode) -> bool {
        self.opcode == InstOpcode::Known(op)
    }

    /// The defs written before `=`.
    pub fn defs(&self) -> &[Operand] {
        &self.operands[..usize::from(self.num_defs)]
    }

    /// The operands after `=`.
    pub fn uses(&self) -> &[Operand] {
        &self.operands[usize::from(self.num_defs)..]
    }

    /// The operands but implicit registers: those an opcode's operand
    /// layout describes.
    pub fn explicit_operands(&self) -> impl Iterator<Item = &Operand> + Clone {
        self.operands.iter().filter(|op| op.as_reg().is_none_or(|r| !r.is_implicit()))
    }
}
