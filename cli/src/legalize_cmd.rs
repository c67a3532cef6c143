//! `gisel llc -run-pass=legalizer`: legalizes every function of a module
//! for its target, with llc's `-global-isel-abort` behaviours; `--explain`
//! reports each step on stderr as it happens.

use crate::llc_args::LlcArgs;
use crate::semantics::{self, Verdict};
use gisel_core::ir::Function;
use gisel_core::legality::LegalizerInfo;
use gisel_core::legalize::{
    CseMode, LegalizeError, LegalizeOptions, LegalizeStats, LegalizeTarget, legalize, legalize_traced,
};
use gisel_core::llvm_ir::IrModule;
use gisel_core::mir::{MachineFunction, Target};
use gisel_targets::{Arch, TargetOptions, target_for};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

/// The CPUs whose (empty) feature sets gisel models.
const GENERIC_CPUS: &[&str] = &["generic", "generic-rv32", "generic-rv64"];

/// The legalizer for one module's target, with the command line's options.
/// Each function gets the subtarget its IR attributes select, as llc builds
/// it; one target is built per distinct set of options and shared.
pub struct ModuleLegalizer<'a> {
    args: &'a LlcArgs,
    triple: String,
    /// The module's options, before a function's attributes refine them.
    options: TargetOptions,
    targets: Mutex<HashMap<TargetOptions, Arc<gisel_targets::Target>>>,
    arch: Arch,
    /// llc's warnings already given (about CPUs and features it does not
    /// recognize), each said once.
    warned: Mutex<HashSet<String>>,
    cse: CseMode,
    /// The value-tracking depth: 2 at `-O0`, as llc.
    known_bits_depth: u32,
    abort_mode: u8,
}

/// Prints llc's warning for each CPU or feature of `options` llc does not
/// recognize, unless already given.
fn warn_unrecognized(arch: Arch, options: &TargetOptions, warned: &Mutex<HashSet<String>>) {
    let mut warned = warned.lock().unwrap_or_else(PoisonError::into_inner);
    for warning in arch.unrecognized(options) {
        if warned.insert(warning.clone()) {
            eprintln!("{warning}");
        }
    }
}

