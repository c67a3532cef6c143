//! The legality matrix: for a list of opcodes and a list of types, what
//! the rules answer, as data ([`LegalityMatrix`]) and as a plain-text
//! table ([`LegalityMatrix::render_text`]).
//!
//! The column type goes to every type index of the opcode that is not a
//! pointer operand (`ptypeN` in the opcode table) and pointer operands get
//! `p0` — unless every index is a pointer operand, then the column type
//! goes everywhere. Opcodes with memory operands get a memory operand of
//! the column type at natural alignment. So `G_SHL` at `s32` asks
//! `G_SHL(s32, s32)` and `G_LOAD` at `s16` asks `G_LOAD(s16, p0; s16)`.

use std::fmt;

use super::action::{LegalizeAction, LegalizeStep};
use super::info::LegalizerInfo;
use super::query::{LegalityQuery, MemDesc};
use crate::opcode::{Opcode, OperandKind};
use crate::ty::Llt;

/// One opcode's answers, one per column type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixRow {
    /// The opcode.
    pub opcode: Opcode,
    /// The answers, in column order.
    pub cells: Vec<LegalizeStep>,
}

/// Opcode x type -> answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalityMatrix {
    /// The column types.
    pub types: Vec<Llt>,
    /// One row per opcode.
    pub rows: Vec<MatrixRow>,
}

/// The query types for `opcode` at column type `ty`.
pub fn column_query_types(info: &LegalizerInfo, opcode: Opcode, ty: Llt) -> Vec<Llt> {
    let count = opcode.num_type_indices();
    let mut pointer = vec![false; count];
    for op in opcode.info().operands {
        if let OperandKind::Type { index, pointer: true } = op.kind
            && let Some(slot) = pointer.get_mut(usize::from(index))
        {
            *slot = true;
        }
    }
    let all_pointers = pointer.iter().all(|&p| p);
    pointer.iter().map(|&p| if p && !all_pointers { info.pointer(0) } else { ty }).collect()
}

impl LegalityMatrix {
    /// Asks `info` about every (opcode, type) pair.
    pub fn build(info: &LegalizerInfo, opcodes: &[Opcode], types: &[Llt]) -> LegalityMatrix {
        let rows = opcodes
            .iter()
            .map(|&opcode| {
                let cells = types
                    .iter()
                    .map(|&ty| {
                        let query_types = column_query_types(info, opcode, ty);
                        let mems = vec![MemDesc::natural(ty); opcode.info().mem_operands.count()];
                        info.action(&LegalityQuery::with_mem(opcode, &query_types, &mems))
                    })
                    .collect();
                MatrixRow { opcode, cells }
            })
            .collect();
        LegalityMatrix { types: types.to_vec(), rows }
    }

    /// Every opcode that has rules in `info`, in opcode order.
    pub fn build_for_all(info: &LegalizerInfo, types: &[Llt]) -> LegalityMatrix {
        let opcodes: Vec<Opcode> =
            Opcode::all().filter(|o| o.is_legalizable() && info.rule_set(*o).is_some_and(|s| !s.is_empty())).collect();
        LegalityMatrix::build(info, &opcodes, types)
    }

    /// The short cell text: `L`, `W s32` (widen type 0 to s32; `W1 s32`
    /// for type 1), `N`, `F`, `M`, `B`, `Lo`, `Lc`, `C`, `U`, `-`.
    pub fn cell_text(step: &LegalizeStep) -> String {
        let letter = match step.action {
            LegalizeAction::Legal => "L",
            LegalizeAction::NarrowScalar => "N",
            LegalizeAction::WidenScalar => "W",
            LegalizeAction::FewerElements => "F",
            LegalizeAction::MoreElements => "M",
            LegalizeAction::Bitcast => "B",
            LegalizeAction::Lower => "Lo",
            LegalizeAction::Libcall => "Lc",
            LegalizeAction::Custom => "C",
            LegalizeAction::Unsupported => "U",
            LegalizeAction::NotFound | LegalizeAction::UseLegacyRules => "-",
        };
        if !step.action.changes_type() || !step.new_ty.is_valid() {
            return letter.to_owned();
        }
        match step.type_idx {
            0 => format!("{letter} {}", step.new_ty),
            idx => format!("{letter}{idx} {}", step.new_ty),
        }
    }

    /// A fixed-width text table with a legend.
    pub fn render_text(&self) -> String {
        let header: Vec<String> = self.types.iter().map(Llt::to_string).collect();
        let cells: Vec<Vec<String>> =
            self.rows.iter().map(|r| r.cells.iter().map(LegalityMatrix::cell_text).collect()).collect();
        let first_width = self.rows.iter().map(|r| r.opcode.name().len()).max().unwrap_or(0).max(6);
        let widths: Vec<usize> = (0..header.len())
            .map(|c| cells.iter().map(|row| row[c].len()).chain([header[c].len()]).max().unwrap_or(1))
            .collect();
        let mut out = format!("{:first_width$}", "opcode");
        for (h, w) in header.iter().zip(&widths) {
            out += &format!(" | {h:w$}");
        }
        out += "\n";
        out += &"-".repeat(first_width);
        for w in &widths {
            out += &format!("-+-{}", "-".repeat(*w));
        }
        out += "\n";
        for (row, texts) in self.rows.iter().zip(&cells) {
            let mut line = format!("{:first_width$}", row.opcode.name());
            for (t, w) in texts.iter().zip(&widths) {
                line += &format!(" | {t:w$}");
            }
            out += line.trim_end();
            out += "\n";
        }
        out += "L legal, W widen, N narrow, F fewer elements, M more elements, B bitcast, \
                Lo lower, Lc libcall, C custom, U unsupported, - no rules\n";
        out
    }
}

impl fmt::Display for LegalityMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render_text())
    }
}
