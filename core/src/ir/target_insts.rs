//! What gisel knows about target instructions that appear in GMIR tests
//! of the targets it supports: which end control flow (barriers) and which
//! are terminators. Everything else about a target instruction is opaque.

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
];

/// Conditional branches that end a block without being barriers.
const CONDITIONAL_BRANCHES: &[&str] = &[
    "Bcc", "CBZW", "CBZX", "CBNZW", "CBNZX", "TBZW", "TBZX", "TBNZW", "TBNZX", "BEQ", "BNE", "BLT", "BGE", "BLTU",
    "BGEU",
];

/// True when control cannot continue past target instruction `name`.
pub fn is_known_barrier(name: &str) -> bool {
    BARRIERS.contains(&name)
}

/// True when target instruction `name` is a terminator.
pub fn is_known_terminator(name: &str) -> bool {
    is_known_barrier(name) || CONDITIONAL_BRANCHES.contains(&name)
}
