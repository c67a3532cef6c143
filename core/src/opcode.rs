//! Every target-independent opcode of LLVM 22 (the 52 standard ones such as
//! `COPY` and `PHI`, and the 270 generic `G_*` ones) with its operand layout
//! and type indices.
//!
//! The table is generated at build time from `data/generic-opcodes.tsv` and
//! `data/standard-opcodes.txt`; `gisel-macros` reads the same table through
//! this module, so the two crates can never disagree on what an opcode is.

use std::fmt;

include!(concat!(env!("OUT_DIR"), "/opcodes.rs"));

/// What one operand slot of an opcode holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A virtual register whose type is the given type index (`typeN`, or
    /// `ptypeN` when `pointer` is set, an advisory hint only).
    Type {
        /// The type index.
        index: u8,
        /// The .td declares it a pointer (`ptypeN`).
        pointer: bool,
    },
    /// A `(register of typeN, %bb.M)` pair, repeated (G_PHI's incoming values).
    TypeAndBlock(u8),
    /// The generic immediate `untyped_imm_0` (what imm-index coverage counts).
    GenericImm,
    /// A plain immediate.
    Imm,
    /// A `ConstantInt` (`i32 7`).
    CImm,
    /// A `ConstantFP` (`float 1.0`).
    FpImm,
    /// An integer predicate (`intpred(eq)`).
    IntPred,
    /// A floating-point predicate (`floatpred(oeq)`).
    FloatPred,
    /// A basic block (`%bb.1`).
    Block,
    /// A frame index (`%stack.0`).
    FrameIndex,
    /// A global (`@g`).
    Global,
    /// A constant-pool index (`%const.0`).
    ConstantPoolIndex,
    /// A jump-table index (`%jump-table.0`).
    JumpTableIndex,
    /// A block address (`blockaddress(@f, %ir-block.bb)`).
    BlockAddress,
    /// An intrinsic ID (`intrinsic(@llvm.foo)`).
    IntrinsicId,
    /// A shuffle mask (`shufflemask(0, 1)`).
    ShuffleMask,
    /// A metadata node (`!0`).
    Metadata,
    /// Anything (intrinsic operands).
    Any,
}

/// One operand slot of an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandSpec {
    /// The slot defines its register.
    pub def: bool,
    /// What the slot holds.
    pub kind: OperandKind,
    /// The slot repeats zero or more times.
    pub variadic: bool,
}

/// How many memory operands an instruction of an opcode carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemOperands {
    /// None.
    None,
    /// Exactly one.
    One,
    /// Exactly two (destination store first, then source load).
    Two,
    /// Zero or more (intrinsics with side effects).
    Optional,
}

impl MemOperands {
    /// The number of memory operands a legality query describes.
    pub fn count(self) -> usize {
        match self {
            MemOperands::None | MemOperands::Optional => 0,
            MemOperands::One => 1,
            MemOperands::Two => 2,
        }
    }
}

/// Properties of an opcode, as the .td flags.
pub mod flags {
    /// `hasSideEffects`.
    pub const HAS_SIDE_EFFECTS: u32 = 1 << 0;
    /// `isBarrier`.
    pub const IS_BARRIER: u32 = 1 << 1;
    /// `isBranch`.
    pub const IS_BRANCH: u32 = 1 << 2;
    /// `isCommutable`.
    pub const IS_COMMUTABLE: u32 = 1 << 3;
    /// `isConvergent`.
    pub const IS_CONVERGENT: u32 = 1 << 4;
    /// `isIndirectBranch`.
    pub const IS_INDIRECT_BRANCH: u32 = 1 << 5;
    /// `isTerminator`.
    pub const IS_TERMINATOR: u32 = 1 << 6;
    /// `mayLoad`.
    pub const MAY_LOAD: u32 = 1 << 7;
    /// `mayStore`.
    pub const MAY_STORE: u32 = 1 << 8;
    /// `mayRaiseFPException`.
    pub const MAY_RAISE_FP_EXCEPTION: u32 = 1 << 9;
}

/// The description of one opcode.
#[derive(Debug)]
pub struct OpcodeInfo {
    /// LLVM's name (`G_ADD`).
    pub name: &'static str,
    /// A generic `G_*` opcode (false for COPY, PHI, ...).
    pub generic: bool,
    /// Number of type indices a legality query carries.
    pub num_type_indices: u8,
    /// Operand slots in order, defs first (empty for standard opcodes,
    /// whose operands are free-form).
    pub operands: &'static [OperandSpec],
    /// Memory operands.
    pub mem_operands: MemOperands,
    /// A coarse family (`int-arith`, `memory`, ...).
    pub category: &'static str,
    /// Number of generic immediate indices (`untyped_imm_0` slots).
    pub num_imm_indices: u8,
    /// The legalizer visits it (pre-ISel generic, not a G_ASSERT_* hint).
    pub legalizer_visits: bool,
    /// Bits of [`flags`].
    pub flags: u32,
}

