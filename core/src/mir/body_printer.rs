//! Prints a machine-function body exactly as `llc` 22 prints it: block
//! headers, successors with probabilities, live-ins, and instructions with
//! the register classes, types and flags LLVM's printer shows.

use super::body::guessed_successors;
use super::decimal::push_decimal;
use super::file::{MirPrintOptions, Spill, spill_if_full};
use crate::ir::{
    Block, Function, INST_FLAG_NAMES, InstData, InstFlags, InstOpcode, MemFlags, MemOperand, MemSize, Operand, Reg,
    RegFlags, RegOperand,
};
use crate::llvm_ir::number_fresh_atom_groups;
use crate::opcode::{OperandKind, OperandSpec};
use std::fmt::Write;

/// The denominator of branch probabilities.
const PROBABILITY_ONE: u64 = 1 << 31;

/// Appends the body of `func` (each line indented for the YAML block).
pub fn print_body(func: &Function, out: &mut String) {
    print_body_with(func, MirPrintOptions::default(), out, &mut None);
}

/// Appends the body of `func` as [`print_body`] does, printed as
/// `options` say: with `simplify`, a block's successors (and their
/// probabilities) are left out where a reader would guess them. `spill`,
/// when there is one, is called after an instruction's line once `out`
/// holds a piece (see [`Spill`]).
pub(super) fn print_body_with(
    func: &Function,
    options: MirPrintOptions,
    out: &mut String,
    spill: &mut Option<Spill<'_>>,
) {
    let fresh_atoms = first_fresh_atom_group(func, options.first_fresh_atom_group);
    for (i, &block) in func.blocks().iter().enumerate() {
        if i > 0 {
            out.push_str("  \n");
        }
        print_block(func, block, func.blocks().get(i + 1).copied(), options, fresh_atoms, out, spill);
    }
}

/// Where the placeholders of `func`'s fresh atom groups are numbered from
/// (`given`, else one above the groups of its module's nodes, which a
/// lone instruction can be printed with at once), `None` when it took none.
fn first_fresh_atom_group(func: &Function, given: Option<u64>) -> Option<u64> {
    let taken = func.fresh_atom_groups().count() > 0;
    taken.then(|| given.unwrap_or_else(|| func.module.debug_info().highest_atom_group() + 1))
}

/// Prints `block`, whose layout successor is `next`; placeholder atom
/// groups are numbered from `fresh_atoms`.
fn print_block(
    func: &Function,
    block: Block,
    next: Option<Block>,
    options: MirPrintOptions,
    fresh_atoms: Option<u64>,
    out: &mut String,
    spill: &mut Option<Spill<'_>>,
) {
    let data = func.block(block);
    out.push_str("  bb.");
    push_decimal(out, u64::from(data.number));
    if let Some(name) = &data.ir_name {
        let _ = write!(out, ".{name}");
    }
    if !data.attributes.is_empty() {
        let _ = write!(out, " ({})", data.attributes.join(", "));
    }
    out.push_str(":\n");
    let mut has_line_attributes = print_successors(func, block, next, options, out);
    if !data.liveins.is_empty() {
        out.push_str("    liveins: ");
        for (i, (reg, mask)) in data.liveins.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('$');
            out.push_str(func.names.resolve(*reg));
            if let Some(mask) = mask {
                let _ = write!(out, ":{mask}");
            }
        }
        out.push('\n');
        has_line_attributes = true;
    }
    if has_line_attributes && data.first().is_some() {
        out.push_str("  \n");
    }
    for inst in func.block_insts(block) {
        out.push_str("    ");
        print_inst_numbered(func, func.inst(inst), fresh_atoms, out);
        out.push('\n');
        spill_if_full(out, spill);
    }
}

