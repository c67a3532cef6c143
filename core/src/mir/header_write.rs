//! Writes a machine-function header exactly as `llc` 22 prints it, from
//! `---` through the `body:             |` line.
//!
//! Values `llc` derives from its own frame model are derived the same way
//! where that is cheap: `maxAlignment` (the largest of the written value, 1
//! and every object's alignment), fixed stack objects (printed in reverse
//! file order and renumbered from 0, see [`fixed_stack_print_order`]), stack
//! object names appended to `stackProtector`/`functionContext` references,
//! and constant pool alignments from the type. Constant values are printed as
//! written, except `double`/`float` literals, which `llc` re-prints
//! (`double 1.0` becomes `double 1.000000e+00`). An object holding a
//! callee-saved register makes `isCalleeSavedInfoValid` true, and only such
//! an object keeps `callee-saved-restored: false`.
//!
//! With `-simplify-mir` ([`MirPrintOptions::simplify`]) every key `llc`
//! maps with a default is left out when its value is that default, as
//! LLVM's YAML writer does without `setWriteDefaultValues`.

use super::MirError;
use super::decimal::{decimal_len, push_decimal};
use super::file::{MirPrintOptions, Spill, spill_if_full};
use super::header::{
    CallSite, Constant, FixedStackObject, FunctionHeader, MfiEntry, RegisterEntry, SaveRestorePoint, StackObject,
    StackObjectType,
};
use super::module::{Arch, Target};
use super::yaml::{FlowMap, flow_seq, padded, quoted, wrapped_flow_seq};
use crate::ir::{FpConst, FpKind};
use std::borrow::Cow;
use std::fmt;

fn b(v: bool) -> &'static str {
    if v { "true" } else { "false" }
}

/// The `machineFunctionInfo` keys each target reads, in print order.
fn mfi_keys(arch: Arch) -> &'static [&'static str] {
    match arch {
        Arch::AArch64 => &["hasRedZone", "stackSizeZPR", "stackSizePPR", "hasStackFrame", "hasStreamingModeChanges"],
        Arch::RiscV32 | Arch::RiscV64 => &["varArgsFrameIndex", "varArgsSaveSize"],
        Arch::X86 | Arch::X86_64 => &["amxProgModel"],
        Arch::Arm => &["isLRSpilled"],
        Arch::Mips => &[],
    }
}

/// The values of X86's `amxProgModel`.
const AMX_PROG_MODELS: [&str; 3] = ["None", "DirectReg", "ManagedRA"];

/// Checks `machineFunctionInfo` against what `target` reads: an unknown key
/// is "unknown key 'k'", a malformed value "invalid boolean"/"invalid
/// number", as `llc` reports them.
pub fn validate_machine_function_info(header: &FunctionHeader, target: &Target) -> Result<(), MirError> {
    let keys = mfi_keys(target.arch);
    for e in header.machine_function_info.iter().flatten() {
        if !keys.contains(&e.key.as_str()) {
            return Err(MirError::new(format!("unknown key '{}'", e.key), e.key_span.clone()));
        }
        let ok = match e.key.as_str() {
            "hasRedZone" | "hasStackFrame" | "hasStreamingModeChanges" | "isLRSpilled" => {
                matches!(e.value.as_str(), "true" | "false")
            }
            "varArgsFrameIndex" => e.value.parse::<i32>().is_ok(),
            "amxProgModel" => AMX_PROG_MODELS.contains(&e.value.as_str()),
            _ => e.value.parse::<u64>().is_ok(),
        };
        if !ok {
            let what = match e.key.as_str() {
                "amxProgModel" => "unknown enumerated scalar",
                key if key.starts_with("has") => "invalid boolean",
                _ => "invalid number",
            };
            return Err(MirError::new(what, e.value_span.clone()));
        }
    }
    Ok(())
}