impl OpcodeInfo {
    /// Tests one of the [`flags`].
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// Number of leading def slots (a variadic def slot counts once).
    pub fn num_def_slots(&self) -> usize {
        self.operands.iter().take_while(|op| op.def).count()
    }

    /// Number of slots that are not variadic: the fewest explicit operands
    /// an instruction of the opcode has.
    pub fn num_fixed_slots(&self) -> usize {
        self.operands.iter().filter(|op| !op.variadic).count()
    }
}

impl Opcode {
    /// Every opcode, in numeric order.
    pub fn all() -> impl ExactSizeIterator<Item = Opcode> + Clone {
        ALL_OPCODES.iter().copied()
    }

    /// The opcode with numeric value `index`.
    pub fn from_index(index: usize) -> Option<Opcode> {
        ALL_OPCODES.get(index).copied()
    }

    /// Looks an opcode up by its LLVM name.
    pub fn from_name(name: &str) -> Option<Opcode> {
        by_name::lookup(name)
    }

    /// LLVM's numeric value.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The table entry.
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODE_INFO[self as usize]
    }

    /// LLVM's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// A generic `G_*` opcode.
    pub fn is_generic(self) -> bool {
        self.info().generic
    }

    /// Pre-ISel generic and not an optimization hint: the opcodes a
    /// `LegalizerInfo` has rules for and the legalizer visits.
    pub fn is_legalizable(self) -> bool {
        self.info().legalizer_visits
    }

    /// A debug instruction (`DBG_VALUE` and kin), which changes no value
    /// and whose uses keep nothing alive.
    pub fn is_debug(self) -> bool {
        use Opcode::*;
        matches!(self, DBG_VALUE | DBG_VALUE_LIST | DBG_INSTR_REF | DBG_LABEL | DBG_PHI)
    }

    /// Number of type indices.
    pub fn num_type_indices(self) -> usize {
        usize::from(self.info().num_type_indices)
    }

    /// The opcode name closest to `name` and its edit distance.
    pub fn closest(name: &str) -> Option<(&'static str, usize)> {
        OPCODE_INFO.iter().map(|info| (info.name, edit_distance(name, info.name))).min_by_key(|(_, d)| *d)
    }

    /// The opcode names closest to `name`, best first (for "did you mean").
    pub fn suggest(name: &str) -> Vec<&'static str> {
        let mut scored: Vec<(usize, &'static str)> = OPCODE_INFO
            .iter()
            .map(|info| (edit_distance(name, info.name), info.name))
            .filter(|(d, _)| *d <= 3.max(name.len() / 4))
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, n)| n).collect()
    }
}

impl fmt::Debug for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod by_name {
    use super::{ALL_OPCODES, Opcode};
    use rustc_hash::FxHashMap;
    use std::sync::OnceLock;

    /// Opcodes by name, built once.
    fn table() -> &'static FxHashMap<&'static str, Opcode> {
        static TABLE: OnceLock<FxHashMap<&'static str, Opcode>> = OnceLock::new();
        TABLE.get_or_init(|| ALL_OPCODES.iter().map(|op| (op.name(), *op)).collect())
    }

    pub(super) fn lookup(name: &str) -> Option<Opcode> {
        table().get(name).copied()
    }
}

/// Levenshtein distance, for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_every_opcode() {
        assert_eq!(NUM_OPCODES, 52 + 270);
        assert_eq!(Opcode::all().filter(|o| o.is_generic()).count(), 270);
        assert_eq!(Opcode::G_ADD.index(), 55);
        assert_eq!(Opcode::COPY.index(), 20);
        assert_eq!(Opcode::from_name("G_UBFX"), Some(Opcode::G_UBFX));
        assert_eq!(Opcode::from_name("G_NOPE"), None);
        for op in Opcode::all() {
            assert_eq!(Opcode::from_name(op.name()), Some(op));
            assert_eq!(Opcode::from_index(op.index()), Some(op));
        }
    }

    #[test]
    fn layouts_carry_type_indices() {
        assert_eq!(Opcode::G_ICMP.num_type_indices(), 2);
        assert_eq!(Opcode::G_ICMP.info().operands[1].kind, OperandKind::IntPred);
        assert!(Opcode::G_UNMERGE_VALUES.info().operands[1].variadic);
        assert_eq!(Opcode::G_LOAD.info().mem_operands, MemOperands::One);
        assert!(Opcode::G_ADD.info().has(flags::IS_COMMUTABLE));
        assert!(!Opcode::G_ASSERT_SEXT.is_legalizable());
        assert!(Opcode::G_ADD.is_legalizable());
    }

    #[test]
    fn suggestions_find_near_misses() {
        assert_eq!(Opcode::suggest("G_ADDD").first(), Some(&"G_ADD"));
        assert!(Opcode::suggest("G_SHUFFLE_VECTR").contains(&"G_SHUFFLE_VECTOR"));
    }
}
