//! The machine-function body reader: block headers, `successors:` and
//! `liveins:` lines, and instructions, into a [`Function`].
//!
//! Virtual registers are numbered in order of first appearance (the YAML
//! `registers:` list first, then the body), as LLVM's MIR parser numbers
//! them, so printing `%N` by arena index reproduces llc's numbering.

use super::MirError;
use super::cursor::{Cursor, trim_end, trim_start};
use super::module::Arch;
use super::operand_parser::OperandParser;
use super::target_names::{condition_comment, has_instruction, predicate_operand, register_class};
use crate::ir::{Block, Function, InstData, InstFlags, InstOpcode, Operand, Successor, VReg};
use crate::opcode::{Opcode, flags};
use crate::ty::Llt;
use rustc_hash::FxHashMap;
use std::ops::Range;

/// Where each virtual register was first seen, and its numbering.
pub(super) struct VRegTable<'t> {
    pub(super) by_name: VRegNames<'t>,
    pub(super) first_seen: Vec<Range<usize>>,
    /// What each register was said to be.
    pub(super) kinds: Vec<RegKind<'t>>,
    /// The name as written after `%`.
    pub(super) written: Vec<&'t str>,
}

/// What a virtual register was said to be, by the `registers:` list or by
/// the first `:` after it in the body (LLVM's `VRegInfo` kinds): every
/// later `:` must agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RegKind<'t> {
    /// Nothing said yet.
    Unknown,
    /// Of the register class written so.
    Class(&'t str),
    /// Generic, written `_`.
    Generic,
    /// Of the register bank written so.
    Bank(&'t str),
}

impl<'t> RegKind<'t> {
    /// The kind `name`, written after a register's `:`, gives it: a class
    /// or bank of `arch` (any name but `_` is taken for a class without
    /// one).
    pub(super) fn of(name: &'t str, arch: Option<Arch>) -> RegKind<'t> {
        match arch {
            _ if name == "_" => RegKind::Generic,
            Some(arch) if register_class(arch, name).is_none() => RegKind::Bank(name),
            _ => RegKind::Class(name),
        }
    }

    /// Whether a definition of a register of this kind must give its type.
    pub(super) fn needs_type(self) -> bool {
        matches!(self, RegKind::Generic | RegKind::Bank(_))
    }
}

/// Virtual registers by the name written after `%`: a plain number (`%12`,
/// no leading zero) indexes a table, as almost every name is; any other
/// name, or a number far past the registers the body can hold, is hashed.
pub(super) struct VRegNames<'t> {
    numbered: Vec<Option<VReg>>,
    named: FxHashMap<&'t str, VReg>,
    /// Numbers from here on are hashed, so that `%4000000` makes no big table.
    limit: usize,
}

impl<'t> VRegNames<'t> {
    /// A table for a body of about `expected` registers.
    fn with_capacity(expected: usize) -> VRegNames<'t> {
        VRegNames { numbered: Vec::with_capacity(expected), named: FxHashMap::default(), limit: 4 * expected + 64 }
    }

    /// The register named `name`, made by `create` if there is none yet.
    #[inline]
    pub(super) fn get_or_insert_with(&mut self, name: &'t str, create: impl FnOnce() -> VReg) -> VReg {
        match self.number(name) {
            Some(n) => {
                if n >= self.numbered.len() {
                    self.numbered.resize(n + 1, None);
                }
                *self.numbered[n].get_or_insert_with(create)
            }
            None => *self.named.entry(name).or_insert_with(create),
        }
    }

    /// Names `v` `name` (replacing an earlier register of that name).
    pub(super) fn insert(&mut self, name: &'t str, v: VReg) {
        match self.number(name) {
            Some(n) => {
                if n >= self.numbered.len() {
                    self.numbered.resize(n + 1, None);
                }
                self.numbered[n] = Some(v);
            }
            None => {
                self.named.insert(name, v);
            }
        }
    }

    /// The index of a name that is a plain number below the limit.
    fn number(&self, name: &str) -> Option<usize> {
        let bytes = name.as_bytes();
        if !matches!(bytes, [b'0'] | [b'1'..=b'9', ..]) || bytes.len() > 9 {
            return None;
        }
        let mut n = 0;
        for &b in bytes {
            if !b.is_ascii_digit() {
                return None;
            }
            n = n * 10 + usize::from(b - b'0');
        }
        (n < self.limit).then_some(n)
    }
}

