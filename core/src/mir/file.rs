//! Whole `.mir` files: read the container, every header and every body
//! into a [`MirModule`]; write one back as `llc` 22 does.

use super::body_printer::print_body_with;
use super::document::{Body, FunctionDoc, MirFile, parse_document};
use super::header::{Constant, FunctionHeader, RegisterEntry, StackObject};
use super::header_write::{fixed_stack_print_order, write_body_key, write_header_keys};
use super::module::{Arch, DataLayout, Target, module_triple, normalize_triple, write_ir_module};
use super::target_names::{has_register, has_register_class_or_bank, register_class};
use super::{MirError, body};
use crate::ir::{FrameRef, Function, InstData, InstOpcode, JumpTableKind, Operand};
use crate::llvm_ir::IrModule;
use crate::opcode::Opcode;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A `.mir` file in memory.
#[derive(Debug, Clone)]
pub struct MirModule {
    /// The file name, as `; ModuleID` and `source_filename` print it.
    pub file_name: String,
    /// The embedded LLVM IR module text, if any.
    pub ir_module: Option<String>,
    /// The target: triple, data layout, features.
    pub target: Target,
    /// The machine functions, in file order.
    pub functions: Vec<MachineFunction>,
}

/// One machine function: its YAML header and its GMIR.
#[derive(Debug, Clone)]
pub struct MachineFunction {
    /// Every YAML key but `body` and `registers`.
    pub header: FunctionHeader,
    /// The body.
    pub func: Function,
}

impl MachineFunction {
    /// Moves the stack temporaries and constant-pool entries a pass created
    /// into the header's `stack:` and `constants:` lists, after the ones
    /// already there, as llc prints them, and records a tail call a pass
    /// lowered in `hasTailCall` and the alignment a pass required of the
    /// frame in `maxAlignment`.
    pub fn adopt_pass_additions(&mut self) {
        for constant in self.func.constant_pool.added.drain(..) {
            let id = self.header.constants.len() as u32;
            self.header.constants.push(Constant {
                id,
                value: constant.value,
                alignment: Some(constant.align),
                is_target_specific: false,
            });
        }
        self.func.constant_pool.declared = self.header.constants.len() as u32;
        for temporary in self.func.frame.temporaries.drain(..) {
            let id = self.header.stack.len() as u32;
            self.header.stack.push(StackObject {
                id,
                size: temporary.size,
                alignment: Some(temporary.align),
                stack_id: "default".into(),
                callee_saved_restored: true,
                ..StackObject::default()
            });
        }
        self.func.frame.declared = self.header.stack.len() as u32;
        self.header.frame_info.has_tail_call |= std::mem::take(&mut self.func.frame.has_tail_call);
        let required = u32::try_from(std::mem::take(&mut self.func.frame.max_alignment)).unwrap_or(u32::MAX);
        self.header.frame_info.max_alignment = self.header.frame_info.max_alignment.max(required);
    }
}

/// Reads `source` (`file_name` is printed as the module ID, as llc prints
/// the path it was given). The target comes from `triple` (as `-mtriple` gives
/// it) or else from the IR module's `target triple`; `features` is the
/// `-mattr` string.
pub fn read_mir(source: &str, file_name: &str, triple: Option<&str>, features: &str) -> Result<MirModule, MirError> {
    let mut documents = read_mir_documents(source, file_name, triple, features)?;
    let docs = std::mem::take(&mut documents.functions);
    let mut functions = Vec::with_capacity(docs.len());
    for doc in docs {
        functions.push(documents.read_function(doc)?);
    }
    Ok(MirModule {
        file_name: documents.file_name,
        ir_module: documents.ir_module,
        target: documents.target,
        functions,
    })
}

/// A `.mir` file whose YAML is read and checked but whose function bodies
/// are not parsed yet: [`MirDocuments::read_function`] reads each one, so a
/// caller can read, process and drop functions one at a time. Reading every
/// document in order gives exactly what [`read_mir`] gives, errors included.
#[derive(Debug, Clone)]
pub struct MirDocuments<'s> {
    /// The whole file, which the documents' bodies point into.
    pub source: &'s str,
    /// The file name, as `; ModuleID` and `source_filename` print it.
    pub file_name: String,
    /// The embedded LLVM IR module text, if any.
    pub ir_module: Option<String>,
    /// The target: triple, data layout, features.
    pub target: Target,
    /// The machine-function documents, in file order, bodies unread.
    pub functions: Vec<FunctionDoc>,
    layout: DataLayout,
    /// The facts of the IR module, shared by every function read.
    pub module: Arc<IrModule>,
}

