//! Reading the header keys of a machine-function document from the YAML
//! tree, with `llc`'s defaults and messages ("unknown key 'k'", "invalid
//! number", "invalid boolean", "missing required key 'name'").

use super::MirError;
use super::header::*;
use super::yaml::{Node, NodeKind};
use std::ops::Range;

/// The keys of one YAML mapping, consumed one by one; what is left over is an
/// unknown key.
struct Fields<'a> {
    entries: Vec<(&'a str, &'a Node<'a>, &'a Node<'a>)>,
    used: Vec<bool>,
    span: Range<usize>,
}

impl<'a> Fields<'a> {
    fn new(node: &'a Node<'a>) -> Result<Self, MirError> {
        let entries: &'a [(Node<'a>, Node<'a>)] = match &node.kind {
            NodeKind::Map(entries) => entries,
            NodeKind::Null => &[],
            _ => return Err(MirError::new("not a mapping", node.span.clone())),
        };
        let mut out = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            let key = k.scalar().ok_or_else(|| MirError::new("expected a scalar key", k.span.clone()))?;
            out.push((key, k, v));
        }
        let used = vec![false; out.len()];
        Ok(Fields { entries: out, used, span: node.span.clone() })
    }

    fn get(&mut self, key: &str) -> Option<&'a Node<'a>> {
        self.get_entry(key).map(|(_, v)| v)
    }

    fn get_entry(&mut self, key: &str) -> Option<(&'a Node<'a>, &'a Node<'a>)> {
        let i = self.entries.iter().position(|(k, _, _)| *k == key)?;
        self.used[i] = true;
        Some((self.entries[i].1, self.entries[i].2))
    }

    fn required(&mut self, key: &str) -> Result<&'a Node<'a>, MirError> {
        self.get(key).ok_or_else(|| MirError::new(format!("missing required key '{key}'"), self.span.clone()))
    }

    fn finish(self) -> Result<(), MirError> {
        match self.used.iter().position(|u| !u) {
            Some(i) => {
                let (key, k, _) = self.entries[i];
                Err(MirError::new(format!("unknown key '{key}'"), k.span.clone()))
            }
            None => Ok(()),
        }
    }

    fn bool(&mut self, key: &str) -> Result<bool, MirError> {
        self.get(key).map_or(Ok(false), boolean)
    }
    fn opt_bool(&mut self, key: &str) -> Result<Option<bool>, MirError> {
        self.get(key).map(boolean).transpose()
    }
    fn string(&mut self, key: &str) -> Result<String, MirError> {
        self.get(key).map_or(Ok(String::new()), string)
    }
    fn num<T: TryFrom<i128>>(&mut self, key: &str) -> Result<Option<T>, MirError> {
        self.get(key).map(number).transpose()
    }
    fn align(&mut self, key: &str) -> Result<Option<u64>, MirError> {
        self.get(key).map(alignment).transpose()
    }
}

fn string(node: &Node<'_>) -> Result<String, MirError> {
    node.scalar().map(str::to_owned).ok_or_else(|| MirError::new("not a scalar", node.span.clone()))
}

fn boolean(node: &Node<'_>) -> Result<bool, MirError> {
    match node.scalar() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(MirError::new("invalid boolean", node.span.clone())),
    }
}

/// An integer as LLVM reads one: decimal, `0x`, `0b`, `0o` or leading-`0`
/// octal, with an optional `-`.
fn number<T: TryFrom<i128>>(node: &Node<'_>) -> Result<T, MirError> {
    let invalid = || MirError::new("invalid number", node.span.clone());
    let text = node.scalar().ok_or_else(invalid)?;
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (radix, digits) = if let Some(d) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        (16, d)
    } else if let Some(d) = digits.strip_prefix("0b").or_else(|| digits.strip_prefix("0B")) {
        (2, d)
    } else if let Some(d) = digits.strip_prefix("0o") {
        (8, d)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(invalid());
    }
    let value = u128::from_str_radix(digits, radix)
        .ok()
        .and_then(|v| i128::try_from(v).ok())
        .ok_or_else(|| MirError::new("out of range number", node.span.clone()))?;
    let value = if neg { -value } else { value };
    T::try_from(value).map_err(|_| MirError::new("out of range number", node.span.clone()))
}

fn alignment(node: &Node<'_>) -> Result<u64, MirError> {
    let n: u64 = number(node)?;
    if n != 0 && !n.is_power_of_two() {
        return Err(MirError::new("must be 0 or a power of two", node.span.clone()));
    }
    Ok(n)
}

