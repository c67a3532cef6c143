//! `gisel equiv BEFORE AFTER`: whether each function of AFTER means what
//! the function of the same name in BEFORE means, run on the same random
//! inputs as `--verify-semantics` runs a function before and after
//! legalization. One line per function; the run fails if any differs.

use crate::llc_args::LlcArgs;
use crate::semantics::{self, Verdict};
use crate::verification::Verifier;
use gisel_core::mir::{MachineFunction, MirModule};
use std::fmt;

/// What became of one function name.
#[derive(Debug)]
enum Finding {
    /// Both versions were run; what that showed.
    Compared(Verdict),
    /// The name is in one file only (the one named).
    OnlyIn(String),
}

/// One function's line of the report.
struct Line<'a> {
    name: &'a str,
    finding: Finding,
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name;
        match &self.finding {
            Finding::Compared(Verdict::Agree(checked)) => write!(
                f,
                "{name}: agree ({} inputs compared, {} skipped, {} with nothing defined)",
                checked.compared, checked.skipped, checked.vacuous
            ),
            Finding::Compared(Verdict::Differ(mismatch)) => write!(f, "{name}: differ: {mismatch}"),
            Finding::Compared(Verdict::NotChecked(why)) => write!(f, "{name}: not checked: {why}"),
            Finding::OnlyIn(path) => write!(f, "{name}: not checked: only in {path}"),
        }
    }
}

/// `gisel equiv`: prints a line for each function of the two files named
/// by `args` (BEFORE's in order, then those only in AFTER) and fails, after
/// printing them, if any function of AFTER differs in meaning from
/// BEFORE's.
pub fn equiv(args: &LlcArgs) -> Result<(), String> {
    let [before_path, after_path] = args.inputs.as_slice() else {
        return Err("gisel equiv: expected two files (gisel equiv [-mtriple=T] [-mattr=A] BEFORE AFTER)".to_owned());
    };
    let (before, after) = (load(before_path, args)?, load(after_path, args)?);
    if before.target.triple != after.target.triple {
        return Err(format!(
            "gisel equiv: '{before_path}' is for {} but '{after_path}' is for {} (both must be for one target)",
            before.target.triple, after.target.triple
        ));
    }
    let lines = compare_modules(&before, &after, args)?;
    crate::emit(&lines.iter().map(|line| format!("{line}\n")).collect::<String>())?;
    match lines.iter().filter(|line| matches!(line.finding, Finding::Compared(Verdict::Differ(_)))).count() {
        0 => Ok(()),
        differ => Err(format!("error: {differ} of {} functions differ in meaning", lines.len())),
    }
}

/// Reads the file at `path` as `args` say and checks every function, as
/// `gisel llc` checks its input.
fn load(path: &str, args: &LlcArgs) -> Result<MirModule, String> {
    let mut module = crate::load(path, args)?;
    // The CPU decides Mips's floating-point registers, as in `gisel llc`.
    module.target.cpu = args.cpu.clone();
    let verifier = Verifier::new(&module.target);
    for function in &module.functions {
        verifier.check_input(function).map_err(|report| format!("{path}: {report}"))?;
    }
    Ok(module)
}

/// A line for each function of `before` (compared with the function of
/// the same name in `after`) and for each function only in `after`.
fn compare_modules<'m>(before: &'m MirModule, after: &'m MirModule, args: &LlcArgs) -> Result<Vec<Line<'m>>, String> {
    let find = |module: &'m MirModule, name: &str| module.functions.iter().find(|f| f.header.name == name);
    let mut lines = Vec::new();
    for old in &before.functions {
        let name = old.header.name.as_str();
        let finding = match find(after, name) {
            Some(new) => Finding::Compared(compare_functions(old, new, before, args)?),
            None => Finding::OnlyIn(before.file_name.clone()),
        };
        lines.push(Line { name, finding });
    }
    for new in after.functions.iter().filter(|f| find(before, &f.header.name).is_none()) {
        lines.push(Line { name: &new.header.name, finding: Finding::OnlyIn(after.file_name.clone()) });
    }
    Ok(lines)
}

/// Runs `old` and `new` for the subtarget `old`'s attributes select in
/// `module`.
fn compare_functions(
    old: &MachineFunction,
    new: &MachineFunction,
    module: &MirModule,
    args: &LlcArgs,
) -> Result<Verdict, String> {
    let options = args.target_options(&old.func.module);
    semantics::compare(old, new, &semantics::function_target(&options, &module.target, old))
}

#[cfg(test)]
mod tests {
    use super::{Finding, compare_modules};
    use crate::llc_args::LlcArgs;
    use crate::semantics::{Unchecked, Verdict};
    use gisel_core::mir::{MirModule, read_mir};

    /// A file of functions, each `(name, op)` returning `op` of its two
    /// arguments.
    fn module(file_name: &str, functions: &[(&str, &str)]) -> MirModule {
        let text: String = functions
            .iter()
            .map(|(name, op)| {
                format!(
                    "---\nname: {name}\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $x0, $x1\n    \
                     %0:_(s64) = COPY $x0\n    %1:_(s64) = COPY $x1\n    %2:_(s64) = {op} %0, %1\n    \
                     $x0 = COPY %2(s64)\n    RET_ReallyLR implicit $x0\n...\n"
                )
            })
            .collect();
        read_mir(&text, file_name, Some("aarch64"), "").expect("reads")
    }

    #[test]
    fn functions_are_matched_by_name_in_before_order_then_after_only() {
        let before = module("a.mir", &[("same", "G_ADD"), ("changed", "G_MUL"), ("gone", "G_OR")]);
        let after = module("b.mir", &[("new", "G_AND"), ("changed", "G_SUB"), ("same", "G_ADD")]);
        let lines = compare_modules(&before, &after, &LlcArgs::default()).expect("aarch64 runs");
        let names: Vec<&str> = lines.iter().map(|line| line.name).collect();
        assert_eq!(names, ["same", "changed", "gone", "new"]);
        assert!(matches!(lines[0].finding, Finding::Compared(Verdict::Agree(_))), "{:?}", lines[0].finding);
        assert!(lines[1].to_string().starts_with("changed: differ: $x0: before "), "{}", lines[1]);
        assert_eq!(lines[2].to_string(), "gone: not checked: only in a.mir");
        assert_eq!(lines[3].to_string(), "new: not checked: only in b.mir");
    }

    #[test]
    fn lines_say_what_was_compared_or_why_not() {
        let f = module("a.mir", &[("f", "G_ADD")]);
        let lines = compare_modules(&f, &f, &LlcArgs::default()).expect("aarch64 runs");
        assert_eq!(lines[0].to_string(), "f: agree (32 inputs compared, 0 skipped, 0 with nothing defined)");
        let line = super::Line { name: "g", finding: Finding::Compared(Verdict::NotChecked(Unchecked::BigEndian)) };
        assert_eq!(line.to_string(), "g: not checked: big-endian memory is not modelled");
    }
}