/// Prints the `successors:` line of `block` (whose layout successor is
/// `next`) unless a reader would guess it, and says whether it did. A
/// list the instructions do not show is always printed, even empty (a
/// block ending in a call that does not return); without `simplify` so
/// is every non-empty one. Probabilities are left out only with
/// `simplify` and when they are the even split a reader assumes.
fn print_successors(
    func: &Function,
    block: Block,
    next: Option<Block>,
    options: MirPrintOptions,
    out: &mut String,
) -> bool {
    let successors = &func.block(block).successors;
    let probabilities = stored_probabilities(func, block);
    // Probabilities a reader would assume are left out of simplified output.
    let omit_probabilities = options.simplify && can_predict_probabilities(&probabilities);
    let predictable_successors =
        || guessed_successors(func, block, next).iter().eq(successors.iter().map(|s| &s.block));
    let shown = if options.simplify {
        !omit_probabilities || !predictable_successors()
    } else {
        !successors.is_empty() || !predictable_successors()
    };
    if !shown {
        return false;
    }
    out.push_str("    successors:");
    for (i, (succ, probability)) in successors.iter().zip(probabilities).enumerate() {
        out.push_str(if i > 0 { ", " } else { " " });
        let _ = write!(out, "%bb.{}", func.block(succ.block).number);
        if !omit_probabilities {
            let _ = write!(out, "(0x{probability:08x})");
        }
    }
    out.push('\n');
    true
}

/// The branch probabilities of `block`'s successors as LLVM keeps them
/// once the body is read: a written list's missing probabilities are
/// zero, a guessed list's are unknown, and the list is normalised.
fn stored_probabilities(func: &Function, block: Block) -> Vec<u64> {
    let data = func.block(block);
    let written: Vec<Option<u64>> = if data.explicit_successors {
        data.successors.iter().map(|s| Some(u64::from(s.probability.unwrap_or(0)))).collect()
    } else {
        vec![None; data.successors.len()]
    };
    normalized(&written)
}

/// LLVM's normalisation of branch probabilities (`None` is unknown), out
/// of [`PROBABILITY_ONE`]: unknown ones get an even share, rounded down, of
/// what the known ones leave of one (nothing if they reach it), and that is
/// all unless the known ones sum past one. Otherwise every probability is
/// scaled so that they sum to one, rounded to nearest; all zero become an
/// even split.
fn normalized(probabilities: &[Option<u64>]) -> Vec<u64> {
    if probabilities.is_empty() {
        return Vec::new();
    }
    let count = probabilities.len() as u64;
    let known: u64 = probabilities.iter().flatten().sum();
    let unknown = probabilities.iter().filter(|p| p.is_none()).count() as u64;
    if let Some(share) = PROBABILITY_ONE.saturating_sub(known).checked_div(unknown) {
        let filled = probabilities.iter().map(|p| p.unwrap_or(share)).collect();
        if known <= PROBABILITY_ONE {
            return filled;
        }
        return scaled(filled, known);
    }
    if known == 0 {
        return vec![(PROBABILITY_ONE + count / 2) / count; probabilities.len()];
    }
    scaled(probabilities.iter().flatten().copied().collect(), known)
}

/// `values` scaled from summing to `sum` to summing to one, rounded.
fn scaled(values: Vec<u64>, sum: u64) -> Vec<u64> {
    values.into_iter().map(|v| (v * PROBABILITY_ONE + sum / 2) / sum).collect()
}

/// Whether a reader would arrive at `stored` by assuming an even split
/// (LLVM's `canPredictBranchProbabilities`): normalised again, they must
/// equal what unknown probabilities normalise to.
fn can_predict_probabilities(stored: &[u64]) -> bool {
    if stored.len() <= 1 {
        return true;
    }
    let again: Vec<Option<u64>> = stored.iter().copied().map(Some).collect();
    normalized(&again) == normalized(&vec![None; stored.len()])
}

/// Prints one instruction without indentation or line break.
pub fn print_inst(func: &Function, inst: &InstData, out: &mut String) {
    print_inst_numbered(func, inst, first_fresh_atom_group(func, None), out);
}