fn seq<'a>(node: Option<&'a Node<'a>>) -> Result<&'a [Node<'a>], MirError> {
    match node.map(|n| (&n.kind, n)) {
        None | Some((NodeKind::Null, _)) => Ok(&[]),
        Some((NodeKind::Seq(items), _)) => Ok(items),
        Some((_, n)) => Err(MirError::new("not a sequence", n.span.clone())),
    }
}

fn strings(node: Option<&Node<'_>>) -> Result<Vec<String>, MirError> {
    seq(node)?.iter().map(string).collect()
}

fn debug_info(f: &mut Fields<'_>) -> Result<DebugInfo, MirError> {
    Ok(DebugInfo {
        variable: f.string("debug-info-variable")?,
        expression: f.string("debug-info-expression")?,
        location: f.string("debug-info-location")?,
    })
}

fn object_type(node: Option<&Node<'_>>, fixed: bool) -> Result<StackObjectType, MirError> {
    let Some(node) = node else {
        return Ok(StackObjectType::Default);
    };
    match node.scalar() {
        Some("default") => Ok(StackObjectType::Default),
        Some("spill-slot") => Ok(StackObjectType::SpillSlot),
        Some("variable-sized") if !fixed => Ok(StackObjectType::VariableSized),
        _ => Err(MirError::new("unknown enumerated scalar", node.span.clone())),
    }
}

fn stack_id(f: &mut Fields<'_>) -> Result<String, MirError> {
    let Some(node) = f.get("stack-id") else {
        return Ok("default".to_owned());
    };
    match node.scalar() {
        Some(
            s @ ("default" | "sgpr-spill" | "scalable-vector" | "scalable-predicate-vector" | "wasm-local" | "noalloc"),
        ) => Ok(s.to_owned()),
        _ => Err(MirError::new("unknown enumerated scalar", node.span.clone())),
    }
}

fn save_points(node: Option<&Node<'_>>) -> Result<Vec<SaveRestorePoint>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let point = string(f.required("point")?)?;
        let registers = strings(f.get("registers"))?;
        f.finish()?;
        out.push(SaveRestorePoint { point, registers });
    }
    Ok(out)
}

fn frame_info(node: Option<&Node<'_>>) -> Result<FrameInfo, MirError> {
    let Some(node) = node else {
        return Ok(FrameInfo::default());
    };
    let mut f = Fields::new(node)?;
    let info = FrameInfo {
        is_frame_address_taken: f.bool("isFrameAddressTaken")?,
        is_return_address_taken: f.bool("isReturnAddressTaken")?,
        has_stack_map: f.bool("hasStackMap")?,
        has_patch_point: f.bool("hasPatchPoint")?,
        stack_size: f.num("stackSize")?.unwrap_or(0),
        offset_adjustment: f.num("offsetAdjustment")?.unwrap_or(0),
        max_alignment: f.num("maxAlignment")?.unwrap_or(0),
        adjusts_stack: f.bool("adjustsStack")?,
        has_calls: f.bool("hasCalls")?,
        stack_protector: f.string("stackProtector")?,
        function_context: f.string("functionContext")?,
        max_call_frame_size: f.num("maxCallFrameSize")?,
        cv_bytes_of_callee_saved_registers: f.num("cvBytesOfCalleeSavedRegisters")?.unwrap_or(0),
        has_opaque_sp_adjustment: f.bool("hasOpaqueSPAdjustment")?,
        has_va_start: f.bool("hasVAStart")?,
        has_must_tail_in_var_arg_func: f.bool("hasMustTailInVarArgFunc")?,
        has_tail_call: f.bool("hasTailCall")?,
        is_callee_saved_info_valid: f.bool("isCalleeSavedInfoValid")?,
        local_frame_size: f.num("localFrameSize")?.unwrap_or(0),
        save_point: save_points(f.get("savePoint"))?,
        restore_point: save_points(f.get("restorePoint"))?,
    };
    f.finish()?;
    Ok(info)
}

/// The declarations of a `registers:` list.
pub(super) fn registers(node: Option<&Node<'_>>) -> Result<Vec<RegisterDecl>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let id = number(f.required("id")?)?;
        let class = string(f.required("class")?)?;
        let preferred_register = f.string("preferred-register")?;
        let flags = strings(f.get("flags"))?;
        f.finish()?;
        out.push(RegisterDecl { id, class, preferred_register, flags, span: item.span.clone() });
    }
    Ok(out)
}

