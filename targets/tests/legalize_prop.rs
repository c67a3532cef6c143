//! Property: random integer GMIR (any widths from s1 to s128), legalized for
//! RISC-V rv64 with M (rules written with `legalizer!`), ends fully legal and
//! means the same as before on random inputs (checked by the interpreter).

use gisel_core::interp::{Abi, CheckError, Program, check_equivalent, random_inputs};
use gisel_core::legality::LegalizeAction;
use gisel_core::legalize::{LegalizeOptions, describe, legalize};
use gisel_core::mir::read_mir;
use gisel_targets::{TargetOptions, target_for};
use proptest::prelude::*;

const WIDTHS: [u32; 9] = [1, 8, 16, 24, 32, 48, 64, 65, 128];
const BINARY: [&str; 6] = ["G_ADD", "G_SUB", "G_AND", "G_OR", "G_XOR", "G_MUL"];

/// One operation over the values built so far (picked by index).
#[derive(Clone, Debug)]
enum Step {
    Resize { value: usize, width: usize, signed: bool },
    Binary { op: usize, lhs: usize, rhs: usize },
    Shift { op: usize, value: usize, amount: u32 },
    Compare { lhs: usize, rhs: usize, unsigned: bool },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (any::<usize>(), 0..WIDTHS.len(), any::<bool>()).prop_map(|(value, width, signed)| Step::Resize {
            value,
            width,
            signed
        }),
        (0..BINARY.len(), any::<usize>(), any::<usize>()).prop_map(|(op, lhs, rhs)| Step::Binary { op, lhs, rhs }),
        (0..3usize, any::<usize>(), 0u32..130).prop_map(|(op, value, amount)| Step::Shift { op, value, amount }),
        (any::<usize>(), any::<usize>(), any::<bool>()).prop_map(|(lhs, rhs, unsigned)| Step::Compare {
            lhs,
            rhs,
            unsigned
        }),
    ]
}

/// The program as `.mir` text: two s64 arguments, the steps, the last value
/// returned in $x10.
fn program(steps: &[Step]) -> String {
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
                let to = WIDTHS[width];
                let op = match to.cmp(&from) {
                    std::cmp::Ordering::Less => "G_TRUNC",
                    std::cmp::Ordering::Greater if signed => "G_SEXT",
                    std::cmp::Ordering::Greater => "G_ZEXT",
                    std::cmp::Ordering::Equal => continue,
                };
                let r = fresh(&mut lines, format!("%N:_(s{to}) = {op} %{v}(s{from})"));
                values.push((r, to));
            }
            Step::Binary { op, lhs, rhs } => {
                let (a, w) = pick(lhs);
                let Some(&(b, _)) =
                    values.iter().rev().find(|(_, bw)| *bw == w).filter(|_| rhs % 2 == 0).or(Some(&(a, w)))
                else {
                    continue;
                };
                let r = fresh(&mut lines, format!("%N:_(s{w}) = {} %{a}, %{b}", BINARY[op]));
                values.push((r, w));
            }
            Step::Shift { op, value, amount } => {
                let (v, w) = pick(value);
                let amount = amount % w;
                let k = fresh(&mut lines, format!("%N:_(s{w}) = G_CONSTANT i{w} {amount}"));
                let name = ["G_SHL", "G_LSHR", "G_ASHR"][op];
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
    let (last, w) = *values.last().expect("a value");
    let out = match w.cmp(&64) {
        std::cmp::Ordering::Less => fresh(&mut lines, format!("%N:_(s64) = G_ANYEXT %{last}(s{w})")),
        std::cmp::Ordering::Greater => fresh(&mut lines, format!("%N:_(s64) = G_TRUNC %{last}(s{w})")),
        std::cmp::Ordering::Equal => last,
    };
    lines.push(format!("$x10 = COPY %{out}(s64)"));
    lines.push("PseudoRET implicit $x10".to_owned());
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    format!("---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $x10, $x11\n\n{body}...\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn legalized_programs_are_legal_and_mean_the_same(steps in prop::collection::vec(step(), 1..12)) {
        let source = program(&steps);
        let module = read_mir(&source, "p.mir", Some("riscv64"), "+m").map_err(|e| TestCaseError::fail(e.render("p.mir", &source)))?;
        let target = target_for("riscv64", &TargetOptions { features: "+m".into(), ..TargetOptions::default() })
            .map_err(TestCaseError::fail)?;
        let before = module.functions[0].clone();
        let mut after = before.clone();
        legalize(&mut after.func, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{source}")))?;
        for inst in after.func.all_insts() {
            if let Some(parts) = describe(&after.func, after.func.inst(inst)) {
                // Legal or custom, as LLVM's own check after the pass
                // (a custom hook may keep an instruction as it is).
                let step = target.info.action(&parts.query());
                prop_assert!(
                    matches!(step.action, LegalizeAction::Legal | LegalizeAction::Custom),
                    "{:?} {:?} left as {} in\n{}", parts.opcode, parts.types, step, source
                );
            }
        }
        let abi = Abi::riscv64();
        let inputs = random_inputs(&before.func, &abi, 24, 7);
        match check_equivalent(&Program::new(&before.func), &Program::new(&after.func), &abi, &inputs) {
            Ok(_) => {}
            Err(CheckError::Mismatch(m)) => return Err(TestCaseError::fail(format!("{m}\n{source}"))),
            Err(other) => return Err(TestCaseError::fail(format!("not checked: {other}\n{source}"))),
        }
    }
}
