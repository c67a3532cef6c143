//! `gisel query` and `gisel rules`: ask a target's rules about one
//! instruction shape, or show them all (as text, a matrix, or an HTML page).

use gisel_core::legality::matrix::LegalityMatrix;
use gisel_core::legality::{LegalityQuery, LegalizerInfo, MemDesc, parse_type_name};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;
use gisel_targets::{TargetOptions, target_for};
use std::fs;

/// The rules of the target named by `-mtriple` (and `-mattr`).
fn target_rules(options: &[(String, String)]) -> Result<LegalizerInfo, String> {
    let triple = option(options, "mtriple").ok_or("gisel: -mtriple=T is required")?;
    let target_options =
        TargetOptions { features: option(options, "mattr").unwrap_or_default().to_owned(), ..TargetOptions::default() };
    target_for(triple, &target_options).map(|t| t.info).map_err(|e| format!("gisel: {e}"))
}

/// Splits `-name=value` options from positional words.
fn split_args(args: &[String]) -> (Vec<(String, String)>, Vec<String>) {
    let mut options = Vec::new();
    let mut words = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')).filter(|_| arg.len() > 1) {
            Some(body) => match body.split_once('=') {
                Some((name, value)) => options.push((name.to_owned(), value.to_owned())),
                None if body == "html" || body == "mem" => {
                    options.push((body.to_owned(), iter.next().cloned().unwrap_or_default()))
                }
                None => options.push((body.to_owned(), String::new())),
            },
            None => words.push(arg.clone()),
        }
    }
    (options, words)
}

fn option<'a>(options: &'a [(String, String)], name: &str) -> Option<&'a str> {
    options.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

fn check_options(options: &[(String, String)], allowed: &[&str]) -> Result<(), String> {
    match options.iter().find(|(n, _)| !allowed.contains(&n.as_str())) {
        Some((name, _)) => Err(format!("gisel: unknown option '-{name}'")),
        None => Ok(()),
    }
}

fn parse_type(text: &str, info: &LegalizerInfo) -> Result<Llt, String> {
    parse_type_name(text, info.pointer_bits())
        .ok_or_else(|| format!("gisel: '{text}' is not a type (try s32, p0, v4s32 or '<4 x s32>')"))
}

/// `gisel query -mtriple=T OPCODE TYPE... [--mem=TYPE:ALIGN_BITS]`: the rule trail.
pub fn query(args: &[String]) -> Result<String, String> {
    let (options, words) = split_args(args);
    check_options(&options, &["mtriple", "mattr", "mem"])?;
    let info = target_rules(&options)?;
    let (name, type_words) = words.split_first().ok_or("gisel query: expected an opcode and its types")?;
    let opcode = Opcode::from_name(name).ok_or_else(|| {
        let hint = Opcode::suggest(name).first().map(|s| format!(" (did you mean {s}?)")).unwrap_or_default();
        format!("gisel: unknown opcode '{name}'{hint}")
    })?;
    let types = type_words.iter().map(|w| parse_type(w, &info)).collect::<Result<Vec<_>, _>>()?;
    if types.len() != opcode.num_type_indices() {
        return Err(format!("gisel: {opcode} takes {} type(s), got {}", opcode.num_type_indices(), types.len()));
    }
    let mut mem_descs = Vec::new();
    if let Some(mem) = option(&options, "mem") {
        let (ty, align) = mem.split_once(':').ok_or("gisel: --mem expects TYPE:ALIGN_IN_BITS, e.g. s16:16")?;
        let align = align.parse().map_err(|_| format!("gisel: bad alignment '{align}'"))?;
        mem_descs.push(MemDesc::new(parse_type(ty, &info)?, align));
    }
    let query = LegalityQuery { opcode, types: &types, mem_descs: &mem_descs };
    Ok(info.explain(&query).to_string())
}

/// `gisel rules -mtriple=T [--matrix] [--html OUT]`: every rule, the matrix, or a page.
pub fn rules(args: &[String]) -> Result<String, String> {
    let (options, words) = split_args(args);
    check_options(&options, &["mtriple", "mattr", "matrix", "html"])?;
    if let Some(extra) = words.first() {
        return Err(format!("gisel rules: unexpected argument '{extra}'"));
    }
    let triple = option(&options, "mtriple").unwrap_or_default().to_owned();
    let info = target_rules(&options)?;
    let wants_matrix = option(&options, "matrix").is_some();
    let html = option(&options, "html");
    if !wants_matrix && html.is_none() {
        return Ok(info.to_string());
    }
    let types: Vec<Llt> = [1, 8, 16, 32, 64, 128].into_iter().map(Llt::scalar).chain([info.pointer(0)]).collect();
    let matrix = LegalityMatrix::build_for_all(&info, &types);
    if let Some(path) = html {
        if path.is_empty() {
            return Err("gisel rules: --html needs an output file".into());
        }
        fs::write(path, matrix.render_html(&info, &format!("gisel legality matrix: {triple}")))
            .map_err(|e| format!("gisel: cannot write '{path}': {e}"))?;
        return Ok(format!("wrote {path}\n"));
    }
    Ok(matrix.render_text())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn query_prints_the_trail() {
        let text = query(&args("-mtriple=toy32 G_ADD s7")).unwrap();
        assert!(
            text.starts_with("G_ADD(s7): rule 1 widen_scalar_to_next_pow2(0, 32) -> WidenScalar type0 to s32"),
            "{text}"
        );
        let text = query(&args("-mtriple=toy32 G_LOAD s32 p0 --mem=s16:16")).unwrap();
        assert!(text.contains("-> Legal"), "{text}");
    }

    #[test]
    fn query_errors_name_the_problem() {
        assert_eq!(
            query(&args("-mtriple=toy32 G_ADDD s7")).unwrap_err(),
            "gisel: unknown opcode 'G_ADDD' (did you mean G_ADD?)"
        );
        assert!(query(&args("-mtriple=toy32 G_ADD s7 s8")).unwrap_err().contains("G_ADD takes 1 type(s), got 2"));
        assert!(query(&args("-mtriple=toy32 G_ADD q9")).unwrap_err().contains("'q9' is not a type"));
        assert!(query(&args("-mtriple=sparc G_ADD s7")).unwrap_err().contains("no legalizer rules for target 'sparc'"));
    }

    #[test]
    fn real_targets_answer_with_their_features() {
        let text = query(&args("-mtriple=riscv32 G_SDIV s32")).unwrap();
        assert!(text.contains("-> Libcall"), "{text}");
        let text = query(&args("-mtriple=riscv32 -mattr=+m G_SDIV s32")).unwrap();
        assert!(text.contains("-> Legal"), "{text}");
        let text = query(&args("-mtriple=aarch64 G_ADD s8")).unwrap();
        assert!(text.contains("WidenScalar type0 to s32"), "{text}");
    }

    #[test]
    fn rules_lists_the_rules_and_the_matrix() {
        assert!(rules(&args("-mtriple=toy32")).unwrap().contains("0 legal_for(s32): Legal if type_in_set(0, [s32])"));
        let matrix = rules(&args("-mtriple=toy32 --matrix")).unwrap();
        assert!(matrix.lines().any(|l| l.starts_with("G_ADD ") && l.contains("| W s32 ")), "{matrix}");
    }
}
