//! AArch64's registers under AAPCS64: `x0`-`x30` (`w` views), `xzr`/`wzr`,
//! and `v0`-`v31` seen as `q`, `d`, `s`, `h` and `b`.

use super::{RegClass, RegView, number};

/// How an AArch64 register name maps onto storage.
pub(super) fn view(name: &str) -> Option<RegView> {
    if name == "xzr" || name == "wzr" {
        let bits = if name == "xzr" { 64 } else { 32 };
        return Some(RegView { zero: true, ..RegView::new("xzr", 64, bits, RegClass::Int) });
    }
    let (prefix, rest) = name.split_at(1.min(name.len()));
    let n = number(rest, 31)?;
    let (unit, unit_bits, class) = match prefix {
        "x" | "w" if n <= 30 => (format!("x{n}"), 64, RegClass::Int),
        "q" | "d" | "s" | "h" | "b" => (format!("v{n}"), 128, RegClass::Float),
        _ => return None,
    };
    let bits = match prefix {
        "x" => 64,
        "w" | "s" => 32,
        "q" => 128,
        "d" => 64,
        "h" => 16,
        _ => 8,
    };
    Some(RegView::new(&unit, unit_bits, bits, class))
}

/// AAPCS64: `x19`-`x29` are callee-saved, and the low 64 bits of
/// `v8`-`v15`.
pub(super) fn preserved(unit: &str) -> u32 {
    let number = |prefix| unit.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
    match (number("x"), number("v")) {
        (Some(19..=29), _) => 64,
        (_, Some(8..=15)) => 64,
        _ => 0,
    }
}
