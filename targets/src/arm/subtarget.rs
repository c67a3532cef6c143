//! The 32-bit Arm subtarget: the features llc 22 turns on for a triple, a
//! CPU and a feature string, and what the triple's environment says about
//! the ABI and the runtime library.
//!
//! llc starts from the CPU's features (none for `generic`), then applies
//! the triple's architecture (`armv7` is `+armv7-a`, only with no CPU or
//! the generic one), Thumb mode for `thumb*` triples (`+thumb-mode,+v4t`)
//! and `+noarm` on Windows, then the feature string left to right.
//! Enabling a feature enables what it implies; disabling one disables what
//! depends on it (`targets/data/arm-feature-implies.txt`, LLVM's
//! `Implies` lists from `tools/arm_tables.py`). A function's
//! `"use-soft-float"="true"` adds `+soft-float`.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use crate::options::feature_items;

const FEATURES: &str = include_str!("../../data/arm-features.txt");
const IMPLIES: &str = include_str!("../../data/arm-feature-implies.txt");

/// Each feature with the features it implies directly.
fn implies() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static TABLE: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        IMPLIES
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .map(|(name, implied)| (name, implied.split(',').collect()))
            .collect()
    })
}

/// The feature named `name` as llc knows it, `None` for an unknown one.
fn known(name: &str) -> Option<&'static str> {
    FEATURES.lines().find(|line| *line == name)
}

/// What the Arm legalizer rules, hooks and libcalls depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtarget {
    features: BTreeSet<&'static str>,
    env: Environment,
    windows: bool,
    big_endian: bool,
}

/// The parts of a triple's environment that matter here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Environment {
    /// `eabi`, `eabihf` (LLVM's `isTargetAEABI`).
    aeabi: bool,
    /// `gnueabi*`, `musleabi*`.
    gnu_or_musl_aeabi: bool,
    /// `android*` and Fuchsia, which also use the AEABI helpers.
    aeabi_runtime_only: bool,
    /// A hard-float ABI by default (`*hf`).
    hard_float: bool,
    /// LLVM's `computeTargetABI` gives APCS (a `gnu` environment, NetBSD).
    apcs: bool,
}

impl Environment {
    fn of(triple: &str) -> Environment {
        let parts: Vec<&str> = triple.split('-').collect();
        let env = parts.get(3).copied().unwrap_or("");
        let os = parts.get(2).copied().unwrap_or("");
        let darwin_or_windows =
            ["darwin", "ios", "macos", "tvos", "watchos", "windows", "win32"].iter().any(|name| os.starts_with(name));
        let env_kind = env.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        Environment {
            aeabi: matches!(env_kind, "eabi" | "eabihf") && !darwin_or_windows,
            gnu_or_musl_aeabi: matches!(
                env_kind,
                "gnueabi" | "gnueabihf" | "gnueabit64" | "gnueabihft64" | "musleabi" | "musleabihf"
            ),
            aeabi_runtime_only: env_kind.starts_with("android") || os.starts_with("fuchsia"),
            hard_float: env_kind.ends_with("hf") || env_kind.ends_with("hft64") || os.starts_with("windows"),
            apcs: env_kind == "gnu" || (env_kind.is_empty() && os.starts_with("netbsd")),
        }
    }
}

impl Subtarget {
    /// The subtarget for `triple` with CPU `cpu` (`None` or `generic` for
    /// the triple's architecture) and feature string `features`, which
    /// holds the CPU's own features first when there is a CPU.
    pub fn new(triple: &str, cpu: Option<&str>, features: &str) -> Subtarget {
        let arch = triple.split('-').next().unwrap_or("");
        let os = triple.split('-').nth(2).unwrap_or("");
        let windows = os.starts_with("windows") || os.starts_with("win32");
        let mut st = Subtarget {
            features: BTreeSet::new(),
            env: Environment::of(triple),
            windows,
            big_endian: arch.contains("eb") || arch.ends_with("_be"),
        };
        let mut triple_features = Vec::new();
        if cpu.is_none_or(|cpu| cpu == "generic") {
            triple_features.extend(arch_feature(arch));
        }
        if arch.starts_with("thumb") {
            triple_features.extend(["thumb-mode", "v4t"]);
        }
        if windows {
            triple_features.push("noarm");
        }
        // With a CPU, `features` starts with the CPU's; the triple's come
        // after them and before the rest, which cannot be told apart here:
        // they are applied first (only a later `-` item could differ).
        for name in triple_features {
            st.set(name, true);
        }
        for (on, name) in feature_items(features) {
            st.set(name, on);
        }
        st
    }