/// Reads the container and every YAML header of `source`, as [`read_mir`]
/// does before it parses the bodies (the arguments are [`read_mir`]'s).
pub fn read_mir_documents<'s>(
    source: &'s str,
    file_name: &str,
    triple: Option<&str>,
    features: &str,
) -> Result<MirDocuments<'s>, MirError> {
    let file = parse_document(source)?;
    let triple = match triple.filter(|t| !t.is_empty()) {
        Some(t) => normalize_triple(t),
        None => file.ir_module.as_deref().and_then(module_triple).map(str::to_owned).ok_or_else(|| {
            MirError::new("no target triple: pass -mtriple=<triple> or give the IR module a 'target triple'", 0..0)
        })?,
    };
    let target = Target::from_triple(&triple)
        .ok_or_else(|| {
            MirError::new(format!("unsupported target triple '{triple}' (gisel knows aarch64, riscv32/64, x86_64, i386 to i686, and 32-bit arm and thumb)"), 0..0)
        })?
        .with_features(features);
    let layout = DataLayout::parse(target.datalayout);
    let module = Arc::new(file.ir_module.as_deref().map(IrModule::parse).unwrap_or_default());
    Ok(MirDocuments {
        source,
        file_name: file_name.to_owned(),
        ir_module: file.ir_module,
        target,
        functions: file.functions,
        layout,
        module,
    })
}

impl MirDocuments<'_> {
    /// The documents of `source`, a later [`Batch`](super::Batch) of the
    /// same file (which cannot hold its IR module), to be read with this
    /// file's target and IR module; their spans are relative to `source`.
    pub fn read_more<'t>(&self, source: &'t str) -> Result<MirDocuments<'t>, MirError> {
        Ok(self.with_more(source, parse_document(source)?))
    }

    /// The documents of `source`, a later batch as [`Self::read_more`]
    /// takes, already split by [`parse_document`] into `file` (which can
    /// be done on another thread while this file's earlier functions are
    /// processed).
    pub fn with_more<'t>(&self, source: &'t str, file: MirFile) -> MirDocuments<'t> {
        MirDocuments {
            source,
            file_name: self.file_name.clone(),
            ir_module: self.ir_module.clone(),
            target: self.target.clone(),
            functions: file.functions,
            layout: self.layout.clone(),
            module: Arc::clone(&self.module),
        }
    }

    /// Parses the body of `doc`, one of this file's documents, into a
    /// machine function; errors are located in the whole file.
    pub fn read_function(&self, doc: FunctionDoc) -> Result<MachineFunction, MirError> {
        check_header_registers(self.source, &doc.header, self.target.arch)?;
        check_frame_objects(self.source, &doc.header, self.target.arch, &self.module)?;
        let pointer_bits = |space| self.layout.pointer_bits(space);
        let declared: Vec<(String, Option<String>)> =
            doc.header.registers.iter().map(|r| (r.id.to_string(), Some(r.class.clone()))).collect();
        let mut func = Function::new(doc.header.name.clone());
        let renumbered = match &doc.body {
            Some(Body::InFile { lines, .. }) => {
                let at = lines.start;
                body::parse_body(
                    &mut func,
                    &self.source[lines.clone()],
                    &declared,
                    &pointer_bits,
                    Some(self.target.arch),
                )
                .map_err(|mut e| {
                    e.span = at + e.span.start..at + e.span.end;
                    e
                })?
            }
            Some(Body::Read(text)) => {
                body::parse_body(&mut func, &text.text, &declared, &pointer_bits, Some(self.target.arch)).map_err(
                    |mut e| {
                        e.span = text.file_offset_of(e.span.start)..text.file_offset_of(e.span.end);
                        e
                    },
                )?
            }
            None => Vec::new(),
        };
        renumber_frame_objects(&mut func, &doc.header);
        func.frame.declared = doc.header.stack.len() as u32;
        func.frame.var_args = var_args_object(&doc.header);
        func.constant_pool.declared = doc.header.constants.len() as u32;
        func.jump_table_kind = doc.header.jump_table.as_ref().and_then(|table| JumpTableKind::from_mir(&table.kind));
        func.module = Arc::clone(&self.module);
        let mut header = doc.header;
        renumber_jump_table_blocks(&mut header, &renumbered);
        let has_phis = func.all_insts().any(|i| func.inst(i).is(Opcode::G_PHI) || func.inst(i).is(Opcode::PHI));
        let is_ssa = func.vregs().all(|v| func.def_insts(v).len() <= 1);
        header.resolve_properties(has_phis, is_ssa, func.num_vregs() > 0);
        let not_computed = matches!(header.frame_info.max_call_frame_size, None | Some(u32::MAX));
        if self.target.arch == Arch::AArch64 && not_computed {
            // AArch64 computes it when the function is read
            // (`computeMaxCallFrameSize`).
            header.frame_info.max_call_frame_size = Some(max_call_frame_size(&func));
        }
        Ok(MachineFunction { header, func })
    }
}

