//! The names each target has: its machine instructions (`core/data`,
//! written by `tools/target_machine_names.py` from LLVM 22's TableGen
//! sources), so that a name the target does not have is an error, as in
//! llc; its physical registers and its register classes and banks
//! (written by the same tool), likewise; and which operand
//! of an Arm instruction is its condition code (written by
//! `tools/arm_tables.py`), which llc prints with a comment.

use super::module::Arch;
use crate::name_list::NameList;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// A target's machine instructions (thousands, searched in the sorted text
/// itself, so that a run that reads few pays for no table), and its
/// physical registers, register classes and register banks (hundreds, read
/// often: looked up in tables built on first use).
struct TargetNames {
    instructions: &'static str,
    registers: NameList,
    classes: RegisterClasses,
    banks: NameList,
}

macro_rules! target_names {
    ($name:literal) => {
        TargetNames {
            instructions: include_str!(concat!("../../data/", $name, "-instructions.txt")),
            registers: NameList::new(include_str!(concat!("../../data/", $name, "-registers.txt"))),
            classes: RegisterClasses::new(include_str!(concat!("../../data/", $name, "-register-classes.txt"))),
            banks: NameList::new(include_str!(concat!("../../data/", $name, "-register-banks.txt"))),
        }
    };
}

static AARCH64: TargetNames = target_names!("aarch64");
static RISCV: TargetNames = target_names!("riscv");
static X86: TargetNames = target_names!("x86");
static ARM: TargetNames = target_names!("arm");
static MIPS: TargetNames = target_names!("mips");

fn names(arch: Arch) -> &'static TargetNames {
    match arch {
        Arch::AArch64 => &AARCH64,
        Arch::RiscV32 | Arch::RiscV64 => &RISCV,
        Arch::X86 | Arch::X86_64 => &X86,
        Arch::Arm => &ARM,
        Arch::Mips => &MIPS,
    }
}

/// A register class of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RegisterClass {
    /// Its name as TableGen spells it (`GPR64`), as llc's messages write it.
    pub(super) name: &'static str,
    /// Whether a virtual register may be of it (`CCR` may not).
    pub(super) allocatable: bool,
}

/// A target's register classes, one a line (` unallocatable` after the
/// name of a class no virtual register may take), by the lower-case name
/// `.mir` writes, in a table built on first use.
struct RegisterClasses {
    text: &'static str,
    by_name: OnceLock<FxHashMap<String, RegisterClass>>,
}

impl RegisterClasses {
    const fn new(text: &'static str) -> RegisterClasses {
        RegisterClasses { text, by_name: OnceLock::new() }
    }

    fn get(&self, name: &str) -> Option<RegisterClass> {
        let table = self.by_name.get_or_init(|| {
            self.text
                .lines()
                .map(|line| {
                    let (name, allocatable) = match line.split_once(' ') {
                        Some((name, _)) => (name, false),
                        None => (line, true),
                    };
                    (name.to_ascii_lowercase(), RegisterClass { name, allocatable })
                })
                .collect()
        });
        table.get(name).copied()
    }
}

/// Whether `arch` has a machine instruction named `name`.
pub(super) fn has_instruction(arch: Arch, name: &str) -> bool {
    is_sorted_line(names(arch).instructions, name)
}

/// Whether `arch` has a physical register named `name`, as `.mir` writes
/// it after `$` (`noreg` is every target's).
pub(super) fn has_register(arch: Arch, name: &str) -> bool {
    name == "noreg" || names(arch).registers.contains(name)
}

/// `arch`'s register class named `name`, as `.mir` writes it after a
/// virtual register's `:`.
pub(super) fn register_class(arch: Arch, name: &str) -> Option<RegisterClass> {
    names(arch).classes.get(name)
}

/// Whether `arch` has a register bank named `name`, as `.mir` writes it.
pub(super) fn has_register_bank(arch: Arch, name: &str) -> bool {
    names(arch).banks.contains(name)
}

/// Whether `arch` has a register class or register bank named `name`, as
/// `.mir` writes it after a virtual register's `:`.
pub(super) fn has_register_class_or_bank(arch: Arch, name: &str) -> bool {
    register_class(arch, name).is_some() || has_register_bank(arch, name)
}

const ARM_PREDICATES: &str = include_str!("../../data/arm-predicates.txt");

/// The operand index of `arch`'s instruction `name` that holds its
/// condition code (Arm's predicable instructions), if it has one.
pub(super) fn predicate_operand(arch: Arch, name: &str) -> Option<usize> {
    static ARM_TABLE: OnceLock<FxHashMap<&'static str, usize>> = OnceLock::new();
    if arch != Arch::Arm {
        return None;
    }
    let table = ARM_TABLE.get_or_init(|| {
        ARM_PREDICATES
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .filter_map(|(name, index)| Some((name, index.parse().ok()?)))
            .collect()
    });
    table.get(name).copied()
}