    /// Turns feature `name` on with what it implies, or off with what
    /// depends on it. Unknown names are ignored, as llc does (after its
    /// warning).
    pub fn set(&mut self, name: &str, on: bool) {
        let Some(name) = known(name) else { return };
        if on {
            let mut stack = vec![name];
            while let Some(feature) = stack.pop() {
                if self.features.insert(feature) {
                    stack.extend(implies().get(feature).into_iter().flatten());
                }
            }
        } else {
            let mut stack = vec![name];
            while let Some(feature) = stack.pop() {
                self.features.remove(feature);
                for (user, implied) in implies() {
                    if implied.contains(&feature) && self.features.contains(user) {
                        stack.push(user);
                    }
                }
            }
        }
    }

    /// Whether feature `name` is on.
    pub fn has(&self, name: &str) -> bool {
        self.features.contains(name)
    }

    /// Thumb mode (`thumb*` triples, `+thumb-mode`).
    pub fn is_thumb(&self) -> bool {
        self.has("thumb-mode")
    }

    /// Thumb without Thumb-2: LLVM's Arm legalizer has no rules for it.
    pub fn is_thumb1_only(&self) -> bool {
        self.is_thumb() && !self.has("thumb2")
    }

    /// Hardware division in the current mode (`hwdiv-arm` in Arm mode,
    /// `hwdiv` in Thumb mode).
    pub fn has_hw_divide(&self) -> bool {
        if self.is_thumb() { self.has("hwdiv") } else { self.has("hwdiv-arm") }
    }

    /// Floating point in software whatever the hardware (`+soft-float`).
    pub fn use_soft_float(&self) -> bool {
        self.has("soft-float")
    }

    /// Hardware single precision, VFPv2 or later (`hasVFP2Base`).
    pub fn has_vfp2_base(&self) -> bool {
        self.has("vfp2sp")
    }

    /// Hardware fused multiply-add, VFPv4 or later (`hasVFP4Base`).
    pub fn has_vfp4_base(&self) -> bool {
        self.has("vfp4d16sp")
    }

    /// Hardware floating point the legalizer uses: VFPv2 and not soft float.
    pub fn hard_float_ops(&self) -> bool {
        !self.use_soft_float() && self.has_vfp2_base()
    }

    /// Floating-point registers for `float` and `double` values (`fpregs`,
    /// not soft float, not Thumb-1): their types are legal in calls.
    pub fn has_fp_registers(&self) -> bool {
        self.has("fpregs") && !self.use_soft_float() && !self.is_thumb1_only()
    }

    /// The legalizer's `AEABI(ST)`: an `eabi`, `gnueabi` or `musleabi`
    /// environment (remainders through `__aeabi_*divmod`, AEABI
    /// comparison results).
    pub fn is_aeabi(&self) -> bool {
        self.env.aeabi || self.env.gnu_or_musl_aeabi
    }

    /// Whether the runtime library has the `__aeabi_*` helpers
    /// (`hasAEABILibcalls` and an AAPCS ABI).
    pub fn has_aeabi_libcalls(&self) -> bool {
        (self.is_aeabi() || self.env.aeabi_runtime_only) && !self.env.apcs
    }

    /// Whether calls other than the AEABI helpers pass floating-point
    /// values in VFP registers (the hard-float ABI, AAPCS-VFP).
    pub fn hard_float_abi(&self) -> bool {
        self.env.hard_float
    }

    /// Chooses the floating-point ABI (`-float-abi`) over the triple's.
    pub fn set_hard_float_abi(&mut self, hard: bool) {
        self.env.hard_float = hard;
    }

    /// The target is Windows.
    pub fn is_windows(&self) -> bool {
        self.windows
    }