/// The header's registers, classes and banks must be `arch`'s, as llc reads
/// them, in llc's order: each `registers:` entry's class or bank, preferred
/// register (only a register of a class may have one) and flags (no target
/// gisel has defines any), the live-ins, then `calleeSavedRegisters`.
fn check_header_registers(source: &str, header: &FunctionHeader, arch: Arch) -> Result<(), MirError> {
    for register in &header.registers {
        let class_error = |message: String| {
            let at = value_start(source, register.span.start, "class:");
            Err(MirError::new(message, at..at + register.class.len()))
        };
        if register.class != "_" && !has_register_class_or_bank(arch, &register.class) {
            return class_error(format!("use of undefined register class or register bank '{}'", register.class));
        }
        if !register.preferred_register.is_empty() {
            if register_class(arch, &register.class).is_none() {
                return class_error("preferred register can only be set for normal vregs".to_owned());
            }
            let at = value_start(source, register.span.start, "preferred-register:");
            check_register_name(&register.preferred_register, at, arch)?;
        }
        if let Some(flag) = register.flags.first() {
            let at = flag_start(source, register.span.start, flag);
            return Err(MirError::new(format!("use of undefined register flag '{flag}'"), at..at + flag.len()));
        }
    }
    for livein in &header.liveins {
        check_register_name(&livein.reg, value_start(source, livein.span.start, "reg:"), arch)?;
    }
    let mut saved = header.callee_saved_registers.iter().flatten();
    if let Some(register) = saved.find(|r| !has_register(arch, r.strip_prefix('$').unwrap_or(r))) {
        // Found in the list, which may wrap over lines, up to its `]`.
        let start = header.name_span.start;
        let key = source[start..].find("\ncalleeSavedRegisters:").map_or(start, |i| start + i + 1);
        let end = source[key..].find(']').map_or(source.len(), |i| key + i);
        let at = source[key..end].find(register.as_str()).map_or(key, |i| key + i);
        check_register_name(register, at, arch)?;
    }
    Ok(())
}

/// Each fixed and then each other stack object's callee-saved register
/// must be `arch`'s and each of its debug-information fields one metadata
/// node `module` defines, as llc reads them.
fn check_frame_objects(source: &str, header: &FunctionHeader, arch: Arch, module: &IrModule) -> Result<(), MirError> {
    let fixed = header.fixed_stack.iter().map(|o| (&o.callee_saved_register, &o.debug, &o.span));
    let objects = fixed.chain(header.stack.iter().map(|o| (&o.callee_saved_register, &o.debug, &o.span)));
    for (register, debug, span) in objects {
        if !register.is_empty() {
            check_register_name(register, value_start(source, span.start, "callee-saved-register:"), arch)?;
        }
        let fields = [
            ("debug-info-variable:", &debug.variable),
            ("debug-info-expression:", &debug.expression),
            ("debug-info-location:", &debug.location),
        ];
        for (key, value) in fields.into_iter().filter(|(_, value)| !value.is_empty()) {
            check_metadata_node(value, module).map_err(|(offset, message)| {
                let at = value_start(source, span.start, key) + offset;
                MirError::new(message, at..at + 1)
            })?;
        }
    }
    Ok(())
}

