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
//! (`double 1.0` becomes `double 1.000000e+00`).

use super::MirError;
use super::decimal::{decimal_len, push_decimal};
use super::header::{
    FixedStackObject, FunctionHeader, MfiEntry, RegisterEntry, SaveRestorePoint, StackObject, StackObjectType,
};
use super::module::{Arch, Target};
use super::yaml::{FlowMap, flow_seq, padded, quoted, wrapped_flow_seq};
use crate::ir::{FpConst, FpKind};
use std::borrow::Cow;

fn b(v: bool) -> &'static str {
    if v { "true" } else { "false" }
}

/// The `machineFunctionInfo` keys each target reads, in print order.
fn mfi_keys(arch: Arch) -> &'static [&'static str] {
    match arch {
        Arch::AArch64 => &["hasRedZone", "stackSizeZPR", "stackSizePPR", "hasStackFrame", "hasStreamingModeChanges"],
        Arch::RiscV32 | Arch::RiscV64 => &["varArgsFrameIndex", "varArgsSaveSize"],
    }
}

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
            "hasRedZone" | "hasStackFrame" | "hasStreamingModeChanges" => {
                matches!(e.value.as_str(), "true" | "false")
            }
            "varArgsFrameIndex" => e.value.parse::<i32>().is_ok(),
            _ => e.value.parse::<u64>().is_ok(),
        };
        if !ok {
            let what = if e.key.starts_with("has") { "invalid boolean" } else { "invalid number" };
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

fn write_points(key: &str, points: &[SaveRestorePoint], out: &mut String) {
    if points.is_empty() {
        return;
    }
    out.push_str(&format!("  {key}:\n"));
    for p in points {
        out.push_str("    - ");
        padded(out, 0, "point", &quoted(&p.point));
        if p.registers.is_empty() {
            padded(out, 6, "registers", "[]");
        } else {
            out.push_str("      registers:\n");
            for r in &p.registers {
                out.push_str(&format!("        - {}\n", quoted(r)));
            }
        }
    }
}

fn write_frame_info(h: &FunctionHeader, target: &Target, out: &mut String) {
    let f = &h.frame_info;
    let objects = h.stack.iter().map(|o| o.alignment).chain(h.fixed_stack.iter().map(|o| o.alignment));
    let max_align = objects.map(|a| a.unwrap_or(1)).fold(u64::from(f.max_alignment).max(1), u64::max);
    let max_call = f.max_call_frame_size.unwrap_or(match target.arch {
        Arch::AArch64 => 0,
        Arch::RiscV32 | Arch::RiscV64 => u32::MAX,
    });
    out.push_str("frameInfo:\n");
    let p = |out: &mut String, k: &str, v: &str| padded(out, 2, k, v);
    p(out, "isFrameAddressTaken", b(f.is_frame_address_taken));
    p(out, "isReturnAddressTaken", b(f.is_return_address_taken));
    p(out, "hasStackMap", b(f.has_stack_map));
    p(out, "hasPatchPoint", b(f.has_patch_point));
    p(out, "stackSize", &f.stack_size.to_string());
    p(out, "offsetAdjustment", &f.offset_adjustment.to_string());
    p(out, "maxAlignment", &max_align.to_string());
    p(out, "adjustsStack", b(f.adjusts_stack));
    p(out, "hasCalls", b(f.has_calls));
    p(out, "stackProtector", &quoted(&frame_ref(&f.stack_protector, &h.stack)));
    p(out, "functionContext", &quoted(&frame_ref(&f.function_context, &h.stack)));
    p(out, "maxCallFrameSize", &max_call.to_string());
    p(out, "cvBytesOfCalleeSavedRegisters", &f.cv_bytes_of_callee_saved_registers.to_string());
    p(out, "hasOpaqueSPAdjustment", b(f.has_opaque_sp_adjustment));
    p(out, "hasVAStart", b(f.has_va_start));
    p(out, "hasMustTailInVarArgFunc", b(f.has_must_tail_in_var_arg_func));
    p(out, "hasTailCall", b(f.has_tail_call));
    p(out, "isCalleeSavedInfoValid", b(f.is_callee_saved_info_valid));
    p(out, "localFrameSize", &f.local_frame_size.to_string());
    write_points("savePoint", &f.save_point, out);
    write_points("restorePoint", &f.restore_point, out);
}

fn write_debug(m: &mut FlowMap<'_>, d: &super::header::DebugInfo) {
    m.entry("debug-info-variable", &quoted(&d.variable));
    m.entry("debug-info-expression", &quoted(&d.expression));
    m.entry("debug-info-location", &quoted(&d.location));
}

fn write_fixed(id: usize, o: &FixedStackObject, has_tail_call: bool, out: &mut String) {
    out.push_str("  - ");
    let mut m = FlowMap::open(out);
    m.entry("id", &id.to_string());
    m.entry("type", o.kind.as_str());
    m.entry("offset", &o.offset.to_string());
    m.entry("size", &o.size.to_string());
    m.entry("alignment", &o.alignment.unwrap_or(1).to_string());
    m.entry("stack-id", &o.stack_id);
    if o.kind != StackObjectType::SpillSlot {
        // A function with tail calls may clobber its incoming arguments.
        m.entry("isImmutable", b(o.is_immutable && !has_tail_call));
        m.entry("isAliased", b(o.is_aliased));
    }
    m.entry("callee-saved-register", &quoted(&o.callee_saved_register));
    m.entry("callee-saved-restored", b(o.callee_saved_restored));
    write_debug(&mut m, &o.debug);
    m.close();
    out.push('\n');
}

fn write_stack(id: usize, o: &StackObject, out: &mut String) {
    out.push_str("  - ");
    let mut m = FlowMap::open(out);
    m.entry("id", &id.to_string());
    m.entry("name", &quoted(&o.name));
    m.entry("type", o.kind.as_str());
    m.entry("offset", &o.offset.to_string());
    if o.kind != StackObjectType::VariableSized {
        m.entry("size", &o.size.to_string());
    }
    m.entry("alignment", &o.alignment.unwrap_or(1).to_string());
    m.entry("stack-id", &o.stack_id);
    m.entry("callee-saved-register", &quoted(&o.callee_saved_register));
    m.entry("callee-saved-restored", b(o.callee_saved_restored));
    if let Some(local) = o.local_offset {
        m.entry("local-offset", &local.to_string());
    }
    write_debug(&mut m, &o.debug);
    m.close();
    out.push('\n');
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

/// Writes `list_key:` and one line per item, or `list_key: []` when empty.
fn list<T>(out: &mut String, key: &str, items: &[T], mut item: impl FnMut(usize, &T, &mut String)) {
    if items.is_empty() {
        padded(out, 0, key, "[]");
        return;
    }
    out.push_str(key);
    out.push_str(":\n");
    for (i, it) in items.iter().enumerate() {
        item(i, it, out);
    }
}

/// Writes `registers:` and one line per entry, or `registers: []`.
fn write_registers<'r>(out: &mut String, registers: impl IntoIterator<Item = RegisterEntry<'r>>) {
    let mut registers = registers.into_iter().peekable();
    if registers.peek().is_none() {
        padded(out, 0, "registers", "[]");
        return;
    }
    out.push_str("registers:\n");
    for r in registers {
        let (class, preferred, flags) = (quoted(r.class), quoted(r.preferred_register), flow_seq(r.flags));
        // A flow map wraps before a key once its line is past 70 columns;
        // the line reaches the last key, `flags`, at column 43 plus the
        // id, class and preferred register, so a short entry never wraps
        // and is written as it is.
        if 43 + decimal_len(u64::from(r.id)) + class.len() + preferred.len() <= 70 {
            out.push_str("  - { id: ");
            push_decimal(out, u64::from(r.id));
            out.push_str(", class: ");
            out.push_str(&class);
            out.push_str(", preferred-register: ");
            out.push_str(&preferred);
            out.push_str(", flags: ");
            out.push_str(&flags);
            out.push_str(" }\n");
            continue;
        }
        out.push_str("  - ");
        let mut m = FlowMap::open(out);
        m.entry_display("id", r.id);
        m.entry("class", &class);
        m.entry("preferred-register", &preferred);
        m.entry("flags", &flags);
        m.close();
        out.push('\n');
    }
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
    let h = header;
    out.push_str("---\n");
    padded(out, 0, "name", &quoted(&h.name));
    padded(out, 0, "alignment", &h.alignment.unwrap_or(1).max(1).to_string());
    let flags = [
        ("exposesReturnsTwice", h.exposes_returns_twice),
        ("legalized", h.legalized),
        ("regBankSelected", h.reg_bank_selected),
        ("selected", h.selected),
        ("failedISel", h.failed_isel),
        ("tracksRegLiveness", h.tracks_reg_liveness),
        ("hasWinCFI", h.has_win_cfi),
        ("noPhis", h.no_phis.unwrap_or(true)),
        ("isSSA", h.is_ssa.unwrap_or(true)),
        ("noVRegs", h.no_vregs.unwrap_or(true)),
        ("hasFakeUses", h.has_fake_uses),
        ("callsEHReturn", h.calls_eh_return),
        ("callsUnwindInit", h.calls_unwind_init),
        ("hasEHContTarget", h.has_eh_cont_target),
        ("hasEHScopes", h.has_eh_scopes),
        ("hasEHFunclets", h.has_eh_funclets),
        ("isOutlined", h.is_outlined),
        ("debugInstrRef", h.debug_instr_ref),
        ("failsVerification", h.fails_verification),
        ("tracksDebugUserValues", h.tracks_debug_user_values),
    ];
    for (k, v) in flags {
        padded(out, 0, k, b(v));
    }
    write_registers(out, registers);
    list(out, "liveins", &h.liveins, |_, l, out| {
        out.push_str("  - ");
        let mut m = FlowMap::open(out);
        m.entry("reg", &quoted(&l.reg));
        m.entry("virtual-reg", &quoted(&l.virtual_reg));
        m.close();
        out.push('\n');
    });
    if let Some(csr) = &h.callee_saved_registers {
        let items: Vec<Cow<'_, str>> = csr.iter().map(|r| quoted(r)).collect();
        let value = if items.is_empty() { "[]".to_owned() } else { format!("[ {} ]", items.join(", ")) };
        padded(out, 0, "calleeSavedRegisters", &value);
    }
    write_frame_info(h, target, out);
    let fixed: Vec<&FixedStackObject> = h.fixed_stack.iter().rev().collect();
    list(out, "fixedStack", &fixed, |i, o, out| write_fixed(i, o, h.frame_info.has_tail_call, out));
    list(out, "stack", &h.stack, write_stack);
    list(out, "entry_values", &h.entry_values, |_, e, out| {
        out.push_str("  - ");
        let mut m = FlowMap::open(out);
        m.entry("entry-value-register", &quoted(&e.register));
        write_debug(&mut m, &e.debug);
        m.close();
        out.push('\n');
    });
    list(out, "callSites", &h.call_sites, |_, c, out| {
        out.push_str("  - ");
        let mut m = FlowMap::open(out);
        m.entry("bb", &c.bb.to_string());
        m.entry("offset", &c.offset.to_string());
        if c.fwd_arg_regs.is_empty() {
            m.entry("fwdArgRegs", "[]");
        } else {
            m.key("fwdArgRegs");
            for (arg, reg) in &c.fwd_arg_regs {
                m.out().push_str(&format!("\n      - {{ arg: {arg}, reg: {} }}", quoted(reg)));
            }
        }
        m.close();
        out.push('\n');
    });
    list(out, "debugValueSubstitutions", &h.debug_value_substitutions, |_, s, out| {
        out.push_str("  - ");
        let mut m = FlowMap::open(out);
        m.entry("srcinst", &s.src_inst.to_string());
        m.entry("srcop", &s.src_op.to_string());
        m.entry("dstinst", &s.dst_inst.to_string());
        m.entry("dstop", &s.dst_op.to_string());
        m.entry("subreg", &s.subreg.to_string());
        m.close();
        out.push('\n');
    });
    list(out, "constants", &h.constants, |_, c, out| {
        let ty = c.value.split_whitespace().next().unwrap_or("");
        let ty = if ty.starts_with('<') { c.value.split_once('>').map_or(ty, |(t, _)| t) } else { ty };
        let ty = if ty.starts_with('<') { format!("{ty}>") } else { ty.to_owned() };
        let align = c.alignment.unwrap_or_else(|| target.abi_alignment(&ty));
        out.push_str("  - ");
        padded(out, 0, "id", &c.id.to_string());
        padded(out, 4, "value", &quoted(&constant_text(&c.value)));
        padded(out, 4, "alignment", &align.to_string());
        padded(out, 4, "isTargetSpecific", b(c.is_target_specific));
    });
    write_mfi(h.machine_function_info.as_deref(), target.arch, out);
    if let Some(jt) = h.jump_table.as_ref().filter(|jt| !jt.entries.is_empty()) {
        out.push_str("jumpTable:\n");
        padded(out, 2, "kind", &quoted(&jt.kind));
        out.push_str("  entries:\n");
        for (id, blocks) in &jt.entries {
            out.push_str("    - ");
            padded(out, 0, "id", &id.to_string());
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
    out.push_str("body:             |\n");
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
