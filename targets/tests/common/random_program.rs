//! Random integer GMIR (values from s1 to s128) for RISC-V rv64 with M, and
//! the property every such function must have: legalized by the rules
//! written with `legalizer!`, it ends fully legal and means the same as
//! before on random inputs (checked by the interpreter).
//!
//! A program is a list of [`Step`]s over the values built so far; the
//! property test generates steps with proptest, the fuzz target and the
//! byte-driven test decode them from bytes ([`decode`]).

use gisel_core::interp::{Abi, CheckError, Program, check_equivalent, random_inputs};
use gisel_core::legality::LegalizeAction;
use gisel_core::legalize::{LegalizeOptions, describe, legalize};
use gisel_core::mir::read_mir;
use gisel_targets::{TargetOptions, target_for};
use std::cmp::Ordering;

/// The widths a value may take.
pub const WIDTHS: [u32; 9] = [1, 8, 16, 24, 32, 48, 64, 65, 128];
/// The two-operand opcodes a step may apply.
pub const BINARY: [&str; 6] = ["G_ADD", "G_SUB", "G_AND", "G_OR", "G_XOR", "G_MUL"];
/// The shift opcodes a step may apply.
pub const SHIFTS: [&str; 3] = ["G_SHL", "G_LSHR", "G_ASHR"];

/// One operation over the values built so far; operands are picked by
/// index modulo the number of values.
#[derive(Clone, Debug)]
pub enum Step {
    /// Truncate, sign- or zero-extend a value to `WIDTHS[width]`.
    Resize { value: usize, width: usize, signed: bool },
    /// `BINARY[op]` of a value and (when `rhs` is even) the latest value of
    /// the same width, else the value itself.
    Binary { op: usize, lhs: usize, rhs: usize },
    /// `SHIFTS[op]` of a value by a constant (`amount` modulo the width).
    Shift { op: usize, value: usize, amount: u32 },
    /// A signed or unsigned `<` between two values feeding a `G_SELECT`.
    Compare { lhs: usize, rhs: usize, unsigned: bool },
}

/// The most steps [`decode`] makes, so fuzzed programs stay small.
pub const MAX_STEPS: usize = 16;

/// Decodes steps from bytes, three bytes a step (kind, then two operand
/// bytes), at most [`MAX_STEPS`]; a trailing partial step is dropped.
/// Every byte string decodes.
pub fn decode(data: &[u8]) -> Vec<Step> {
    data.chunks_exact(3)
        .take(MAX_STEPS)
        .map(|c| {
            let (a, b) = (usize::from(c[1]), usize::from(c[2]));
            match c[0] % 4 {
                0 => Step::Resize { value: a, width: b % WIDTHS.len(), signed: c[0] & 4 != 0 },
                1 => Step::Binary { op: a % BINARY.len(), lhs: b, rhs: usize::from(c[0] >> 2) },
                2 => Step::Shift { op: usize::from(c[0] >> 2) % SHIFTS.len(), value: a, amount: u32::from(c[2]) },
                _ => Step::Compare { lhs: a, rhs: b, unsigned: c[0] & 4 != 0 },
            }
        })
        .collect()
}