fn liveins(node: Option<&Node<'_>>) -> Result<Vec<LiveIn>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let reg = string(f.required("reg")?)?;
        let virtual_reg = f.string("virtual-reg")?;
        f.finish()?;
        out.push(LiveIn { reg, virtual_reg, span: item.span.clone() });
    }
    Ok(out)
}

fn fixed_stack(node: Option<&Node<'_>>) -> Result<Vec<FixedStackObject>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let object = FixedStackObject {
            id: number(f.required("id")?)?,
            kind: object_type(f.get("type"), true)?,
            offset: f.num("offset")?.unwrap_or(0),
            size: f.num("size")?.unwrap_or(0),
            alignment: f.align("alignment")?,
            stack_id: stack_id(&mut f)?,
            is_immutable: f.bool("isImmutable")?,
            is_aliased: f.bool("isAliased")?,
            callee_saved_register: f.string("callee-saved-register")?,
            callee_saved_restored: f.opt_bool("callee-saved-restored")?.unwrap_or(true),
            debug: debug_info(&mut f)?,
            span: item.span.clone(),
        };
        f.finish()?;
        out.push(object);
    }
    Ok(out)
}

fn stack(node: Option<&Node<'_>>) -> Result<Vec<StackObject>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let id = number(f.required("id")?)?;
        let name = f.string("name")?;
        let kind = object_type(f.get("type"), false)?;
        let offset = f.num("offset")?.unwrap_or(0);
        let size = match kind {
            StackObjectType::VariableSized => f.num("size")?.unwrap_or(0),
            _ => number(f.required("size")?)?,
        };
        let object = StackObject {
            id,
            name,
            kind,
            offset,
            size,
            alignment: f.align("alignment")?,
            stack_id: stack_id(&mut f)?,
            callee_saved_register: f.string("callee-saved-register")?,
            callee_saved_restored: f.opt_bool("callee-saved-restored")?.unwrap_or(true),
            local_offset: f.num("local-offset")?,
            debug: debug_info(&mut f)?,
            span: item.span.clone(),
        };
        f.finish()?;
        out.push(object);
    }
    Ok(out)
}

fn entry_values(node: Option<&Node<'_>>) -> Result<Vec<EntryValue>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let register = string(f.required("entry-value-register")?)?;
        let debug = DebugInfo {
            variable: string(f.required("debug-info-variable")?)?,
            expression: string(f.required("debug-info-expression")?)?,
            location: string(f.required("debug-info-location")?)?,
        };
        f.finish()?;
        out.push(EntryValue { register, debug });
    }
    Ok(out)
}

fn call_sites(node: Option<&Node<'_>>) -> Result<Vec<CallSite>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let bb = number(f.required("bb")?)?;
        let offset = number(f.required("offset")?)?;
        let mut fwd_arg_regs = Vec::new();
        for pair in seq(f.get("fwdArgRegs"))? {
            let mut p = Fields::new(pair)?;
            let arg = number(p.required("arg")?)?;
            let reg = string(p.required("reg")?)?;
            p.finish()?;
            fwd_arg_regs.push((arg, reg));
        }
        f.finish()?;
        out.push(CallSite { bb, offset, fwd_arg_regs });
    }
    Ok(out)
}

fn substitutions(node: Option<&Node<'_>>) -> Result<Vec<DebugValueSubstitution>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let sub = DebugValueSubstitution {
            src_inst: number(f.required("srcinst")?)?,
            src_op: number(f.required("srcop")?)?,
            dst_inst: number(f.required("dstinst")?)?,
            dst_op: number(f.required("dstop")?)?,
            subreg: number(f.required("subreg")?)?,
        };
        f.finish()?;
        out.push(sub);
    }
    Ok(out)
}

fn constants(node: Option<&Node<'_>>) -> Result<Vec<Constant>, MirError> {
    let mut out = Vec::new();
    for item in seq(node)? {
        let mut f = Fields::new(item)?;
        let constant = Constant {
            id: number(f.required("id")?)?,
            value: f.string("value")?,
            alignment: f.align("alignment")?,
            is_target_specific: f.bool("isTargetSpecific")?,
        };
        f.finish()?;
        out.push(constant);
    }
    Ok(out)
}

