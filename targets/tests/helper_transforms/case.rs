//! One case: an instruction written as a template, the function around it
//! (arguments from RV64 registers, results returned in them), the rules
//! that make the helper apply one action to it, and the check.

use gisel_core::interp::{
    Abi, CheckError, Checked, Inputs, InterpError, Program, Value, check_equivalent, random_inputs,
};
use gisel_core::ir::{Function, Inst};
use gisel_core::legality::mutations::change_to;
use gisel_core::legality::predicates::{all, mem_size_not_byte_size_pow2, type_is};
use gisel_core::legality::{LegalizeAction, LegalizerInfo};
use gisel_core::legalize::{DefaultTarget, Helper, LegalizeOptions, LegalizeTarget, StepResult, describe, legalize};
use gisel_core::mir::{parse_body, print_body};
use gisel_core::opcode::Opcode;

/// Inputs compared (with a defined result) for a case to count as checked.
pub const MIN_COMPARED: usize = 16;

/// Inputs run at a time: a case runs batches until [`MIN_COMPARED`]
/// inputs were compared with a defined result, or [`MAX_INPUTS`] ran.
const BATCH: usize = 24;

/// The most inputs a case runs (division cases skip the inputs dividing by
/// zero, shift cases are vacuous on oversized amounts).
const MAX_INPUTS: usize = 96;

/// What a case must show.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    /// The helper applies the action, the output is legal, and the
    /// interpreter finds it equivalent on inputs.
    Checked,
    /// The helper applies the action and the output is legal, but the
    /// interpreter does not model what the output (or input) uses, or the
    /// function defines nothing to compare; the reason says what.
    Unchecked(&'static str),
    /// The helper refuses the action (`StepResult::Unable`).
    Unable,
}

/// One instruction under one action. The instruction is `OP` applied to
/// `operands` (a template naming the arguments `%0`, `%1`, ...), defining
/// one vreg per entry of `defs`. Argument and def types are written
/// `sN`, `pN`, `<N x sM>`, or with `f` for `s` (`f32`, `<2 x f32>`) to take
/// the argument from a floating-point register.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// The opcodes this case is run for (same operands for each).
    pub opcodes: &'static [Opcode],
    /// The type index the action changes.
    pub idx: u8,
    /// The type the action goes to (ignored by lower and libcall).
    pub to: &'static str,
    /// Def types.
    pub defs: &'static [&'static str],
    /// Argument types.
    pub args: &'static [&'static str],
    /// The operand list after the opcode.
    pub operands: &'static str,
    /// Lines placed before the instruction (constants it uses).
    pub pre: &'static str,
    /// The memory operand, if any (`:: (load (s32))`).
    pub mem: &'static str,
    /// Lines placed after the instruction; when given, they define the
    /// results `%r0`, ... (the instruction itself defines nothing).
    pub post: &'static str,
    /// Inputs with a NaN in a floating-point register are left out (for
    /// transforms that, as in LLVM, do not keep NaN payloads).
    pub non_nan: bool,
    /// Library calls are emitted by AArch64 Darwin's hooks (outline
    /// atomics, `bzero`) rather than RV64's, in a function taking and
    /// returning values in AArch64's registers.
    pub darwin: bool,
    /// Legalized with RV64's hooks (its stack pointer) rather than LLVM's
    /// defaults, for actions other than libcalls.
    pub riscv64: bool,
    /// The register name metadata node `!0` holds, if any.
    pub register_name: Option<&'static str>,
    /// Legalized for a big-endian data layout and run in big-endian
    /// memory.
    pub big_endian: bool,
    /// The expected outcome.
    pub expect: Expect,
}

