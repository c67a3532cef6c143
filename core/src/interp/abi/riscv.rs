//! RISC-V's registers: `x0`-`x31` (and their ABI names), `x0` hard-wired
//! to zero, and `f0`-`f31` seen as `_h`, `_f` and `_d`.

use super::{RegClass, RegView, number};

/// RISC-V's ABI names of the integer registers, `x0` to `x31` in order.
const ABI_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2",
    "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];

fn view(name: &str, xlen: u32) -> Option<RegView> {
    if let Some(n) = ABI_NAMES.iter().position(|n| *n == name).or((name == "fp").then_some(8)) {
        return view(&format!("x{n}"), xlen);
    }
    if let Some(rest) = name.strip_prefix('x') {
        let n = number(rest, 31)?;
        return Some(RegView { zero: n == 0, ..RegView::new(&format!("x{n}"), xlen, xlen, RegClass::Int) });
    }
    let rest = name.strip_prefix('f')?;
    let (num, suffix) = rest.split_once('_')?;
    let n = number(num, 31)?;
    let bits = match suffix {
        "h" => 16,
        "f" => 32,
        "d" => 64,
        _ => return None,
    };
    Some(RegView::new(&format!("f{n}"), 64, bits, RegClass::Float))
}

/// How an RV32 register name maps onto storage.
pub(super) fn view32(name: &str) -> Option<RegView> {
    view(name, 32)
}

/// How an RV64 register name maps onto storage.
pub(super) fn view64(name: &str) -> Option<RegView> {
    view(name, 64)
}

/// The RISC-V psABI: `sp`, `gp`, `tp`, `s0`-`s11` and `fs0`-`fs11` are
/// preserved (whole units).
pub(super) fn preserved(unit: &str) -> u32 {
    let number = |prefix| unit.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
    match (number("x"), number("f")) {
        (Some(2..=4 | 8 | 9 | 18..=27), _) | (_, Some(8 | 9 | 18..=27)) => u32::MAX,
        _ => 0,
    }
}
