//! 32-bit Mips's registers under O32: the general-purpose registers by
//! their ABI names (`zero`, hard-wired, `at`, `v0`-`v1`, `a0`-`a3`,
//! `t0`-`t9`, `s0`-`s7`, `k0`-`k1`, `gp`, `sp`, `fp`, `ra`), and the FPU.
//! With 32-bit FPU registers (FR=0) `f2n` and `f2n+1` are the low and high
//! halves of the pair `dn`; with 64-bit ones (FR=1, `+fp64`) `fn` is the
//! low half of `dn_64`, itself the low half of the MSA register `wn`.

use super::{RegClass, RegView, number};

/// The ABI names of `$0` to `$31` in order.
const GPR_NAMES: [&str; 32] = [
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "s0", "s1", "s2",
    "s3", "s4", "s5", "s6", "s7", "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra",
];

fn gpr(name: &str) -> Option<RegView> {
    let name = if name == "s8" { "fp" } else { name };
    GPR_NAMES.contains(&name).then(|| RegView { zero: name == "zero", ..RegView::new(name, 32, 32, RegClass::Int) })
}

/// A register name with a numeric suffix after `prefix` (and before
/// `suffix`), up to `max`.
fn numbered(name: &str, prefix: &str, suffix: &str, max: u32) -> Option<u32> {
    number(name.strip_prefix(prefix)?.strip_suffix(suffix)?, max)
}

/// How a register name maps onto storage with 32-bit FPU registers.
pub(super) fn view_fp32(name: &str) -> Option<RegView> {
    if let Some(view) = gpr(name) {
        return Some(view);
    }
    if let Some(n) = numbered(name, "f", "", 31) {
        let unit = format!("d{}", n / 2);
        return Some(RegView {
            offset: 32 * (n % 2),
            keeps_rest: true,
            ..RegView::new(&unit, 64, 32, RegClass::Float)
        });
    }
    let n = numbered(name, "d", "", 15)?;
    Some(RegView::new(&format!("d{n}"), 64, 64, RegClass::Float))
}

/// How a register name maps onto storage with 64-bit FPU registers.
pub(super) fn view_fp64(name: &str) -> Option<RegView> {
    if let Some(view) = gpr(name) {
        return Some(view);
    }
    let (n, bits) = if let Some(n) = numbered(name, "f", "", 31) {
        (n, 32)
    } else if let Some(n) = numbered(name, "d", "_64", 31) {
        (n, 64)
    } else {
        (numbered(name, "w", "", 31)?, 128)
    };
    Some(RegView { keeps_rest: true, ..RegView::new(&format!("w{n}"), 128, bits, RegClass::Float) })
}

/// O32's callee-saved integer registers: `s0`-`s7`, `fp`, `gp` and `sp`.
fn preserved_gpr(unit: &str) -> bool {
    matches!(unit, "s0" | "s1" | "s2" | "s3" | "s4" | "s5" | "s6" | "s7" | "fp" | "gp" | "sp")
}

/// O32 with 32-bit FPU registers (`csr_o32`): also `d10`-`d15`
/// (`f20`-`f31`).
pub(super) fn preserved_fp32(unit: &str) -> u32 {
    let fpu = unit.strip_prefix('d').and_then(|n| n.parse::<u32>().ok());
    if preserved_gpr(unit) || matches!(fpu, Some(10..=15)) { u32::MAX } else { 0 }
}

/// O32 with 64-bit FPU registers (`csr_o32_fp64`): also the 64-bit
/// `d20_64`, `d22_64`, ..., `d30_64` (the low half of their MSA units).
pub(super) fn preserved_fp64(unit: &str) -> u32 {
    let fpu = unit.strip_prefix('w').and_then(|n| n.parse::<u32>().ok());
    match fpu {
        _ if preserved_gpr(unit) => u32::MAX,
        Some(n) if (20..=30).contains(&n) && n % 2 == 0 => 64,
        _ => 0,
    }
}

/// The FPU the features and CPU give a Mips target: (64-bit FPU
/// registers, floating-point values in FPU registers, only single
/// precision there). Mips32r6 (a `mipsisa32r6` triple or CPU), MSA and
/// `+fp64` give 64-bit registers; the last mention of a feature wins.
pub(super) fn fpu(triple: &str, cpu: Option<&str>, features: &str) -> (bool, bool, bool) {
    let r6 = triple.starts_with("mipsisa32r6") || cpu.is_some_and(|c| c.contains("r6") || c.starts_with("i6"));
    let (mut fp64, mut soft, mut single) = (r6, false, false);
    for feature in features.split(',').map(str::trim) {
        match feature {
            "+fp64" | "+msa" | "+mips32r6" => fp64 = true,
            "-fp64" => fp64 = false,
            "+soft-float" => soft = true,
            "-soft-float" => soft = false,
            "+single-float" => single = true,
            "-single-float" => single = false,
            _ => {}
        }
    }
    (fp64, !soft, single)
}