    /// Big-endian (`armeb`, `thumbeb`).
    pub fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// How many instructions a 32-bit constant takes to build, LLVM's
    /// `ConstantMaterializationCost` (not for code size): more than two
    /// means a load from the constant pool.
    pub fn constant_cost(&self, value: u32) -> u32 {
        let v6t2 = self.has("v6t2");
        if self.is_thumb() {
            if value <= 255 {
                return 1;
            }
            if v6t2 && (value <= 0xffff || t2_so_imm(value) || t2_so_imm(!value)) {
                return 1;
            }
            if value <= 510 || !value <= 255 || thumb_imm_shifted(value) {
                return 2;
            }
        } else {
            if so_imm(value) || so_imm(!value) || (v6t2 && value <= 0xffff) {
                return 1;
            }
            if so_imm_two_part(value) || so_imm_two_part_neg(value) {
                return 2;
            }
        }
        if self.use_movt() { 2 } else { 3 }
    }

    /// MOVW/MOVT pairs for 32-bit constants (`useMovt`; functions are
    /// taken not to be `minsize`).
    fn use_movt(&self) -> bool {
        !self.has("no-movt") && self.has("v8m")
    }

    /// Code must not read data from its own sections (`+execute-only`).
    pub fn gen_execute_only(&self) -> bool {
        self.has("execute-only")
    }
}

/// The architecture feature of a triple's arch name (`armv7` and
/// `thumbv7` give `armv7-a`, `armv7em` gives `armv7e-m`), as LLVM's
/// `ARM::parseArch` and `getArchName` find it; none for plain `arm`.
fn arch_feature(arch: &str) -> Option<&'static str> {
    let rest = arch.strip_prefix("arm").or_else(|| arch.strip_prefix("thumb"))?;
    let rest = rest.strip_prefix("eb").unwrap_or_else(|| rest.strip_suffix("eb").unwrap_or(rest));
    if !rest.starts_with('v') {
        return None;
    }
    let synonym = match rest {
        "v5" => "v5t",
        "v5e" => "v5te",
        "v6j" => "v6",
        "v6hl" => "v6k",
        "v6m" | "v6sm" | "v6s-m" => "v6-m",
        "v6z" | "v6zk" => "v6kz",
        "v7" | "v7a" | "v7hl" | "v7l" => "v7-a",
        "v7r" => "v7-r",
        "v7m" => "v7-m",
        "v7em" => "v7e-m",
        "v8" | "v8a" | "v8l" => "v8-a",
        "v8r" => "v8-r",
        "v9" | "v9a" => "v9-a",
        "v8m.base" => "v8-m.base",
        "v8m.main" => "v8-m.main",
        "v8.1m.main" => "v8.1-m.main",
        v if v.starts_with("v8.") || v.starts_with("v9.") => {
            // `v8.2a` is `v8.2-a`.
            return v.strip_suffix('a').and_then(|version| known(&format!("arm{version}-a")));
        }
        other => other,
    };
    known(&format!("arm{synonym}"))
}

/// The rotation (right, even) that brings the lowest useful byte of
/// `value` into an Arm-mode immediate (`getSOImmValRotate`).
fn so_imm_rotate(value: u32) -> u32 {
    if value & !0xff == 0 {
        return 0;
    }
    let rotate = value.trailing_zeros() & !1;
    if value.rotate_right(rotate) & !0xff == 0 {
        return (32 - rotate) & 31;
    }
    // A span wrapping around bit 0 (0xF000000F): ignore the low six bits.
    if value & 63 != 0 {
        let wrapped = (value & !63).trailing_zeros() & !1;
        if value.rotate_right(wrapped) & !0xff == 0 {
            return (32 - wrapped) & 31;
        }
    }
    (32 - rotate) & 31
}

/// `value` without the chunk one Arm-mode immediate covers.
fn so_imm_rest(value: u32) -> u32 {
    (!0xffu32).rotate_right(so_imm_rotate(value)) & value
}

/// An Arm-mode modified immediate: 8 bits rotated right by an even amount.
fn so_imm(value: u32) -> bool {
    so_imm_rest(value) == 0
}

/// A value two Arm-mode immediates build (`isSOImmTwoPartVal`).
fn so_imm_two_part(value: u32) -> bool {
    let rest = so_imm_rest(value);
    rest != 0 && so_imm_rest(rest) == 0
}

