//! more

use super::case::Case;
use gisel_core::opcode::Opcode;

/// The opcodes §3 lists.
pub const LISTED: &[Opcode] = &[];

/// The cases.
pub const CASES: &[Case] = &[];
