//! Where the things code names live in the interpreter's memory, the same
//! for a function before and after legalization: each global value of the
//! module at a fixed address of its own, symbols the module does not
//! declare at addresses hashed from their names, the function's jump tables
//! with their entries, and a code address for each block (what
//! `G_BLOCK_ADDR` and jump-table entries hold and `G_BRINDIRECT` jumps to).
//!
//! Nothing here depends on the order in which a run meets the names, so two
//! functions that refer to the same symbol see the same address.

use super::memory::{Memory, splitmix64};
use super::value::Value;
use crate::ir::JumpTableKind;
use crate::llvm_ir::{IrModule, unquote};
use rustc_hash::FxHashMap;

/// Where block `N`'s code is: `CODE + N * BLOCK_STRIDE`, below 2^31 so that
/// a 32-bit jump-table entry sign-extends to it on any target.
const CODE: u64 = 0x0800_0000;
const BLOCK_STRIDE: u64 = 0x10;
/// Jump table `N` is at `TABLES + N * TABLE_STRIDE`, near the code so that
/// a 32-bit difference between an entry and its table is exact.
const TABLES: u64 = 0x0c00_0000;
const TABLE_STRIDE: u64 = 0x1_0000;

/// The global-symbol areas of one pointer width.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// The module's globals, in name order, one slot each.
    globals: u64,
    /// The size of the area for the module's globals.
    globals_size: u64,
    /// Symbols the module does not declare, by a hash of their name.
    foreign: u64,
    /// Slots of the foreign area.
    foreign_slots: u64,
    /// The size of a foreign slot.
    foreign_stride: u64,
}

impl Layout {
    fn for_pointer_bits(pointer_bits: u32) -> Layout {
        if pointer_bits >= 64 {
            Layout {
                globals: 0x1000_0000_0000,
                globals_size: 1 << 44,
                foreign: 0x2000_0000_0000,
                foreign_slots: 1 << 24,
                foreign_stride: 1 << 20,
            }
        } else {
            Layout {
                globals: 0x1000_0000,
                globals_size: 0x4000_0000,
                foreign: 0x6000_0000,
                foreign_slots: 1 << 12,
                foreign_stride: 1 << 16,
            }
        }
    }
}

/// The addresses of one function's symbols, jump tables and blocks.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// The module's globals by name, with their slot (their rank by name).
    globals: FxHashMap<Box<str>, u64>,
    /// Each jump table's id and the numbers of its blocks, in entry order.
    jump_tables: Vec<(u32, Vec<u32>)>,
    /// How the function encodes jump-table entries.
    jump_table_kind: Option<JumpTableKind>,
}

impl Symbols {
    /// The addresses of `module`'s globals, without jump tables.
    pub fn new(module: &IrModule) -> Symbols {
        let mut names: Vec<&str> = module.global_names().collect();
        names.sort_unstable();
        let globals = names.into_iter().zip(0u64..).map(|(name, slot)| (name.into(), slot)).collect();
        Symbols { globals, jump_tables: Vec::new(), jump_table_kind: None }
    }

    /// These symbols with the function's jump tables: `kind` encodes the
    /// entries, `tables` gives each table's id and its blocks as the MIR
    /// `jumpTable:` names them (`%bb.3`, `%bb.3.name`).
    pub fn with_jump_tables(mut self, kind: Option<JumpTableKind>, tables: &[(u32, Vec<String>)]) -> Symbols {
        self.jump_table_kind = kind;
        self.jump_tables =
            tables.iter().map(|(id, blocks)| (*id, blocks.iter().filter_map(|b| block_number(b)).collect())).collect();
        self
    }

    /// The address of the symbol `name` (as written after `@` or `&`) with
    /// pointers of `pointer_bits`.
    pub fn address(&self, name: &str, pointer_bits: u32) -> u64 {
        let layout = Layout::for_pointer_bits(pointer_bits);
        let name = unquote(name);
        let hash = name.bytes().fold(0u64, |h, b| splitmix64(h ^ u64::from(b)));
        let (slot_start, stride) = match self.globals.get(name) {
            Some(slot) => {
                // As large a slot as the area allows, at most 1 MiB.
                let per_global = layout.globals_size / (self.globals.len() as u64).max(1);
                let stride = (1u64 << per_global.max(16).ilog2()).min(1 << 20);
                (layout.globals + slot * stride, stride)
            }
            None => (layout.foreign + (hash % layout.foreign_slots) * layout.foreign_stride, layout.foreign_stride),
        };
        // Symbols start at different offsets within a 4 KiB page (16-byte
        // aligned), so that code mixing up the page of one symbol with the
        // offset of another computes a wrong address.
        let in_page = if stride >= 0x2000 { (hash >> 32) & 0xff0 } else { 0 };
        slot_start + in_page
    }

