//! Reads the machine functions out of a tool's `.mir` output and names their
//! virtual registers for FileCheck (`[[COPY:%[0-9]+]]` on the def,
//! `[[COPY]]` on uses), with the naming of LLVM's
//! `update_mir_test_checks.py`.

use regex::Regex;
use std::sync::LazyLock;

/// A numbered virtual register with its optional subregister, class or
/// bank, and type: `%3`, `%3.sub_32`, `%3:gpr64`, `%3:_(<2 x s64>)`.
const VREG: &str = r"(%[0-9]+)(?:\.[a-z0-9_]+)?(?::[a-z0-9_]+)?(?:\([<>a-z0-9 ]+\))?";

/// Instruction flags that may stand between `=` and the opcode.
const MI_FLAGS: &str = "(?:frame-setup |frame-destroy |nnan |ninf |nsz |arcp |contract |afn |reassoc \
     |nuw |nsw |exact |nofpexcept |nomerge |unpredictable |noconvergent |nneg |disjoint \
     |nusw |samesign |inbounds )*";

static VREG_RE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(VREG).ok());

/// A line defining numbered vregs: the defs, then ` = `, flags, the opcode.
static VREG_DEF_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let def = format!("(?:dead |undef )*{VREG}");
    Regex::new(&format!(r"^ *(?P<vregs>{def}(?:, {def})*) = {MI_FLAGS}(?P<opcode>[A-Zt][A-Za-z0-9_]+)")).ok()
});

static NAME_RE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"^ *name: *(?P<func>[A-Za-z0-9_.-]+) *$").ok());
static BODY_RE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"^ *body: *\|").ok());

/// One machine function of the tool's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFunction {
    /// The function's name.
    pub name: String,
    /// The lines of its `body: |` block, vregs already named.
    pub body: Vec<String>,
}

/// The check name for a vreg defined by `opcode`, given the names in use.
pub fn vreg_name(opcode: &str, in_use: &[String]) -> String {
    let mut base = opcode.strip_prefix("G_").unwrap_or(opcode).to_owned();
    if opcode.ends_with("_PSEUDO") {
        // The script slices `base[:len("_PSEUDO")]`, keeping the first seven
        // characters; we keep that so our checks match LLVM's.
        base = base.chars().take("_PSEUDO".len()).collect();
    }
    let short = match base.as_str() {
        "IMPLICIT_DEF" => "DEF",
        "GLOBAL_VALUE" => "GV",
        "CONSTANT" | "FCONSTANT" => "C",
        "MERGE_VALUES" => "MV",
        "UNMERGE_VALUES" => "UV",
        "INTRINSIC" | "INTRINSIC_W_SIDE_EFFECTS" => "INT",
        "INSERT_VECTOR_ELT" => "IVEC",
        "EXTRACT_VECTOR_ELT" => "EVEC",
        "SHUFFLE_VECTOR" => "SHUF",
        other => other,
    };
    let mut base = short.to_owned();
    if base.ends_with(|c: char| c.is_ascii_digit()) {
        base.push('_');
    }
    let taken = in_use.iter().filter(|n| n.trim_end_matches(|c: char| c.is_ascii_digit()) == base).count();
    if taken == 0 { base } else { format!("{base}{taken}") }
}

/// Names the numbered vregs of a function body, in order of definition.
pub fn mangle_body(lines: &[String]) -> Vec<String> {
    let (Some(def_re), Some(vreg_re)) = (VREG_DEF_RE.as_ref(), VREG_RE.as_ref()) else {
        return lines.to_vec();
    };
    let mut known: Vec<(String, String, Option<Regex>)> = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let mut line = line.clone();
        if let Some(caps) = def_re.captures(&line.clone()) {
            let opcode = caps.name("opcode").map_or("", |m| m.as_str());
            let vregs = caps.name("vregs").map_or("", |m| m.as_str());
            for vreg in vreg_re.captures_iter(vregs) {
                let Some(number) = vreg.get(1).map(|m| m.as_str()) else {
                    continue;
                };
                let name = match known.iter().find(|(n, _, _)| n == number) {
                    Some((_, name, _)) => name.clone(),
                    None => {
                        let names: Vec<String> = known.iter().map(|(_, n, _)| n.clone()).collect();
                        let name = vreg_name(opcode, &names);
                        let use_re = Regex::new(&format!(r"{}\b", regex::escape(number))).ok();
                        known.push((number.to_owned(), name.clone(), use_re));
                        name
                    }
                };
                line = line.replacen(number, &format!("[[{name}:%[0-9]+]]"), 1);
            }
        }
        for (_, name, use_re) in &known {
            if let Some(re) = use_re {
                line = re.replace_all(&line, format!("[[{name}]]").as_str()).into_owned();
            }
        }
        out.push(line);
    }
    out
}