/// A value whose negation two Arm-mode immediates build, the first as an
/// MVN (`isSOImmTwoPartValNeg`).
fn so_imm_two_part_neg(value: u32) -> bool {
    let negated = value.wrapping_neg();
    if !so_imm_two_part(negated) {
        return false;
    }
    let first = 0xffu32.rotate_right(so_imm_rotate(negated)) & negated;
    so_imm(!first.wrapping_neg())
}

/// A Thumb-2 modified immediate: a byte splatted as `0x000000XY`,
/// `0x00XY00XY`, `0xXY00XY00` or `0xXYXYXYXY`, or 8 bits rotated.
fn t2_so_imm(value: u32) -> bool {
    if value & 0xffff_ff00 == 0 {
        return true;
    }
    let shifted = if value & 0xff == 0 { value >> 8 } else { value };
    let byte = shifted & 0xff;
    let pair = byte | (byte << 16);
    if shifted == pair || shifted == pair | (pair << 8) {
        return true;
    }
    let rotate = value.leading_zeros();
    rotate < 24 && 0xff00_0000u32.rotate_right(rotate) & value == value
}

/// A Thumb-1 immediate: 8 bits shifted left.
fn thumb_imm_shifted(value: u32) -> bool {
    let shift = if value & !0xff == 0 { 0 } else { value.trailing_zeros() };
    (!0xffu32).checked_shl(shift).unwrap_or(0) & value == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_bring_their_architecture() {
        let v7 = Subtarget::new("armv7-unknown-linux-gnueabihf", None, "");
        assert!(!v7.has("neon") && v7.has("vfp3") && v7.has_vfp2_base() && v7.has("thumb2") && !v7.is_thumb());
        assert!(v7.is_aeabi() && v7.hard_float_abi() && !v7.has_hw_divide());
        let arm = Subtarget::new("arm-unknown-linux-gnueabi", None, "");
        assert!(!arm.has_vfp2_base() && !arm.has("v5t") && !arm.hard_float_abi());
        let thumb = Subtarget::new("thumbv7-unknown-linux-gnueabihf", None, "");
        assert!(thumb.is_thumb() && !thumb.is_thumb1_only() && !thumb.has_hw_divide());
        assert!(Subtarget::new("thumb-unknown-linux-gnueabi", None, "").is_thumb1_only());
        assert!(Subtarget::new("thumbv7em-none-eabi", None, "").has_hw_divide());
    }

    #[test]
    fn features_imply_and_depend() {
        let st = Subtarget::new("armv7-unknown-linux-gnueabihf", None, "+hwdiv-arm,-vfp2sp");
        assert!(st.has_hw_divide());
        assert!(!st.has_vfp2_base() && !st.has("vfp2") && !st.has("vfp3"), "vfp2sp takes what builds on it");
        assert!(st.has("fp64"), "what vfp2sp builds on stays");
        let soft = Subtarget::new("armv7-unknown-linux-gnueabihf", None, "+soft-float");
        assert!(soft.has_vfp2_base() && !soft.hard_float_ops());
        let cpu = Subtarget::new("arm-unknown-linux-gnueabi", Some("cortex-a9"), "+armv7-a,+fp16");
        assert!(cpu.has("vfp3") && cpu.has("v6t2") && !cpu.has("neon"), "Debian: ARMv7-A has no NEON");
        assert!(!Subtarget::new("arm", None, "+nonsense").has("nonsense"));
    }

    #[test]
    fn constant_costs() {
        let arm = Subtarget::new("armv7-unknown-linux-gnueabihf", None, "");
        assert_eq!(arm.constant_cost(0xff00_0000), 1, "rotated byte");
        assert_eq!(arm.constant_cost(0xffff_fffe), 1, "MVN");
        assert_eq!(arm.constant_cost(0x1234), 1, "MOVW");
        assert_eq!(arm.constant_cost(0x1234_5678), 2, "MOVW + MOVT");
        let old = Subtarget::new("arm-unknown-linux-gnueabi", None, "");
        assert_eq!(old.constant_cost(0x00ff_00ff), 2, "two parts");
        assert_eq!(old.constant_cost(0x1234_5678), 3, "constant pool");
        let thumb = Subtarget::new("thumbv7-unknown-linux-gnueabihf", None, "");
        assert_eq!(thumb.constant_cost(0x00ab_00ab), 1, "splat");
        assert_eq!(thumb.constant_cost(0x1234_5678), 2);
    }
}
