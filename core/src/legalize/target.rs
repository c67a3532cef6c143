//! What the legalizer asks of a target beyond its rules: custom
//! legalization, libcall lowering for its ABI, and a few lowering choices.

use super::helper::Helper;
use crate::ir::Inst;
use crate::legality::{CustomOutcome, LegalizeStep};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// How a target represents booleans widened to a register (LLVM's
/// `BooleanContent`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BooleanContent {
    /// The high bits are undefined: widen with `G_ANYEXT`.
    Undefined,
    /// True is 1: widen with `G_ZEXT`.
    ZeroOrOne,
    /// True is all ones: widen with `G_SEXT`.
    ZeroOrNegativeOne,
}

/// A target's hooks for the legalizer. Every method has LLVM's default.
pub trait LegalizeTarget: Sync {
    /// Legalizes `inst`, for which the rules answered `Custom`.
    fn legalize_custom(&self, helper: &mut Helper<'_>, inst: Inst, step: &LegalizeStep) -> CustomOutcome {
        let _ = (helper, inst, step);
        CustomOutcome::Failed
    }

    /// Legalizes a `G_INTRINSIC*` instruction (never matched against rules).
    fn legalize_intrinsic(&self, helper: &mut Helper<'_>, inst: Inst) -> CustomOutcome {
        let _ = (helper, inst);
        CustomOutcome::Done
    }

    /// Replaces `inst` by a call to `symbol` taking `args` and defining
    /// `results` (each a vreg with its type), following the target's ABI.
    /// The default cannot emit calls.
    fn emit_libcall(&self, helper: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        let _ = (helper, inst);
        Err(format!("this target cannot call '{}'", call.symbol))
    }

    /// The extension `G_CONSTANT` widening uses: `G_SEXT` for byte-sized
    /// types, `G_ZEXT` otherwise (LLVM's `getExtOpcodeForWideningConstant`).
    fn ext_for_widening_constant(&self, small: Llt) -> Opcode {
        if small.is_byte_sized() { Opcode::G_SEXT } else { Opcode::G_ZEXT }
    }

    /// How booleans are widened (`vector` for vector conditions).
    fn boolean_content(&self, vector: bool) -> BooleanContent {
        let _ = vector;
        BooleanContent::ZeroOrOne
    }

    /// How the booleans of floating-point comparisons are widened, where
    /// they differ from integer ones (LLVM's `getBooleanContents` with
    /// `isFloat`). The default is [`LegalizeTarget::boolean_content`].
    fn fp_boolean_content(&self, vector: bool) -> BooleanContent {
        self.boolean_content(vector)
    }

    /// Whether an access of memory type `ty` aligned to `align` bytes, less
    /// than its natural alignment, is allowed: the data layout's ABI
    /// alignment of `ty` is no more than `align`, or the target allows the
    /// misaligned access (LLVM's `allowsMemoryAccessForAlignment`). The
    /// default allows none.
    fn allows_misaligned_access(&self, ty: Llt, align: u64) -> bool {
        let _ = (ty, align);
        false
    }

    /// Whether the data layout is big-endian: a load or store split in
    /// pieces then puts the value's most significant piece at the lowest
    /// address. The default is little-endian.
    fn is_big_endian(&self) -> bool {
        false
    }

    /// Whether `G_SCMP`/`G_UCMP` on operands of `ty` is lowered with
    /// selects rather than a subtraction of the extended compares (LLVM's
    /// `preferSelectsOverBooleanArithmetic`). The default prefers arithmetic.
    fn prefer_selects_over_boolean_arithmetic(&self, ty: Llt) -> bool {
        let _ = ty;
        false
    }

    /// Whether the target's runtime provides `function` (LLVM's libcall
    /// name table having a name for it). The default provides none.
    fn has_runtime_function(&self, function: RuntimeFunction) -> bool {
        let _ = function;
        false
    }

    /// The register `G_STACKSAVE` reads and `G_STACKRESTORE` and
    /// `G_DYN_STACKALLOC` write (LLVM's
    /// `getStackPointerRegisterToSaveRestore`), on a stack growing down.
    /// `None`, the default, leaves those operations unlowered.
    fn stack_pointer(&self) -> Option<&'static str> {
        None
    }

    /// The physical register `G_READ_REGISTER` and `G_WRITE_REGISTER` name
    /// `name` as (LLVM's `getRegisterByName`), or why it cannot be used.
    fn register_by_name(&self, name: &str) -> Result<&'static str, String> {
        Err(format!("the target knows no register named \"{name}\""))
    }

    /// Whether sign-extending from `from` to `to` is cheaper than
    /// zero-extending (LLVM's `isSExtCheaperThanZExt`).
    fn is_sext_cheaper_than_zext(&self, from: Llt, to: Llt) -> bool {
        let _ = (from, to);
        false
    }
}

/// One argument or result of a library call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibcallValue {
    /// The virtual register.
    pub reg: crate::ir::VReg,
    /// Its type.
    pub ty: Llt,
    /// A floating-point value (passed in FP registers when the ABI has them).
    pub float: bool,
    /// An integer the callee expects sign-extended (unsigned otherwise).
    pub signed: bool,
    /// An integer whose bits above its width the callee ignores (no
    /// `signext`/`zeroext`): any-extended when narrower than a register.
    pub any_extend: bool,
}

impl LibcallValue {
    /// An integer or pointer `reg` of type `ty` passed without extension
    /// attributes.
    pub fn plain(reg: crate::ir::VReg, ty: Llt) -> LibcallValue {
        LibcallValue { reg, ty, float: false, signed: false, any_extend: true }
    }
}

/// Runtime functions that only some targets provide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeFunction {
    /// `bzero` (Darwin).
    Bzero,
    /// AArch64's outline atomics (`__aarch64_cas4_acq_rel`, ...).
    OutlineAtomics,
}

/// A call the helper wants emitted for a `Libcall` action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibcallRequest {
    /// The runtime function (`__divti3`).
    pub symbol: String,
    /// Arguments, in order.
    pub args: Vec<LibcallValue>,
    /// Results the call defines.
    pub results: Vec<LibcallValue>,
    /// The callee returns its first argument (`memcpy`): a target may keep
    /// that register live across the call (AArch64's `thisreturn` mask).
    pub returns_first_arg: bool,
    /// The call may become a tail call when nothing but a return follows
    /// the instruction (a return of the first argument when the callee
    /// returns it).
    pub may_tail_call: bool,
}

impl LibcallRequest {
    /// A call of `symbol` that returns nothing of its arguments and is never
    /// a tail call.
    pub fn new(symbol: String, args: Vec<LibcallValue>, results: Vec<LibcallValue>) -> LibcallRequest {
        LibcallRequest { symbol, args, results, returns_first_arg: false, may_tail_call: false }
    }
}

/// A target with LLVM's defaults and no custom code, for rule sets tested
/// on their own.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultTarget;

impl LegalizeTarget for DefaultTarget {}