impl Case {
    /// A case expected to be legalized and checked.
    pub const fn new(
        opcodes: &'static [Opcode],
        idx: u8,
        to: &'static str,
        defs: &'static [&'static str],
        args: &'static [&'static str],
        operands: &'static str,
    ) -> Case {
        Case {
            opcodes,
            idx,
            to,
            defs,
            args,
            operands,
            pre: "",
            mem: "",
            post: "",
            non_nan: false,
            darwin: false,
            riscv64: false,
            register_name: None,
            big_endian: false,
            expect: Expect::Checked,
        }
    }

    /// With `lines` before the instruction.
    pub const fn pre(self, lines: &'static str) -> Case {
        Case { pre: lines, ..self }
    }

    /// With `lines` after the instruction, defining the results.
    pub const fn post(self, lines: &'static str) -> Case {
        Case { post: lines, ..self }
    }

    /// Checked on inputs without NaNs in floating-point registers.
    pub const fn non_nan(self) -> Case {
        Case { non_nan: true, ..self }
    }

    /// With library calls emitted for AArch64 Darwin, in an AArch64
    /// function.
    pub const fn on_darwin(self) -> Case {
        Case { darwin: true, ..self }
    }

    /// Legalized with RV64's hooks, which name a stack pointer.
    pub const fn on_riscv64(self) -> Case {
        Case { riscv64: true, ..self }
    }

    /// With `!0 = !{!"name"}` in the module, naming a register.
    pub const fn naming_register(self, name: &'static str) -> Case {
        Case { register_name: Some(name), ..self }
    }

    /// Legalized for a big-endian data layout and checked in big-endian
    /// memory.
    pub const fn big_endian(self) -> Case {
        Case { big_endian: true, ..self }
    }

    /// With a memory operand.
    pub const fn mem(self, mem: &'static str) -> Case {
        Case { mem, ..self }
    }

    /// Expected to be refused by the helper.
    pub const fn unable(self) -> Case {
        Case { expect: Expect::Unable, ..self }
    }

    /// Expected to legalize, with an output the interpreter cannot run.
    pub const fn unchecked(self, why: &'static str) -> Case {
        Case { expect: Expect::Unchecked(why), ..self }
    }

    /// The case's types, for messages.
    pub fn describe(&self) -> String {
        let order = if self.big_endian { " (big-endian)" } else { "" };
        format!("{:?} = ({}) at idx {} -> {}{order}", self.defs, self.args.join(", "), self.idx, self.to)
    }

    /// Runs the case for `op` under `action`: `Err` says how it failed.
    pub fn run(&self, action: LegalizeAction, op: Opcode) -> Result<(), String> {
        let text = self.body(op);
        let mut before =
            parse_body("f", &text, &[], &pointer_bits).map_err(|e| format!("does not parse: {e:?}\n{text}"))?;
        if let Some(name) = self.register_name {
            let mut module = gisel_core::llvm_ir::IrModule::default();
            module.add_string_metadata("!0", name);
            before.module = module.into();
        }
        let inst = self.instruction(&before);
        let info = self.rules(&before, inst, action, op)?;
        let callee_target;
        let target: &dyn LegalizeTarget = if action == LegalizeAction::Libcall || self.riscv64 {
            callee_target = if self.darwin {
                gisel_targets::aarch64::target("arm64-apple-darwin", &Default::default())
            } else {
                gisel_targets::riscv::target("riscv64", &Default::default()).expect("riscv64")
            };
            callee_target.hooks.as_ref()
        } else if self.big_endian {
            &BigEndian
        } else {
            &DefaultTarget
        };
        let mut after = before.clone();
        if let Expect::Unable = self.expect {
            let query = describe(&after, after.inst(inst));
            let mut helper = Helper::new(&mut after, &info, target);
            return match helper.legalize_step(inst, query.as_ref()) {
                StepResult::Unable(_) => Ok(()),
                other => Err(format!("expected the helper to refuse, got {other:?}")),
            };
        }
        legalize(&mut after, &info, target, LegalizeOptions::default()).map_err(|e| format!("{e}\n{text}"))?;
        let shown = || {
            let mut out = String::new();
            print_body(&after, &mut out);
            format!("\nbefore:\n{text}\nafter:\n{out}")
        };
        for i in after.all_insts() {
            if let Some(parts) = describe(&after, after.inst(i)) {
                let step = info.action(&parts.query());
                if step.action != LegalizeAction::Legal {
                    return Err(format!("{} {:?} left as {step}{}", parts.opcode, parts.types, shown()));
                }
            }
        }
        let mut abi = if self.darwin { Abi::aarch64() } else { Abi::riscv64() };
        abi.big_endian = self.big_endian;
        let mut inputs = random_inputs(&Program::new(&before), &abi, MAX_INPUTS, 11);
        if self.non_nan {
            inputs.retain(|input| !input.regs.iter().any(|(name, value)| is_nan(name, value)));
        }
        let result = self.check(&before, &after, &abi, &inputs);
        match (self.expect, result) {
            (Expect::Checked, Ok(c)) if c.compared - c.vacuous >= MIN_COMPARED => Ok(()),
            (Expect::Checked, Ok(c)) => Err(format!("only {c:?} inputs compared{}", shown())),
            (_, Err(CheckError::Mismatch(m))) => Err(format!("meaning changed: {m}{}", shown())),
            (Expect::Checked, Err(e)) => Err(format!("not checked: {e}{}", shown())),
            (Expect::Unchecked(_), Err(CheckError::Interp { error: InterpError::Unsupported(_), .. })) => Ok(()),
            (Expect::Unchecked(_), Ok(c)) if c.compared - c.vacuous < MIN_COMPARED => Ok(()),
            (Expect::Unchecked(_), other) => Err(format!("marked unchecked, but the check gave {other:?}{}", shown())),
            (Expect::Unable, _) => unreachable!("handled above"),
        }
    }

    /// Compares `before` and `after` on batches of `inputs` until enough
    /// inputs had a defined result, adding up the counts.
    fn check(&self, before: &Function, after: &Function, abi: &Abi, inputs: &[Inputs]) -> Result<Checked, CheckError> {
        let (before, after) = (Program::new(before), Program::new(after));
        let mut total = Checked::default();
        for batch in inputs.chunks(BATCH) {
            let c = check_equivalent(&before, &after, abi, batch)?;
            total.compared += c.compared;
            total.skipped += c.skipped;
            total.vacuous += c.vacuous;
            if total.compared - total.vacuous >= MIN_COMPARED {
                break;
            }
        }
        Ok(total)
    }

    /// The function: argument materialization, the instruction, results.
    fn body(&self, op: Opcode) -> String {
        let mut regs = Registers::new(self.darwin);
        let mut lines = vec!["bb.0:".to_owned()];
        for (i, ty) in self.args.iter().enumerate() {
            regs.argument(&mut lines, &format!("%{i}"), ty);
        }
        lines.extend(self.pre.lines().map(str::to_owned));
        let defs: Vec<String> =
            self.defs.iter().enumerate().map(|(i, ty)| format!("%r{i}:_({})", int_type(ty))).collect();
        let mem = if self.mem.is_empty() { String::new() } else { format!(" :: {}", self.mem) };
        let sep = if self.operands.is_empty() { "" } else { " " };
        let assign =
            if defs.is_empty() || !self.post.is_empty() { String::new() } else { format!("{} = ", defs.join(", ")) };
        lines.push(format!("{assign}{op}{sep}{}{mem}", self.operands));
        lines.extend(self.post.lines().map(str::to_owned));
        let mut returned = Vec::new();
        for (i, ty) in self.defs.iter().enumerate() {
            regs.result(&mut lines, &mut returned, &format!("%r{i}"), ty);
        }
        let implicit: Vec<String> = returned.iter().map(|r| format!("implicit {r}")).collect();
        lines.push(format!("{} {}", regs.return_opcode(), implicit.join(", ")).trim_end().to_owned());
        lines.join("\n") + "\n"
    }

    /// The instruction under test: the one after the argument and `pre`
    /// lines.
    fn instruction(&self, func: &Function) -> Inst {
        let index = self.body_index();
        func.blocks().iter().flat_map(|b| func.block_insts(*b)).nth(index).expect("the instruction under test")
    }

    /// How many instructions precede the one under test.
    fn body_index(&self) -> usize {
        let mut regs = Registers::new(self.darwin);
        let mut lines = Vec::new();
        for (i, ty) in self.args.iter().enumerate() {
            regs.argument(&mut lines, &format!("%{i}"), ty);
        }
        let is_inst = |l: &&str| !(l.trim().is_empty() || l.starts_with("bb.") || l.trim().starts_with("successors"));
        lines.len() + self.pre.lines().filter(is_inst).count()
    }

    /// Rules under which `op` takes `action` at exactly the instruction's
    /// types and everything else is legal.
    fn rules(&self, func: &Function, inst: Inst, action: LegalizeAction, op: Opcode) -> Result<LegalizerInfo, String> {
        let parts = describe(func, func.inst(inst)).ok_or("not a generic instruction")?;
        if parts.opcode != op {
            return Err(format!("the instruction under test is a {}", parts.opcode));
        }
        let mut here = all(parts.types.iter().enumerate().map(|(i, t)| type_is(i as u8, *t)));
        let plain_access = matches!(op, Opcode::G_LOAD | Opcode::G_SEXTLOAD | Opcode::G_ZEXTLOAD | Opcode::G_STORE);
        if action == LegalizeAction::Lower && plain_access {
            // Lowered accesses keep their register types: only the memory
            // size tells the pieces from the original.
            here = all([here, mem_size_not_byte_size_pow2(0)]);
        }
        let mut info = LegalizerInfo::new().with_pointer_bits(64);
        let others: Vec<Opcode> = Opcode::all().filter(|o| o.is_legalizable() && *o != op).collect();
        info.rules_for(&others).always_legal();
        let to = || self.to.parse().map(|t| change_to(self.idx, t)).map_err(|e| format!("{}: {e:?}", self.to));
        let typed = !parts.types.is_empty();
        let set = info.rules_for(&[op]);
        let set = match action {
            LegalizeAction::WidenScalar => set.widen_scalar_if(here, to()?),
            LegalizeAction::NarrowScalar => set.narrow_scalar_if(here, to()?),
            LegalizeAction::FewerElements => set.fewer_elements_if(here, to()?),
            LegalizeAction::MoreElements => set.more_elements_if(here, to()?),
            LegalizeAction::Bitcast => set.bitcast_if(here, to()?),
            LegalizeAction::Lower => set.lower_if(here),
            LegalizeAction::Libcall => set.libcall_if(here),
            other => return Err(format!("no table for {other}")),
        };
        if typed {
            set.always_legal();
        }
        info.validate().map_err(|e| format!("{e:?}"))?;
        Ok(info)
    }
}

