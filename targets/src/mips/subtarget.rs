//! The 32-bit Mips subtarget (O32 ABI): the features llc 22 turns on for a
//! triple, a CPU and a feature string.
//!
//! llc starts from the CPU's features (`mips32`, or `mips32r6` for
//! `mipsisa32r6*` triples, when no CPU or the generic one is named; the
//! CPU table `targets/data/mips-cpu-features.txt` lists each CPU's
//! features with what they imply), then applies the feature string left to
//! right: enabling a feature enables what it implies (the ISA revisions
//! imply the earlier ones, `mips32r6` also `fp64`), disabling one disables
//! the features that imply it.

use std::collections::BTreeSet;

use crate::options::feature_items;

const FEATURES: &str = include_str!("../../data/mips-features.txt");
const CPU_FEATURES: &str = include_str!("../../data/mips-cpu-features.txt");

/// Each feature with the features it implies directly (LLVM 22's
/// `Mips.td`); features not listed imply nothing.
const IMPLIES: &[(&str, &[&str])] = &[
    ("mips2", &["mips1"]),
    ("mips3", &["mips2", "mips3_32", "mips3_32r2", "gp64", "fp64"]),
    ("mips4", &["mips3", "mips4_32", "mips4_32r2"]),
    ("mips5", &["mips4", "mips5_32r2"]),
    ("mips32", &["mips2", "mips3_32", "mips4_32"]),
    ("mips32r2", &["mips3_32r2", "mips4_32r2", "mips5_32r2", "mips32"]),
    ("mips32r3", &["mips32r2"]),
    ("mips32r5", &["mips32r3"]),
    ("mips32r6", &["mips32r5", "fp64", "nan2008", "abs2008"]),
    ("mips64", &["mips5", "mips32"]),
    ("mips64r2", &["mips64", "mips32r2"]),
    ("mips64r3", &["mips64r2", "mips32r3"]),
    ("mips64r5", &["mips64r3", "mips32r5"]),
    ("mips64r6", &["mips32r6", "mips64r5", "nan2008", "abs2008"]),
    ("dspr2", &["dsp"]),
    ("dspr3", &["dsp", "dspr2"]),
    ("cnmips", &["mips64r2"]),
    ("cnmipsp", &["cnmips"]),
    ("p5600", &["mips32r5"]),
    ("i6400", &["mips64r6", "msa"]),
    ("i6500", &["mips64r6", "msa"]),
];

/// The features `name` implies directly.
fn implied(name: &str) -> &'static [&'static str] {
    IMPLIES.iter().find(|(feature, _)| *feature == name).map_or(&[], |(_, implied)| implied)
}

/// The features of CPU `cpu` as llc 22 defines it, `None` for the generic
/// CPU and unknown ones.
fn cpu_features(cpu: &str) -> Option<&'static str> {
    CPU_FEATURES.lines().find_map(|line| line.strip_prefix(cpu)?.strip_prefix('\t'))
}

/// The feature named `name` as llc knows it, `None` for an unknown one.
fn known(name: &str) -> Option<&'static str> {
    FEATURES.lines().find(|line| *line == name)
}

/// What the Mips legalizer rules, hooks and libcalls depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtarget {
    features: BTreeSet<&'static str>,
    big_endian: bool,
}

impl Subtarget {
    /// The subtarget for `triple` with CPU `cpu` (`None` or `generic` for
    /// the triple's default) and feature string `features`, which holds
    /// the CPU's own features first when there is a CPU.
    pub fn new(triple: &str, cpu: Option<&str>, features: &str) -> Subtarget {
        let arch = triple.split('-').next().unwrap_or("");
        let mut st = Subtarget { features: BTreeSet::new(), big_endian: !arch.ends_with("el") };
        // An unknown CPU has no features; llc's ISA level is then MIPS32.
        if cpu.is_none_or(|cpu| cpu_features(cpu).is_none()) {
            let default = if arch.starts_with("mipsisa32r6") { "mips32r6" } else { "mips32" };
            st.set(default, true);
        }
        for (on, name) in feature_items(features) {
            st.set(name, on);
        }
        st
    }

    /// Turns feature `name` on with what it implies, or off with what
    /// implies it. Unknown names are ignored, as llc ignores them.
    pub fn set(&mut self, name: &str, on: bool) {
        let Some(name) = known(name) else { return };
        if on {
            if self.features.insert(name) {
                for implied in implied(name) {
                    self.set(implied, true);
                }
            }
        } else if self.features.remove(name) {
            let dependents: Vec<&'static str> =
                self.features.iter().copied().filter(|f| implied(f).contains(&name)).collect();
            for dependent in dependents {
                self.set(dependent, false);
            }
        }
    }

    /// Whether feature `name` is on.
    pub fn has(&self, name: &str) -> bool {
        self.features.contains(name)
    }

    /// MIPS32 release 2 or later (`hasMips32r2`: `wsbh`, `seb`, ...).
    pub fn has_mips32r2(&self) -> bool {
        self.has("mips32r2")
    }

    /// MIPS32 release 6 or later.
    pub fn has_mips32r6(&self) -> bool {
        self.has("mips32r6")
    }

    /// The MSA vector extension.
    pub fn has_msa(&self) -> bool {
        self.has("msa")
    }

    /// 64-bit floating-point registers (FR=1).
    pub fn is_fp64(&self) -> bool {
        self.has("fp64")
    }

    /// Floating-point values travel in integer registers.
    pub fn use_soft_float(&self) -> bool {
        self.has("soft-float")
    }

    /// Only single precision in hardware.
    pub fn is_single_float(&self) -> bool {
        self.has("single-float")
    }

    /// Unaligned accesses are fine (`systemSupportsUnalignedAccess`:
    /// release 6 without `strict-align`).
    pub fn supports_unaligned_access(&self) -> bool {
        self.has_mips32r6() && !self.has("strict-align")
    }

    /// Big-endian (`mips`, not `mipsel`).
    pub fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// The register mask of a call (LLVM's `getCallPreservedMask` for O32).
    pub fn call_preserved_mask(&self) -> &'static str {
        if self.is_single_float() {
            "csr_o32_singlefloat"
        } else if self.is_fp64() {
            "csr_o32_fp64"
        } else if self.has("fpxx") {
            "csr_o32_fpxx"
        } else {
            "csr_o32"
        }
    }

    /// The fatal errors llc 22 reports for this subtarget, in its words.
    pub fn check(&self) -> Result<(), String> {
        if self.has("mips5") && !self.has("mips64") {
            return Err("Code generation for MIPS-V is not implemented".into());
        }
        if self.has_msa() && !self.is_fp64() {
            return Err("MSA requires a 64-bit FPU register file (FR=1 mode). See -mattr=+fp64.".into());
        }
        if self.is_fp64() && !self.has("mips64") && self.has("mips32") && !self.has_mips32r2() {
            return Err("FPU with 64-bit registers is not available on MIPS32 pre revision 2. \
                        Use -mcpu=mips32r2 or greater."
                .into());
        }
        Ok(())
    }
}
