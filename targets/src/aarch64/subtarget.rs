//! The AArch64 subtarget: which features the triple and `-mattr` turn on,
//! and the code model, as far as the legalizer cares.
//!
//! `llc -mtriple=aarch64` starts from the generic CPU, which has NEON and
//! FP-ARMv8 and nothing else the legalizer looks at. `-mattr` adds or
//! removes features left to right; a feature llc does not know is ignored
//! (llc prints "is not a recognized feature for this target (ignoring
//! feature)" and carries on), and so is one the legalizer does not care
//! about. Implied features follow LLVM's `AArch64Features.td`: `+sve`
//! brings `fullfp16`, `+neon` brings `fp-armv8`, `-fp-armv8` takes NEON
//! (and everything built on it) away, and the architecture versions bring
//! what they make mandatory (`v8.1a`: LSE, `v8.4a`: LSE2, `v8.8a`: MOPS,
//! `v8.9a`/`v9.4a`: CSSC, ...).

/// The code model (`--code-model`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CodeModel {
    /// `tiny`: the whole program within 1 MiB (ADR).
    Tiny,
    /// `small` (the default): ADRP + ADD.
    #[default]
    Small,
    /// `kernel`.
    Kernel,
    /// `large`: MOVZ/MOVK sequences.
    Large,
}

/// What the AArch64 legalizer rules and hooks depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtarget {
    /// Advanced SIMD.
    pub neon: bool,
    /// Scalar floating point.
    pub fp_armv8: bool,
    /// Half-precision arithmetic (`fullfp16`).
    pub full_fp16: bool,
    /// Common short sequence compression (scalar min/max, abs, cnt, ctz).
    pub cssc: bool,
    /// The scalable vector extension.
    pub sve: bool,
    /// Large system extensions (atomic instructions).
    pub lse: bool,
    /// LSE2 (single-copy atomic 128-bit LDP/STP).
    pub lse2: bool,
    /// Atomics through the `__aarch64_*` helper functions.
    pub outline_atomics: bool,
    /// RCPC3 (LDIAPP/STILP).
    pub rcpc3: bool,
    /// Memory operation instructions (`CPY*`, `SET*`).
    pub mops: bool,
    /// Dot product instructions (`UDOT`, used by vector popcount).
    pub dot_prod: bool,
    /// The code model.
    pub code_model: CodeModel,
    /// The target is Darwin (MachO: globals not known to be local go
    /// through the GOT).
    pub darwin: bool,
    /// The target is Windows (COFF: globals are local unless imported).
    pub windows: bool,
    /// The optimization level (0 for `-O0`).
    pub opt_level: u8,
}

impl Default for Subtarget {
    fn default() -> Subtarget {
        Subtarget {
            neon: true,
            fp_armv8: true,
            full_fp16: false,
            cssc: false,
            sve: false,
            lse: false,
            lse2: false,
            outline_atomics: false,
            rcpc3: false,
            mops: false,
            dot_prod: false,
            code_model: CodeModel::Small,
            darwin: false,
            windows: false,
            opt_level: 2,
        }
    }
}

impl Subtarget {
    /// The subtarget for `triple` with the `-mattr` string `features`, the
    /// `--code-model` value `code_model` and optimization level `opt_level`.
    pub fn new(triple: &str, features: &str, code_model: Option<&str>, opt_level: u8) -> Subtarget {
        let mut st = Subtarget { opt_level, ..Subtarget::default() };
        let os = triple.split('-').nth(2).unwrap_or("");
        st.darwin = ["darwin", "ios", "macos", "macosx", "tvos", "watchos", "xros", "bridgeos"]
            .iter()
            .any(|name| os.starts_with(name));
        st.windows = triple.split('-').skip(1).any(|part| part.starts_with("windows") || part == "win32");
        for (on, name) in crate::options::feature_items(features) {
            st.set(name, on);
        }
        st.code_model = match code_model {
            Some("tiny") => CodeModel::Tiny,
            Some("kernel") => CodeModel::Kernel,
            Some("large") => CodeModel::Large,
            _ => CodeModel::Small,
        };
        st
    }