    /// The address of jump table `id`.
    pub fn jump_table(&self, id: u32) -> u64 {
        TABLES + u64::from(id) * TABLE_STRIDE
    }

    /// The number of the block entry `index` of jump table `id` names.
    pub fn jump_table_target(&self, id: u32, index: u64) -> Option<u32> {
        let (_, blocks) = self.jump_tables.iter().find(|(t, _)| *t == id)?;
        blocks.get(usize::try_from(index).ok()?).copied()
    }

    /// The code address of the block numbered `number`.
    pub fn block_address(number: u32) -> u64 {
        CODE + u64::from(number) * BLOCK_STRIDE
    }

    /// The number of the block whose code address is `addr`.
    pub fn block_at(addr: u64) -> Option<u32> {
        let offset = addr.checked_sub(CODE)?;
        (offset % BLOCK_STRIDE == 0).then(|| u32::try_from(offset / BLOCK_STRIDE).ok()).flatten()
    }

    /// Lays the jump tables out in `memory` as initial contents, each entry
    /// encoded as the function's jump-table kind says (kinds relative to a
    /// global pointer, and inline tables, are left out: loads from them read
    /// arbitrary bytes, and a branch to one reports that it is no block).
    pub fn preset_jump_tables(&self, memory: &mut Memory, pointer_bits: u32) {
        let Some(kind) = self.jump_table_kind else { return };
        for (id, blocks) in &self.jump_tables {
            let table = self.jump_table(*id);
            let size = kind.entry_size(u64::from(pointer_bits / 8));
            for (at, number) in (table..).step_by(size.max(1) as usize).zip(blocks) {
                let target = Symbols::block_address(*number);
                let entry = match kind {
                    JumpTableKind::BlockAddress => Value::from_u128(pointer_bits, u128::from(target)),
                    JumpTableKind::Custom32 => Value::from_u128(32, u128::from(target)),
                    JumpTableKind::LabelDifference32 => Value::from_u128(32, u128::from(target.wrapping_sub(table))),
                    JumpTableKind::LabelDifference64 => Value::from_u128(64, u128::from(target.wrapping_sub(table))),
                    JumpTableKind::GpRel64BlockAddress | JumpTableKind::GpRel32BlockAddress | JumpTableKind::Inline => {
                        return;
                    }
                };
                memory.preset(at, &entry);
            }
        }
    }
}

/// The number of a block as a jump table names it (`%bb.3` or
/// `%bb.3.name`).
fn block_number(reference: &str) -> Option<u32> {
    let rest = reference.strip_prefix("%bb.")?;
    rest.split('.').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globals_get_distinct_fixed_addresses() {
        let module = IrModule::parse("@a = global i32 0\n@b = global i32 1\ndeclare void @f()\n");
        let symbols = Symbols::new(&module);
        let at = |name| symbols.address(name, 64);
        let (a, b, f) = (at("a"), at("b"), at("\"f\""));
        assert!(a < b && b < f, "in name order: {a:#x} {b:#x} {f:#x}");
        assert_eq!((b >> 20) - (a >> 20), 1, "one slot apart");
        let other = Symbols::new(&IrModule::parse("@b = global i32 1\n@a = global i32 0\n"));
        assert_eq!(other.address("a", 64), a, "the order of the module's lines does not matter");
        let foreign = at("memcpy");
        assert!(foreign >= 0x2000_0000_0000, "{foreign:#x}");
        assert_eq!(foreign, at("memcpy"));
        assert!(symbols.address("f", 32) < 0x5000_0000 && symbols.address("memcpy", 32) < 0x7000_0000);
    }

    #[test]
    fn jump_tables_hold_block_addresses() {
        let tables = [(0, vec!["%bb.2".to_owned(), "%bb.5.exit".to_owned()])];
        let symbols = Symbols::new(&IrModule::default()).with_jump_tables(Some(JumpTableKind::Custom32), &tables);
        assert_eq!(symbols.jump_table_target(0, 1), Some(5));
        assert_eq!(symbols.jump_table_target(0, 2), None);
        assert_eq!(Symbols::block_at(Symbols::block_address(5)), Some(5));
        assert_eq!(Symbols::block_at(Symbols::block_address(5) + 4), None);
        let mut memory = Memory::new(1, 64);
        symbols.preset_jump_tables(&mut memory, 64);
        let entry = memory.read(symbols.jump_table(0) + 4, 4);
        assert_eq!(entry, Value::from_u128(32, u128::from(Symbols::block_address(5))));
        assert!(memory.written_outside_stack().is_empty(), "tables are initial contents, not writes");
    }
}
