//! The LLVM IR module document of a `.mir` file, the target triple and the
//! data layout.
//!
//! Where `llc` takes the triple from: `-mtriple=...` when given (normalised,
//! see [`normalize_triple`], and it replaces the module's own `target
//! triple`); otherwise the IR module's `target triple` as written; with
//! neither, the host's default triple (x86-64 here), which rejects AArch64
//! and RISC-V instructions. The data layout printed is always the target's,
//! whatever the module says.

use crate::llvm_ir::reorder_predecessors;
use std::fmt::Write as _;

/// The architectures gisel knows the data layout of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arch {
    /// 64-bit Arm (`aarch64`, `arm64`, `aarch64_be`).
    AArch64,
    /// `riscv32`.
    RiscV32,
    /// `riscv64`.
    RiscV64,
    /// 32-bit x86 (`i386` to `i686`).
    X86,
    /// `x86_64` (`amd64`).
    X86_64,
    /// 32-bit Arm and Thumb (`arm*`, `thumb*`).
    Arm,
    /// 32-bit Mips under the O32 ABI (`mips`, `mipsel`, `mipsisa32*`).
    Mips,
}

/// A target as far as the `.mir` container cares: triple, architecture and
/// data layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The triple as `llc` prints it in `target triple = "..."`.
    pub triple: String,
    /// The architecture.
    pub arch: Arch,
    /// The data layout string `llc` prints for this triple.
    pub datalayout: &'static str,
    /// The `-mattr` string (`+m,+f,+d`), empty when none. A synthesised IR
    /// module gives every function `#0` and `attributes #0 = {
    /// "target-features"="..." }` when it is set.
    pub features: String,
    /// The `-mcpu` name, if given: a synthesised IR module's `#0` then
    /// also says `"target-cpu"="..."`.
    pub cpu: Option<String>,
}

const AARCH64_ELF: &str = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32";
const AARCH64_BE_ELF: &str =
    "E-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32";
const AARCH64_MACHO: &str = "e-m:o-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-n32:64-S128-Fn32";
const AARCH64_COFF: &str = "e-m:w-p270:32:32-p271:32:32-p272:64:64-p:64:64-i32:32-i64:64-i128:128-n32:64-S128-Fn32";
const RISCV32: &str = "e-m:e-p:32:32-i64:64-n32-S128";
const RISCV64: &str = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128";
const X86_ELF: &str = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128";
const X86_COFF_MSVC: &str =
    "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32-a:0:32-S32";
const X86_COFF_GNU: &str = "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:32-n8:16:32-a:0:32-S32";
const X86_MACHO: &str = "e-m:o-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:128-n8:16:32-S128";
const X86_64_ELF: &str = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
const X86_64_MACHO: &str = "e-m:o-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
const X86_64_COFF: &str = "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
const ARM_ELF: &str = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64";
const ARM_BE_ELF: &str = "E-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64";
const ARM_COFF: &str = "e-m:w-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64";
const MIPS_BE: &str = "E-m:m-p:32:32-i8:8:32-i16:16:32-i64:64-n32-S64";
const MIPS_LE: &str = "e-m:m-p:32:32-i8:8:32-i16:16:32-i64:64-n32-S64";