/// Whether `text` is one metadata node, `!N` (which `module` must define),
/// `!DIExpression(...)` or `!DILocation(...)`, and nothing more; else the
/// offset in `text` and llc's words for what is wrong.
fn check_metadata_node(text: &str, module: &IrModule) -> Result<(), (usize, String)> {
    let end = if let Some(args) = ["!DIExpression(", "!DILocation("].iter().find_map(|p| text.strip_prefix(p)) {
        let close = args.find(')').ok_or((text.len(), "expected ')' here".to_owned()))?;
        text.len() - args.len() + close + 1
    } else {
        let digits = text.strip_prefix('!').map_or(0, |n| n.bytes().take_while(u8::is_ascii_digit).count());
        if digits == 0 {
            return Err((0, "expected a metadata node".to_owned()));
        }
        let number = &text[1..=digits];
        if !number.parse().is_ok_and(|id| module.defines_metadata(id)) {
            return Err((0, format!("use of undefined metadata '!{number}'")));
        }
        1 + digits
    };
    match text[end..].find(|c: char| !c.is_whitespace()) {
        Some(offset) => Err((end + offset, "expected end of string after the metadata node".to_owned())),
        None => Ok(()),
    }
}

/// An error at `at` unless `written` (`$x0`) names one of `arch`'s
/// physical registers.
fn check_register_name(written: &str, at: usize, arch: Arch) -> Result<(), MirError> {
    let name = written.strip_prefix('$').unwrap_or(written);
    if has_register(arch, name) {
        return Ok(());
    }
    Err(MirError::new(format!("unknown register name '{name}'"), at..at + written.len()))
}

/// Where register flag `flag` is written in the `registers:` entry at
/// `entry`: at its opening quote if it has one, as llc locates it.
fn flag_start(source: &str, entry: usize, flag: &str) -> usize {
    let flags = value_start(source, entry, "flags:");
    let line = source[flags..].split('\n').next().unwrap_or_default();
    let found = line.find(flag).map_or(flags, |i| flags + i);
    if matches!(source.as_bytes()[found - 1], b'\'' | b'"') { found - 1 } else { found }
}

/// Where the value of `key` starts (past a quote) in the YAML entry that
/// starts at `entry` of `source` and has that key, on whichever line of
/// the entry it is; `entry` if it cannot be found.
fn value_start(source: &str, entry: usize, key: &str) -> usize {
    let Some(found) = source.get(entry..).and_then(|text| text.find(key)) else { return entry };
    let value = &source[entry + found + key.len()..];
    let skipped = value.len() - value.trim_start().trim_start_matches(['\'', '"']).len();
    entry + found + key.len() + skipped
}

/// Jump-table entries name blocks as written; llc prints them with the
/// numbers the blocks get by position (`renumbered`: written, new).
fn renumber_jump_table_blocks(header: &mut FunctionHeader, renumbered: &[(u32, u32)]) {
    let Some(table) = header.jump_table.as_mut().filter(|_| !renumbered.is_empty()) else { return };
    let new_number: FxHashMap<u32, u32> = renumbered.iter().copied().collect();
    for block in table.entries.iter_mut().flat_map(|(_, blocks)| blocks.iter_mut()) {
        let Some(reference) = block.strip_prefix("%bb.") else { continue };
        let (number, name) = reference.split_once('.').map_or((reference, None), |(n, name)| (n, Some(name)));
        let Some(new) = number.parse().ok().and_then(|n: u32| new_number.get(&n)) else { continue };
        *block = match name {
            Some(name) => format!("%bb.{new}.{name}"),
            None => format!("%bb.{new}"),
        };
    }
}

/// The largest call frame the function sets up or destroys: the first
/// operand of its `ADJCALLSTACKDOWN`/`ADJCALLSTACKUP`, 0 without calls.
fn max_call_frame_size(func: &Function) -> u32 {
    let frame_size = |inst| {
        let data = func.inst(inst);
        let InstOpcode::Target(name) = data.opcode else { return None };
        if !matches!(func.names.resolve(name), "ADJCALLSTACKDOWN" | "ADJCALLSTACKUP") {
            return None;
        }
        match data.operands.first() {
            Some(Operand::Imm(size)) => u32::try_from(*size).ok(),
            _ => None,
        }
    };
    func.all_insts().filter_map(frame_size).max().unwrap_or(0)
}

