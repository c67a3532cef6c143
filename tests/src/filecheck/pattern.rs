//! One check pattern: literal text, `{{regex}}` blocks, `[[VAR:regex]]`
//! definitions, `[[VAR]]` uses and the `[[#...]]` numeric subset, and how to
//! find it in a slice of the input given the variables defined so far.

use regex::Regex;
use std::collections::HashMap;

/// How a numeric variable prints and which text it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumFmt {
    /// `%u`, the default: unsigned decimal.
    Unsigned,
    /// `%d`: signed decimal.
    Signed,
    /// `%x`: lower-case hexadecimal.
    HexLower,
    /// `%X`: upper-case hexadecimal.
    HexUpper,
}

impl NumFmt {
    fn regex(self) -> &'static str {
        match self {
            NumFmt::Unsigned => "[0-9]+",
            NumFmt::Signed => "-?[0-9]+",
            NumFmt::HexLower => "[0-9a-f]+",
            NumFmt::HexUpper => "[0-9A-F]+",
        }
    }

    fn print(self, value: i128) -> String {
        match self {
            NumFmt::Unsigned | NumFmt::Signed => value.to_string(),
            NumFmt::HexLower => format!("{value:x}"),
            NumFmt::HexUpper => format!("{value:X}"),
        }
    }

    fn parse(self, text: &str) -> Option<i128> {
        match self {
            NumFmt::Unsigned | NumFmt::Signed => text.parse().ok(),
            NumFmt::HexLower | NumFmt::HexUpper => i128::from_str_radix(text, 16).ok(),
        }
    }
}

/// A sum of terms: `VAR`, `VAR+1`, `@LINE-2`, `7`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NumExpr {
    terms: Vec<(i128, Term)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Term {
    Lit(i128),
    Var(String),
}

/// One piece of a parsed pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Regex(String),
    Use(String),
    Def { name: String, regex: String },
    NumUse { fmt: Option<NumFmt>, expr: NumExpr },
    NumDef { name: String, fmt: NumFmt, expr: Option<NumExpr> },
}

/// Values of the variables defined so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Vars {
    strings: HashMap<String, String>,
    nums: HashMap<String, (i128, NumFmt)>,
}

impl Vars {
    /// Defines a string variable (`-D NAME=VALUE` or a match).
    pub(crate) fn set_string(&mut self, name: &str, value: &str) {
        self.strings.insert(name.to_owned(), value.to_owned());
    }

    /// Forgets every variable whose name does not start with `$`.
    pub(crate) fn clear_local(&mut self) {
        self.strings.retain(|k, _| k.starts_with('$'));
        self.nums.retain(|k, _| k.starts_with('$'));
    }
}

/// A variable definition made by a successful match.
#[derive(Clone, Debug)]
pub(crate) enum Def {
    Str(String, String),
    Num(String, i128, NumFmt),
}

/// A successful match: byte range in the searched slice plus definitions.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub start: usize,
    pub end: usize,
    pub defs: Vec<Def>,
}

impl Vars {
    /// Records the definitions of a match.
    pub(crate) fn apply(&mut self, defs: &[Def]) {
        for def in defs {
            match def {
                Def::Str(n, v) => self.set_string(n, v),
                Def::Num(n, v, f) => {
                    self.nums.insert(n.clone(), (*v, *f));
                }
            }
        }
    }
}

/// A parsed pattern, ready to be searched for.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pieces: Vec<Piece>,
    full_lines: bool,
}

/// The variables a regex defines, by group `fcN`: name and numeric format.
type Groups = Vec<(String, Option<NumFmt>)>;

/// Cache of compiled regexes, keyed by their source.
pub(crate) type RegexCache = HashMap<String, Regex>;