impl Target {
    /// The target of `triple` (printed as given; pass it through
    /// [`normalize_triple`] first when it came from `-mtriple`). `None` for
    /// architectures gisel does not know.
    pub fn from_triple(triple: &str) -> Option<Target> {
        let arch_name = triple.split('-').next().unwrap_or("");
        let rest = &triple[arch_name.len()..];
        let apple = ["apple", "darwin", "macos", "ios", "tvos", "watchos", "xros"].iter().any(|k| rest.contains(k));
        let windows = rest.contains("windows") || rest.contains("win32");
        let (arch, datalayout) = match arch_name {
            "aarch64" | "arm64" if apple => (Arch::AArch64, AARCH64_MACHO),
            "aarch64" | "arm64" if windows => (Arch::AArch64, AARCH64_COFF),
            "aarch64" | "arm64" => (Arch::AArch64, AARCH64_ELF),
            "aarch64_be" => (Arch::AArch64, AARCH64_BE_ELF),
            "riscv32" => (Arch::RiscV32, RISCV32),
            "riscv64" => (Arch::RiscV64, RISCV64),
            // MinGW keeps x87's 4-byte alignment of long double.
            a if windows && is_x86_32(a) && rest.contains("gnu") => (Arch::X86, X86_COFF_GNU),
            a if windows && is_x86_32(a) => (Arch::X86, X86_COFF_MSVC),
            // The x32 ABI has a layout of its own.
            _ if rest.contains("gnux32") => return None,
            "i386" | "i486" | "i586" | "i686" if apple => (Arch::X86, X86_MACHO),
            "i386" | "i486" | "i586" | "i686" => (Arch::X86, X86_ELF),
            "x86_64" | "amd64" if apple => (Arch::X86_64, X86_64_MACHO),
            "x86_64" | "amd64" if windows => (Arch::X86_64, X86_64_COFF),
            "x86_64" | "amd64" => (Arch::X86_64, X86_64_ELF),
            // Darwin's Arm ABI (APCS) has a layout of its own.
            a if is_arm(a) && apple => return None,
            a if is_arm(a) && windows => (Arch::Arm, ARM_COFF),
            a if is_arm(a) && (a.contains("eb") || a.ends_with("_be")) => (Arch::Arm, ARM_BE_ELF),
            a if is_arm(a) => (Arch::Arm, ARM_ELF),
            a if is_mips32(a) && a.ends_with("el") => (Arch::Mips, MIPS_LE),
            a if is_mips32(a) => (Arch::Mips, MIPS_BE),
            _ => return None,
        };
        Some(Target { triple: triple.to_owned(), arch, datalayout, features: String::new(), cpu: None })
    }

    /// The same target with `-mattr=features`.
    pub fn with_features(mut self, features: &str) -> Target {
        self.features = features.to_owned();
        self
    }

    /// Size in bits of a pointer in `address_space`.
    pub fn pointer_bits(&self, address_space: u32) -> u32 {
        DataLayout::parse(self.datalayout).pointer_bits(address_space)
    }

    /// The ABI alignment in bytes of an IR type spelled as in a constant
    /// pool entry (`i32`, `double`, `ptr`, `<4 x i32>`); 1 when unknown.
    pub fn abi_alignment(&self, ir_type: &str) -> u64 {
        let ty = ir_type.trim();
        if let Some(inner) = ty.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
            let mut parts = inner.splitn(2, " x ");
            let count: u64 = parts.next().and_then(|n| n.trim().parse().ok()).unwrap_or(1);
            let elem_bits = parts.next().map_or(8, |e| self.type_bits(e.trim()));
            return (count * elem_bits).div_ceil(8).max(1).next_power_of_two();
        }
        match ty {
            "ptr" => u64::from(self.pointer_bits(0) / 8),
            t if t.starts_with("ptr addrspace(") => {
                let n = t["ptr addrspace(".len()..].trim_end_matches(')').parse().unwrap_or(0);
                u64::from(self.pointer_bits(n) / 8)
            }
            t => {
                let bits = self.type_bits(t);
                if bits == 0 { 1 } else { bits.div_ceil(8).next_power_of_two().min(16) }
            }
        }
    }

    fn type_bits(&self, ty: &str) -> u64 {
        match ty {
            "half" | "bfloat" => 16,
            "float" => 32,
            "double" => 64,
            "fp128" => 128,
            "ptr" => u64::from(self.pointer_bits(0)),
            t => t.strip_prefix('i').and_then(|n| n.parse().ok()).unwrap_or(0),
        }
    }
}

/// Whether `arch_name` (a triple's first part) is 32-bit x86.
fn is_x86_32(arch_name: &str) -> bool {
    matches!(arch_name, "i386" | "i486" | "i586" | "i686")
}