/// The machine functions of a `.mir` output, in order, vregs named.
pub fn functions(output: &str) -> Vec<OutputFunction> {
    let (Some(name_re), Some(body_re)) = (NAME_RE.as_ref(), BODY_RE.as_ref()) else {
        return Vec::new();
    };
    let mut funcs = Vec::new();
    let mut name: Option<String> = None;
    let mut body: Option<Vec<String>> = None;
    for line in output.lines() {
        let trimmed = line.trim_end();
        if trimmed == "---" || trimmed == "..." {
            if let (Some(n), Some(b)) = (name.take(), body.take()) {
                funcs.push(OutputFunction { name: n, body: mangle_body(&b) });
            }
            name = None;
            body = None;
            continue;
        }
        match (&name, &mut body) {
            (_, Some(b)) => b.push(line.to_owned()),
            (None, None) => name = name_re.captures(line).and_then(|c| c.name("func")).map(|m| m.as_str().to_owned()),
            (Some(_), None) if body_re.is_match(line) => body = Some(Vec::new()),
            _ => {}
        }
    }
    if let (Some(n), Some(b)) = (name, body) {
        funcs.push(OutputFunction { name: n, body: mangle_body(&b) });
    }
    funcs
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn names(ops: &[&str]) -> Vec<String> {
        let mut in_use = Vec::new();
        for op in ops {
            let n = vreg_name(op, &in_use);
            in_use.push(n);
        }
        in_use
    }

    #[test]
    fn names_follow_the_script() {
        let got = names(&[
            "COPY",
            "COPY",
            "G_CONSTANT",
            "G_FCONSTANT",
            "G_IMPLICIT_DEF",
            "G_UNMERGE_VALUES",
            "G_UNMERGE_VALUES",
        ]);
        assert_eq!(got, vec!["COPY", "COPY1", "C", "C1", "DEF", "UV", "UV1"]);
        assert_eq!(
            names(&["G_MERGE_VALUES", "G_GLOBAL_VALUE", "G_TRUNC", "G_ANYEXT"]),
            vec!["MV", "GV", "TRUNC", "ANYEXT"]
        );
        assert_eq!(names(&["ADDXri", "G_SHUFFLE_VECTOR", "LDRWui"]), vec!["ADDXri", "SHUF", "LDRWui"]);
        assert_eq!(names(&["FOO2", "FOO2"]), vec!["FOO2_", "FOO2_1"]);
    }

    #[test]
    fn mangles_defs_and_uses() {
        let body: Vec<String> = [
            "    %0:_(s64) = COPY $x0",
            "    %10:_(s32), %1:_(s32) = G_UNMERGE_VALUES %0(s64)",
            "    %2:_(s32) = nsw G_ADD %10, %1",
            "    %named:_(s32) = G_ADD %2, %2",
            "    $w0 = COPY %2(s32)",
        ]
        .map(String::from)
        .to_vec();
        let want = [
            "    [[COPY:%[0-9]+]]:_(s64) = COPY $x0",
            "    [[UV:%[0-9]+]]:_(s32), [[UV1:%[0-9]+]]:_(s32) = G_UNMERGE_VALUES [[COPY]](s64)",
            "    [[ADD:%[0-9]+]]:_(s32) = nsw G_ADD [[UV]], [[UV1]]",
            "    %named:_(s32) = G_ADD [[ADD]], [[ADD]]",
            "    $w0 = COPY [[ADD]](s32)",
        ];
        assert_eq!(mangle_body(&body), want.map(String::from).to_vec());
    }

    #[test]
    fn extracts_functions_from_output() {
        let out = "--- |\n  define void @f() { ret void }\n...\n---\nname:            f\nlegalized: true\nbody:             |\n  bb.0:\n    %0:_(s32) = G_CONSTANT i32 1\n...\n---\nname: g\nbody: |\n  bb.0:\n    RET_ReallyLR\n...\n";
        let funcs = functions(out);
        assert_eq!(funcs.len(), 2);
        assert_eq!(funcs[0].name, "f");
        assert_eq!(funcs[0].body, vec!["  bb.0:", "    [[C:%[0-9]+]]:_(s32) = G_CONSTANT i32 1"]);
        assert_eq!(funcs[1].body, vec!["  bb.0:", "    RET_ReallyLR"]);
    }
}