fn write_mfi(entries: Option<&[MfiEntry]>, arch: Arch, out: &mut String) {
    let get = |k: &str| entries.and_then(|es| es.iter().find(|e| e.key == k)).map(|e| e.value.as_str());
    let mut lines: Vec<(&str, &str)> = Vec::new();
    match arch {
        Arch::AArch64 => {
            if let Some(v) = get("hasRedZone") {
                lines.push(("hasRedZone", v));
            }
            if get("stackSizeZPR").is_some() || get("stackSizePPR").is_some() {
                lines.push(("stackSizeZPR", get("stackSizeZPR").unwrap_or("0")));
                lines.push(("stackSizePPR", get("stackSizePPR").unwrap_or("0")));
            }
            for k in ["hasStackFrame", "hasStreamingModeChanges"] {
                if let Some(v) = get(k) {
                    lines.push((k, v));
                }
            }
        }
        Arch::RiscV32 | Arch::RiscV64 => {
            lines.push(("varArgsFrameIndex", get("varArgsFrameIndex").unwrap_or("0")));
            lines.push(("varArgsSaveSize", get("varArgsSaveSize").unwrap_or("0")));
        }
        Arch::X86 | Arch::X86_64 => lines.push(("amxProgModel", get("amxProgModel").unwrap_or("None"))),
        Arch::Arm => lines.push(("isLRSpilled", get("isLRSpilled").unwrap_or("false"))),
        Arch::Mips => {}
    }
    if lines.is_empty() {
        padded(out, 0, "machineFunctionInfo", "{}");
        return;
    }
    out.push_str("machineFunctionInfo:\n");
    for (k, v) in lines {
        padded(out, 2, k, v);
    }
}

/// For each entry of `header.fixed_stack` (in file order), the id `llc`
/// prints for it: objects are numbered in reverse order of creation, so the
/// last one in the file becomes `%fixed-stack.0`. The body printer uses this
/// to renumber `%fixed-stack.N` references.
pub fn fixed_stack_print_order(header: &FunctionHeader) -> Vec<u32> {
    let n = header.fixed_stack.len();
    (0..n).map(|i| u32::try_from(n - 1 - i).unwrap_or(u32::MAX)).collect()
}

/// `%stack.N` gets the object's name appended, as llc prints frame indices.
fn frame_ref(value: &str, stack: &[StackObject]) -> String {
    if let Some(n) = value.strip_prefix("%stack.")
        && let Ok(id) = n.parse::<u32>()
        && let Some(pos) = stack.iter().position(|o| o.id == id)
    {
        let name = &stack[pos].name;
        return if name.is_empty() { format!("%stack.{pos}") } else { format!("%stack.{pos}.{name}") };
    }
    value.to_owned()
}

/// One key of a mapping `llc` prints: its value as printed, and whether
/// that value is the key's default (left out of simplified output).
struct Field<'a> {
    key: &'static str,
    value: Cow<'a, str>,
    default: bool,
}

impl<'a> Field<'a> {
    /// A key mapped without a default: always printed.
    fn required(key: &'static str, value: impl Into<Cow<'a, str>>) -> Self {
        Field { key, value: value.into(), default: false }
    }

    /// A key whose default is `false`.
    fn flag(key: &'static str, value: bool) -> Self {
        Field { key, value: b(value).into(), default: !value }
    }

    /// A number whose default is `default`.
    fn number<T: fmt::Display + PartialEq>(key: &'static str, value: T, default: T) -> Self {
        Field { key, value: value.to_string().into(), default: value == default }
    }

    /// A string whose default is empty, quoted as printed.
    fn text(key: &'static str, value: &'a str) -> Self {
        Field { key, value: quoted(value), default: value.is_empty() }
    }

    /// Whether the field is printed.
    fn shown(&self, options: MirPrintOptions) -> bool {
        !(options.simplify && self.default)
    }
}