/// Whether `arch_name` (a triple's first part) is 32-bit Arm or Thumb.
fn is_arm(arch_name: &str) -> bool {
    (arch_name.starts_with("arm") && !arch_name.starts_with("arm64")) || arch_name.starts_with("thumb")
}

/// Whether `arch_name` (a triple's first part) is 32-bit Mips (the 64-bit
/// `mips64*` and `mipsisa64*` are not modelled).
fn is_mips32(arch_name: &str) -> bool {
    matches!(arch_name, "mips" | "mipsel" | "mipsallegrex" | "mipsallegrexel") || arch_name.starts_with("mipsisa32")
}

/// The pointer sizes of a data layout string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DataLayout {
    /// (address space, size in bits) of each `p[n]:size:...` entry.
    pub pointers: Vec<(u32, u32)>,
}

impl DataLayout {
    /// Reads the `p` entries of `layout`; other entries are ignored.
    pub fn parse(layout: &str) -> DataLayout {
        let mut pointers = Vec::new();
        for spec in layout.split('-') {
            let Some(rest) = spec.strip_prefix('p') else {
                continue;
            };
            let mut fields = rest.split(':');
            let space = fields.next().unwrap_or("");
            let space = if space.is_empty() { Some(0) } else { space.parse().ok() };
            let size = fields.next().and_then(|s| s.parse().ok());
            if let (Some(space), Some(size)) = (space, size) {
                pointers.push((space, size));
            }
        }
        DataLayout { pointers }
    }

    /// Pointer size in bits for `address_space` (LLVM's default is 64).
    pub fn pointer_bits(&self, address_space: u32) -> u32 {
        self.pointers.iter().find(|(s, _)| *s == address_space).map_or(64, |(_, bits)| *bits)
    }
}

/// Pointer size in bits of `address_space`, from a data layout string or a
/// triple (a string with no `-m:`/`e-`/`E-` layout shape is taken as a
/// triple; an unknown triple gives LLVM's default, 64).
pub fn pointer_bits(datalayout_or_triple: &str, address_space: u32) -> u32 {
    let s = datalayout_or_triple;
    if s.starts_with("e-") || s.starts_with("E-") || s == "e" || s == "E" {
        return DataLayout::parse(s).pointer_bits(address_space);
    }
    match Target::from_triple(s) {
        Some(t) => t.pointer_bits(address_space),
        None => DataLayout::parse(s).pointer_bits(address_space),
    }
}

/// The `target triple = "..."` of an IR module, if it has one.
pub fn module_triple(ir_module: &str) -> Option<&str> {
    module_string(ir_module, "target triple")
}

/// The `target datalayout = "..."` of an IR module, if it has one.
pub fn module_datalayout(ir_module: &str) -> Option<&str> {
    module_string(ir_module, "target datalayout")
}

/// The `!N` a numbered metadata definition line (`!N = ...`) defines.
fn metadata_id(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let digits = line.strip_prefix('!')?.bytes().take_while(u8::is_ascii_digit).count();
    let (id, rest) = line.split_at(1 + digits);
    (digits > 0 && rest.trim_start().starts_with('=')).then_some(id)
}

/// Numbered metadata nodes nothing else in the IR module refers to, which
/// llc does not print back (machine instructions may still name them).
/// The module body as it is written: each line indented by two spaces,
/// after a first `  ` line, with blank lines at either end left out.
struct Body<'o> {
    out: &'o mut String,
    started: bool,
    /// Blank lines seen since the last written one, written only if a
    /// line with content follows.
    blanks: usize,
}

