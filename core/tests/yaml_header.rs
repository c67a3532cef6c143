//! The YAML container of `.mir` files against `llc -run-pass=none`: every
//! header written by `write_function_header` (from `---` through the
//! `body:` line) and the synthesised IR module must match `llc`'s text.
//!
//! `tests/data/yaml/` holds inputs with `llc` 22's outputs (flags in
//! `MANIFEST.tsv`); when `../shared/conformance` (or `$GISEL_CONFORMANCE`)
//! and `llc` exist, every conformance input is checked the same way.

use gisel_core::mir::{
    FunctionHeader, MirFile, RegisterEntry, Target, module_triple, normalize_triple, parse_document,
    validate_machine_function_info, write_function_header, write_ir_module,
};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The header texts of an `llc` output: each `---` through `body: ... |`.
fn expected_headers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.split_inclusive('\n') {
        if line == "---\n" {
            current = Some(String::new());
        }
        if let Some(cur) = current.as_mut() {
            cur.push_str(line);
            if line.starts_with("body:") {
                out.extend(current.take());
            }
        }
    }
    out
}

/// The `--- |` module of an `llc` output, through `...`.
fn expected_module(text: &str) -> Option<&str> {
    let start = text.find("--- |\n")?;
    let end = text[start..].find("\n...\n")? + start + 5;
    Some(&text[start..end])
}

fn parse(path: &Path, text: &str) -> MirFile {
    parse_document(text).unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string(), text)))
}

/// `llc` prints `fwdArgRegs` as a block sequence inside a flow mapping,
/// which LLVM's YAML reader accepts and a conforming YAML parser does not;
/// drop the `callSites` list before reading `llc`'s output back.
fn without_call_sites(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        if skipping && line.starts_with(' ') {
            continue;
        }
        skipping = line == "callSites:\n";
        out.push_str(if skipping { "callSites:       []\n" } else { line });
    }
    out
}

/// The triple llc uses: `-mtriple` (normalised) or the module's.
fn target_for(flags: &str, file: &MirFile) -> Option<Target> {
    let mtriple = flags.split_whitespace().find_map(|f| f.strip_prefix("-mtriple="));
    let triple = match mtriple {
        Some(t) => normalize_triple(t),
        None => module_triple(file.ir_module.as_deref()?)?.to_owned(),
    };
    let mattr = flags.split_whitespace().find_map(|f| f.strip_prefix("-mattr=")).unwrap_or("");
    Target::from_triple(&triple).map(|t| t.with_features(mattr))
}

/// Compares our headers (and synthesised module) with `llc`'s output.
fn check(path: &Path, module_name: &str, input: &str, flags: &str, expected: &str) -> Result<(), String> {
    let file = parse(path, input);
    let out = parse(path, &without_call_sites(expected));
    let target = target_for(flags, &file).ok_or_else(|| format!("{}: no target", path.display()))?;
    let headers = expected_headers(expected);
    if headers.len() != file.functions.len() || out.functions.len() != file.functions.len() {
        return Err(format!("{}: function count differs", path.display()));
    }
    for ((func, llc), want) in file.functions.iter().zip(&out.functions).zip(&headers) {
        validate_machine_function_info(&func.header, &target).map_err(|e| e.render("input", input))?;
        let mut header: FunctionHeader = func.header.clone();
        // What llc derives from the body: taken from its own output.
        header.no_phis = llc.header.no_phis;
        header.is_ssa = llc.header.is_ssa;
        header.no_vregs = llc.header.no_vregs;
        let mut got = String::new();
        write_function_header(&header, llc.header.registers.iter().map(RegisterEntry::from), &target, &mut got);
        if &got != want {
            return Err(format!(
                "{}: header of {} differs\n--- ours\n{got}--- llc\n{want}",
                path.display(),
                header.name
            ));
        }
    }
    if file.ir_module.is_none() {
        let names: Vec<&str> = file.functions.iter().map(|f| f.header.name.as_str()).collect();
        let mut got = String::new();
        write_ir_module(None, module_name, &target, &names, &mut got);
        if Some(got.as_str()) != expected_module(expected) {
            return Err(format!("{}: module differs\n{got}", path.display()));
        }
    }
    Ok(())
}

#[test]
fn headers_match_llc_on_stored_outputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/yaml");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap_or_default();
    let mut checked = 0;
    for line in manifest.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (file, flags) = line.split_once('\t').unwrap_or((line, ""));
        let input = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        let expected_path = dir.join(file.replace(".mir", ".expected.mir"));
        let expected = std::fs::read_to_string(expected_path).unwrap_or_default();
        if let Err(e) = check(&dir.join(file), file, &input, flags, &expected) {
            panic!("{e}");
        }
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} stored cases");
}

fn conformance_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GISEL_CONFORMANCE") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"),
    };
    dir.is_dir().then_some(dir)
}

fn mir_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(sub.path()).into_iter().flatten().flatten() {
            let p = f.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".mir") && !name.ends_with(".expected.mir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn conformance_inputs_parse() {
    let Some(root) = conformance_dir() else {
        println!("skipped: no ../shared/conformance");
        return;
    };
    let mut count = 0;
    for part in ["llvm", "sweep"] {
        for path in mir_files(&root.join(part)) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            parse(&path, &text);
            count += 1;
        }
    }
    assert!(count > 0);
}

#[test]
fn conformance_headers_match_llc() {
    let llc = Path::new("/usr/lib/llvm-22/bin/llc");
    let Some(root) = conformance_dir().filter(|_| llc.exists()) else {
        println!("skipped: no ../shared/conformance or no llc-22");
        return;
    };
    let manifest = std::fs::read_to_string(root.join("llvm/MANIFEST.tsv")).unwrap_or_default();
    let mut failures = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [dir, file, run, mtriple, mattr, ..] = cols[..] else {
            continue;
        };
        if run != "0" {
            continue;
        }
        let path = root.join("llvm").join(dir).join(file);
        let mut flags = String::new();
        if !mtriple.is_empty() {
            flags = format!("-mtriple={mtriple}");
        }
        if !mattr.is_empty() {
            flags.push_str(&format!(" -mattr={mattr}"));
        }
        let mut cmd = Command::new(llc);
        cmd.args(flags.split_whitespace());
        let Ok(output) = cmd.args(["-run-pass=none", "-o", "-"]).arg(&path).output() else {
            continue;
        };
        if !output.status.success() {
            continue;
        }
        let expected = String::from_utf8_lossy(&output.stdout);
        let input = std::fs::read_to_string(&path).unwrap_or_default();
        let module_name = path.display().to_string();
        if let Err(e) = check(&path, &module_name, &input, &flags, &expected) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
