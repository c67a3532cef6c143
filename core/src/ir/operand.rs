//! Machine operands: registers with their flags, immediates, constants,
//! predicates, blocks, frame objects, symbols and the rest of what LLVM's
//! GlobalISel tests write.

use super::{Block, Symbol, VReg};
use crate::apint::ApInt;
use crate::ir::fpconst::FpConst;

/// A register: virtual, physical (by interned name, `$noreg` included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    /// `%N` or a named `%x`.
    Virtual(VReg),
    /// `$name`.
    Physical(Symbol),
}

/// Flags of a register operand, as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RegFlags(u16);

impl RegFlags {
    /// The operand defines the register.
    pub const DEF: RegFlags = RegFlags(1 << 0);
    /// `implicit` / `implicit-def`.
    pub const IMPLICIT: RegFlags = RegFlags(1 << 1);
    /// `dead`.
    pub const DEAD: RegFlags = RegFlags(1 << 2);
    /// `killed`.
    pub const KILLED: RegFlags = RegFlags(1 << 3);
    /// `undef`.
    pub const UNDEF: RegFlags = RegFlags(1 << 4);
    /// `internal`.
    pub const INTERNAL: RegFlags = RegFlags(1 << 5);
    /// `early-clobber`.
    pub const EARLY_CLOBBER: RegFlags = RegFlags(1 << 6);
    /// `debug-use` (accepted, never printed, as LLVM infers it).
    pub const DEBUG_USE: RegFlags = RegFlags(1 << 7);
    /// `renamable`.
    pub const RENAMABLE: RegFlags = RegFlags(1 << 8);
    /// No flags.
    pub const NONE: RegFlags = RegFlags(0);

    /// True when every bit of `other` is set.
    pub fn contains(self, other: RegFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// True when any bit of `other` is set.
    pub fn intersects(self, other: RegFlags) -> bool {
        self.0 & other.0 != 0
    }

    /// Sets the bits of `other`.
    pub fn insert(&mut self, other: RegFlags) {
        self.0 |= other.0;
    }
}

impl std::ops::BitOr for RegFlags {
    type Output = RegFlags;
    fn bitor(self, rhs: RegFlags) -> RegFlags {
        RegFlags(self.0 | rhs.0)
    }
}

/// A register operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegOperand {
    /// The register.
    pub reg: Reg,
    /// Its flags.
    pub flags: RegFlags,
    /// A subregister index (`%0.sub_32`).
    pub subreg: Option<Symbol>,
    /// `(tied-def N)`: this use is tied to def operand N.
    pub tied_def: Option<u8>,
}

impl RegOperand {
    /// A plain use of `reg`.
    pub fn use_of(reg: Reg) -> RegOperand {
        RegOperand { reg, flags: RegFlags::NONE, subreg: None, tied_def: None }
    }

    /// A plain def of `reg`.
    pub fn def_of(reg: Reg) -> RegOperand {
        RegOperand { reg, flags: RegFlags::DEF, subreg: None, tied_def: None }
    }

    /// True for defs.
    pub fn is_def(&self) -> bool {
        self.flags.contains(RegFlags::DEF)
    }

    /// True for implicit operands.
    pub fn is_implicit(&self) -> bool {
        self.flags.contains(RegFlags::IMPLICIT)
    }

    /// The virtual register, if it is one.
    pub fn vreg(&self) -> Option<VReg> {
        match self.reg {
            Reg::Virtual(v) => Some(v),
            Reg::Physical(_) => None,
        }
    }
}

/// An integer comparison predicate.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPredicate {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// A floating-point comparison predicate.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatPredicate {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Uno,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    True,
}

macro_rules! predicate_names {
    ($ty:ident { $($variant:ident = $name:literal),* $(,)? }) => {
        impl $ty {
            /// Every predicate.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// LLVM's spelling (`eq`, `oeq`, ...).
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),* }
            }

            /// Parses LLVM's spelling.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name { $($name => Some($ty::$variant),)* _ => None }
            }
        }
    };
}

predicate_names!(IntPredicate {
    Eq = "eq", Ne = "ne", Ugt = "ugt", Uge = "uge", Ult = "ult", Ule = "ule",
    Sgt = "sgt", Sge = "sge", Slt = "slt", Sle = "sle",
});
predicate_names!(FloatPredicate {
    False = "false", Oeq = "oeq", Ogt = "ogt", Oge = "oge", Olt = "olt", Ole = "ole",
    One = "one", Ord = "ord", Uno = "uno", Ueq = "ueq", Ugt = "ugt", Uge = "uge",
    Ult = "ult", Ule = "ule", Une = "une", True = "true",
});

impl IntPredicate {
    /// True for the signed relational predicates.
    pub fn is_signed(self) -> bool {
        matches!(self, IntPredicate::Sgt | IntPredicate::Sge | IntPredicate::Slt | IntPredicate::Sle)
    }
}

/// A stack object reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRef {
    /// `%fixed-stack.N` rather than `%stack.N`.
    pub fixed: bool,
    /// The object number.
    pub index: u32,
    /// The IR name suffix (`%stack.0.x`).
    pub name: Option<Box<str>>,
}