impl<'o> Body<'o> {
    fn new(out: &'o mut String) -> Body<'o> {
        Body { out, started: false, blanks: 0 }
    }

    fn reserve(&mut self, bytes: usize) {
        self.out.reserve(bytes);
    }

    /// Adds `line` (without its line break).
    fn line(&mut self, line: &str) {
        if line.is_empty() {
            self.blanks += usize::from(self.started);
            return;
        }
        if !self.started {
            self.out.push_str("  \n");
            self.started = true;
        }
        for _ in 0..std::mem::take(&mut self.blanks) {
            self.out.push_str("  \n");
        }
        self.out.push_str("  ");
        self.out.push_str(line);
        self.out.push('\n');
    }
}

fn unreferenced_metadata(ir_module: &str) -> rustc_hash::FxHashSet<&str> {
    let mut referenced = rustc_hash::FxHashSet::default();
    let mut defined = Vec::new();
    for line in text_lines(ir_module) {
        let uses = match metadata_id(line) {
            Some(id) => {
                defined.push(id);
                line.split_once('=').map_or("", |(_, node)| node)
            }
            None => line,
        };
        for at in memchr::memchr_iter(b'!', uses.as_bytes()) {
            let digits = uses[at + 1..].bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                referenced.insert(&uses[at..at + 1 + digits]);
            }
        }
    }
    defined.retain(|id| !referenced.contains(id));
    defined.into_iter().collect()
}

/// The lines of `text` as [`str::lines`] gives them (a `\r` before a line
/// break dropped), found with the vectorised `memchr`.
fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .chain((!text.is_empty() && !text.ends_with('\n')).then_some(text.len()))
        .map(move |end| {
            let line = &text[start..end];
            start = end + 1;
            line.strip_suffix('\r').filter(|_| end < text.len()).unwrap_or(line)
        })
}

/// Whether a module line (without its indentation) is one the writer
/// replaces or drops: the module's identity, source file name, data layout
/// and triple, written anew, and numbered metadata nothing refers to.
fn is_rewritten(line: &str, unreferenced: &rustc_hash::FxHashSet<&str>) -> bool {
    match line.as_bytes().first() {
        Some(b';') => line.starts_with("; ModuleID"),
        Some(b's') => line.starts_with("source_filename"),
        Some(b't') => line.starts_with("target datalayout") || line.starts_with("target triple"),
        Some(b'!') => metadata_id(line).is_some_and(|id| unreferenced.contains(id)),
        _ => false,
    }
}

fn module_string<'a>(ir_module: &'a str, key: &str) -> Option<&'a str> {
    ir_module.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix(key)?.trim_start().strip_prefix('=')?.trim();
        rest.strip_prefix('"')?.split('"').next()
    })
}

/// Normalises a `-mtriple` value as `llc` does for the common shapes:
/// empty components become `unknown`, and a missing vendor is inserted when
/// the second component is an OS (`aarch64-linux-gnu` ->
/// `aarch64-unknown-linux-gnu`, `aarch64--` -> `aarch64-unknown-unknown`).
/// A single component (`aarch64`) is kept. Approximate for exotic triples.
pub fn normalize_triple(triple: &str) -> String {
    let mut parts: Vec<&str> = triple.split('-').collect();
    if parts.len() < 2 {
        return triple.to_owned();
    }
    const VENDORS: &[&str] = &[
        "unknown", "apple", "pc", "scei", "sie", "fsl", "ibm", "img", "mti", "nvidia", "csr", "amd", "mesa", "suse",
        "oe",
    ];
    if !parts[1].is_empty() && !VENDORS.contains(&parts[1]) {
        parts.insert(1, "unknown");
    }
    parts.iter().map(|p| if p.is_empty() { "unknown" } else { p }).collect::<Vec<_>>().join("-")
}

/// A global name as LLVM IR prints it after `@`.
fn ir_global_name(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_'));
    if plain || (!name.is_empty() && name.chars().all(|c| c.is_ascii_digit())) {
        return name.to_owned();
    }
    let mut out = String::from("\"");
    for b in name.bytes() {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            let _ = write!(out, "\\{b:02X}");
        } else {
            out.push(char::from(b));
        }
    }
    out.push('"');
    out
}