/// Writes `fields` as one item of a block sequence of flow mappings:
/// `  - { k: v, ... }` (wrapped as LLVM wraps it).
fn write_flow_item(fields: &[Field<'_>], options: MirPrintOptions, out: &mut String) {
    out.push_str("  - ");
    let mut m = FlowMap::open(out);
    for field in fields.iter().filter(|f| f.shown(options)) {
        m.entry(field.key, &field.value);
    }
    m.close();
    out.push('\n');
}

fn write_points(key: &str, points: &[SaveRestorePoint], options: MirPrintOptions, out: &mut String) {
    if points.is_empty() {
        return;
    }
    out.push_str(&format!("  {key}:\n"));
    for p in points {
        out.push_str("    - ");
        padded(out, 0, "point", &quoted(&p.point));
        if !p.registers.is_empty() {
            out.push_str("      registers:\n");
            for r in &p.registers {
                out.push_str(&format!("        - {}\n", quoted(r)));
            }
        } else if !options.simplify {
            padded(out, 6, "registers", "[]");
        }
    }
}

/// The `frameInfo` keys in print order.
fn frame_info_fields<'h>(h: &'h FunctionHeader, target: &Target) -> [Field<'h>; 19] {
    let f = &h.frame_info;
    let objects = h.stack.iter().map(|o| o.alignment).chain(h.fixed_stack.iter().map(|o| o.alignment));
    let max_align = objects.map(|a| a.unwrap_or(1)).fold(u64::from(f.max_alignment).max(1), u64::max);
    let max_call = f.max_call_frame_size.unwrap_or(match target.arch {
        Arch::AArch64 => 0,
        Arch::RiscV32 | Arch::RiscV64 | Arch::X86 | Arch::X86_64 | Arch::Arm | Arch::Mips => u32::MAX,
    });
    let frame_ref_field = |key, value: &str| {
        let printed = frame_ref(value, &h.stack);
        Field { key, value: Cow::Owned(quoted(&printed).into_owned()), default: printed.is_empty() }
    };
    [
        Field::flag("isFrameAddressTaken", f.is_frame_address_taken),
        Field::flag("isReturnAddressTaken", f.is_return_address_taken),
        Field::flag("hasStackMap", f.has_stack_map),
        Field::flag("hasPatchPoint", f.has_patch_point),
        Field::number("stackSize", f.stack_size, 0),
        Field::number("offsetAdjustment", f.offset_adjustment, 0),
        Field::number("maxAlignment", max_align, 0),
        Field::flag("adjustsStack", f.adjusts_stack),
        Field::flag("hasCalls", f.has_calls),
        frame_ref_field("stackProtector", &f.stack_protector),
        frame_ref_field("functionContext", &f.function_context),
        Field::number("maxCallFrameSize", max_call, u32::MAX),
        Field::number("cvBytesOfCalleeSavedRegisters", f.cv_bytes_of_callee_saved_registers, 0),
        Field::flag("hasOpaqueSPAdjustment", f.has_opaque_sp_adjustment),
        Field::flag("hasVAStart", f.has_va_start),
        Field::flag("hasMustTailInVarArgFunc", f.has_must_tail_in_var_arg_func),
        Field::flag("hasTailCall", f.has_tail_call),
        Field::flag("isCalleeSavedInfoValid", f.is_callee_saved_info_valid || has_callee_saved_objects(h)),
        Field::number("localFrameSize", f.local_frame_size, 0),
    ]
}

/// Whether an object holds a callee-saved register: reading one makes the
/// callee-saved information valid.
fn has_callee_saved_objects(h: &FunctionHeader) -> bool {
    let stack = h.stack.iter().map(|o| &o.callee_saved_register);
    let fixed = h.fixed_stack.iter().map(|o| &o.callee_saved_register);
    stack.chain(fixed).any(|register| !register.is_empty())
}