/// The program as `.mir` text: two s64 arguments, the steps, the last value
/// returned in `$x10`.
pub fn program(steps: &[Step]) -> String {
    let mut lines = vec!["%0:_(s64) = COPY $x10".to_owned(), "%1:_(s64) = COPY $x11".to_owned()];
    let mut values: Vec<(usize, u32)> = vec![(0, 64), (1, 64)];
    let mut next = 2usize;
    let mut fresh = |lines: &mut Vec<String>, text: String| {
        lines.push(text.replace("%N", &format!("%{next}")));
        next += 1;
        next - 1
    };
    for s in steps {
        let pick = |i: usize| values[i % values.len()];
        match *s {
            Step::Resize { value, width, signed } => {
                let (v, from) = pick(value);
                let to = WIDTHS[width % WIDTHS.len()];
                let op = match to.cmp(&from) {
                    Ordering::Less => "G_TRUNC",
                    Ordering::Greater if signed => "G_SEXT",
                    Ordering::Greater => "G_ZEXT",
                    Ordering::Equal => continue,
                };
                let r = fresh(&mut lines, format!("%N:_(s{to}) = {op} %{v}(s{from})"));
                values.push((r, to));
            }
            Step::Binary { op, lhs, rhs } => {
                let (a, w) = pick(lhs);
                let same_width = values.iter().rev().find(|(_, bw)| *bw == w).map_or(a, |(b, _)| *b);
                let b = if rhs % 2 == 0 { same_width } else { a };
                let r = fresh(&mut lines, format!("%N:_(s{w}) = {} %{a}, %{b}", BINARY[op % BINARY.len()]));
                values.push((r, w));
            }
            Step::Shift { op, value, amount } => {
                let (v, w) = pick(value);
                let amount = amount % w;
                let k = fresh(&mut lines, format!("%N:_(s{w}) = G_CONSTANT i{w} {amount}"));
                let name = SHIFTS[op % SHIFTS.len()];
                let r = fresh(&mut lines, format!("%N:_(s{w}) = {name} %{v}, %{k}(s{w})"));
                values.push((r, w));
            }
            Step::Compare { lhs, rhs, unsigned } => {
                let (a, w) = pick(lhs);
                let b = values.iter().rev().find(|(_, bw)| *bw == w).map_or(a, |(b, _)| *b);
                let b = if rhs % 2 == 0 { b } else { a };
                let pred = if unsigned { "ult" } else { "slt" };
                let c = fresh(&mut lines, format!("%N:_(s1) = G_ICMP intpred({pred}), %{a}(s{w}), %{b}"));
                let r = fresh(&mut lines, format!("%N:_(s{w}) = G_SELECT %{c}(s1), %{a}, %{b}"));
                values.push((r, w));
            }
        }
    }
    let (last, w) = values[values.len() - 1];
    let out = match w.cmp(&64) {
        Ordering::Less => fresh(&mut lines, format!("%N:_(s64) = G_ANYEXT %{last}(s{w})")),
        Ordering::Greater => fresh(&mut lines, format!("%N:_(s64) = G_TRUNC %{last}(s{w})")),
        Ordering::Equal => last,
    };
    lines.push(format!("$x10 = COPY %{out}(s64)"));
    lines.push("PseudoRET implicit $x10".to_owned());
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    format!("---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $x10, $x11\n\n{body}...\n")
}

/// Checks the property on the program of `steps`: it reads, legalizes,
/// every instruction left is legal (or custom, as LLVM's own check after
/// the pass allows) and the interpreter finds it equivalent to its input.
/// The error names what failed and shows the program.
pub fn check(steps: &[Step]) -> Result<(), String> {
    let source = program(steps);
    let module = read_mir(&source, "p.mir", Some("riscv64"), "+m").map_err(|e| e.render("p.mir", &source))?;
    let target = target_for("riscv64", &TargetOptions { features: "+m".into(), ..TargetOptions::default() })?;
    let before = module.functions[0].clone();
    let mut after = before.clone();
    legalize(&mut after.func, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
        .map_err(|e| format!("{e}\n{source}"))?;
    for inst in after.func.all_insts() {
        if let Some(parts) = describe(&after.func, after.func.inst(inst)) {
            let step = target.info.action(&parts.query());
            if !matches!(step.action, LegalizeAction::Legal | LegalizeAction::Custom) {
                return Err(format!("{:?} {:?} left as {step} in\n{source}", parts.opcode, parts.types));
            }
        }
    }
    let abi = Abi::riscv64();
    let (old, new) = (Program::new(&before.func), Program::new(&after.func));
    let inputs = random_inputs(&old, &abi, 24, 7);
    match check_equivalent(&old, &new, &abi, &inputs) {
        Ok(_) => Ok(()),
        Err(CheckError::Mismatch(m)) => Err(format!("{m}\n{source}")),
        Err(other) => Err(format!("not checked: {other}\n{source}")),
    }
}