/// Writes the `--- |` IR module document through its closing `...`.
///
/// With `ir_module = None` this is the module `llc` synthesises for a file
/// without one, exactly: `; ModuleID`, `source_filename`, the target's data
/// layout and triple, and `define void @f() { entry: unreachable }` for each
/// function (with `#0` and an `attributes #0` line when
/// [`Target::features`] is set).
///
/// With `Some(text)` (the dedented text of the input's IR document), the
/// `; ModuleID`, `source_filename`, `target datalayout` and `target triple`
/// lines are written as `llc` writes them and the rest of the text is kept
/// verbatim. Limitation: `llc` re-prints the IR through LLVM's own printer
/// (adding `align` to allocas, expanding one-line functions, numbering
/// attributes ...), which gisel cannot do; the output matches `llc` only
/// when the input IR is already in printed form.
pub fn write_ir_module(
    ir_module: Option<&str>,
    file_name: &str,
    target: &Target,
    function_names: &[&str],
    out: &mut String,
) {
    out.push_str("--- |\n");
    let _ = writeln!(out, "  ; ModuleID = '{file_name}'");
    let source_filename =
        ir_module.and_then(|m| module_string(m, "source_filename")).map_or_else(|| file_name.to_owned(), str::to_owned);
    let _ = writeln!(out, "  source_filename = \"{source_filename}\"");
    let _ = writeln!(out, "  target datalayout = \"{}\"", target.datalayout);
    let _ = writeln!(out, "  target triple = \"{}\"", target.triple);
    let mut body = Body::new(out);
    match ir_module {
        Some(text) => {
            let unreferenced = unreferenced_metadata(text);
            let lines: Vec<&str> = text_lines(text).collect();
            body.reserve(text.len() + text.len() / 2);
            for line in reorder_predecessors(&lines) {
                let line = line.as_ref();
                if !is_rewritten(line.trim_start(), &unreferenced) {
                    body.line(line.trim_end());
                }
            }
        }
        None => {
            let mut attributes = Vec::new();
            if let Some(cpu) = &target.cpu {
                attributes.push(format!("\"target-cpu\"=\"{cpu}\""));
            }
            if !target.features.is_empty() {
                attributes.push(format!("\"target-features\"=\"{}\"", target.features));
            }
            let attrs = if attributes.is_empty() { "" } else { " #0" };
            body.reserve(function_names.iter().map(|name| name.len() + 56).sum());
            for name in function_names {
                let name = ir_global_name(name);
                body.line("");
                body.line(&format!("define void @{name}(){attrs} {{"));
                body.line("entry:");
                body.line("  unreachable");
                body.line("}");
            }
            if !attributes.is_empty() {
                body.line("");
                body.line(&format!("attributes #0 = {{ {} }}", attributes.join(" ")));
            }
        }
    }
    out.push_str("...\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lines_split_as_str_lines_does() {
        for text in ["", "\n", "a", "a\n", "a\r\nb", "a\r", "a\r\n\r\n", "\r\n", "a\n\nb\r\n c\r"] {
            assert_eq!(text_lines(text).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>(), "{text:?}");
        }
    }

    #[test]
    fn triples_and_layouts() {
        assert_eq!(normalize_triple("aarch64"), "aarch64");
        assert_eq!(normalize_triple("aarch64--"), "aarch64-unknown-unknown");
        assert_eq!(normalize_triple("aarch64-linux-gnu"), "aarch64-unknown-linux-gnu");
        assert_eq!(normalize_triple("arm64-apple-macosx"), "arm64-apple-macosx");
        let ios = Target::from_triple("aarch64-apple-ios").map(|t| t.datalayout);
        assert_eq!(ios, Some(AARCH64_MACHO));
        assert_eq!(pointer_bits("riscv32", 0), 32);
        assert_eq!(pointer_bits("riscv64", 0), 64);
        assert_eq!(pointer_bits("aarch64", 0), 64);
        assert_eq!(pointer_bits("aarch64", 270), 32);
        assert_eq!(pointer_bits(RISCV32, 0), 32);
        assert_eq!(pointer_bits("i686-unknown-linux-gnu", 0), 32);
        assert_eq!(pointer_bits("x86_64-unknown-linux-gnu", 0), 64);
        let windows = Target::from_triple("x86_64-pc-windows-msvc").map(|t| t.datalayout);
        assert_eq!(windows, Some(X86_64_COFF));
        assert_eq!(Target::from_triple("i686-pc-windows-msvc").map(|t| t.datalayout), Some(X86_COFF_MSVC));
        assert_eq!(Target::from_triple("i686-w64-windows-gnu").map(|t| t.datalayout), Some(X86_COFF_GNU));
        assert!(Target::from_triple("sparc").is_none());
    }

    #[test]
    fn arm_triples_and_layouts() {
        let layout = |triple| Target::from_triple(triple).map(|t| (t.arch, t.datalayout));
        assert_eq!(layout("armv7-unknown-linux-gnueabihf"), Some((Arch::Arm, ARM_ELF)));
        assert_eq!(layout("thumbv7-unknown-linux-gnueabihf"), Some((Arch::Arm, ARM_ELF)));
        assert_eq!(layout("armeb-unknown-linux-gnueabi"), Some((Arch::Arm, ARM_BE_ELF)));
        assert_eq!(layout("thumbv7-unknown-windows-msvc"), Some((Arch::Arm, ARM_COFF)));
        assert_eq!(layout("thumbv7-apple-ios"), None);
        assert_eq!(layout("arm64").map(|(arch, _)| arch), Some(Arch::AArch64));
        assert_eq!(pointer_bits("arm-unknown-linux-gnueabi", 0), 32);
    }

    #[test]
    fn mips_triples_and_layouts() {
        let layout = |triple| Target::from_triple(triple).map(|t| (t.arch, t.datalayout));
        assert_eq!(layout("mips-unknown-linux-gnu"), Some((Arch::Mips, MIPS_BE)));
        assert_eq!(layout("mipsel-unknown-linux-gnu"), Some((Arch::Mips, MIPS_LE)));
        assert_eq!(layout("mipsisa32r6el-unknown-linux-gnu"), Some((Arch::Mips, MIPS_LE)));
        assert_eq!(layout("mips64el-unknown-linux-gnuabi64"), None);
        assert_eq!(pointer_bits("mipsel-unknown-linux-gnu", 0), 32);
    }

    #[test]
    fn module_keys() {
        let m = "target datalayout = \"e-m:o\"\ntarget triple = \"aarch64--\"\n@var = global i8 0\n";
        assert_eq!(module_triple(m), Some("aarch64--"));
        assert_eq!(module_datalayout(m), Some("e-m:o"));
        assert_eq!(module_triple("define void @f() { ret void }"), None);
    }

    #[test]
    fn abi_alignments() {
        let Some(t) = Target::from_triple("aarch64") else { panic!("aarch64") };
        assert_eq!(t.abi_alignment("i32"), 4);
        assert_eq!(t.abi_alignment("i128"), 16);
        assert_eq!(t.abi_alignment("<4 x i32>"), 16);
        assert_eq!(t.abi_alignment("ptr"), 8);
        assert_eq!(t.abi_alignment("double"), 8);
    }

    #[test]
    fn synthesised_module() {
        let Some(t) = Target::from_triple("riscv32") else { panic!("riscv32") };
        let mut out = String::new();
        write_ir_module(None, "a.mir", &t, &["f", "g"], &mut out);
        let expected = "--- |\n  ; ModuleID = 'a.mir'\n  source_filename = \"a.mir\"\n  \
            target datalayout = \"e-m:e-p:32:32-i64:64-n32-S128\"\n  target triple = \"riscv32\"\n  \n  \
            define void @f() {\n  entry:\n    unreachable\n  }\n  \n  \
            define void @g() {\n  entry:\n    unreachable\n  }\n...\n";
        assert_eq!(out, expected);
    }
}
