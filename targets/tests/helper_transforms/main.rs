//! The legalizer helper's transforms, one table per action, each case
//! checked by the interpreter, and an inventory of the opcodes LLVM 22's
//! `LegalizerHelper` handles for each action (§3 of the reference) against
//! the cases here.
//!
//! A case is one instruction at types that make the rules choose the action
//! under test (only at exactly those types: every other opcode, and the
//! opcode at any other type, is legal). Its arguments come from RV64
//! registers and its results go back to them, so the interpreter compares
//! the function before and after legalization on random inputs. A case
//! passes when the output is fully legal and the interpreter compared at
//! least [`case::MIN_COMPARED`] inputs with a defined result and found no
//! mismatch (library calls are emitted with RV64's calling convention, by
//! the RISC-V target's hooks). Cases whose opcode the helper does not
//! handle are marked `unable` and must really be refused; cases the
//! interpreter cannot run are marked `unchecked` and must really be
//! unsupported by it, so neither list goes stale.

mod case;

mod bitcast;
mod fewer;
mod libcall;
mod lower;
mod more;
mod narrow;
mod widen;

use case::{Case, Expect};
use gisel_core::legality::LegalizeAction;
use gisel_core::opcode::Opcode;

/// One action's table: its cases and the opcodes §3 lists for it.
struct Table {
    action: LegalizeAction,
    cases: &'static [Case],
    listed: &'static [Opcode],
}

const TABLES: [Table; 7] = [
    Table { action: LegalizeAction::WidenScalar, cases: widen::CASES, listed: widen::LISTED },
    Table { action: LegalizeAction::NarrowScalar, cases: narrow::CASES, listed: narrow::LISTED },
    Table { action: LegalizeAction::FewerElements, cases: fewer::CASES, listed: fewer::LISTED },
    Table { action: LegalizeAction::MoreElements, cases: more::CASES, listed: more::LISTED },
    Table { action: LegalizeAction::Bitcast, cases: bitcast::CASES, listed: bitcast::LISTED },
    Table { action: LegalizeAction::Lower, cases: lower::CASES, listed: lower::LISTED },
    Table { action: LegalizeAction::Libcall, cases: libcall::CASES, listed: libcall::LISTED },
];

/// Runs every case of `action`'s table and fails with the list of cases
/// that did not behave as expected.
fn run_table(action: LegalizeAction) {
    let table = TABLES.iter().find(|t| t.action == action).expect("a table per action");
    let failures: Vec<String> = table
        .cases
        .iter()
        .flat_map(|case| case.opcodes.iter().map(move |&op| (case, op)))
        .filter_map(|(case, op)| case.run(action, op).err().map(|e| format!("{op} {}: {e}", case.describe())))
        .collect();
    assert!(failures.is_empty(), "{} of the {action} cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn widen_scalar() {
    run_table(LegalizeAction::WidenScalar);
}

#[test]
fn narrow_scalar() {
    run_table(LegalizeAction::NarrowScalar);
}

#[test]
fn fewer_elements() {
    run_table(LegalizeAction::FewerElements);
}

#[test]
fn more_elements() {
    run_table(LegalizeAction::MoreElements);
}

#[test]
fn bitcast() {
    run_table(LegalizeAction::Bitcast);
}

#[test]
fn lower() {
    run_table(LegalizeAction::Lower);
}

#[test]
fn libcall() {
    run_table(LegalizeAction::Libcall);
}

/// What the cases say about one opcode of one action.
#[derive(Default)]
struct Coverage {
    checked: usize,
    unchecked: Option<&'static str>,
    unable: usize,
}

/// Every opcode §3 lists for an action has a case (a checked one, one the
/// interpreter cannot run, or one showing the helper refuses it), and each
/// table is printed with its counts (`cargo test -- --nocapture`).
#[test]
fn inventory_covers_every_listed_opcode() {
    let mut missing_cases = Vec::new();
    for table in &TABLES {
        let mut checked = Vec::new();
        let mut unchecked = Vec::new();
        let mut unable = Vec::new();
        for &op in table.listed {
            let mut cov = Coverage::default();
            for case in table.cases.iter().filter(|c| c.opcodes.contains(&op)) {
                match case.expect {
                    Expect::Checked => cov.checked += 1,
                    Expect::Unchecked(why) => cov.unchecked = Some(why),
                    Expect::Unable => cov.unable += 1,
                }
            }
            if cov.checked > 0 {
                checked.push(op);
            } else if let Some(why) = cov.unchecked {
                unchecked.push(format!("{op} ({why})"));
            } else if cov.unable > 0 {
                unable.push(op);
            } else {
                missing_cases.push(format!("{}: {op}", table.action));
            }
        }
        let extra: Vec<Opcode> = table
            .cases
            .iter()
            .flat_map(|c| c.opcodes.iter().copied())
            .filter(|op| !table.listed.contains(op))
            .collect();
        let names = |ops: &[Opcode]| ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(" ");
        let cases: usize = table.cases.iter().map(|c| c.opcodes.len()).sum();
        println!(
            "{}: {cases} cases; {} of {} listed opcodes implemented and checked, {} implemented but not \
             interpreter-checked [{}], {} missing [{}]; also tested, not in §3: [{}]",
            table.action,
            checked.len(),
            table.listed.len(),
            unchecked.len(),
            unchecked.join(", "),
            unable.len(),
            names(&unable),
            names(&extra),
        );
    }
    assert!(missing_cases.is_empty(), "opcodes listed in §3 without a case:\n{}", missing_cases.join("\n"));
}