/// Writes `frameInfo:` and its keys; simplified, a frame entirely at its
/// defaults is left out.
fn write_frame_info(h: &FunctionHeader, target: &Target, options: MirPrintOptions, out: &mut String) {
    let f = &h.frame_info;
    let fields = frame_info_fields(h, target);
    let no_points = f.save_point.is_empty() && f.restore_point.is_empty();
    if no_points && !fields.iter().any(|field| field.shown(options)) {
        return;
    }
    out.push_str("frameInfo:\n");
    for field in fields.iter().filter(|field| field.shown(options)) {
        padded(out, 2, field.key, &field.value);
    }
    write_points("savePoint", &f.save_point, options, out);
    write_points("restorePoint", &f.restore_point, options, out);
}

/// The three debug-info keys of a stack object (each defaults to empty).
fn debug_fields(d: &super::header::DebugInfo) -> [Field<'_>; 3] {
    [
        Field::text("debug-info-variable", &d.variable),
        Field::text("debug-info-expression", &d.expression),
        Field::text("debug-info-location", &d.location),
    ]
}

/// The fields `stack-id` and `type` default to.
const DEFAULT_STACK_ID: &str = "default";

fn write_fixed(id: usize, o: &FixedStackObject, has_tail_call: bool, options: MirPrintOptions, out: &mut String) {
    let mut fields = vec![
        Field::required("id", id.to_string()),
        Field { key: "type", value: o.kind.as_str().into(), default: o.kind == StackObjectType::Default },
        Field::number("offset", o.offset, 0),
        Field::number("size", o.size, 0),
        Field::required("alignment", o.alignment.unwrap_or(1).to_string()),
        Field { key: "stack-id", value: o.stack_id.as_str().into(), default: o.stack_id == DEFAULT_STACK_ID },
    ];
    if o.kind != StackObjectType::SpillSlot {
        // A function with tail calls may clobber its incoming arguments.
        fields.push(Field::flag("isImmutable", o.is_immutable && !has_tail_call));
        fields.push(Field::flag("isAliased", o.is_aliased));
    }
    fields.push(Field::text("callee-saved-register", &o.callee_saved_register));
    fields.push(restored_field(&o.callee_saved_register, o.callee_saved_restored));
    fields.extend(debug_fields(&o.debug));
    write_flow_item(&fields, options, out);
}

/// `callee-saved-restored`, whose default is `true`; it is kept only for an
/// object that holds a callee-saved `register`.
fn restored_field(register: &str, restored: bool) -> Field<'static> {
    let restored = restored || register.is_empty();
    Field { key: "callee-saved-restored", value: b(restored).into(), default: restored }
}

fn write_stack(id: usize, o: &StackObject, options: MirPrintOptions, out: &mut String) {
    let mut fields = vec![
        Field::required("id", id.to_string()),
        Field::text("name", &o.name),
        Field { key: "type", value: o.kind.as_str().into(), default: o.kind == StackObjectType::Default },
        Field::number("offset", o.offset, 0),
    ];
    if o.kind != StackObjectType::VariableSized {
        fields.push(Field::required("size", o.size.to_string()));
    }
    fields.push(Field::required("alignment", o.alignment.unwrap_or(1).to_string()));
    fields.push(Field { key: "stack-id", value: o.stack_id.as_str().into(), default: o.stack_id == DEFAULT_STACK_ID });
    fields.push(Field::text("callee-saved-register", &o.callee_saved_register));
    fields.push(restored_field(&o.callee_saved_register, o.callee_saved_restored));
    if let Some(local) = o.local_offset {
        fields.push(Field::required("local-offset", local.to_string()));
    }
    fields.extend(debug_fields(&o.debug));
    write_flow_item(&fields, options, out);
}

/// A constant pool value as LLVM prints it: `double`/`float` literals in
/// `%e` form when that reads back exactly, else as hexadecimal; anything
/// else as written.
fn constant_text(value: &str) -> String {
    let Some((ty, literal)) = value.split_once(' ') else {
        return value.to_owned();
    };
    match FpKind::from_name(ty).and_then(|kind| FpConst::parse(kind, literal.trim())) {
        Some(constant) if matches!(constant.kind, FpKind::Float | FpKind::Double) => constant.to_string(),
        _ => value.to_owned(),
    }
}

