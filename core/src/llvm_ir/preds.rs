//! The `; preds = ...` comments of IR block labels as llc prints them.
//!
//! LLVM lists a block's predecessors in the order of its use list, newest
//! use first; the IR parser adds each use when it reads the terminator
//! naming the block, so llc prints the predecessors in the reverse order
//! their blocks stand in the function. clang prints them in its own order,
//! so a file clang made is reordered the way llc reprints it.

use rustc_hash::FxHashMap;
use std::borrow::Cow;

const PREDS: &str = "; preds = ";

/// The lines of an IR module with every `; preds = ` comment in llc's
/// order; other lines are returned as they are.
pub fn reorder_predecessors<'a>(lines: &[&'a str]) -> Vec<Cow<'a, str>> {
    let mut out: Vec<Cow<'a, str>> = lines.iter().map(|&l| Cow::Borrowed(l)).collect();
    let mut at = 0;
    while at < lines.len() {
        let opens_body = lines[at].starts_with("define ") && lines[at].trim_end().ends_with('{');
        if !opens_body {
            at += 1;
            continue;
        }
        let end = lines[at..].iter().position(|l| closes_body(l)).map_or(lines.len(), |n| at + n);
        reorder_function(&lines[at + 1..end], &mut out[at + 1..end]);
        at = end + 1;
    }
    out
}

/// The `}` line that ends a function body.
fn closes_body(line: &str) -> bool {
    line.starts_with('}') && line.trim_end() == "}"
}

/// Reorders the preds comments of one function body. Only label lines
/// carry them, so only those are searched.
fn reorder_function<'a>(body: &[&'a str], out: &mut [Cow<'a, str>]) {
    let labels: Vec<(usize, &str)> =
        body.iter().enumerate().filter_map(|(i, l)| label(l).map(|name| (i, name))).collect();
    let finder = memchr::memmem::Finder::new(PREDS);
    if !labels.iter().any(|&(i, _)| finder.find(body[i].as_bytes()).is_some()) {
        return;
    }
    let position: FxHashMap<&str, usize> = labels.iter().map(|&(i, name)| (name, i)).collect();
    for &(i, _) in &labels {
        let line = body[i];
        let Some(at) = finder.find(line.as_bytes()) else { continue };
        let (head, preds) = (&line[..at], &line[at + PREDS.len()..]);
        let mut names: Vec<&str> = preds.split(", ").collect();
        // The unlabelled entry block is not found: it stands first.
        names.sort_by_key(|name| std::cmp::Reverse(position.get(name.trim_start_matches('%')).map(|p| p + 1)));
        out[i] = Cow::Owned(format!("{head}{PREDS}{}", names.join(", ")));
    }
}

/// The block name a label line defines (`19:` gives `19`, `"a b":` gives
/// `"a b"`).
fn label(line: &str) -> Option<&str> {
    if line.is_empty() || line.starts_with([' ', '\t', ';']) {
        return None;
    }
    let colon = memchr::memchr(b':', line.as_bytes())?;
    (colon > 0).then(|| &line[..colon])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predecessors_are_listed_last_block_first() {
        let module = "define void @f() {\n  br label %2\n\n2:                                                ; preds = %0, %2, %5\n  \
                      br i1 true, label %2, label %5\n\n5:                                                ; preds = %2\n  \
                      br label %2\n}\n";
        let lines: Vec<&str> = module.lines().collect();
        let out = reorder_predecessors(&lines);
        assert_eq!(out[3], "2:                                                ; preds = %5, %2, %0");
        assert_eq!(out[6], lines[6]);
        assert_eq!(out[0], lines[0]);
    }
}