    /// Turns feature `name` on or off with what it implies (on) or what
    /// depends on it (off). Unknown names are ignored, as llc does.
    pub fn set(&mut self, name: &str, on: bool) {
        if !on {
            match name {
                "fp-armv8" => {
                    self.fp_armv8 = false;
                    self.clear_neon();
                }
                "neon" => self.clear_neon(),
                "fullfp16" => {
                    self.full_fp16 = false;
                    self.sve = false;
                }
                "sve" => self.sve = false,
                "cssc" => self.cssc = false,
                "lse" => self.lse = false,
                "lse2" => {
                    self.lse2 = false;
                    self.rcpc3 = false;
                }
                "outline-atomics" => self.outline_atomics = false,
                "rcpc3" => self.rcpc3 = false,
                "mops" => self.mops = false,
                "dotprod" => self.dot_prod = false,
                _ => {}
            }
            return;
        }
        match name {
            "fp-armv8" => self.fp_armv8 = true,
            "neon" => self.enable_neon(),
            "fullfp16" => {
                self.fp_armv8 = true;
                self.full_fp16 = true;
            }
            "sve" | "sve2" | "sve2p1" | "sve2-aes" | "sve2-sha3" | "sve2-sm4" | "sve2-bitperm" => {
                self.enable_neon();
                self.full_fp16 = true;
                self.sve = true;
            }
            "cssc" => self.cssc = true,
            "lse" => self.lse = true,
            "lse2" => self.lse2 = true,
            "outline-atomics" => self.outline_atomics = true,
            "rcpc3" => {
                self.rcpc3 = true;
            }
            "mops" => self.mops = true,
            "dotprod" => {
                self.enable_neon();
                self.dot_prod = true;
            }
            arch if arch.starts_with('v') && arch.ends_with('a') => self.enable_arch(arch),
            _ => {}
        }
    }

    fn enable_neon(&mut self) {
        self.neon = true;
        self.fp_armv8 = true;
    }

    fn clear_neon(&mut self) {
        self.neon = false;
        self.full_fp16 = false;
        self.sve = false;
        self.dot_prod = false;
    }

    /// `+v8.Na` / `+v9.Na`: the features those versions make mandatory.
    fn enable_arch(&mut self, arch: &str) {
        let version = &arch[1..arch.len() - 1];
        let (major, minor) = match version.split_once('.') {
            Some((major, minor)) => (major.parse::<u32>().ok(), minor.parse::<u32>().ok()),
            None => (version.parse::<u32>().ok(), Some(0)),
        };
        let (Some(major), Some(minor)) = (major, minor) else { return };
        // v9.N includes v8.(N+5).
        let v8 = match major {
            8 => minor,
            9 => minor + 5,
            _ => return,
        };
        if v8 >= 1 {
            self.lse = true;
        }
        if v8 >= 4 {
            self.lse2 = true;
            self.dot_prod = true;
        }
        if v8 >= 8 {
            self.mops = true;
        }
        if v8 >= 9 {
            self.cssc = true;
        }
        if major == 9 {
            self.enable_neon();
            self.full_fp16 = true;
            self.sve = true;
        }
    }

    /// The legalizer has rules at all (LLVM gives none without NEON and
    /// FP-ARMv8).
    pub fn has_rules(&self) -> bool {
        self.neon && self.fp_armv8
    }

    /// Atomic read-modify-write operations become `__aarch64_*` calls.
    pub fn use_outline_atomics(&self) -> bool {
        self.outline_atomics && !self.lse
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let st = Subtarget::new("aarch64", "", None, 2);
        assert!(st.neon && st.fp_armv8 && !st.full_fp16 && !st.sve);
        assert_eq!(st.code_model, CodeModel::Small);
        assert!(!st.darwin);
    }

    #[test]
    fn features_and_implications() {
        let st = Subtarget::new("aarch64-linux-gnu", "+sve,+cssc,+no-such-thing", Some("large"), 0);
        assert!(st.sve && st.full_fp16 && st.cssc);
        assert_eq!(st.code_model, CodeModel::Large);
        let st = Subtarget::new("aarch64", "-fp-armv8", None, 2);
        assert!(!st.has_rules());
        let st = Subtarget::new("aarch64", "+outline-atomics", None, 2);
        assert!(st.use_outline_atomics());
        let st = Subtarget::new("aarch64", "+outline-atomics,+v8.1a", None, 2);
        assert!(!st.use_outline_atomics());
        assert!(Subtarget::new("aarch64-apple-ios", "", None, 0).darwin);
        assert!(Subtarget::new("aarch64", "+v9.4a", None, 2).cssc);
    }
}