impl<'a> ModuleLegalizer<'a> {
    /// The legalizer for `target` and the IR `module` as `args` configure
    /// it.
    pub fn new(target: &Target, module: &IrModule, args: &'a LlcArgs) -> Result<ModuleLegalizer<'a>, String> {
        let options = args.target_options(module);
        let arch = Arch::of(&target.triple).map_err(|e| format!("gisel: {e}"))?;
        let warned = Mutex::new(HashSet::new());
        warn_unrecognized(arch, &options, &warned);
        let unmodelled =
            |cpu: &&str| !GENERIC_CPUS.contains(cpu) && arch.knows_cpu(cpu) && arch.cpu_features(cpu).is_none();
        if let Some(cpu) = options.cpu.as_deref().filter(unmodelled) {
            eprintln!("gisel: warning: the features of CPU '{cpu}' are not modelled; give them with -mattr");
        }
        let cse = match args.cse_in_legalizer {
            Some(false) => CseMode::Off,
            _ if options.opt_level == 0 => CseMode::ConstantsOnly,
            _ => CseMode::Full,
        };
        // The rules are built per subtarget when a function needs them (a
        // module's functions usually name their features, so the module's
        // own subtarget is often never used).
        let abort_mode = args.abort_mode.unwrap_or(if arch.falls_back_by_default(&options) { 0 } else { 1 });
        let targets = Mutex::new(HashMap::new());
        let known_bits_depth = if options.opt_level == 0 { 2 } else { gisel_core::legalize::KNOWN_BITS_MAX_DEPTH };
        Ok(ModuleLegalizer {
            args,
            triple: target.triple.clone(),
            options,
            targets,
            arch,
            warned,
            cse,
            known_bits_depth,
            abort_mode,
        })
    }

    /// The target for `function`'s subtarget.
    fn target_for_function(&self, function: &MachineFunction) -> Result<Arc<gisel_targets::Target>, String> {
        let options = self.options.for_function(function.func.module.function(&function.header.name));
        let mut targets = self.targets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(target) = targets.get(&options) {
            return Ok(Arc::clone(target));
        }
        warn_unrecognized(self.arch, &options, &self.warned);
        let target = Arc::new(target_for(&self.triple, &options).map_err(|e| format!("gisel: {e}"))?);
        targets.insert(options, Arc::clone(&target));
        Ok(target)
    }

    /// Legalizes `function` of a module targeting `module_target` in place,
    /// adding any remark to `remarks` and, with `--verify-semantics`, any
    /// change of meaning to `mismatches` (the run goes on and fails at the
    /// end). With `-global-isel-abort=1` (the
    /// default, but for AArch64 at `-O0`, where it is 0) a function that
    /// cannot be legalized is a fatal error, as llc prints it; with 0 or 2
    /// that function is marked `failedISel: true` and kept as far as it
    /// got, as llc does, and 2 also reports it as a remark.
    pub fn legalize(
        &self,
        function: &mut MachineFunction,
        module_target: &Target,
        remarks: &mut Vec<String>,
        mismatches: &mut Vec<String>,
    ) -> Result<(), String> {
        let args = self.args;
        if function.header.failed_isel {
            // Skipped, as LLVM's Legalizer skips a function an earlier
            // pass gave up on; the pass manager still sets the properties.
            set_pass_properties(function);
            return Ok(());
        }
        // The function as it was is needed only to compare against it.
        let before = args.verify_semantics.then(|| function.clone());
        let options = LegalizeOptions { cse: self.cse, known_bits_depth: self.known_bits_depth };
        let target = self.target_for_function(function)?;
        let (info, hooks) = (&target.info, target.hooks.as_ref());
        let result = if args.explain {
            legalize_explained(&mut function.func, info, hooks, options)
        } else {
            legalize(&mut function.func, info, hooks, options)
        };
        function.adopt_pass_additions();
        set_pass_properties(function);
        match result {
            Ok(_) => {
                if let Some(before) = before.as_ref() {
                    let subtarget = semantics::function_target(&self.options, module_target, function);
                    match check_semantics(before, function, &subtarget) {
                        Ok(note) => remarks.push(note),
                        Err(mismatch) => mismatches.push(mismatch),
                    }
                }
            }
            Err(error) => {
                if self.abort_mode == 1 {
                    return Err(format!("LLVM ERROR: {error}"));
                }
                function.header.failed_isel = true;
                if self.abort_mode == 2 {
                    remarks.push(format!("remark: {error}"));
                }
            }
        }
        Ok(())
    }
}

/// The properties the legalizer pass sets and clears whatever its outcome,
/// as LLVM's pass manager does for its Legalizer.
fn set_pass_properties(function: &mut MachineFunction) {
    function.header.legalized = true;
    function.header.no_phis = Some(false);
    function.header.no_vregs = Some(false);
}

/// Legalizes `func`, printing every step and combine on stderr, then a
/// count of each.
fn legalize_explained(
    func: &mut Function,
    info: &LegalizerInfo,
    target: &dyn LegalizeTarget,
    options: LegalizeOptions,
) -> Result<LegalizeStats, LegalizeError> {
    eprintln!("# legalizing function '{}'", func.name);
    let stats = legalize_traced(func, info, target, options, &mut |event| eprint!("{event}"))?;
    eprintln!("# '{}': {} steps, {} combines", func.name, stats.steps, stats.combines);
    Ok(stats)
}

/// The note `--verify-semantics` gives for `before` legalized into
/// `after`, or the error when it changed the function's meaning (or the
/// target cannot be run at all).
fn check_semantics(before: &MachineFunction, after: &MachineFunction, target: &Target) -> Result<String, String> {
    let name = &before.header.name;
    match semantics::compare(before, after, target)? {
        Verdict::Agree(checked) => Ok(format!(
            "semantics of '{name}': {} inputs agree ({} skipped, {} with nothing defined)",
            checked.compared, checked.skipped, checked.vacuous
        )),
        Verdict::Differ(mismatch) => Err(format!("gisel: legalizing '{name}' changed its meaning: {mismatch}")),
        Verdict::NotChecked(why) => Ok(format!("semantics of '{name}' not checked: {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::check_semantics;
    use gisel_core::mir::read_mir;

    /// A function whose body is `op` applied to two argument registers.
    fn function(op: &str) -> String {
        format!(
            "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $x0, $x1\n    \
             %0:_(s64) = COPY $x0\n    %1:_(s64) = COPY $x1\n    %2:_(s64) = {op} %0, %1\n    \
             $x0 = COPY %2(s64)\n    RET_ReallyLR implicit $x0\n...\n"
        )
    }

    #[test]
    fn each_verdict_is_a_note_but_a_change_of_meaning_an_error_naming_the_function() {
        let before = read_mir(&function("G_ADD"), "a.mir", Some("aarch64"), "").expect("reads");
        let wrong = read_mir(&function("G_SUB"), "a.mir", Some("aarch64"), "").expect("reads");
        let err = check_semantics(&before.functions[0], &wrong.functions[0], &before.target).unwrap_err();
        assert!(err.starts_with("gisel: legalizing 'f' changed its meaning: "), "{err}");
        let same = check_semantics(&before.functions[0], &before.functions[0], &before.target).expect("agrees");
        assert_eq!(same, "semantics of 'f': 32 inputs agree (0 skipped, 0 with nothing defined)");
        let big_endian = read_mir(&function("G_ADD"), "a.mir", Some("aarch64_be"), "").expect("reads");
        let f = &big_endian.functions[0];
        let note = check_semantics(f, f, &big_endian.target).expect("no difference");
        assert_eq!(note, "semantics of 'f' not checked: big-endian memory is not modelled");
    }
}
