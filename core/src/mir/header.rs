//! The typed machine-function header: every YAML key `llc` 22 reads before
//! `body:`, with `llc`'s defaults for the keys a file leaves out and its
//! messages for unknown keys and malformed values.

use std::ops::Range;

/// The YAML keys of a machine function, with their values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FunctionHeader {
    /// `name`: the function's name (required).
    pub name: String,
    /// Byte span of the name's value in the file.
    pub name_span: Range<usize>,
    /// `alignment` in bytes; `None` prints as 1.
    pub alignment: Option<u64>,
    /// `exposesReturnsTwice`.
    pub exposes_returns_twice: bool,
    /// `legalized` (a GlobalISel property).
    pub legalized: bool,
    /// `regBankSelected`.
    pub reg_bank_selected: bool,
    /// `selected`.
    pub selected: bool,
    /// `failedISel`.
    pub failed_isel: bool,
    /// `tracksRegLiveness`.
    pub tracks_reg_liveness: bool,
    /// `hasWinCFI`.
    pub has_win_cfi: bool,
    /// `noPhis`; `None` when the file leaves it to `llc`, which then sets it
    /// when the body has no PHI (see [`FunctionHeader::resolve_properties`]).
    pub no_phis: Option<bool>,
    /// `isSSA`; `None`: computed from the body.
    pub is_ssa: Option<bool>,
    /// `noVRegs`; `None`: computed from the body.
    pub no_vregs: Option<bool>,
    /// `hasFakeUses`.
    pub has_fake_uses: bool,
    /// `callsEHReturn`.
    pub calls_eh_return: bool,
    /// `callsUnwindInit`.
    pub calls_unwind_init: bool,
    /// `hasEHContTarget`.
    pub has_eh_cont_target: bool,
    /// `hasEHScopes`.
    pub has_eh_scopes: bool,
    /// `hasEHFunclets`.
    pub has_eh_funclets: bool,
    /// `isOutlined`.
    pub is_outlined: bool,
    /// `debugInstrRef`.
    pub debug_instr_ref: bool,
    /// `failsVerification`.
    pub fails_verification: bool,
    /// `tracksDebugUserValues`.
    pub tracks_debug_user_values: bool,
    /// `registers`: virtual register declarations, as written.
    pub registers: Vec<RegisterDecl>,
    /// `liveins`: function live-ins.
    pub liveins: Vec<LiveIn>,
    /// `calleeSavedRegisters`, printed only when present.
    pub callee_saved_registers: Option<Vec<String>>,
    /// `frameInfo`.
    pub frame_info: FrameInfo,
    /// `fixedStack`, in file order.
    pub fixed_stack: Vec<FixedStackObject>,
    /// `stack`, in file order.
    pub stack: Vec<StackObject>,
    /// `entry_values`.
    pub entry_values: Vec<EntryValue>,
    /// `callSites`.
    pub call_sites: Vec<CallSite>,
    /// `debugValueSubstitutions`.
    pub debug_value_substitutions: Vec<DebugValueSubstitution>,
    /// `constants`: the constant pool.
    pub constants: Vec<Constant>,
    /// `machineFunctionInfo`: target-specific scalars in file order; `None`
    /// when absent. Check them with [`super::validate_machine_function_info`].
    pub machine_function_info: Option<Vec<MfiEntry>>,
    /// `jumpTable`.
    pub jump_table: Option<JumpTable>,
    /// `machineMetadataNodes`.
    pub machine_metadata_nodes: Vec<String>,
}

impl FunctionHeader {
    /// Fills `noPhis`, `isSSA` and `noVRegs` the way `llc` does when the file
    /// does not give them: each is set from what the body holds.
    pub fn resolve_properties(&mut self, has_phis: bool, is_ssa: bool, has_vregs: bool) {
        self.no_phis.get_or_insert(!has_phis);
        self.is_ssa.get_or_insert(is_ssa);
        self.no_vregs.get_or_insert(!has_vregs);
    }
}