/// A symbol with a byte offset (`@g + 8`, `&memcpy`, `target-index(x) + 4`),
/// boxed in its operand so that every operand fits in 24 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolOffset {
    /// The name as written after its sigil, quotes included.
    pub name: Box<str>,
    /// Byte offset.
    pub offset: i64,
}

/// An operand under `target-flags(...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FlaggedOperand {
    /// The flags as written between the parentheses.
    pub flags: Box<str>,
    /// The flagged operand.
    pub operand: Operand,
}

/// An operand: 24 bytes, the larger payloads boxed.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register.
    Reg(RegOperand),
    /// A plain immediate.
    Imm(i64),
    /// A `ConstantInt` (`i32 7`), boxed (as the floating-point constant)
    /// so that every operand fits in 32 bytes.
    CImm(Box<ApInt>),
    /// A `ConstantFP` (`float 1.0`).
    FpImm(Box<FpConst>),
    /// `intpred(eq)`.
    IntPred(IntPredicate),
    /// `floatpred(oeq)`.
    FloatPred(FloatPredicate),
    /// `%bb.N`.
    Block(Block),
    /// `%stack.N` / `%fixed-stack.N`.
    Frame(Box<FrameRef>),
    /// `@name` with an offset (`@g + 8`); the name is kept as written,
    /// quotes included.
    Global(Box<SymbolOffset>),
    /// `&symbol` with an offset; name as written after `&`.
    ExternalSymbol(Box<SymbolOffset>),
    /// `%const.N` with an offset.
    ConstantPool {
        /// The constant-pool index.
        index: u32,
        /// Byte offset.
        offset: i64,
    },
    /// `%jump-table.N`.
    JumpTable(u32),
    /// `target-index(name)` with an offset.
    TargetIndex(Box<SymbolOffset>),
    /// `blockaddress(...)`, the text between the parentheses.
    BlockAddress(Box<str>),
    /// `intrinsic(@llvm.name)`: the name without `@`.
    Intrinsic(Box<str>),
    /// A named register mask (`csr_aarch64_aapcs`).
    RegMask(Symbol),
    /// `shufflemask(0, undef, 3)`: `None` is `undef`.
    ShuffleMask(Box<[Option<u32>]>),
    /// A metadata reference or node (`!0`, `!{...}`) as written.
    Metadata(Box<str>),
    /// `<mcsymbol ...>` as written.
    McSymbol(Box<str>),
    /// `%subreg.name` (REG_SEQUENCE, INSERT_SUBREG).
    SubRegIndex(Symbol),
    /// `target-flags(f1, f2) operand`.
    TargetFlags(Box<FlaggedOperand>),
    /// `cfi-index`-style or other rare operands kept verbatim: the exact
    /// text (`dbg-instr-ref(1, 0)`, `lanemask(0x...)`, `<0x...>`).
    Verbatim(Box<str>),
}

impl Operand {
    /// `@name` with an offset.
    pub fn global(name: impl Into<Box<str>>, offset: i64) -> Operand {
        Operand::Global(Box::new(SymbolOffset { name: name.into(), offset }))
    }

    /// `&symbol` with an offset.
    pub fn external_symbol(name: impl Into<Box<str>>, offset: i64) -> Operand {
        Operand::ExternalSymbol(Box::new(SymbolOffset { name: name.into(), offset }))
    }

    /// `operand` under `target-flags(flags)`.
    pub fn target_flags(flags: impl Into<Box<str>>, operand: Operand) -> Operand {
        Operand::TargetFlags(Box::new(FlaggedOperand { flags: flags.into(), operand }))
    }

    /// A `ConstantInt` operand.
    pub fn cimm(value: ApInt) -> Operand {
        Operand::CImm(Box::new(value))
    }

    /// A `ConstantFP` operand.
    pub fn fpimm(value: FpConst) -> Operand {
        Operand::FpImm(Box::new(value))
    }

    /// The register operand, if it is one.
    pub fn as_reg(&self) -> Option<&RegOperand> {
        match self {
            Operand::Reg(r) => Some(r),
            _ => None,
        }
    }

    /// The register operand, mutably.
    pub fn as_reg_mut(&mut self) -> Option<&mut RegOperand> {
        match self {
            Operand::Reg(r) => Some(r),
            _ => None,
        }
    }

    /// A use of virtual register `v`.
    pub fn vreg_use(v: VReg) -> Operand {
        Operand::Reg(RegOperand::use_of(Reg::Virtual(v)))
    }

    /// A def of virtual register `v`.
    pub fn vreg_def(v: VReg) -> Operand {
        Operand::Reg(RegOperand::def_of(Reg::Virtual(v)))
    }

    /// `implicit $reg`: an implicit use of physical register `reg`.
    pub fn implicit_use(reg: Symbol) -> Operand {
        Operand::Reg(RegOperand { flags: RegFlags::IMPLICIT, ..RegOperand::use_of(Reg::Physical(reg)) })
    }

    /// `implicit-def $reg`: an implicit def of physical register `reg`.
    pub fn implicit_def(reg: Symbol) -> Operand {
        Operand::Reg(RegOperand { flags: RegFlags::IMPLICIT | RegFlags::DEF, ..RegOperand::use_of(Reg::Physical(reg)) })
    }
}
