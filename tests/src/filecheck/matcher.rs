//! Matches check strings against the input the way FileCheck does: the input
//! is first cut into blocks at `CHECK-LABEL` matches, then the directives of
//! each block are matched in order within it.

use super::Diagnostic;
use super::parse::{CheckString, Directive, Kind};
use super::pattern::{Found, RegexCache, Vars};

/// How many lines of input a diagnostic shows.
const EXCERPT_LINES: usize = 4;

/// The state of one FileCheck run over one input.
pub(crate) struct Matcher<'a> {
    input: &'a str,
    vars: Vars,
    cache: RegexCache,
    enable_var_scope: bool,
    /// Diagnostics gathered so far.
    pub diags: Vec<Diagnostic>,
}

impl<'a> Matcher<'a> {
    /// A matcher over `input` starting from the given variables.
    pub(crate) fn new(input: &'a str, vars: Vars, enable_var_scope: bool) -> Self {
        Matcher { input, vars, cache: RegexCache::new(), enable_var_scope, diags: Vec::new() }
    }

    fn line_of(&self, pos: usize) -> usize {
        self.input[..pos].bytes().filter(|b| *b == b'\n').count() + 1
    }

    /// Records a failure of `d` with an excerpt of the input from `pos`.
    fn fail(&mut self, d: &Directive, message: String, pos: usize) {
        let mut pos = pos.min(self.input.len());
        // Show something useful when scanning starts at the end of a line.
        let line_rest = self.input[pos..].split('\n').next().unwrap_or("");
        if line_rest.trim().is_empty() && pos + line_rest.len() < self.input.len() {
            pos += line_rest.len() + 1;
        }
        let excerpt: Vec<&str> = self.input[pos..].split('\n').take(EXCERPT_LINES).collect();
        self.diags.push(Diagnostic {
            check_line: d.origin.line,
            directive: d.origin.directive.clone(),
            check_text: d.origin.text.clone(),
            message,
            input_line: Some(self.line_of(pos)),
            input_excerpt: excerpt.join("\n"),
        });
    }

    /// Finds `d`'s pattern in `input[from..to]`; positions are absolute.
    fn find(&mut self, d: &Directive, from: usize, to: usize) -> Result<Option<Found>, String> {
        let hay = &self.input[from..to];
        let found = match (&d.pattern, d.kind) {
            (_, Kind::Eof) => Some(Found { start: hay.len(), end: hay.len(), defs: Vec::new() }),
            (None, _) => {
                // CHECK-EMPTY: a newline followed by an empty line; the match
                // starts after that newline, like CHECK-NEXT's.
                let bytes = hay.as_bytes();
                (0..bytes.len())
                    .find(|&i| bytes[i] == b'\n' && (i + 1 == bytes.len() || bytes[i + 1] == b'\n'))
                    .map(|i| Found { start: i + 1, end: i + 1, defs: Vec::new() })
            }
            (Some(p), _) => p.find(hay, &self.vars, &mut self.cache)?,
        };
        Ok(found.map(|f| Found { start: f.start + from, end: f.end + from, defs: f.defs }))
    }

    /// Searches for `d` or records why it is not there.
    fn expect(&mut self, d: &Directive, from: usize, to: usize) -> Option<Found> {
        match self.find(d, from, to) {
            Ok(Some(found)) => Some(found),
            Ok(None) => {
                self.fail(d, "expected string not found in input".into(), from);
                None
            }
            Err(msg) => {
                self.fail(d, msg, from);
                None
            }
        }
    }

    /// Fails if any of `nots` matches in `input[from..to]`.
    fn check_nots(&mut self, nots: &[&Directive], from: usize, to: usize) -> bool {
        let mut ok = true;
        for d in nots {
            match self.find(d, from, to) {
                Ok(None) => {}
                Ok(Some(found)) => {
                    self.fail(d, "excluded string found in input".into(), found.start);
                    ok = false;
                }
                Err(msg) => {
                    self.fail(d, msg, from);
                    ok = false;
                }
            }
        }
        ok
    }

