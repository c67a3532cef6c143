//! The CPU and feature names llc 22 recognizes for each architecture
//! (`targets/data`, written by `tools/target_names.py` from `llc
//! -mattr=help`), for llc's warnings about the others, and the features
//! each CPU enables (as clang 22 expands `-mcpu`).

use crate::options::feature_items;
use crate::{Arch, TargetOptions};
use gisel_core::name_list::NameList;

static AARCH64_CPUS: NameList = NameList::new(include_str!("../data/aarch64-cpus.txt"));
static AARCH64_FEATURES: NameList = NameList::new(include_str!("../data/aarch64-features.txt"));
static RISCV_CPUS: NameList = NameList::new(include_str!("../data/riscv-cpus.txt"));
static RISCV_FEATURES: NameList = NameList::new(include_str!("../data/riscv-features.txt"));
const AARCH64_CPU_FEATURES: &str = include_str!("../data/aarch64-cpu-features.txt");
const RISCV_CPU_FEATURES: &str = include_str!("../data/riscv-cpu-features.txt");
static X86_CPUS: NameList = NameList::new(include_str!("../data/x86-cpus.txt"));
static X86_FEATURES: NameList = NameList::new(include_str!("../data/x86-features.txt"));
const X86_CPU_FEATURES: &str = include_str!("../data/x86-cpu-features.txt");
static ARM_CPUS: NameList = NameList::new(include_str!("../data/arm-cpus.txt"));
static ARM_FEATURES: NameList = NameList::new(include_str!("../data/arm-features.txt"));
const ARM_CPU_FEATURES: &str = include_str!("../data/arm-cpu-features.txt");
static MIPS_CPUS: NameList = NameList::new(include_str!("../data/mips-cpus.txt"));
static MIPS_FEATURES: NameList = NameList::new(include_str!("../data/mips-features.txt"));
const MIPS_CPU_FEATURES: &str = include_str!("../data/mips-cpu-features.txt");

impl Arch {
    /// Whether llc recognizes `cpu` for this architecture (every name, for
    /// the toy target).
    pub fn knows_cpu(self, cpu: &str) -> bool {
        self.names().is_none_or(|(cpus, _)| cpus.contains(cpu))
    }

    /// The features CPU `cpu` enables (`+neon,+fullfp16,...`), which come
    /// before any other feature string; `None` for the generic CPUs (the
    /// triple's defaults) and for a CPU whose features are not known.
    pub fn cpu_features(self, cpu: &str) -> Option<&'static str> {
        let table = match self {
            Arch::Toy32 => return None,
            Arch::AArch64 => AARCH64_CPU_FEATURES,
            Arch::RiscV => RISCV_CPU_FEATURES,
            Arch::X86 => X86_CPU_FEATURES,
            Arch::Arm => ARM_CPU_FEATURES,
            Arch::Mips => MIPS_CPU_FEATURES,
        };
        table.lines().find_map(|line| line.strip_prefix(cpu)?.strip_prefix('\t'))
    }

    /// The features a subtarget for CPU `cpu` starts from, before any
    /// feature string: a known CPU's own ([`Arch::cpu_features`]); on
    /// AArch64, none at all for a CPU llc does not recognize (`-fp-armv8`,
    /// which takes NEON with it: llc has no CPU to take features from);
    /// `None` where the triple's defaults stand (no CPU, a generic one).
    pub fn base_features(self, cpu: Option<&str>) -> Option<&'static str> {
        let cpu = cpu?;
        match self.cpu_features(cpu) {
            None if self == Arch::AArch64 && !self.knows_cpu(cpu) => Some("-fp-armv8"),
            features => features,
        }
    }

    /// The CPU and feature lists, none for the toy target.
    fn names(self) -> Option<(&'static NameList, &'static NameList)> {
        match self {
            Arch::Toy32 => None,
            Arch::AArch64 => Some((&AARCH64_CPUS, &AARCH64_FEATURES)),
            Arch::RiscV => Some((&RISCV_CPUS, &RISCV_FEATURES)),
            Arch::X86 => Some((&X86_CPUS, &X86_FEATURES)),
            Arch::Arm => Some((&ARM_CPUS, &ARM_FEATURES)),
            Arch::Mips => Some((&MIPS_CPUS, &MIPS_FEATURES)),
        }
    }

    /// What llc warns about `options`' CPU and features, in its words:
    /// each name it does not recognize (llc repeats a warning for each
    /// subtarget it builds; gisel says it once per option set).
    pub fn unrecognized(self, options: &TargetOptions) -> Vec<String> {
        let Some((_, features)) = self.names() else { return Vec::new() };
        let mut warnings = Vec::new();
        if let Some(cpu) = options.cpu.as_deref().filter(|cpu| !self.knows_cpu(cpu)) {
            warnings.push(format!("'{cpu}' is not a recognized processor for this target (ignoring processor)"));
        }
        for (on, name) in feature_items(&options.features) {
            let flag = if on { '+' } else { '-' };
            if !features.contains(name) {
                warnings.push(format!("'{flag}{name}' is not a recognized feature for this target (ignoring feature)"));
            }
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warnings(arch: Arch, cpu: Option<&str>, features: &str) -> Vec<String> {
        let options =
            TargetOptions { cpu: cpu.map(str::to_owned), features: features.into(), ..TargetOptions::default() };
        arch.unrecognized(&options)
    }

    #[test]
    fn known_names_pass_and_others_get_llc_warnings() {
        assert!(warnings(Arch::RiscV, Some("sifive-u74"), "+m,-c,+zbb,v").is_empty());
        assert!(warnings(Arch::AArch64, Some("cortex-a57"), "+neon,-fp-armv8,+v8a").is_empty());
        assert_eq!(
            warnings(Arch::RiscV, Some("cortex-a57"), "+m,foo,-bar"),
            [
                "'cortex-a57' is not a recognized processor for this target (ignoring processor)",
                "'+foo' is not a recognized feature for this target (ignoring feature)",
                "'-bar' is not a recognized feature for this target (ignoring feature)",
            ]
        );
        assert!(warnings(Arch::Toy32, Some("any"), "+anything").is_empty());
    }

    #[test]
    fn cpus_enable_their_features_and_generic_ones_none() {
        let a75 = Arch::AArch64.cpu_features("cortex-a75").unwrap_or_default();
        assert!(a75.split(',').any(|f| f == "+fullfp16") && a75.split(',').any(|f| f == "+neon"), "{a75}");
        let u74 = Arch::RiscV.cpu_features("sifive-u74").unwrap_or_default();
        assert!(["+m", "+a", "+f", "+d", "+c"].iter().all(|f| u74.split(',').any(|g| g == *f)), "{u74}");
        // X86's CPUs as llc defines them (clang 22 gives pentium4 no SSE2).
        let pentium4 = Arch::X86.cpu_features("pentium4").unwrap_or_default();
        assert!(pentium4.split(',').any(|f| f == "+sse2"), "{pentium4}");
        assert_eq!(Arch::X86.cpu_features("generic"), None);
        assert_eq!(Arch::AArch64.cpu_features("generic"), None);
        assert_eq!(Arch::AArch64.cpu_features("cortex"), None, "a prefix is not a CPU");
        assert_eq!(Arch::AArch64.base_features(Some("nope")), Some("-fp-armv8"));
        assert_eq!(Arch::AArch64.base_features(Some("generic")), None);
        assert_eq!(Arch::RiscV.base_features(None), None);
    }
}