/// The object the `varArgsFrameIndex` of the function's target information
/// names, as printed: LLVM numbers fixed objects -1, -2, ... in creation
/// (file) order and prints them in reverse, stack objects 0, 1, ...
fn var_args_object(header: &FunctionHeader) -> Option<FrameRef> {
    let entries = header.machine_function_info.as_deref()?;
    let index: i64 = entries.iter().find(|e| e.key == "varArgsFrameIndex")?.value.parse().ok()?;
    let fixed = index < 0;
    let printed = if fixed { header.fixed_stack.len() as i64 + index } else { index };
    let count = if fixed { header.fixed_stack.len() } else { header.stack.len() };
    let index = u32::try_from(printed).ok().filter(|&i| (i as usize) < count)?;
    let name = if fixed { None } else { Some(&header.stack[index as usize].name).filter(|n| !n.is_empty()) };
    Some(FrameRef { fixed, index, name: name.map(|n| n.as_str().into()) })
}

/// Renames frame-object references as llc prints them: fixed objects are
/// numbered in reverse order of creation, stack objects by position with
/// their name appended (`%stack.0.x`).
fn renumber_frame_objects(func: &mut Function, header: &FunctionHeader) {
    if header.fixed_stack.is_empty() && header.stack.is_empty() {
        return;
    }
    let fixed_ids: Vec<(u32, u32)> =
        header.fixed_stack.iter().map(|o| o.id).zip(fixed_stack_print_order(header)).collect();
    let stack: Vec<(u32, u32, &str)> =
        header.stack.iter().enumerate().map(|(pos, o)| (o.id, pos as u32, o.name.as_str())).collect();
    let rename = |fixed: bool, index: u32| -> Option<(u32, Option<&str>)> {
        if fixed {
            fixed_ids.iter().find(|(id, _)| *id == index).map(|(_, new)| (*new, None))
        } else {
            stack
                .iter()
                .find(|(id, _, _)| *id == index)
                .map(|(_, pos, name)| (*pos, Some(*name).filter(|n| !n.is_empty())))
        }
    };
    // Only the instructions naming a frame object change (`modify`
    // re-registers every operand of those it edits).
    let names_frame_object = |data: &InstData| {
        data.operands.iter().any(|op| matches!(op, Operand::Frame(_)))
            || data.mem.iter().filter_map(|mem| mem.pointer.as_deref()).any(|p| frame_pointer(p).is_some())
    };
    let insts: Vec<_> = func.all_insts().filter(|&i| names_frame_object(func.inst(i))).collect();
    for inst in insts {
        func.modify(inst, |data| {
            for op in data.operands.iter_mut() {
                if let Operand::Frame(frame) = op
                    && let Some((index, name)) = rename(frame.fixed, frame.index)
                {
                    frame.index = index;
                    if let Some(name) = name {
                        frame.name = Some(name.into());
                    }
                }
            }
            for mem in data.mem.iter_mut() {
                let Some((fixed, rest)) = mem.pointer.as_deref().and_then(frame_pointer) else { continue };
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                if let Ok(index) = digits.parse()
                    && let Some((new, name)) = rename(fixed, index)
                {
                    let kind = if fixed { "fixed-stack" } else { "stack" };
                    let suffix = name.map(|n| format!(".{n}")).unwrap_or_default();
                    mem.pointer = Some(format!("%{kind}.{new}{suffix}").into());
                }
            }
        });
    }
}

/// A memory operand's pointer naming a frame object (`%fixed-stack.1`,
/// `%stack.0.x`): whether it is fixed, and the text after the kind.
fn frame_pointer(pointer: &str) -> Option<(bool, &str)> {
    match (pointer.strip_prefix("%fixed-stack."), pointer.strip_prefix("%stack.")) {
        (Some(rest), _) => Some((true, rest)),
        (None, Some(rest)) => Some((false, rest)),
        _ => None,
    }
}