/// Prints one instruction as [`print_inst`] does, its placeholder atom
/// groups numbered from `fresh_atoms`.
fn print_inst_numbered(func: &Function, inst: &InstData, fresh_atoms: Option<u64>, out: &mut String) {
    let layout = match inst.opcode {
        InstOpcode::Known(op) if op.is_generic() => Some(op.info().operands),
        InstOpcode::Target(name) => crate::ir::target_generic_layout(func.names.resolve(name)),
        InstOpcode::Known(_) => None,
    };
    let variadic = layout.is_some_and(|l| l.iter().any(|s| s.variadic));
    let mut printed_type_indices = 0u64;
    let num_defs = usize::from(inst.num_defs);
    for (i, op) in inst.operands[..num_defs].iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let show_type = type_to_print(func, op, i, layout, variadic, &mut printed_type_indices);
        print_operand(func, op, true, show_type, out);
    }
    if num_defs > 0 {
        out.push_str(" = ");
    }
    if inst.flags != InstFlags::NONE {
        for (flag, name) in INST_FLAG_NAMES {
            if inst.flags.contains(flag) {
                out.push_str(name);
                out.push(' ');
            }
        }
    }
    match inst.opcode {
        InstOpcode::Known(op) => out.push_str(op.name()),
        InstOpcode::Target(name) => out.push_str(func.names.resolve(name)),
    }
    let mut first = true;
    for (i, op) in inst.operands.iter().enumerate().skip(num_defs) {
        out.push_str(if first { " " } else { ", " });
        first = false;
        let show_type = type_to_print(func, op, i, layout, variadic, &mut printed_type_indices);
        print_operand(func, op, false, show_type, out);
    }
    for annotation in inst.annotations() {
        out.push_str(if first { " " } else { ", " });
        first = false;
        out.push_str(annotation);
    }
    if let Some(loc) = &inst.debug_loc {
        out.push_str(if first { " " } else { ", " });
        let numbered = fresh_atoms.and_then(|from| number_fresh_atom_groups(loc, from));
        let _ = write!(out, "debug-location {}", numbered.as_deref().unwrap_or(loc));
    }
    if !inst.mem.is_empty() {
        out.push_str(" :: ");
        for (i, mem) in inst.mem.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            print_mem(mem, out);
        }
    }
}

/// Whether a register operand's type is printed: always outside generic
/// opcodes' fixed operands; otherwise only on the first operand of each
/// type index (LLVM's `getTypeToPrint`).
fn type_to_print(
    func: &Function,
    op: &Operand,
    index: usize,
    layout: Option<&[OperandSpec]>,
    variadic: bool,
    printed: &mut u64,
) -> bool {
    let Some(reg) = op.as_reg() else { return false };
    let Reg::Virtual(v) = reg.reg else { return false };
    if !func.ty(v).is_valid() {
        return false;
    }
    let Some(layout) = layout else { return true };
    if variadic || index >= layout.len() {
        return true;
    }
    let type_index = match layout[index].kind {
        OperandKind::Type { index, .. } | OperandKind::TypeAndBlock(index) => index,
        _ => return true,
    };
    let bit = 1u64 << type_index;
    if *printed & bit != 0 {
        return false;
    }
    *printed |= bit;
    true
}

