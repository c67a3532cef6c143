//! The CPU and feature names llc 22 recognizes for each architecture
//! (`targets/data`, written by `tools/target_names.py` from `llc
//! -mattr=help`), for llc's warnings about the others.

use crate::{Arch, TargetOptions};

const AARCH64_CPUS: &str = include_str!("../data/aarch64-cpus.txt");
const AARCH64_FEATURES: &str = include_str!("../data/aarch64-features.txt");
const RISCV_CPUS: &str = include_str!("../data/riscv-cpus.txt");
const RISCV_FEATURES: &str = include_str!("../data/riscv-features.txt");

impl Arch {
    /// Whether llc recognizes `cpu` for this architecture (every name, for
    /// the toy target).
    pub fn knows_cpu(self, cpu: &str) -> bool {
        self.names().is_none_or(|(cpus, _)| listed(cpus, cpu))
    }

    /// The CPU and feature lists, none for the toy target.
    fn names(self) -> Option<(&'static str, &'static str)> {
        match self {
            Arch::Toy32 => None,
            Arch::AArch64 => Some((AARCH64_CPUS, AARCH64_FEATURES)),
            Arch::RiscV => Some((RISCV_CPUS, RISCV_FEATURES)),
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
        for item in options.features.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let (flag, name) = match (item.strip_prefix('+'), item.strip_prefix('-')) {
                (Some(name), _) => ("+", name),
                (_, Some(name)) => ("-", name),
                _ => ("+", item),
            };
            if !listed(features, name) {
                warnings.push(format!("'{flag}{name}' is not a recognized feature for this target (ignoring feature)"));
            }
        }
        warnings
    }
}

/// Whether `name` is a line of `list`.
fn listed(list: &str, name: &str) -> bool {
    list.lines().any(|line| line == name)
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
}