fn machine_function_info(node: Option<&Node<'_>>) -> Result<Option<Vec<MfiEntry>>, MirError> {
    let Some(node) = node else { return Ok(None) };
    let f = Fields::new(node)?;
    let mut out = Vec::new();
    for (key, k, v) in f.entries {
        let value = v.scalar().ok_or_else(|| MirError::new("expected a scalar value", v.span.clone()))?;
        out.push(MfiEntry {
            key: key.to_owned(),
            value: value.to_owned(),
            key_span: k.span.clone(),
            value_span: v.span.clone(),
        });
    }
    Ok(Some(out))
}

fn jump_table(node: Option<&Node<'_>>) -> Result<Option<JumpTable>, MirError> {
    let Some(node) = node else { return Ok(None) };
    let mut f = Fields::new(node)?;
    let kind_node = f.required("kind")?;
    let kind = string(kind_node)?;
    if !matches!(
        kind.as_str(),
        "block-address"
            | "gp-rel64-block-address"
            | "gp-rel32-block-address"
            | "label-difference32"
            | "label-difference64"
            | "inline"
            | "custom32"
    ) {
        return Err(MirError::new("unknown enumerated scalar", kind_node.span.clone()));
    }
    let mut entries = Vec::new();
    for item in seq(f.get("entries"))? {
        let mut e = Fields::new(item)?;
        let id = number(e.required("id")?)?;
        let blocks = strings(e.get("blocks"))?;
        e.finish()?;
        entries.push((id, blocks));
    }
    f.finish()?;
    Ok(Some(JumpTable { kind, entries }))
}

/// The `body` key and value nodes of a machine-function document.
pub(crate) type BodyNodes<'a> = Option<(&'a Node<'a>, &'a Node<'a>)>;

/// Reads a machine-function document's top-level mapping: the header and
/// the `body` nodes, if any.
pub(crate) fn read_header<'a>(node: &'a Node<'a>) -> Result<(FunctionHeader, BodyNodes<'a>), MirError> {
    let mut f = Fields::new(node)?;
    let name_node = f.required("name")?;
    let mut h = FunctionHeader {
        name: string(name_node)?,
        name_span: name_node.span.clone(),
        alignment: f.align("alignment")?,
        exposes_returns_twice: f.bool("exposesReturnsTwice")?,
        legalized: f.bool("legalized")?,
        reg_bank_selected: f.bool("regBankSelected")?,
        selected: f.bool("selected")?,
        failed_isel: f.bool("failedISel")?,
        tracks_reg_liveness: f.bool("tracksRegLiveness")?,
        has_win_cfi: f.bool("hasWinCFI")?,
        no_phis: f.opt_bool("noPhis")?,
        is_ssa: f.opt_bool("isSSA")?,
        no_vregs: f.opt_bool("noVRegs")?,
        has_fake_uses: f.bool("hasFakeUses")?,
        calls_eh_return: f.bool("callsEHReturn")?,
        calls_unwind_init: f.bool("callsUnwindInit")?,
        has_eh_cont_target: f.bool("hasEHContTarget")?,
        has_eh_scopes: f.bool("hasEHScopes")?,
        has_eh_funclets: f.bool("hasEHFunclets")?,
        is_outlined: f.bool("isOutlined")?,
        debug_instr_ref: f.bool("debugInstrRef")?,
        fails_verification: f.bool("failsVerification")?,
        tracks_debug_user_values: f.bool("tracksDebugUserValues")?,
        ..FunctionHeader::default()
    };
    h.registers = registers(f.get("registers"))?;
    h.liveins = liveins(f.get("liveins"))?;
    h.callee_saved_registers = f.get("calleeSavedRegisters").map(|n| strings(Some(n))).transpose()?;
    h.frame_info = frame_info(f.get("frameInfo"))?;
    h.fixed_stack = fixed_stack(f.get("fixedStack"))?;
    h.stack = stack(f.get("stack"))?;
    h.entry_values = entry_values(f.get("entry_values"))?;
    h.call_sites = call_sites(f.get("callSites"))?;
    h.debug_value_substitutions = substitutions(f.get("debugValueSubstitutions"))?;
    h.constants = constants(f.get("constants"))?;
    h.machine_function_info = machine_function_info(f.get("machineFunctionInfo"))?;
    h.jump_table = jump_table(f.get("jumpTable"))?;
    h.machine_metadata_nodes = strings(f.get("machineMetadataNodes"))?;
    let body = f.get_entry("body");
    f.finish()?;
    Ok((h, body))
}