fn print_operand(func: &Function, op: &Operand, before_equals: bool, show_type: bool, out: &mut String) {
    match op {
        Operand::Reg(reg) => print_register(func, reg, before_equals, show_type, out),
        Operand::Imm(v) => {
            if *v < 0 {
                out.push('-');
            }
            push_decimal(out, v.unsigned_abs());
        }
        Operand::CImm(v) => {
            let _ = write!(out, "i{} {v}", v.bits());
        }
        Operand::FpImm(v) => {
            let _ = write!(out, "{v}");
        }
        Operand::IntPred(p) => {
            out.push_str("intpred(");
            out.push_str(p.name());
            out.push(')');
        }
        Operand::FloatPred(p) => {
            out.push_str("floatpred(");
            out.push_str(p.name());
            out.push(')');
        }
        Operand::Block(b) => {
            out.push_str("%bb.");
            push_decimal(out, u64::from(func.block(*b).number));
        }
        Operand::Frame(frame) => {
            let _ = write!(out, "%{}.{}", if frame.fixed { "fixed-stack" } else { "stack" }, frame.index);
            if let Some(name) = &frame.name {
                let _ = write!(out, ".{name}");
            }
        }
        Operand::Global(global) => {
            let _ = write!(out, "@{}", global.name);
            print_offset(global.offset, out);
        }
        Operand::ExternalSymbol(symbol) => {
            let _ = write!(out, "&{}", symbol.name);
            print_offset(symbol.offset, out);
        }
        Operand::ConstantPool { index, offset } => {
            let _ = write!(out, "%const.{index}");
            print_offset(*offset, out);
        }
        Operand::JumpTable(index) => {
            let _ = write!(out, "%jump-table.{index}");
        }
        Operand::TargetIndex(index) => {
            let _ = write!(out, "target-index({})", index.name);
            print_offset(index.offset, out);
        }
        Operand::BlockAddress(text) => {
            let _ = write!(out, "blockaddress({text})");
        }
        Operand::Intrinsic(name) => {
            let _ = write!(out, "intrinsic(@{name})");
        }
        Operand::RegMask(name) | Operand::SubRegIndex(name) => {
            if matches!(op, Operand::SubRegIndex(_)) {
                out.push_str("%subreg.");
            }
            out.push_str(func.names.resolve(*name));
        }
        Operand::ShuffleMask(mask) => {
            out.push_str("shufflemask(");
            for (i, element) in mask.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match element {
                    Some(n) => {
                        let _ = write!(out, "{n}");
                    }
                    None => out.push_str("undef"),
                }
            }
            out.push(')');
        }
        Operand::Metadata(text) | Operand::McSymbol(text) | Operand::Verbatim(text) => out.push_str(text),
        Operand::TargetFlags(flagged) => {
            let _ = write!(out, "target-flags({}) ", flagged.flags);
            print_operand(func, &flagged.operand, before_equals, show_type, out);
        }
    }
}

/// The markers of a register operand printed after `implicit`/`def`, in
/// LLVM's order.
const REG_MARKERS: [(RegFlags, &str); 5] = [
    (RegFlags::INTERNAL, "internal "),
    (RegFlags::DEAD, "dead "),
    (RegFlags::KILLED, "killed "),
    (RegFlags::UNDEF, "undef "),
    (RegFlags::EARLY_CLOBBER, "early-clobber "),
];

fn print_register(func: &Function, reg: &RegOperand, before_equals: bool, show_type: bool, out: &mut String) {
    let flags = reg.flags;
    if flags.contains(RegFlags::IMPLICIT) {
        out.push_str(if flags.contains(RegFlags::DEF) { "implicit-def " } else { "implicit " });
    } else if !before_equals && flags.contains(RegFlags::DEF) {
        out.push_str("def ");
    }
    // Most operands have none of the markers: one test passes them all.
    let all_markers = REG_MARKERS.iter().fold(RegFlags::NONE, |all, &(flag, _)| all | flag);
    if flags.intersects(all_markers) {
        for (flag, name) in REG_MARKERS {
            if flags.contains(flag) {
                out.push_str(name);
            }
        }
    }
    let virtual_reg = match reg.reg {
        Reg::Physical(name) => {
            if flags.contains(RegFlags::RENAMABLE) {
                out.push_str("renamable ");
            }
            out.push('$');
            out.push_str(func.names.resolve(name));
            None
        }
        Reg::Virtual(v) => {
            let info = func.vreg(v);
            out.push('%');
            match func.vreg_name(v) {
                Some(name) => out.push_str(name),
                None => push_decimal(out, u64::from(func.vreg_number(v))),
            }
            Some(info)
        }
    };
    if let Some(subreg) = reg.subreg {
        out.push('.');
        out.push_str(func.names.resolve(subreg));
    }
    if let Some(info) = virtual_reg
        && (before_equals || !info.is_defined())
    {
        match info.class {
            None => out.push_str(":_"),
            Some(class) => {
                out.push(':');
                out.push_str(func.names.resolve(class));
            }
        }
    }
    if let Some(tied) = reg.tied_def
        && !flags.contains(RegFlags::DEF)
    {
        let _ = write!(out, "(tied-def {tied})");
    }
    if show_type && let Some(info) = virtual_reg {
        out.push('(');
        info.ty.push_to(out);
        out.push(')');
    }
}