    /// Matches the DAG group(s) of `cs` from `from`; returns where the
    /// directive itself starts searching, and collects trailing NOTs.
    fn check_dag<'c>(
        &mut self,
        cs: &'c CheckString,
        from: usize,
        to: usize,
        nots: &mut Vec<&'c Directive>,
    ) -> Option<usize> {
        let mut start = from;
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (i, d) in cs.dag_nots.iter().enumerate() {
            if d.kind == Kind::Not {
                nots.push(d);
                continue;
            }
            let mut search = start;
            loop {
                let found = self.expect(d, search, to)?;
                let (pos, end) = (found.start, found.end);
                let at = ranges.iter().position(|r| pos < r.1).unwrap_or(ranges.len());
                match ranges.get(at) {
                    // Overlaps an earlier match of this group: retry after it.
                    Some(r) if r.0 < end => search = r.1,
                    _ => {
                        self.vars.apply(&found.defs);
                        ranges.insert(at, (pos, end));
                        break;
                    }
                }
            }
            let group_ends = cs.dag_nots.get(i + 1).is_none_or(|n| n.kind == Kind::Not);
            if group_ends {
                let first = ranges.first().map_or(start, |r| r.0);
                if !nots.is_empty() {
                    let ok = self.check_nots(nots, start, first);
                    nots.clear();
                    if !ok {
                        return None;
                    }
                }
                start = ranges.last().map_or(start, |r| r.1);
                ranges.clear();
            }
        }
        Some(start)
    }

    /// Matches one check string in `input[from..to]`. In label-scan mode
    /// only the directive's own pattern is searched for. Returns the match.
    fn check(&mut self, cs: &CheckString, from: usize, to: usize, label_scan: bool) -> Option<(usize, usize)> {
        let mut nots = Vec::new();
        let last_pos = if label_scan { from } else { self.check_dag(cs, from, to, &mut nots)? };
        let count = match cs.check.kind {
            Kind::Count(n) => n,
            _ => 1,
        };
        let mut end = last_pos;
        let mut first = None;
        for _ in 0..count {
            let found = self.expect(&cs.check, end, to)?;
            self.vars.apply(&found.defs);
            first.get_or_insert(found.start);
            end = found.end;
        }
        let first = first.unwrap_or(last_pos);
        if !label_scan {
            let skipped = &self.input[last_pos..first];
            let newlines = skipped.bytes().filter(|b| *b == b'\n').count();
            let d = &cs.check;
            let problem = match d.kind {
                Kind::Next | Kind::Empty if newlines == 0 => Some("is on the same line as previous match"),
                Kind::Next | Kind::Empty if newlines > 1 => Some("is not on the line after the previous match"),
                Kind::Same if newlines > 0 => Some("is not on the same line as the previous match"),
                _ => None,
            };
            if let Some(problem) = problem {
                self.fail(d, problem.into(), first);
                return None;
            }
            if !self.check_nots(&nots, last_pos, first) {
                return None;
            }
        }
        Some((first, end - first))
    }

    /// Runs every check string over the whole input; true if all matched.
    pub(crate) fn run(&mut self, strings: &[CheckString]) -> bool {
        let mut ok = true;
        let mut buffer = 0;
        let mut i = 0;
        let mut j = 0;
        while i < strings.len() {
            // Find the end of this block: the next label's match.
            let mut region = (buffer, self.input.len());
            while j < strings.len() && strings[j].check.kind != Kind::Label {
                j += 1;
            }
            let last_block = j == strings.len();
            if !last_block {
                let Some((pos, len)) = self.check(&strings[j], buffer, self.input.len(), true) else {
                    return false;
                };
                region = (buffer, pos + len);
                buffer = pos + len;
                j += 1;
            }
            if i != 0 && self.enable_var_scope {
                self.vars.clear_local();
            }
            while i < j {
                match self.check(&strings[i], region.0, region.1, false) {
                    Some((pos, len)) => region.0 = pos + len,
                    None => {
                        ok = false;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if last_block {
                break;
            }
        }
        ok
    }
}
