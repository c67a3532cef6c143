//! What gisel knows about target instructions that appear in GMIR of the
//! targets it supports: which end control flow (barriers), which are
//! terminators, and the operand layout of target generic opcodes (which
//! decides where llc prints types). Everything else is opaque.

use crate::opcode::{OperandKind, OperandSpec};

/// Returns, unconditional branches and tail calls: control never falls
/// through them.
const BARRIERS: &[&str] = &[
    "RET_ReallyLR",
    "RET",
    "B",
    "BR",
    "BRK",
    "TCRETURNdi",
    "TCRETURNri",
    "PseudoRET",
    "PseudoTAIL",
    "PseudoBR",
    "PseudoBRIND",
    "PseudoTAILIndirect",
    "TRAP",
    "UNREACHABLE",
    // Arm and Thumb: returns, branches, tail calls, jump-table branches.
    "BX_RET",
    "tBX_RET",
    "tBX_RET_vararg",
    "MOVPCLR",
    "BX",
    "tBX",
    "tBRIND",
    "t2B",
    "tB",
    "TAILJMPd",
    "TAILJMPr",
    "tTAILJMPd",
    "tTAILJMPdND",
    "tTAILJMPr",
    "BR_JTr",
    "BR_JTm_i12",
    "BR_JTm_rs",
    "BR_JTadd",
    "tBR_JTr",
    "t2BR_JT",
    "t2TBB_JT",
    "t2TBH_JT",
    // Mips: returns, jumps, indirect branches, tail calls.
    "RetRA",
    "PseudoReturn",
    "ERet",
    "J",
    "JR",
    "JR_HB",
    "JR_HB_R6",
    "BC",
    "PseudoIndirectBranch",
    "PseudoIndirectBranchR6",
    "PseudoIndirectHazardBranch",
    "PseudoIndrectHazardBranchR6",
    "TAILCALL",
    "TAILCALLREG",
    "TAILCALLR6REG",
    "TAILCALLREGHB",
    "TAILCALLHBR6REG",
    "MIPSeh_return32",
];

/// Conditional branches that end a block without being barriers.
const CONDITIONAL_BRANCHES: &[&str] = &[
    "Bcc", "CBZW", "CBZX", "CBNZW", "CBNZX", "TBZW", "TBZX", "TBNZW", "TBNZX", "BEQ", "BNE", "BLT", "BGE", "BLTU",
    "BGEU", "t2Bcc", "tBcc", "tCBZ", "tCBNZ", "BGEZ", "BGTZ", "BLEZ", "BLTZ", "BEQC", "BNEC", "BEQZC", "BNEZC", "BGEC",
    "BLTC", "BGEUC", "BLTUC", "BGEZC", "BGTZC", "BLEZC", "BLTZC", "BC1T", "BC1F", "BC1EQZ", "BC1NEZ", "BNZ_B", "BNZ_H",
    "BNZ_W", "BNZ_D", "BNZ_V", "BZ_B", "BZ_H", "BZ_W", "BZ_D", "BZ_V",
];

/// True when control cannot continue past target instruction `name`.
pub fn is_known_barrier(name: &str) -> bool {
    BARRIERS.contains(&name)
}

/// True when target instruction `name` is a terminator.
pub fn is_known_terminator(name: &str) -> bool {
    is_known_barrier(name) || CONDITIONAL_BRANCHES.contains(&name)
}

const fn ty(def: bool, index: u8) -> OperandSpec {
    OperandSpec { def, kind: OperandKind::Type { index, pointer: false }, variadic: false }
}