/// One `registers:` entry: `{ id: 0, class: _, preferred-register: '', flags: [  ] }`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegisterDecl {
    /// Virtual register number.
    pub id: u32,
    /// Register class or bank name, `_` for none.
    pub class: String,
    /// `preferred-register`, empty when none.
    pub preferred_register: String,
    /// `flags` (target register flags), usually empty.
    pub flags: Vec<String>,
    /// Byte span of the entry in the file (empty for synthesised entries).
    pub span: Range<usize>,
}

/// A `registers:` entry to write, borrowed from wherever it is kept (a read
/// [`RegisterDecl`] or a function's virtual register table), so writing
/// needs no allocation per entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisterEntry<'a> {
    /// Virtual register number.
    pub id: u32,
    /// Register class or bank name, `_` for none.
    pub class: &'a str,
    /// `preferred-register`, empty when none.
    pub preferred_register: &'a str,
    /// `flags` (target register flags), usually empty.
    pub flags: &'a [String],
}

impl<'a> From<&'a RegisterDecl> for RegisterEntry<'a> {
    fn from(decl: &'a RegisterDecl) -> RegisterEntry<'a> {
        RegisterEntry {
            id: decl.id,
            class: &decl.class,
            preferred_register: &decl.preferred_register,
            flags: &decl.flags,
        }
    }
}

/// One `liveins:` entry: `{ reg: '$w0', virtual-reg: '%0' }`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveIn {
    /// Physical register, with `$`.
    pub reg: String,
    /// Virtual register, with `%`, or empty.
    pub virtual_reg: String,
    /// Byte span of the entry in the file.
    pub span: Range<usize>,
}

/// A save or restore point of `frameInfo`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveRestorePoint {
    /// The block, `'%bb.N'`.
    pub point: String,
    /// Registers saved or restored there.
    pub registers: Vec<String>,
}

/// `frameInfo`: every key `llc` prints, with its defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrameInfo {
    /// `isFrameAddressTaken`.
    pub is_frame_address_taken: bool,
    /// `isReturnAddressTaken`.
    pub is_return_address_taken: bool,
    /// `hasStackMap`.
    pub has_stack_map: bool,
    /// `hasPatchPoint`.
    pub has_patch_point: bool,
    /// `stackSize`.
    pub stack_size: u64,
    /// `offsetAdjustment`.
    pub offset_adjustment: i32,
    /// `maxAlignment` as written; llc prints the maximum of this, 1 and the
    /// alignment of every stack object.
    pub max_alignment: u32,
    /// `adjustsStack`.
    pub adjusts_stack: bool,
    /// `hasCalls`.
    pub has_calls: bool,
    /// `stackProtector`, a `%stack.N` reference or empty.
    pub stack_protector: String,
    /// `functionContext`, a `%stack.N` reference or empty.
    pub function_context: String,
    /// `maxCallFrameSize`; `None` when absent (RISC-V then prints
    /// 4294967295, "not computed"; AArch64 computes it when reading).
    pub max_call_frame_size: Option<u32>,
    /// `cvBytesOfCalleeSavedRegisters`.
    pub cv_bytes_of_callee_saved_registers: u32,
    /// `hasOpaqueSPAdjustment`.
    pub has_opaque_sp_adjustment: bool,
    /// `hasVAStart`.
    pub has_va_start: bool,
    /// `hasMustTailInVarArgFunc`.
    pub has_must_tail_in_var_arg_func: bool,
    /// `hasTailCall`.
    pub has_tail_call: bool,
    /// `isCalleeSavedInfoValid`.
    pub is_callee_saved_info_valid: bool,
    /// `localFrameSize`.
    pub local_frame_size: u32,
    /// `savePoint` entries (printed only when non-empty).
    pub save_point: Vec<SaveRestorePoint>,
    /// `restorePoint` entries (printed only when non-empty).
    pub restore_point: Vec<SaveRestorePoint>,
}