/// Reads a body into `func`. `text` is the whole body; spans are offsets in
/// it. `declared` are the vregs of the YAML `registers:` list (by name
/// without `%`, with their class), created first. With `arch`, a target
/// instruction name the architecture does not have is an error.
pub(super) fn parse_body<'t>(
    func: &mut Function,
    text: &'t str,
    declared: &'t [(String, Option<String>)],
    pointer_bits: &dyn Fn(u32) -> u32,
    arch: Option<Arch>,
) -> Result<Vec<(u32, u32)>, MirError> {
    let lines = content_lines(text);
    // Most lines define at most one new register; passes such as the
    // legalizer add more, and regrowing copies them all.
    let expected = declared.len() + lines.len();
    let room = room_to_grow(lines.len());
    func.reserve_vregs(room * expected);
    let mut vregs = VRegTable {
        by_name: VRegNames::with_capacity(expected),
        first_seen: Vec::with_capacity(expected),
        kinds: Vec::with_capacity(expected),
        written: Vec::with_capacity(expected),
    };
    for (name, class) in declared {
        let v = func.new_vreg(Llt::INVALID);
        if let Some(class) = class.as_deref().filter(|c| *c != "_") {
            let symbol = func.names.intern(class);
            func.vreg_mut(v).class = Some(symbol);
        }
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            func.set_vreg_name(v, name.as_str());
        }
        vregs.by_name.insert(name.as_str(), v);
        vregs.first_seen.push(0..0);
        vregs.kinds.push(class.as_deref().map_or(RegKind::Unknown, |class| RegKind::of(class, arch)));
        vregs.written.push(name.as_str());
    }
    let blocks = declare_blocks(func, text, &lines)?;
    // At most one instruction a line, and room for what passes such as the
    // legalizer add: regrowing the arena copies all of it.
    func.reserve_insts(room * lines.len());
    let mut current: Option<Block> = None;
    let mut headers = blocks.headers.iter().peekable();
    for line in &lines {
        let (start, end) = (line.start, line.end);
        let rest = &text[start..end];
        if let Some(&(_, block)) = headers.next_if(|&&(header, _)| header == start) {
            current = Some(block);
            continue;
        }
        let Some(block) = current else {
            return Err(MirError::new("expected a basic block definition ('bb.N:') before this line", start..end));
        };
        let mut parser = OperandParser {
            func,
            vregs: &mut vregs,
            blocks: &blocks.by_number,
            pointer_bits,
            arch,
            cursor: Cursor::new(text, start, end),
        };
        if rest.starts_with("successors:") {
            parser.cursor.set_pos(start + "successors:".len());
            parse_successors(&mut parser, block)?;
        } else if rest.starts_with("liveins:") {
            parser.cursor.set_pos(start + "liveins:".len());
            parse_liveins(&mut parser, block)?;
        } else if rest == "{" || rest == "}" || rest.ends_with('{') {
            return Err(MirError::new("instruction bundles are not supported", start..end));
        } else {
            let inst = parse_instruction(&mut parser, arch)?;
            func.append(block, inst);
        }
    }
    check_types(func, &vregs, arch)?;
    infer_successors(func);
    Ok(renumber_blocks(func))
}

/// How many times its lines a body of `lines` lines reserves for its
/// instructions and registers. A large body reserves room for what the
/// legalizer makes of illegal code (about four instructions a line on
/// generated code of illegal widths): copying a large arena to grow it
/// touches its memory twice, which cost one generated function of 20k
/// operations 5 to 10 % of its time, while room never used is address
/// space only. A small body reserves less, as mimalloc packs small blocks
/// closer.
fn room_to_grow(lines: usize) -> usize {
    if lines > 4096 { 6 } else { 2 }
}

