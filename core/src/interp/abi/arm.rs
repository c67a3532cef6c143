//! 32-bit Arm's registers: `r0`-`r12`, `sp`, `lr` and `pc`, and the VFP
//! bank as sixteen 128-bit units: `q0`-`q15`, `d0`-`d31` (`d2n` and
//! `d2n+1` are the halves of `qn`) and `s0`-`s31` (`s2n` and `s2n+1` the
//! halves of `dn`). Writing one view keeps the rest of its unit, so that
//! `s0` and `s1` written one after the other make `d0`.

use super::{RegClass, RegView, number};

/// How an Arm register name maps onto storage.
pub(super) fn view(name: &str) -> Option<RegView> {
    let core = match name {
        "sp" => Some(13),
        "lr" => Some(14),
        "pc" => Some(15),
        _ => name.strip_prefix('r').and_then(|n| number(n, 15)),
    };
    if let Some(n) = core {
        return Some(RegView::new(&format!("r{n}"), 32, 32, RegClass::Int));
    }
    let (prefix, rest) = name.split_at(1.min(name.len()));
    let n = number(rest, 31)?;
    let (unit, bits, offset) = match prefix {
        "q" if n < 16 => (n, 128, 0),
        "d" => (n / 2, 64, 64 * (n % 2)),
        "s" => (n / 4, 32, 32 * (n % 4)),
        _ => return None,
    };
    Some(RegView { offset, keeps_rest: true, ..RegView::new(&format!("q{unit}"), 128, bits, RegClass::Float) })
}

/// The AAPCS: `r4`-`r11` and `sp` are callee-saved, and `d8`-`d15`
/// (`q4`-`q7`).
pub(super) fn preserved(unit: &str) -> u32 {
    let number = |prefix| unit.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
    match (number("r"), number("q")) {
        (Some(4..=11 | 13), _) | (_, Some(4..=7)) => u32::MAX,
        _ => 0,
    }
}