/// LLVM's defaults on a big-endian data layout.
struct BigEndian;

impl LegalizeTarget for BigEndian {
    fn is_big_endian(&self) -> bool {
        true
    }
}

/// Pointer widths: address space 1 has 32-bit pointers, the others 64.
fn pointer_bits(address_space: u32) -> u32 {
    if address_space == 1 { 32 } else { 64 }
}

/// Whether `value`, in the floating-point register `name` (`f10_f`), is
/// a NaN.
fn is_nan(name: &str, value: &Value) -> bool {
    let (exponent, mantissa) = match name.rsplit_once('_') {
        Some((_, "h")) => (5, 10),
        Some((_, "f")) => (8, 23),
        Some((_, "d")) => (11, 52),
        _ => return false,
    };
    let bits = value.bits().low_u64();
    let all_ones = (1u64 << exponent) - 1;
    (bits >> mantissa) & all_ones == all_ones && bits & ((1u64 << mantissa) - 1) != 0
}

/// `f32` → `s32`, `<2 x f16>` → `<2 x s16>`.
fn int_type(ty: &str) -> String {
    ty.replace('f', "s")
}

/// Hands out RV64 registers for arguments and results.
#[derive(Default)]
struct Registers {
    /// AArch64's registers and return (for Darwin cases), else RV64's.
    aarch64: bool,
    int: usize,
    float: usize,
    temps: usize,
}