/// Byte ranges of what the lines of `text` hold: without their
/// indentation, `;` comment and trailing spaces; lines left empty are
/// dropped.
fn content_lines(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    // One search finds the line ends and the `;` that may start comments,
    // so that a line without one is not searched again.
    let mut commented = false;
    for i in memchr::memchr2_iter(b'\n', b';', bytes) {
        if bytes[i] == b';' {
            commented = true;
            continue;
        }
        push_content(&mut lines, text, start..i, commented);
        start = i + 1;
        commented = false;
    }
    if start < text.len() {
        push_content(&mut lines, text, start..text.len(), commented);
    }
    lines
}

/// Adds the range of what line `line` of `text` holds to `lines`, unless it
/// holds nothing; `commented` tells that it has a `;`.
fn push_content(lines: &mut Vec<Range<usize>>, text: &str, line: Range<usize>, commented: bool) {
    let line_text = &text[line.clone()];
    // Indentation is spaces; `trim_start` then has one character to look at.
    let trimmed = trim_start(&line_text[line_text.bytes().take_while(|&b| b == b' ').count()..]);
    let from = line.start + (line_text.len() - trimmed.len());
    let uncommented = if commented { strip_comment(trimmed) } else { trimmed };
    let content = trim_end(uncommented);
    if !content.is_empty() {
        lines.push(from..from + content.len());
    }
}

/// Drops a `;` comment that is not inside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b';' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The blocks a body defines, by the start of their header line (in
/// order) and by their number.
#[derive(Default)]
struct DeclaredBlocks {
    headers: Vec<(usize, Block)>,
    by_number: FxHashMap<u32, Block>,
}