/// Writes `list_key:` and one line per item; an empty list is `list_key: []`,
/// or nothing when simplified.
fn list<T>(
    out: &mut String,
    key: &str,
    items: &[T],
    options: MirPrintOptions,
    mut item: impl FnMut(usize, &T, &mut String),
) {
    if items.is_empty() {
        if !options.simplify {
            padded(out, 0, key, "[]");
        }
        return;
    }
    out.push_str(key);
    out.push_str(":\n");
    for (i, it) in items.iter().enumerate() {
        item(i, it, out);
    }
}

/// Writes `registers:` and one line per entry, or `registers: []` (nothing
/// when simplified).
fn write_registers<'r>(
    out: &mut String,
    registers: impl IntoIterator<Item = RegisterEntry<'r>>,
    options: MirPrintOptions,
    spill: &mut Option<Spill<'_>>,
) {
    let mut registers = registers.into_iter().peekable();
    if registers.peek().is_none() {
        if !options.simplify {
            padded(out, 0, "registers", "[]");
        }
        return;
    }
    out.push_str("registers:\n");
    for r in registers {
        write_register(out, &r, options);
        spill_if_full(out, spill);
    }
}

/// Writes one entry of the register list.
fn write_register(out: &mut String, r: &RegisterEntry<'_>, options: MirPrintOptions) {
    let generic = r.class == "_" && r.preferred_register.is_empty() && r.flags.is_empty();
    if generic && !options.simplify {
        // A generic register, as nearly all are: the id in fixed text.
        out.push_str("  - { id: ");
        push_decimal(out, u64::from(r.id));
        out.push_str(", class: _, preferred-register: '', flags: [  ] }\n");
        return;
    }
    let (class, preferred, flags) = (quoted(r.class), quoted(r.preferred_register), flow_seq(r.flags));
    // A flow map wraps before a key once its line is past 70 columns;
    // the line reaches the last key, `flags`, at column 43 plus the
    // id, class and preferred register, so a short entry never wraps
    // and is written as it is.
    if !options.simplify && 43 + decimal_len(u64::from(r.id)) + class.len() + preferred.len() <= 70 {
        out.push_str("  - { id: ");
        push_decimal(out, u64::from(r.id));
        out.push_str(", class: ");
        out.push_str(&class);
        out.push_str(", preferred-register: ");
        out.push_str(&preferred);
        out.push_str(", flags: ");
        out.push_str(&flags);
        out.push_str(" }\n");
        return;
    }
    let fields = [
        Field::required("id", r.id.to_string()),
        Field::required("class", class),
        Field { key: "preferred-register", value: preferred, default: r.preferred_register.is_empty() },
        Field { key: "flags", value: flags, default: r.flags.is_empty() },
    ];
    write_flow_item(&fields, options, out);
}

/// The function properties `llc` prints after `alignment`, with whether
/// each has a default (`false`) or is always printed.
fn property_fields(h: &FunctionHeader) -> [Field<'static>; 20] {
    let always = |key: &'static str, value: Option<bool>| Field::required(key, b(value.unwrap_or(true)));
    [
        Field::flag("exposesReturnsTwice", h.exposes_returns_twice),
        Field::flag("legalized", h.legalized),
        Field::flag("regBankSelected", h.reg_bank_selected),
        Field::flag("selected", h.selected),
        Field::flag("failedISel", h.failed_isel),
        Field::flag("tracksRegLiveness", h.tracks_reg_liveness),
        Field::flag("hasWinCFI", h.has_win_cfi),
        always("noPhis", h.no_phis),
        always("isSSA", h.is_ssa),
        always("noVRegs", h.no_vregs),
        Field::required("hasFakeUses", b(h.has_fake_uses)),
        Field::flag("callsEHReturn", h.calls_eh_return),
        Field::flag("callsUnwindInit", h.calls_unwind_init),
        Field::flag("hasEHContTarget", h.has_eh_cont_target),
        Field::flag("hasEHScopes", h.has_eh_scopes),
        Field::flag("hasEHFunclets", h.has_eh_funclets),
        Field::flag("isOutlined", h.is_outlined),
        Field::flag("debugInstrRef", h.debug_instr_ref),
        Field::flag("failsVerification", h.fails_verification),
        Field::flag("tracksDebugUserValues", h.tracks_debug_user_values),
    ]
}