fn is_var_name(s: &str) -> bool {
    let s = s.strip_prefix('$').unwrap_or(s);
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Finds the `]]` that closes a `[[` block, skipping brackets of the regex.
fn var_block_end(s: &str) -> Result<Option<usize>, String> {
    let bytes = s.as_bytes();
    let (mut i, mut depth) = (0usize, 0usize);
    while i < bytes.len() {
        if depth == 0 && bytes[i..].starts_with(b"]]") {
            return Ok(Some(i));
        }
        match bytes[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' if depth == 0 => return Err("missing closing \"]\" for regex variable".into()),
            b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

fn parse_expr(text: &str, line: usize) -> Result<NumExpr, String> {
    let mut terms = Vec::new();
    let mut sign = 1i128;
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err("empty numeric expression".into());
    }
    loop {
        let end = rest.find(['+', '-']).unwrap_or(rest.len());
        let operand = rest[..end].trim();
        let term = if operand == "@LINE" {
            Term::Lit(line as i128)
        } else if let Ok(n) = operand.parse::<i128>() {
            Term::Lit(n)
        } else if is_var_name(operand) {
            Term::Var(operand.to_owned())
        } else {
            return Err(format!("invalid operand '{operand}' in numeric expression"));
        };
        terms.push((sign, term));
        if end == rest.len() {
            return Ok(NumExpr { terms });
        }
        sign = if rest.as_bytes()[end] == b'+' { 1 } else { -1 };
        rest = &rest[end + 1..];
    }
}

fn parse_numeric(body: &str, line: usize) -> Result<Piece, String> {
    let mut body = body.trim();
    let mut fmt = None;
    if let Some(rest) = body.strip_prefix('%') {
        let (spec, tail) =
            rest.split_once(',').ok_or_else(|| "invalid matching format specification in expression".to_owned())?;
        fmt = Some(match spec.trim() {
            "u" => NumFmt::Unsigned,
            "d" => NumFmt::Signed,
            "x" => NumFmt::HexLower,
            "X" => NumFmt::HexUpper,
            other => return Err(format!("unsupported numeric format '%{other}'")),
        });
        body = tail.trim();
    }
    if let Some((name, expr)) = body.split_once(':') {
        let name = name.trim();
        if !is_var_name(name) {
            return Err(format!("invalid numeric variable name '{name}'"));
        }
        let expr = if expr.trim().is_empty() { None } else { Some(parse_expr(expr, line)?) };
        return Ok(Piece::NumDef { name: name.to_owned(), fmt: fmt.unwrap_or(NumFmt::Unsigned), expr });
    }
    Ok(Piece::NumUse { fmt, expr: parse_expr(body, line)? })
}

impl Pattern {
    /// Parses pattern text (already whitespace-canonicalised and trimmed).
    /// `line` is the check-file line, for `@LINE`.
    pub(crate) fn parse(text: &str, literal: bool, full_lines: bool, line: usize) -> Result<Self, String> {
        let mut pieces = Vec::new();
        let mut lit = String::new();
        let mut rest = text;
        let flush = |lit: &mut String, pieces: &mut Vec<Piece>| {
            if !lit.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(lit)));
            }
        };
        while !rest.is_empty() {
            if !literal && rest.starts_with("{{") {
                let end = rest[2..].find("}}").ok_or("found start of regex string with no end '}}'")?;
                flush(&mut lit, &mut pieces);
                pieces.push(Piece::Regex(rest[2..2 + end].to_owned()));
                rest = &rest[end + 4..];
            } else if !literal && rest.starts_with("[[") {
                let end = var_block_end(&rest[2..])?.ok_or("invalid substitution block, no ]] found")?;
                let body = &rest[2..2 + end];
                flush(&mut lit, &mut pieces);
                pieces.push(Self::parse_block(body, line)?);
                rest = &rest[end + 4..];
            } else {
                let c = rest.chars().next().unwrap_or_default();
                lit.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        flush(&mut lit, &mut pieces);
        let pattern = Pattern { pieces, full_lines };
        pattern.validate()?;
        Ok(pattern)
    }

    fn parse_block(body: &str, line: usize) -> Result<Piece, String> {
        if let Some(num) = body.strip_prefix('#') {
            return parse_numeric(num, line);
        }
        if let Some(expr) = body.strip_prefix("@LINE") {
            let expr = parse_expr(&format!("@LINE{expr}"), line)?;
            return Ok(Piece::NumUse { fmt: None, expr });
        }
        match body.split_once(':') {
            Some((name, regex)) if is_var_name(name) => {
                Ok(Piece::Def { name: name.to_owned(), regex: regex.to_owned() })
            }
            None if is_var_name(body) => Ok(Piece::Use(body.to_owned())),
            _ => Err(format!("invalid variable name in '[[{body}]]'")),
        }
    }

    /// Rejects what we cannot match: bad regexes and a variable used in the
    /// pattern that defines it (FileCheck needs back-references for that).
    fn validate(&self) -> Result<(), String> {
        let mut defined: Vec<&str> = Vec::new();
        for piece in &self.pieces {
            let expr = match piece {
                Piece::NumUse { expr, .. } | Piece::NumDef { expr: Some(expr), .. } => Some(expr),
                _ => None,
            };
            let uses_own = |v: &str| defined.contains(&v);
            if expr.is_some_and(|e| e.terms.iter().any(|(_, t)| matches!(t, Term::Var(v) if uses_own(v)))) {
                return Err("numeric variable used in the pattern that defines it is not supported".into());
            }
            match piece {
                Piece::Def { name, .. } | Piece::NumDef { name, .. } => defined.push(name),
                Piece::Use(name) if defined.contains(&name.as_str()) => {
                    return Err(format!("variable '{name}' used in the pattern that defines it is not supported"));
                }
                _ => {}
            }
        }
        let (source, _) = self.regex_source(None)?;
        Regex::new(&source).map(drop).map_err(|e| format!("invalid regex: {e}"))
    }

    /// True if the pattern defines or uses a variable.
    pub(crate) fn has_variables(&self) -> bool {
        self.pieces.iter().any(|p| !matches!(p, Piece::Literal(_) | Piece::Regex(_)))
    }

    /// True for a pattern of plain text only.
    fn literal_text(&self) -> Option<&str> {
        match self.pieces.as_slice() {
            [Piece::Literal(s)] if !self.full_lines => Some(s),
            _ => None,
        }
    }

    fn eval(expr: &NumExpr, vars: Option<&Vars>) -> Result<(i128, Option<NumFmt>), String> {
        let mut total = 0i128;
        let mut fmt = None;
        for (sign, term) in &expr.terms {
            let value = match term {
                Term::Lit(n) => *n,
                Term::Var(name) => match vars {
                    None => 0,
                    Some(vars) => {
                        let (v, f) =
                            vars.nums.get(name).ok_or_else(|| format!("uses undefined variable(s): \"{name}\""))?;
                        fmt.get_or_insert(*f);
                        *v
                    }
                },
            };
            total = total.checked_add(sign * value).ok_or("numeric expression overflows")?;
        }
        Ok((total, fmt))
    }

    /// Builds the regex source; with `vars == None` uses are placeholders
    /// (for validation). Returns the source and the names of the groups.
    fn regex_source(&self, vars: Option<&Vars>) -> Result<(String, Groups), String> {
        let mut src = String::from("(?m)");
        let mut groups = Vec::new();
        if self.full_lines {
            src.push_str("^ *");
        }
        for piece in &self.pieces {
            match piece {
                Piece::Literal(s) => src.push_str(&regex::escape(s)),
                Piece::Regex(r) => src.push_str(&format!("(?:{r})")),
                Piece::Use(name) => {
                    let value = match vars {
                        None => "x",
                        Some(vars) => {
                            vars.strings.get(name).ok_or_else(|| format!("uses undefined variable(s): \"{name}\""))?
                        }
                    };
                    src.push_str(&regex::escape(value));
                }
                Piece::Def { name, regex } => {
                    src.push_str(&format!("(?P<fc{}>{regex})", groups.len()));
                    groups.push((name.clone(), None));
                }
                Piece::NumUse { fmt, expr } => {
                    let (value, var_fmt) = Self::eval(expr, vars)?;
                    let fmt = fmt.or(var_fmt).unwrap_or(NumFmt::Unsigned);
                    src.push_str(&regex::escape(&fmt.print(value)));
                }
                Piece::NumDef { name, fmt, expr } => {
                    let inner = match expr {
                        None => fmt.regex().to_owned(),
                        Some(expr) => regex::escape(&fmt.print(Self::eval(expr, vars)?.0)),
                    };
                    src.push_str(&format!("(?P<fc{}>{inner})", groups.len()));
                    groups.push((name.clone(), Some(*fmt)));
                }
            }
        }
        if self.full_lines {
            src.push_str(" *$");
        }
        Ok((src, groups))
    }

    /// Finds the first match in `hay`. `Err` when a used variable is undefined.
    pub(crate) fn find(&self, hay: &str, vars: &Vars, cache: &mut RegexCache) -> Result<Option<Found>, String> {
        if let Some(text) = self.literal_text() {
            return Ok(hay.find(text).map(|start| Found { start, end: start + text.len(), defs: Vec::new() }));
        }
        let (src, groups) = self.regex_source(Some(vars))?;
        if !cache.contains_key(&src) {
            let re = Regex::new(&src).map_err(|e| format!("invalid regex: {e}"))?;
            cache.insert(src.clone(), re);
        }
        let Some(re) = cache.get(&src) else {
            return Ok(None);
        };
        let Some(caps) = re.captures(hay) else {
            return Ok(None);
        };
        let Some(whole) = caps.get(0) else {
            return Ok(None);
        };
        let mut defs = Vec::new();
        for (i, (name, fmt)) in groups.iter().enumerate() {
            let text = caps.name(&format!("fc{i}")).map_or("", |m| m.as_str());
            match fmt {
                None => defs.push(Def::Str(name.clone(), text.to_owned())),
                Some(fmt) => {
                    let value = fmt.parse(text).ok_or_else(|| format!("unable to represent numeric value '{text}'"))?;
                    defs.push(Def::Num(name.clone(), value, *fmt));
                }
            }
        }
        Ok(Some(Found { start: whole.start(), end: whole.end(), defs }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(pat: &str, hay: &str, vars: &Vars) -> Option<(usize, usize)> {
        let p = Pattern::parse(pat, false, false, 1).expect("pattern parses");
        p.find(hay, vars, &mut RegexCache::new()).expect("no error").map(|f| (f.start, f.end))
    }

    #[test]
    fn literal_and_regex_pieces() {
        let vars = Vars::default();
        assert_eq!(find("a.b", "xxa.b", &vars), Some((2, 5)));
        assert_eq!(find("a.b", "xxaxb", &vars), None);
        assert_eq!(find("a{{[0-9]+}}b", "a12b", &vars), Some((0, 4)));
        assert_eq!(find("abc{{x|z}}def", "abczdef", &vars), Some((0, 7)));
    }

    #[test]
    fn variable_definitions_and_uses() {
        let p = Pattern::parse("[[R:%[0-9]+]]:_(s32) = COPY", false, false, 1).expect("parses");
        let found = p.find("  %7:_(s32) = COPY $w0", &Vars::default(), &mut RegexCache::new());
        let found = found.expect("ok").expect("matches");
        let mut vars = Vars::default();
        vars.apply(&found.defs);
        assert_eq!(find("G_ADD [[R]], [[R]]", "G_ADD %7, %7", &vars), Some((0, 12)));
        assert_eq!(find("G_ADD [[R]]", "G_ADD %70", &vars), Some((0, 8)));
        let undefined = Pattern::parse("[[NOPE]]", false, false, 1).expect("parses");
        let err = undefined.find("x", &vars, &mut RegexCache::new()).expect_err("undefined");
        assert!(err.contains("NOPE"), "{err}");
    }

    #[test]
    fn numeric_variables_and_line() {
        let p = Pattern::parse("x[[#N:]]", false, false, 1).expect("parses");
        let found = p.find("x41", &Vars::default(), &mut RegexCache::new()).expect("ok").expect("match");
        let mut vars = Vars::default();
        vars.apply(&found.defs);
        assert_eq!(find("y[[#N+1]]", "y42", &vars), Some((0, 3)));
        assert_eq!(find("y[[#N-1]]", "y42", &vars), None);
        assert_eq!(find("line [[@LINE]] [[#@LINE+2]]", "line 1 3", &vars), Some((0, 8)));
    }

    #[test]
    fn malformed_patterns_are_errors() {
        assert!(Pattern::parse("{{[a-}}", false, false, 1).is_err());
        assert!(Pattern::parse("{{abc", false, false, 1).is_err());
        assert!(Pattern::parse("[[X:a", false, false, 1).is_err());
        assert!(Pattern::parse("[[1x]]", false, false, 1).is_err());
        assert!(Pattern::parse("[[X:a]] [[X]]", false, false, 1).is_err());
        assert!(Pattern::parse("[[#%q,N:]]", false, false, 1).is_err());
        assert!(Pattern::parse("{{[a-}}", true, false, 1).is_ok(), "literal mode takes text as is");
    }
}
