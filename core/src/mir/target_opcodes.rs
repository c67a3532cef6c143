//! The machine instruction names each target has (`core/data`, written by
//! `tools/target_instructions.py` from LLVM 22's TableGen sources), so
//! that a name the target does not have is an error, as in llc.

use super::module::Arch;

const AARCH64: &str = include_str!("../../data/aarch64-instructions.txt");
const RISCV: &str = include_str!("../../data/riscv-instructions.txt");
const X86: &str = include_str!("../../data/x86-instructions.txt");
const ARM: &str = include_str!("../../data/arm-instructions.txt");

/// Whether `arch` has a machine instruction named `name`.
pub(super) fn has_instruction(arch: Arch, name: &str) -> bool {
    let names = match arch {
        Arch::AArch64 => AARCH64,
        Arch::RiscV32 | Arch::RiscV64 => RISCV,
        Arch::X86 | Arch::X86_64 => X86,
        Arch::Arm => ARM,
    };
    is_sorted_line(names, name)
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
        for names in [AARCH64, RISCV, X86] {
            assert!(names.lines().all(|name| is_sorted_line(names, name)));
            assert!(names.lines().zip(names.lines().skip(1)).all(|(a, b)| a < b), "sorted, no duplicates");
        }
        assert!(has_instruction(Arch::AArch64, "RET_ReallyLR"));
        assert!(has_instruction(Arch::RiscV64, "PseudoRET"));
        assert!(!has_instruction(Arch::RiscV64, "RET_ReallyLR"));
        assert!(has_instruction(Arch::X86, "CALLpcrel32") && has_instruction(Arch::X86_64, "ADJCALLSTACKDOWN64"));
        assert!(has_instruction(Arch::Arm, "BX_RET") && has_instruction(Arch::Arm, "tBL"));
        assert!(is_sorted_line(ARM, "ADJCALLSTACKDOWN"));
        for absent in ["", "ZZZZ", "RET_Really", "RET_ReallyLRX"] {
            assert!(!has_instruction(Arch::AArch64, absent), "{absent}");
        }
        assert!(!is_sorted_line("b\nd\n", "a") && !is_sorted_line("b\nd\n", "c") && !is_sorted_line("b\nd\n", "e"));
    }
}