/// The integer registers used, in order (not `x0`-`x2`, which the ABI
/// treats specially).
const INT_REGS: [u32; 26] =
    [10, 11, 12, 13, 14, 15, 16, 17, 5, 6, 7, 28, 29, 30, 31, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 9];

/// AArch64's integer registers used, in order (not `x8`, the indirect
/// result register, nor the intra-call scratch `x16`-`x18`).
const AARCH64_INT_REGS: [u32; 25] =
    [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28];

impl Registers {
    /// Registers of AArch64 when `aarch64`, else of RV64.
    fn new(aarch64: bool) -> Registers {
        Registers { aarch64, ..Registers::default() }
    }

    /// The return instruction.
    fn return_opcode(&self) -> &'static str {
        if self.aarch64 { "RET_ReallyLR" } else { "PseudoRET" }
    }

    fn temp(&mut self) -> String {
        self.temps += 1;
        format!("%t{}", self.temps)
    }

    fn next_int(&mut self) -> String {
        let r = if self.aarch64 { AARCH64_INT_REGS[self.int] } else { INT_REGS[self.int] };
        self.int += 1;
        format!("$x{r}")
    }

    /// Defines `name` of type `ty` from fresh registers.
    fn argument(&mut self, lines: &mut Vec<String>, name: &str, ty: &str) {
        if let Some(inner) = ty.strip_prefix('<') {
            let (count, elt) = inner.trim_end_matches('>').split_once(" x ").expect("<N x T>");
            let count: usize = count.parse().expect("element count");
            let elts: Vec<String> = (0..count)
                .map(|_| {
                    let t = self.temp();
                    self.argument(lines, &t, elt);
                    t
                })
                .collect();
            lines.push(format!("{name}:_({}) = G_BUILD_VECTOR {}", int_type(ty), elts.join(", ")));
            return;
        }
        if ty == "p1" {
            let (wide, narrow) = (self.temp(), self.temp());
            lines.push(format!("{wide}:_(s64) = COPY {}", self.next_int()));
            lines.push(format!("{narrow}:_(s32) = G_TRUNC {wide}"));
            lines.push(format!("{name}:_(p1) = G_INTTOPTR {narrow}"));
            return;
        }
        if ty.starts_with('p') {
            lines.push(format!("{name}:_({ty}) = COPY {}", self.next_int()));
            return;
        }
        let float = ty.starts_with('f');
        let bits: u32 = ty[1..].parse().expect("scalar width");
        if float && matches!(bits, 16 | 32 | 64) {
            let suffix = match bits {
                16 => "h",
                32 => "f",
                _ => "d",
            };
            let register = if self.aarch64 {
                let class = match bits {
                    16 => "h",
                    32 => "s",
                    _ => "d",
                };
                format!("${class}{}", self.float)
            } else {
                format!("$f{}_{suffix}", 10 + self.float)
            };
            lines.push(format!("{name}:_(s{bits}) = COPY {register}"));
            self.float += 1;
            return;
        }
        if bits == 64 {
            lines.push(format!("{name}:_(s64) = COPY {}", self.next_int()));
            return;
        }
        let words = bits.div_ceil(64);
        let parts: Vec<String> = (0..words)
            .map(|_| {
                let t = self.temp();
                lines.push(format!("{t}:_(s64) = COPY {}", self.next_int()));
                t
            })
            .collect();
        let whole = if words == 1 {
            parts[0].clone()
        } else {
            let t = self.temp();
            lines.push(format!("{t}:_(s{}) = G_MERGE_VALUES {}", words * 64, parts.join(", ")));
            t
        };
        if bits == words * 64 {
            lines.push(format!("{name}:_(s{bits}) = COPY {whole}"));
        } else {
            lines.push(format!("{name}:_(s{bits}) = G_TRUNC {whole}"));
        }
    }

    /// Returns `name` of type `ty` in fresh registers, pushing them to
    /// `returned`.
    fn result(&mut self, lines: &mut Vec<String>, returned: &mut Vec<String>, name: &str, ty: &str) {
        let ty = int_type(ty);
        if let Some(inner) = ty.strip_prefix('<') {
            let (count, elt) = inner.trim_end_matches('>').split_once(" x ").expect("<N x T>");
            let count: usize = count.parse().expect("element count");
            let elts: Vec<String> = (0..count).map(|_| self.temp()).collect();
            let defs: Vec<String> = elts.iter().map(|e| format!("{e}:_({elt})")).collect();
            lines.push(format!("{} = G_UNMERGE_VALUES {name}", defs.join(", ")));
            for e in elts {
                self.result(lines, returned, &e, elt);
            }
            return;
        }
        if ty == "p1" {
            let (narrow, wide) = (self.temp(), self.temp());
            lines.push(format!("{narrow}:_(s32) = G_PTRTOINT {name}"));
            lines.push(format!("{wide}:_(s64) = G_ZEXT {narrow}"));
            let r = self.next_int();
            lines.push(format!("{r} = COPY {wide}"));
            returned.push(r);
            return;
        }
        if ty.starts_with('p') {
            let r = self.next_int();
            lines.push(format!("{r} = COPY {name}"));
            returned.push(r);
            return;
        }
        let bits: u32 = ty[1..].parse().expect("scalar width");
        let words = bits.div_ceil(64);
        let wide = if bits == words * 64 {
            name.to_owned()
        } else {
            let t = self.temp();
            lines.push(format!("{t}:_(s{}) = G_ZEXT {name}", words * 64));
            t
        };
        let parts: Vec<String> = if words == 1 {
            vec![wide]
        } else {
            let parts: Vec<String> = (0..words).map(|_| self.temp()).collect();
            let defs: Vec<String> = parts.iter().map(|p| format!("{p}:_(s64)")).collect();
            lines.push(format!("{} = G_UNMERGE_VALUES {wide}", defs.join(", ")));
            parts
        };
        for p in parts {
            let r = self.next_int();
            lines.push(format!("{r} = COPY {p}"));
            returned.push(r);
        }
    }
}