/// The `type` of a stack object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StackObjectType {
    /// `default`.
    #[default]
    Default,
    /// `spill-slot`.
    SpillSlot,
    /// `variable-sized` (not for fixed objects).
    VariableSized,
}

impl StackObjectType {
    /// The YAML spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            StackObjectType::Default => "default",
            StackObjectType::SpillSlot => "spill-slot",
            StackObjectType::VariableSized => "variable-sized",
        }
    }
}

/// Debug-info keys shared by stack objects and entry values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DebugInfo {
    /// `debug-info-variable`.
    pub variable: String,
    /// `debug-info-expression`.
    pub expression: String,
    /// `debug-info-location`.
    pub location: String,
}

/// One `fixedStack:` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FixedStackObject {
    /// `id` as written.
    pub id: u32,
    /// `type` (`default` or `spill-slot`).
    pub kind: StackObjectType,
    /// `offset`.
    pub offset: i64,
    /// `size`.
    pub size: u64,
    /// `alignment`; `None` prints as 1.
    pub alignment: Option<u64>,
    /// `stack-id`.
    pub stack_id: String,
    /// `isImmutable`.
    pub is_immutable: bool,
    /// `isAliased`.
    pub is_aliased: bool,
    /// `callee-saved-register`.
    pub callee_saved_register: String,
    /// `callee-saved-restored` (default true).
    pub callee_saved_restored: bool,
    /// The debug-info keys.
    pub debug: DebugInfo,
    /// Byte span of the entry.
    pub span: Range<usize>,
}

/// One `stack:` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StackObject {
    /// `id` as written.
    pub id: u32,
    /// `name` (the IR alloca's name), empty when none.
    pub name: String,
    /// `type`.
    pub kind: StackObjectType,
    /// `offset`.
    pub offset: i64,
    /// `size` (absent for variable-sized objects).
    pub size: u64,
    /// `alignment`; `None` prints as 1.
    pub alignment: Option<u64>,
    /// `stack-id`.
    pub stack_id: String,
    /// `callee-saved-register`.
    pub callee_saved_register: String,
    /// `callee-saved-restored` (default true).
    pub callee_saved_restored: bool,
    /// `local-offset`.
    pub local_offset: Option<i64>,
    /// The debug-info keys.
    pub debug: DebugInfo,
    /// Byte span of the entry.
    pub span: Range<usize>,
}

/// One `entry_values:` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryValue {
    /// `entry-value-register`.
    pub register: String,
    /// The debug-info keys.
    pub debug: DebugInfo,
}

/// One `callSites:` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallSite {
    /// `bb`: the block number.
    pub bb: u32,
    /// `offset`: the instruction's index in the block.
    pub offset: u32,
    /// `fwdArgRegs`: (argument number, register).
    pub fwd_arg_regs: Vec<(u16, String)>,
}

/// One `debugValueSubstitutions:` entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DebugValueSubstitution {
    /// `srcinst`.
    pub src_inst: u32,
    /// `srcop`.
    pub src_op: u32,
    /// `dstinst`.
    pub dst_inst: u32,
    /// `dstop`.
    pub dst_op: u32,
    /// `subreg`.
    pub subreg: u32,
}

/// One `constants:` entry (constant pool).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constant {
    /// `id`.
    pub id: u32,
    /// `value`: an LLVM IR constant with its type, as written.
    pub value: String,
    /// `alignment`; `None`: llc prints the type's ABI alignment.
    pub alignment: Option<u64>,
    /// `isTargetSpecific`.
    pub is_target_specific: bool,
}

/// One `machineFunctionInfo:` key with its scalar value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MfiEntry {
    /// The key.
    pub key: String,
    /// The value, as text.
    pub value: String,
    /// Byte span of the key.
    pub key_span: Range<usize>,
    /// Byte span of the value.
    pub value_span: Range<usize>,
}

/// `jumpTable:`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JumpTable {
    /// `kind` (`block-address`, `label-difference32`, ...).
    pub kind: String,
    /// `entries`: (id, blocks).
    pub entries: Vec<(u32, Vec<String>)>,
}