/// Writes the header of one machine function as `llc` prints it: `---`,
/// every key in `llc`'s order with its padding and quoting, and the
/// `body:             |` line (the body itself is not written).
///
/// `registers` is printed in place of `header.registers`, because `llc`
/// derives that list from the function's virtual registers (a read list
/// prints through `header.registers.iter().map(RegisterEntry::from)`).
/// `noPhis`, `isSSA` and `noVRegs` left `None` print as `true`; resolve them
/// first with [`FunctionHeader::resolve_properties`].
pub fn write_function_header<'r>(
    header: &FunctionHeader,
    registers: impl IntoIterator<Item = RegisterEntry<'r>>,
    target: &Target,
    out: &mut String,
) {
    write_header_keys(header, registers, target, MirPrintOptions::default(), out, &mut None);
    write_body_key(out);
}

/// Writes the `body:` key, whose block of text follows.
pub(super) fn write_body_key(out: &mut String) {
    out.push_str("body:             |\n");
}

/// Writes what [`write_function_header`] writes but the `body:` line,
/// printed as `options` say: simplified, a key at its default is left out.
/// `spill`, when there is one, is called after a line of the register
/// list once `out` holds a piece (see [`Spill`]).
pub(super) fn write_header_keys<'r>(
    header: &FunctionHeader,
    registers: impl IntoIterator<Item = RegisterEntry<'r>>,
    target: &Target,
    options: MirPrintOptions,
    out: &mut String,
    spill: &mut Option<Spill<'_>>,
) {
    let h = header;
    out.push_str("---\n");
    padded(out, 0, "name", &quoted(&h.name));
    padded(out, 0, "alignment", &h.alignment.unwrap_or(1).max(1).to_string());
    for field in property_fields(h).iter().filter(|f| f.shown(options)) {
        padded(out, 0, field.key, &field.value);
    }
    write_registers(out, registers, options, spill);
    list(out, "liveins", &h.liveins, options, |_, l, out| {
        write_flow_item(
            &[Field::required("reg", quoted(&l.reg)), Field::text("virtual-reg", &l.virtual_reg)],
            options,
            out,
        );
    });
    if let Some(csr) = &h.callee_saved_registers {
        let items: Vec<Cow<'_, str>> = csr.iter().map(|r| quoted(r)).collect();
        let value = if items.is_empty() { "[]".to_owned() } else { format!("[ {} ]", items.join(", ")) };
        padded(out, 0, "calleeSavedRegisters", &value);
    }
    write_frame_info(h, target, options, out);
    let fixed: Vec<&FixedStackObject> = h.fixed_stack.iter().rev().collect();
    list(out, "fixedStack", &fixed, options, |i, o, out| write_fixed(i, o, h.frame_info.has_tail_call, options, out));
    list(out, "stack", &h.stack, options, |i, o, out| write_stack(i, o, options, out));
    list(out, "entry_values", &h.entry_values, options, |_, e, out| {
        let register = Field::required("entry-value-register", quoted(&e.register));
        let debug = debug_fields(&e.debug).map(|f| Field { default: false, ..f });
        let fields: Vec<Field<'_>> = std::iter::once(register).chain(debug).collect();
        write_flow_item(&fields, options, out);
    });
    list(out, "callSites", &h.call_sites, options, |_, c, out| write_call_site(c, options, out));
    list(out, "debugValueSubstitutions", &h.debug_value_substitutions, options, |_, s, out| {
        let fields = [
            Field::required("srcinst", s.src_inst.to_string()),
            Field::required("srcop", s.src_op.to_string()),
            Field::required("dstinst", s.dst_inst.to_string()),
            Field::required("dstop", s.dst_op.to_string()),
            Field::required("subreg", s.subreg.to_string()),
        ];
        write_flow_item(&fields, options, out);
    });
    list(out, "constants", &h.constants, options, |_, c, out| write_constant(c, target, options, out));
    write_mfi(h.machine_function_info.as_deref(), target.arch, out);
    if let Some(jt) = h.jump_table.as_ref().filter(|jt| !jt.entries.is_empty()) {
        out.push_str("jumpTable:\n");
        padded(out, 2, "kind", &quoted(&jt.kind));
        out.push_str("  entries:\n");
        for (id, blocks) in &jt.entries {
            out.push_str("    - ");
            padded(out, 0, "id", &id.to_string());
            if blocks.is_empty() && options.simplify {
                continue;
            }
            let items: Vec<Cow<'_, str>> = blocks.iter().map(|s| quoted(s)).collect();
            // `      blocks:` padded to the value column, 23.
            padded(out, 6, "blocks", &wrapped_flow_seq(&items, 23));
        }
    }
    if !h.machine_metadata_nodes.is_empty() {
        out.push_str("machineMetadataNodes:\n");
        for n in &h.machine_metadata_nodes {
            out.push_str(&format!("  - {}\n", quoted(n)));
        }
    }
}

