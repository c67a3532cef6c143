//! X86's registers: the general-purpose registers with their 32-, 16- and
//! 8-bit views (`rax`, `eax`, `ax`, `al`, `ah`; `r8`, `r8d`, `r8w`, `r8b`),
//! the vector registers (`xmm`, `ymm` and `zmm` views of one 512-bit unit),
//! the AVX-512 mask registers `k0`-`k7` and the x87 registers `fp0`-`fp7`
//! (80 bits). i386 has the eight legacy registers at 32 bits and
//! `xmm0`-`xmm7`.

use super::{RegClass, RegView, number};

/// The legacy registers `a`, `b`, `c`, `d` (with a high-byte view), then
/// `si`, `di`, `bp`, `sp` (whose byte views exist only in 64-bit mode).
const LEGACY: [&str; 8] = ["ax", "bx", "cx", "dx", "si", "di", "bp", "sp"];

fn gpr(name: &str, xlen: u32) -> Option<RegView> {
    let long = xlen == 64;
    let unit = |base: &str| format!("r{base}");
    // A write narrower than 32 bits leaves the rest of the register as it
    // was, as the hardware does; a 32-bit write zero-extends (in 64-bit
    // mode), which the interpreter leaves undefined.
    let narrow = |base: &str, bits: u32, offset: u32| {
        Some(RegView { offset, keeps_rest: true, ..RegView::new(&unit(base), xlen, bits, RegClass::Int) })
    };
    for (i, base) in LEGACY.iter().enumerate() {
        let letter = &base[..1];
        let byte = if i < 4 { format!("{letter}l") } else { format!("{base}l") };
        match name {
            _ if name == unit(base) && long => return Some(RegView::new(&unit(base), 64, 64, RegClass::Int)),
            _ if name == format!("e{base}") => return Some(RegView::new(&unit(base), xlen, 32, RegClass::Int)),
            _ if name == *base => return narrow(base, 16, 0),
            _ if name == byte && (i < 4 || long) => return narrow(base, 8, 0),
            _ if i < 4 && name == format!("{letter}h") => return narrow(base, 8, 8),
            _ => {}
        }
    }
    if !long {
        return None;
    }
    let rest = name.strip_prefix('r')?;
    let digits = rest.trim_end_matches(['d', 'w', 'b']);
    let n = number(digits, 15).filter(|n| *n >= 8)?;
    let unit = format!("r{n}");
    match &rest[digits.len()..] {
        "" => Some(RegView::new(&unit, 64, 64, RegClass::Int)),
        "d" => Some(RegView::new(&unit, 64, 32, RegClass::Int)),
        "w" => Some(RegView { keeps_rest: true, ..RegView::new(&unit, 64, 16, RegClass::Int) }),
        "b" => Some(RegView { keeps_rest: true, ..RegView::new(&unit, 64, 8, RegClass::Int) }),
        _ => None,
    }
}

/// A register whose class holds values of several widths (`$xmm0` holds
/// an `s32` or a `<4 x s32>`, `$fp0` a `float` or an `x86_fp80`): copies
/// of any width up to the view's are well formed.
fn flexible(view: RegView) -> Option<RegView> {
    Some(RegView { fixed_width: false, ..view })
}

fn view(name: &str, xlen: u32) -> Option<RegView> {
    if let Some(view) = gpr(name, xlen) {
        return Some(view);
    }
    let vectors = if xlen == 64 { 31 } else { 7 };
    for (prefix, bits) in [("xmm", 128), ("ymm", 256), ("zmm", 512)] {
        if let Some(n) = name.strip_prefix(prefix).and_then(|n| number(n, vectors)) {
            return flexible(RegView::new(&format!("zmm{n}"), 512, bits, RegClass::Float));
        }
    }
    if let Some(n) = name.strip_prefix("fp").and_then(|n| number(n, 7)) {
        return flexible(RegView::new(&format!("fp{n}"), 80, 80, RegClass::Float));
    }
    let n = name.strip_prefix('k').and_then(|n| number(n, 7))?;
    flexible(RegView::new(&format!("k{n}"), 64, 64, RegClass::Int))
}

/// How an x86-64 register name maps onto storage.
pub(super) fn view64(name: &str) -> Option<RegView> {
    view(name, 64)
}

/// How an i386 register name maps onto storage.
pub(super) fn view32(name: &str) -> Option<RegView> {
    view(name, 32)
}

/// System V x86-64: `rbx`, `rbp` and `r12`-`r15` are callee-saved.
pub(super) fn preserved64(unit: &str) -> u32 {
    if matches!(unit, "rbx" | "rbp" | "r12" | "r13" | "r14" | "r15") { u32::MAX } else { 0 }
}

/// i386 System V: `ebx`, `esi`, `edi` and `ebp` are callee-saved.
pub(super) fn preserved32(unit: &str) -> u32 {
    if matches!(unit, "rbx" | "rsi" | "rdi" | "rbp") { u32::MAX } else { 0 }
}
