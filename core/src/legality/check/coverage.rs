//! Type- and immediate-index coverage (LLVM's `verifyTypeIdxsCoverage` and
//! `verifyImmIdxsCoverage`, run on every build here).

use std::fmt;

use crate::legality::info::LegalizerInfo;
use crate::opcode::Opcode;

/// An opcode whose rules never mention one of its indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverageFinding {
    /// A type index no builder call named.
    TypeIndexUncovered {
        /// The opcode.
        opcode: Opcode,
        /// The first index not covered.
        first_uncovered: u8,
        /// How many type indices the opcode has.
        count: usize,
    },
    /// A generic immediate index no builder call named.
    ImmIndexUncovered {
        /// The opcode.
        opcode: Opcode,
        /// The first index not covered.
        first_uncovered: u8,
        /// How many generic immediates the opcode has.
        count: usize,
    },
}

impl fmt::Display for CoverageFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoverageFinding::TypeIndexUncovered { opcode, first_uncovered, count } => write!(
                f,
                "{opcode}: no rule mentions type index {first_uncovered} (of {count}); add a rule for it or one that covers all"
            ),
            CoverageFinding::ImmIndexUncovered { opcode, first_uncovered, count } => write!(
                f,
                "{opcode}: no rule mentions immediate index {first_uncovered} (of {count}); use imm_idx({first_uncovered}) or a *_type_with_any_imm rule"
            ),
        }
    }
}

/// Checks every legalizable opcode with rules (through aliases).
pub fn check_coverage(info: &LegalizerInfo) -> Vec<CoverageFinding> {
    let mut findings = Vec::new();
    for opcode in Opcode::all().filter(|o| o.is_legalizable()) {
        let Some(set) = info.rule_set(opcode) else {
            continue;
        };
        if let Err(first_uncovered) = set.verify_type_idxs_coverage(opcode.num_type_indices()) {
            findings.push(CoverageFinding::TypeIndexUncovered {
                opcode,
                first_uncovered,
                count: opcode.num_type_indices(),
            });
        }
        let imms = usize::from(opcode.info().num_imm_indices);
        if let Err(first_uncovered) = set.verify_imm_idxs_coverage(imms) {
            findings.push(CoverageFinding::ImmIndexUncovered { opcode, first_uncovered, count: imms });
        }
    }
    findings
}