const IMM: OperandSpec = OperandSpec { def: false, kind: OperandKind::Imm, variadic: false };
const UNARY: &[OperandSpec] = &[ty(true, 0), ty(false, 0)];
/// Two sources and a shift amount (`G_SLI`, `G_SRI`).
const SHIFT_INSERT: &[OperandSpec] = &[ty(true, 0), ty(false, 0), ty(false, 0), IMM];
const BINARY: &[OperandSpec] = &[ty(true, 0), ty(false, 0), ty(false, 0)];
/// A vector shifted by an immediate (AArch64's `G_VASHR`, `G_SRSHR_I`).
const SHIFT_BY_IMMEDIATE: &[OperandSpec] = &[ty(true, 0), ty(false, 0), IMM];
/// Two sources of one type and a wider result (`G_PMULL`).
const WIDENING_BINARY: &[OperandSpec] = &[ty(true, 0), ty(false, 1), ty(false, 1)];
/// An accumulator and two sources (the dot products).
const TERNARY: &[OperandSpec] = &[ty(true, 0), ty(false, 0), ty(false, 0), ty(false, 0)];
const CONVERT: &[OperandSpec] = &[ty(true, 0), ty(false, 1), IMM];
const CAST: &[OperandSpec] = &[ty(true, 0), ty(false, 1)];
const CLASSIFY: &[OperandSpec] = &[ty(true, 0), ty(false, 1)];
const ADD_LOW: &[OperandSpec] = &[ty(true, 0), ty(false, 1), ty(false, 2)];
const SPLAT_SPLIT: &[OperandSpec] = &[ty(true, 0), ty(false, 0), ty(false, 1), ty(false, 1), ty(false, 2)];
/// Passthru, source, VL.
const MOVE_VL: &[OperandSpec] = &[ty(true, 0), ty(false, 0), ty(false, 0), ty(false, 1)];
/// Passthru, vector, offset, mask, VL, policy; the VL has the offset's
/// type index when sliding down and its own when sliding up.
const SLIDE_DOWN: &[OperandSpec] =
    &[ty(true, 0), ty(false, 0), ty(false, 0), ty(false, 1), ty(false, 2), ty(false, 1), IMM];
const SLIDE_UP: &[OperandSpec] =
    &[ty(true, 0), ty(false, 0), ty(false, 0), ty(false, 1), ty(false, 2), ty(false, 3), IMM];

const fn pointer(def: bool, index: u8) -> OperandSpec {
    OperandSpec { def, kind: OperandKind::Type { index, pointer: true }, variadic: false }
}

/// A value loaded through a pointer (X86's `G_FILD`).
const LOAD_FROM: &[OperandSpec] = &[ty(true, 0), pointer(false, 1)];
/// A value stored through a pointer (X86's `G_FIST`).
const STORE_TO: &[OperandSpec] = &[ty(false, 0), pointer(false, 1)];
/// A pointer to a control word (X86's `G_FNSTCW16`, `G_FLDCW16`).
const CONTROL_WORD: &[OperandSpec] = &[pointer(false, 0)];

/// Target generic opcodes that store or have side effects.
const WITH_SIDE_EFFECTS: &[&str] = &["G_FIST", "G_FNSTCW16", "G_FLDCW16"];

/// The operand layout of a target generic opcode (`G_SLLW`, `G_ADD_LOW`).
pub fn target_generic_layout(name: &str) -> Option<&'static [OperandSpec]> {
    Some(match name {
        "G_SLLW" | "G_SRLW" | "G_SRAW" | "G_DIVW" | "G_DIVUW" | "G_REMUW" | "G_ROLW" | "G_RORW" => BINARY,
        // llc prints no source types on the widening multiplies either.
        "G_SMULL" | "G_UMULL" => BINARY,
        "G_SLI" | "G_SRI" => SHIFT_INSERT,
        "G_VASHR" | "G_VLSHR" | "G_SRSHR_I" | "G_URSHR_I" => SHIFT_BY_IMMEDIATE,
        "G_PMULL" => WIDENING_BINARY,
        "G_UDOT" | "G_SDOT" | "G_USDOT" => TERNARY,
        "G_CLZW" | "G_CTZW" | "G_BREV8" | "G_UADDLV" | "G_SADDLV" | "G_UADDLP" | "G_SADDLP" => UNARY,
        "G_FCVT_W_RV64" | "G_FCVT_WU_RV64" => CONVERT,
        "G_FPTRUNC_ODD" => CAST,
        "G_FCLASS" | "G_VMSET_VL" | "G_VMCLR_VL" => CLASSIFY,
        "G_SPLAT_VECTOR_SPLIT_I64_VL" => SPLAT_SPLIT,
        "G_VSLIDEDOWN_VL" => SLIDE_DOWN,
        "G_VSLIDEUP_VL" => SLIDE_UP,
        "G_VMV_V_V_VL" => MOVE_VL,
        "G_ADD_LOW" => ADD_LOW,
        "G_FILD" => LOAD_FROM,
        "G_FIST" => STORE_TO,
        "G_FNSTCW16" | "G_FLDCW16" => CONTROL_WORD,
        _ => return None,
    })
}

/// True when target generic opcode `name` has no side effects
/// (`hasSideEffects = false` in the target's `InstrGISel.td`, no store):
/// one whose results go unused is dead, as any generic instruction's
/// would be (a plain load, X86's `G_FILD`, included).
pub fn is_side_effect_free_target_generic(name: &str) -> bool {
    (target_generic_layout(name).is_some() && !WITH_SIDE_EFFECTS.contains(&name)) || name == "G_READ_VLENB"
}