/// Creates every block first so that `%bb.N` can refer forward.
fn declare_blocks(func: &mut Function, text: &str, lines: &[Range<usize>]) -> Result<DeclaredBlocks, MirError> {
    let mut declared = DeclaredBlocks::default();
    for line in lines {
        let (start, body) = (line.start, &text[line.clone()]);
        if !body.starts_with("bb.") {
            continue;
        }
        let span = line.clone();
        let Some(header) = body.strip_suffix(':') else {
            return Err(MirError::new("expected ':' at the end of the basic block definition", span));
        };
        let (head, attributes) = match header.split_once(" (") {
            Some((head, attrs)) => {
                let attrs = attrs
                    .strip_suffix(')')
                    .ok_or_else(|| MirError::new("expected ')' after the block attributes", span.clone()))?;
                (head, attrs.split(", ").map(|a| a.trim().into()).collect())
            }
            None => (header, Vec::new()),
        };
        let after = &head["bb.".len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let number: u32 =
            after[..digits].parse().map_err(|_| MirError::new("expected a block number after 'bb.'", span.clone()))?;
        let ir_name = match &after[digits..] {
            "" => None,
            name => Some(
                name.strip_prefix('.')
                    .ok_or_else(|| MirError::new("expected '.' before the block's IR name", span.clone()))?
                    .into(),
            ),
        };
        if declared.by_number.contains_key(&number) {
            return Err(MirError::new(format!("redefinition of machine basic block with id #{number}"), span));
        }
        let block = func.add_block(number);
        declared.by_number.insert(number, block);
        let data = func.block_mut(block);
        data.ir_name = ir_name;
        data.attributes = attributes;
        declared.headers.push((start, block));
    }
    Ok(declared)
}

fn parse_successors(p: &mut OperandParser<'_, '_>, block: Block) -> Result<(), MirError> {
    let mut successors = Vec::new();
    if !p.cursor.at_end() {
        loop {
            let target = p.block_ref()?;
            let probability = if p.cursor.eat("(") {
                let value = p.cursor.unsigned().ok_or_else(|| p.cursor.error_here("expected a branch probability"))?;
                p.cursor.expect(")", "after the branch probability")?;
                Some(u32::try_from(value).map_err(|_| p.cursor.error_here("branch probability out of range"))?)
            } else {
                None
            };
            successors.push(Successor { block: target, probability });
            if !p.cursor.eat(",") {
                break;
            }
        }
    }
    if !p.cursor.at_end() {
        return Err(p.cursor.error_here("expected ',' or the end of the successor list"));
    }
    let data = p.func.block_mut(block);
    data.successors.extend(successors);
    data.explicit_successors = true;
    Ok(())
}

fn parse_liveins(p: &mut OperandParser<'_, '_>, block: Block) -> Result<(), MirError> {
    let mut liveins = Vec::new();
    if !p.cursor.at_end() {
        loop {
            let name = p.physical_register_name()?;
            let symbol = p.func.names.intern(name);
            let mask = if p.cursor.eat(":") {
                let start = p.cursor.pos();
                p.cursor.unsigned().ok_or_else(|| p.cursor.error_here("expected a lane mask"))?;
                Some(p.cursor.rest_from(start).into())
            } else {
                None
            };
            liveins.push((symbol, mask));
            if !p.cursor.eat(",") {
                break;
            }
        }
    }
    if !p.cursor.at_end() {
        return Err(p.cursor.error_here("expected ',' or the end of the live-in list"));
    }
    p.func.block_mut(block).liveins.extend(liveins);
    Ok(())
}

/// `[defs =] flags* OPCODE operands [annotations] [:: memoperands]`.
fn parse_instruction(p: &mut OperandParser<'_, '_>, arch: Option<Arch>) -> Result<InstData, MirError> {
    let start = p.cursor.pos();
    // The opcode comes after the defs, which go straight into place.
    let mut inst = InstData::new(InstOpcode::Known(Opcode::COPY));
    if matches!(p.cursor.peek(), Some('%' | '$')) || p.starts_with_register_flag() {
        loop {
            inst.operands.push(p.register_operand(true)?);
            if !p.cursor.eat(",") {
                break;
            }
        }
        p.cursor.expect("=", "after the instruction's definitions")?;
    }
    let mut inst_flags = InstFlags::NONE;
    let opcode_span;
    let opcode_name = loop {
        let Some((word, span)) = p.cursor.ident_spanned() else {
            return Err(p.cursor.error_here("expected an instruction opcode"));
        };
        match InstFlags::from_name(word) {
            Some(flag) if !p.cursor.rest_trimmed().is_empty() => inst_flags.insert(flag),
            _ => {
                opcode_span = span;
                break word;
            }
        }
    };
    let opcode = match Opcode::from_name(opcode_name) {
        Some(op) => InstOpcode::Known(op),
        None if opcode_name.starts_with("G_") && is_unknown_generic(opcode_name) => {
            let mut err = MirError::new(format!("unknown generic opcode '{opcode_name}'"), opcode_span);
            if let Some(best) = Opcode::suggest(opcode_name).first() {
                err = err.with_note(format!("did you mean '{best}'?"));
            }
            return Err(err);
        }
        None if arch.is_some_and(|arch| !has_instruction(arch, opcode_name)) => {
            return Err(MirError::new(format!("unknown machine instruction name '{opcode_name}'"), opcode_span));
        }
        None => InstOpcode::Target(p.func.names.intern(opcode_name)),
    };
    inst.opcode = opcode;
    inst.flags = inst_flags;
    inst.num_defs = u16::try_from(inst.operands.len())
        .map_err(|_| p.cursor.error(start..opcode_span.start, "too many definitions"))?;
    p.operands_and_annotations(&mut inst)?;
    if p.cursor.eat("::") {
        loop {
            inst.mem.push(p.memory_operand()?);
            if !p.cursor.eat(",") {
                break;
            }
        }
    }
    if !p.cursor.at_end() {
        return Err(p.cursor.error_here("expected ',' or the end of the instruction"));
    }
    // A condition code gets the comment llc prints after it.
    if let (InstOpcode::Target(_), Some(arch)) = (opcode, arch)
        && let Some(index) = predicate_operand(arch, opcode_name)
        && let Some(&Operand::Imm(code)) = inst.operands.get(index)
        && let Some(comment) = condition_comment(code)
    {
        inst.operands[index] = Operand::Verbatim(format!("{code} /* {comment} */").into());
    }
    if let InstOpcode::Known(op) = opcode {
        check_operand_count(op, &inst, start..p.cursor.pos())?;
    }
    Ok(inst)
}

/// Target-specific generic opcodes (`G_ADD_LOW` on AArch64, `G_DIVW` on
/// RISC-V) are target instructions; only a name one edit away from a real
/// generic opcode is treated as a typo.
fn is_unknown_generic(name: &str) -> bool {
    !KNOWN_TARGET_GENERIC.contains(&name) && Opcode::closest(name).is_some_and(|(_, distance)| distance <= 1)
}

/// Target pseudo-instructions one edit away from a generic opcode's name.
const KNOWN_TARGET_GENERIC: &[&str] = &["G_DUP", "G_EXT", "G_SITOF", "G_UITOF"];

/// A generic instruction must have at least its fixed operands.
fn check_operand_count(op: Opcode, inst: &InstData, span: Range<usize>) -> Result<(), MirError> {
    let info = op.info();
    if !info.generic {
        return Ok(());
    }
    let explicit = inst.explicit_operands().count();
    let fixed = info.num_fixed_slots();
    if explicit < fixed {
        return Err(MirError::new(
            format!("{} expects at least {fixed} explicit operands, found {explicit}", op.name()),
            span,
        ));
    }
    Ok(())
}

/// Every virtual register needs a type or a class; a generic one (`:_`)
/// needs a type; no register may be of a class `arch` does not allocate
/// from. The messages are llc's.
fn check_types(func: &Function, vregs: &VRegTable<'_>, arch: Option<Arch>) -> Result<(), MirError> {
    for v in func.vregs() {
        let info = func.vreg(v);
        let unreferenced = func.def_insts(v).is_empty() && func.has_no_uses(v);
        let span = vregs.first_seen[v.index()].clone();
        let written = &vregs.written[v.index()];
        if !info.ty.is_valid() && info.class.is_none() && !unreferenced {
            let message = if vregs.kinds[v.index()] == RegKind::Generic {
                "generic virtual registers must have a type".to_owned()
            } else {
                format!("Cannot determine class/bank of virtual register {written} in function '{}'", func.name)
            };
            return Err(MirError::new(message, span));
        }
        if let (RegKind::Class(name), Some(arch)) = (vregs.kinds[v.index()], arch)
            && let Some(class) = register_class(arch, name).filter(|class| !class.allocatable)
        {
            let message = format!(
                "Cannot use non-allocatable class '{}' for virtual register {written} in function '{}'",
                class.name, func.name
            );
            return Err(MirError::new(message, span));
        }
    }
    Ok(())
}

/// Blocks without a `successors:` line get the successors their
/// instructions show ([`guessed_successors`]).
fn infer_successors(func: &mut Function) {
    let layout = func.blocks().to_vec();
    for (i, &block) in layout.iter().enumerate() {
        if func.block(block).explicit_successors {
            continue;
        }
        let targets = guessed_successors(func, block, layout.get(i + 1).copied());
        func.block_mut(block).successors =
            targets.into_iter().map(|block| Successor { block, probability: None }).collect();
    }
}

/// The successors LLVM guesses for `block` when no `successors:` line
/// says them: the branch targets of its instructions, plus `next` (the
/// block after it) when control can fall through.
pub(super) fn guessed_successors(func: &Function, block: Block, next: Option<Block>) -> Vec<Block> {
    let mut targets: Vec<Block> = Vec::new();
    for inst in func.block_insts(block) {
        let data = func.inst(inst);
        if data.is(Opcode::PHI) || data.is(Opcode::G_PHI) {
            continue;
        }
        for op in &data.operands {
            if let Operand::Block(b) = op
                && !targets.contains(b)
            {
                targets.push(*b);
            }
        }
    }
    let falls_through = func.block(block).last().is_none_or(|last| !is_barrier(func, func.inst(last)));
    if falls_through
        && let Some(next) = next
        && !targets.contains(&next)
    {
        targets.push(next);
    }
    targets
}

/// LLVM numbers blocks by their position once the body is read; returns
/// the (written, new) numbers of the blocks whose number changed.
fn renumber_blocks(func: &mut Function) -> Vec<(u32, u32)> {
    let layout = func.blocks().to_vec();
    let mut changed = Vec::new();
    for (number, block) in layout.into_iter().enumerate() {
        let data = func.block_mut(block);
        if data.number != number as u32 {
            changed.push((data.number, number as u32));
        }
        data.number = number as u32;
    }
    changed
}

/// True when control cannot continue past `inst`.
fn is_barrier(func: &Function, inst: &InstData) -> bool {
    match inst.opcode {
        InstOpcode::Known(op) => op.info().has(flags::IS_BARRIER),
        InstOpcode::Target(name) => crate::ir::is_known_barrier(func.names.resolve(name)),
    }
}