/// Writes `module` exactly as `llc -run-pass=...` prints it.
pub fn write_mir(module: &MirModule) -> String {
    let mut out = String::new();
    let names: Vec<&str> = module.functions.iter().map(|f| f.header.name.as_str()).collect();
    write_ir_module(module.ir_module.as_deref(), &module.file_name, &module.target, &names, &mut out);
    // LLVM's counter of atom groups starts above every group of the file
    // and goes on from function to function.
    let highest = module.functions.iter().map(|f| f.func.highest_atom_group()).max().unwrap_or(0);
    let mut next_atom_group = highest + 1;
    for function in &module.functions {
        let options = MirPrintOptions { first_fresh_atom_group: Some(next_atom_group), ..MirPrintOptions::default() };
        write_function_with(function, &module.target, options, &mut out);
        next_atom_group += u64::from(function.func.fresh_atom_groups().count());
    }
    out
}

/// How machine functions are printed: the options of llc's MIR printer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MirPrintOptions {
    /// `-simplify-mir`: leave out what a reader would infer, as llc does:
    /// header keys at their defaults, and successor lists (and branch
    /// probabilities) the instructions (and an even split) predict.
    pub simplify: bool,
    /// The number the function's first fresh atom group takes: LLVM's
    /// counter of atom groups when it reaches the function. `None` starts
    /// it one above the groups of the module's nodes.
    pub first_fresh_atom_group: Option<u64>,
}

/// Writes one machine function document (`---` to `...`) as llc 22 does.
pub fn write_function(function: &MachineFunction, target: &Target, out: &mut String) {
    write_function_with(function, target, MirPrintOptions::default(), out);
}

/// Writes one machine function document as [`write_function`] does,
/// printed as `options` say (llc's `-simplify-mir`).
pub fn write_function_with(function: &MachineFunction, target: &Target, options: MirPrintOptions, out: &mut String) {
    let func = &function.func;
    // Room for the text at once (a register line is about 60 bytes, an
    // instruction line about 40, the other header keys about 1,400):
    // growing a function's text by doubling copied it over again.
    out.reserve(64 * func.num_vregs() + 40 * func.inst_capacity() + 2048);
    write_function_to(function, target, options, out, &mut None);
}

/// What a writer calls between the lines of a long list (the registers,
/// the instructions) once the text written so far holds [`PIECE_BYTES`]
/// or more, which it may hand on and clear: a large function's text need
/// not then be held whole.
pub type Spill<'s> = &'s mut dyn FnMut(&mut String);

/// How much text a writer holds before it calls its [`Spill`].
pub const PIECE_BYTES: usize = 1 << 16;

/// Calls `spill`, if there is one, when `out` holds a piece.
pub(super) fn spill_if_full(out: &mut String, spill: &mut Option<Spill<'_>>) {
    if let Some(spill) = spill
        && out.len() >= PIECE_BYTES
    {
        spill(out);
    }
}

/// Writes one machine function document as [`write_function_with`] does,
/// calling `spill` between the lines of its register list and its body
/// once `out` holds [`PIECE_BYTES`] or more.
pub fn write_function_in_pieces(
    function: &MachineFunction,
    target: &Target,
    options: MirPrintOptions,
    out: &mut String,
    spill: Spill<'_>,
) {
    write_function_to(function, target, options, out, &mut Some(spill));
}

/// Writes one machine function document, calling `spill` (when there is
/// one, a writer of a whole text has none) as
/// [`write_function_in_pieces`] says.
fn write_function_to(
    function: &MachineFunction,
    target: &Target,
    options: MirPrintOptions,
    out: &mut String,
    spill: &mut Option<Spill<'_>>,
) {
    let func = &function.func;
    // Named vregs are not listed, as in llc, nor those llc never makes.
    let registers =
        func.numbered_vregs().filter(|(v, _)| func.vreg_name(*v).is_none()).map(|(v, number)| RegisterEntry {
            id: number,
            class: func.vreg(v).class.map_or("_", |c| func.names.resolve(c)),
            preferred_register: "",
            flags: &[],
        });
    write_header_keys(&function.header, registers, target, options, out, spill);
    // An empty body is the key's default.
    if !(options.simplify && func.blocks().is_empty()) {
        write_body_key(out);
    }
    print_body_with(func, options, out, spill);
    out.push_str("...\n");
}