/// The comment llc prints after an Arm condition code (`CC::al` for 14).
pub(super) fn condition_comment(code: i64) -> Option<&'static str> {
    const NAMES: [&str; 15] = [
        "CC::eq", "CC::ne", "CC::hs", "CC::lo", "CC::mi", "CC::pl", "CC::vs", "CC::vc", "CC::hi", "CC::ls", "CC::ge",
        "CC::lt", "CC::gt", "CC::le", "CC::al",
    ];
    usize::try_from(code).ok().and_then(|i| NAMES.get(i).copied())
}

/// Whether `name` is a line of `sorted` (lines in byte order, each ended
/// by a newline): a binary search over the text itself.
fn is_sorted_line(sorted: &str, name: &str) -> bool {
    let bytes = sorted.as_bytes();
    // `lo` is always a line start, `hi` a line start or the end.
    let (mut lo, mut hi) = (0, bytes.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = bytes[lo..mid].iter().rposition(|&b| b == b'\n').map_or(lo, |i| lo + i + 1);
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        match sorted[start..end].cmp(name) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_found_and_no_other() {
        for target in [&AARCH64, &RISCV, &X86, &ARM, &MIPS] {
            for names in [target.instructions, target.registers.text(), target.classes.text, target.banks.text()] {
                assert!(names.lines().zip(names.lines().skip(1)).all(|(a, b)| a < b), "sorted, no duplicates");
            }
            assert!(target.instructions.lines().all(|name| is_sorted_line(target.instructions, name)));
            assert!(target.registers.text().lines().all(|name| target.registers.contains(name)));
        }
        assert!(has_instruction(Arch::AArch64, "RET_ReallyLR"));
        assert!(has_instruction(Arch::RiscV64, "PseudoRET"));
        assert!(!has_instruction(Arch::RiscV64, "RET_ReallyLR"));
        assert!(has_instruction(Arch::X86, "CALLpcrel32") && has_instruction(Arch::X86_64, "ADJCALLSTACKDOWN64"));
        assert!(has_instruction(Arch::Arm, "BX_RET") && has_instruction(Arch::Arm, "tBL"));
        assert!(has_instruction(Arch::Mips, "RetRA") && has_instruction(Arch::Mips, "JAL"));
        assert!(has_instruction(Arch::Arm, "ADJCALLSTACKDOWN"));
        assert_eq!(predicate_operand(Arch::Arm, "BX_RET"), Some(0));
        assert_eq!(predicate_operand(Arch::Arm, "ADJCALLSTACKUP"), Some(2));
        assert_eq!(predicate_operand(Arch::Arm, "BL"), None);
        assert_eq!(predicate_operand(Arch::AArch64, "BX_RET"), None);
        assert_eq!(
            (condition_comment(14), condition_comment(0), condition_comment(15)),
            (Some("CC::al"), Some("CC::eq"), None)
        );
        for absent in ["", "ZZZZ", "RET_Really", "RET_ReallyLRX"] {
            assert!(!has_instruction(Arch::AArch64, absent), "{absent}");
        }
        assert!(!is_sorted_line("b\nd\n", "a") && !is_sorted_line("b\nd\n", "c") && !is_sorted_line("b\nd\n", "e"));
    }

    #[test]
    fn registers_classes_and_banks_are_the_targets_own() {
        // Registers, tuples TableGen makes up included, and `noreg`.
        assert!(has_register(Arch::AArch64, "x0") && has_register(Arch::AArch64, "d0_d1"));
        assert!(has_register(Arch::AArch64, "noreg") && !has_register(Arch::AArch64, "x99"));
        assert!(!has_register(Arch::AArch64, "X0"), "lower case only, as llc reads them");
        assert!(has_register(Arch::RiscV32, "x10") && !has_register(Arch::RiscV64, "w0"));
        assert!(has_register(Arch::X86_64, "rax") && has_register(Arch::X86, "eflags"));
        assert!(has_register(Arch::Arm, "r0") && has_register(Arch::Mips, "a0"));
        // Classes (made up ones included) and banks.
        assert!(has_register_class_or_bank(Arch::AArch64, "gpr64"));
        assert!(has_register_class_or_bank(Arch::AArch64, "gpr64common_and_gpr64noip"));
        assert!(has_register_class_or_bank(Arch::AArch64, "fpr") && has_register_class_or_bank(Arch::RiscV64, "gprb"));
        assert!(!has_register_class_or_bank(Arch::AArch64, "gpr99") && !has_register_class_or_bank(Arch::X86, "_"));
        let gpr64 = RegisterClass { name: "GPR64", allocatable: true };
        assert_eq!(register_class(Arch::AArch64, "gpr64"), Some(gpr64));
        assert_eq!(register_class(Arch::AArch64, "ccr"), Some(RegisterClass { name: "CCR", allocatable: false }));
        assert_eq!(register_class(Arch::AArch64, "GPR64"), None, "looked up as .mir writes it");
        assert!(has_register_bank(Arch::AArch64, "gpr") && register_class(Arch::AArch64, "gpr").is_none());
        assert!(has_register_bank(Arch::RiscV64, "gprb") && !has_register_bank(Arch::RiscV64, "gpr"));
    }
}