fn print_offset(offset: i64, out: &mut String) {
    match offset {
        0 => {}
        o if o > 0 => {
            let _ = write!(out, " + {o}");
        }
        o => {
            let _ = write!(out, " - {}", o.unsigned_abs());
        }
    }
}

/// `(volatile load acquire (s32) from %ir.p + 4, align 2)`.
pub fn print_mem(mem: &MemOperand, out: &mut String) {
    out.push('(');
    for (flag, name) in [
        (MemFlags::VOLATILE, "volatile "),
        (MemFlags::NON_TEMPORAL, "non-temporal "),
        (MemFlags::DEREFERENCEABLE, "dereferenceable "),
        (MemFlags::INVARIANT, "invariant "),
    ] {
        if mem.flags.contains(flag) {
            out.push_str(name);
        }
    }
    for flag in &mem.target_flags {
        let _ = write!(out, "{flag} ");
    }
    let load = mem.flags.contains(MemFlags::LOAD);
    let store = mem.flags.contains(MemFlags::STORE);
    if load {
        out.push_str("load ");
    }
    if store {
        out.push_str("store ");
    }
    if let Some(scope) = &mem.sync_scope {
        let _ = write!(out, "syncscope(\"{scope}\") ");
    }
    for ordering in [mem.ordering, mem.failure_ordering] {
        if !ordering.name().is_empty() {
            let _ = write!(out, "{} ", ordering.name());
        }
    }
    match mem.size {
        MemSize::Type(ty) => {
            out.push('(');
            ty.push_to(out);
            out.push(')');
        }
        MemSize::Unknown => out.push_str("unknown-size"),
    }
    let preposition = match (load, store) {
        (true, true) => " on ",
        (true, false) => " from ",
        _ => " into ",
    };
    match mem.pointer.as_deref().filter(|p| *p != "unknown-address") {
        Some(pointer) => {
            out.push_str(preposition);
            out.push_str(pointer);
            print_offset(mem.offset, out);
        }
        None if mem.offset != 0 => {
            out.push_str(preposition);
            out.push_str("unknown-address");
            print_offset(mem.offset, out);
        }
        None => {}
    }
    let align = mem.align();
    let size_in_bytes = mem.memory_type().map(|t| t.size_in_bytes());
    if size_in_bytes != Some(align) {
        let _ = write!(out, ", align {align}");
    }
    if align != mem.base_align {
        let _ = write!(out, ", basealign {}", mem.base_align);
    }
    for metadata in &mem.metadata {
        let _ = write!(out, ", {metadata}");
    }
    if let Some(space) = mem.addr_space {
        let _ = write!(out, ", addrspace {space}");
    }
    out.push(')');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_normalise_as_llvm_does() {
        assert_eq!(normalized(&[None, None, None]), vec![0x2aaa_aaaa; 3]);
        assert_eq!(normalized(&[Some(0), Some(0), Some(0)]), vec![0x2aaa_aaab; 3]);
        assert_eq!(normalized(&[Some(0x2000_0000), None]), vec![0x2000_0000, 0x6000_0000]);
        assert_eq!(normalized(&[Some(1), Some(3)]), vec![0x2000_0000, 0x6000_0000]);
        assert_eq!(
            normalized(&[Some(PROBABILITY_ONE), Some(PROBABILITY_ONE), None]),
            vec![0x4000_0000, 0x4000_0000, 0]
        );
        assert!(normalized(&[]).is_empty());
    }

    #[test]
    fn only_an_even_split_is_predictable() {
        assert!(can_predict_probabilities(&[]));
        assert!(can_predict_probabilities(&[PROBABILITY_ONE]));
        assert!(can_predict_probabilities(&[0x4000_0000, 0x4000_0000]));
        assert!(!can_predict_probabilities(&[0x2000_0000, 0x6000_0000]));
        // Three unknown probabilities round down; normalised again they
        // round up, so a reader could not predict them.
        assert!(!can_predict_probabilities(&[0x2aaa_aaaa; 3]));
    }
}