/// Writes one `callSites` item; its `fwdArgRegs` is a block list inside
/// the flow map, as llc prints it.
fn write_call_site(c: &CallSite, options: MirPrintOptions, out: &mut String) {
    out.push_str("  - ");
    let mut m = FlowMap::open(out);
    m.entry("bb", &c.bb.to_string());
    m.entry("offset", &c.offset.to_string());
    if !c.fwd_arg_regs.is_empty() {
        m.key("fwdArgRegs");
        for (arg, reg) in &c.fwd_arg_regs {
            m.out().push_str(&format!("\n      - {{ arg: {arg}, reg: {} }}", quoted(reg)));
        }
    } else if !options.simplify {
        m.entry("fwdArgRegs", "[]");
    }
    m.close();
    out.push('\n');
}

/// Writes one `constants` item, a block map: `  - id: N` and the other
/// keys under it; the alignment is the type's when none was written.
fn write_constant(c: &Constant, target: &Target, options: MirPrintOptions, out: &mut String) {
    let ty = c.value.split_whitespace().next().unwrap_or("");
    let ty = if ty.starts_with('<') { c.value.split_once('>').map_or(ty, |(t, _)| t) } else { ty };
    let ty = if ty.starts_with('<') { format!("{ty}>") } else { ty.to_owned() };
    let align = c.alignment.unwrap_or_else(|| target.abi_alignment(&ty));
    out.push_str("  - ");
    padded(out, 0, "id", &c.id.to_string());
    let value = constant_text(&c.value);
    let fields = [
        Field { key: "value", value: quoted(&value), default: value.is_empty() },
        Field::required("alignment", align.to_string()),
        Field::flag("isTargetSpecific", c.is_target_specific),
    ];
    for field in fields.iter().filter(|f| f.shown(options)) {
        padded(out, 4, field.key, &field.value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_constants() {
        assert_eq!(constant_text("double 1.0"), "double 1.000000e+00");
        assert_eq!(constant_text("double -0.5"), "double -5.000000e-01");
        assert_eq!(constant_text("double 0.1"), "double 1.000000e-01");
        assert_eq!(constant_text("double 0.123456789"), "double 0x3FBF9ADD3739635F");
        assert_eq!(constant_text("double 1.5e300"), "double 1.500000e+300");
        assert_eq!(constant_text("float 2.5"), "float 2.500000e+00");
        assert_eq!(constant_text("i32 7"), "i32 7");
    }
}
