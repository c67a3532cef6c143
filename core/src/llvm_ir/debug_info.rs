//! The debug locations of a module and the scopes they sit in, enough to
//! merge two locations as LLVM 22's `DILocation::getMergedLocation` does
//! when CSE reuses an instruction for a second one: the same place
//! stays, two places on one line keep the line (and, with key
//! instructions, the atom of the lower rank), anything else becomes line 0
//! of the nearest scope both share, walking inlined-at chains from the
//! first frame they have in common.
//!
//! Where two atoms meet across different inlined-at chains, LLVM gives the
//! merge a fresh atom group, the next of a counter its context keeps over
//! the whole run: one above the highest group of the file, then one more
//! for each fresh group, in the order functions are legalized. A function
//! is legalized on its own here, so its fresh groups are placeholders
//! ([`FreshAtomGroups`]) until the writer, taking functions in file order,
//! knows where its numbers start ([`number_fresh_atom_groups`]).
//!
//! Not modelled (the merge then gives no location): locations whose
//! nearest common scope lies in another file than theirs.

use memchr::memmem;
use rustc_hash::FxHashMap;

/// Where placeholder atom groups start: above any group a file holds
/// (LLVM keeps 61 bits of one).
const FRESH_ATOM_GROUP_BASE: u64 = 1 << 62;

/// The fresh atom groups one function's location merges have taken so
/// far, numbered from a placeholder base until the function is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FreshAtomGroups {
    taken: u32,
}

impl FreshAtomGroups {
    /// How many fresh groups were taken.
    pub fn count(self) -> u32 {
        self.taken
    }

    /// The next fresh group, as a placeholder.
    fn take(&mut self) -> u64 {
        self.taken += 1;
        FRESH_ATOM_GROUP_BASE + u64::from(self.taken - 1)
    }
}

/// `loc` with each placeholder atom group numbered from `first` (the group
/// LLVM's counter holds when the function's legalization starts), or
/// `None` when it holds none.
pub fn number_fresh_atom_groups(loc: &str, first: u64) -> Option<String> {
    let mut out = String::new();
    let (mut rest, mut numbered) = (loc, false);
    while let Some((start, end, group)) = next_atom_group(rest) {
        if group >= FRESH_ATOM_GROUP_BASE {
            out.push_str(&rest[..start]);
            out.push_str(&(first + (group - FRESH_ATOM_GROUP_BASE)).to_string());
            numbered = true;
        } else {
            out.push_str(&rest[..end]);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    numbered.then_some(out)
}

/// The highest atom group written in `text` (0 for none), placeholders
/// left out: what LLVM's counter of atom groups stands one below once it
/// has read the text.
pub fn highest_atom_group(text: &str) -> u64 {
    let mut highest = 0;
    let mut rest = text;
    while let Some((_, end, group)) = next_atom_group(rest) {
        if group < FRESH_ATOM_GROUP_BASE {
            highest = highest.max(group);
        }
        rest = &rest[end..];
    }
    highest
}

/// The first `atomGroup: N` of `text`: where N starts and ends, and N.
fn next_atom_group(text: &str) -> Option<(usize, usize, u64)> {
    const KEY: &[u8] = b"atomGroup:";
    let mut from = 0;
    loop {
        let at = from + memmem::find(&text.as_bytes()[from..], KEY)?;
        let after = &text[at + KEY.len()..];
        let start = at + KEY.len() + (after.len() - after.trim_start().len());
        let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
        match text[start..start + digits].parse() {
            Ok(group) => return Some((start, start + digits, group)),
            Err(_) => from = at + KEY.len(),
        }
    }
}

/// One `DILocation`, as a module node or as written inline.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Location {
    line: u32,
    column: u32,
    scope: u32,
    inlined_at: Option<Box<Place>>,
    implicit_code: bool,
    atom_group: u64,
    atom_rank: u64,
}

/// A location operand: a numbered node or a location written inline.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Place {
    Node(u32),
    Inline(Location),
}

/// A scope a location sits in: a subprogram, or a lexical block (file)
/// inside its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scope {
    parent: Option<u32>,
    file: Option<u32>,
    is_subprogram: bool,
}

/// The module's `DILocation` nodes and local scopes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DebugInfo {
    locations: FxHashMap<u32, Location>,
    /// Uniqued (not `distinct`) locations by their fields: what
    /// `DILocation::get` returns when it makes one equal to them.
    uniqued: FxHashMap<Location, u32>,
    scopes: FxHashMap<u32, Scope>,
    /// The highest atom group of any node read.
    highest_atom_group: u64,
}

/// Why a merge is left unmodelled.
struct Unmodelled;

impl DebugInfo {
    /// Reads node `!id = body` when it is a location or a local scope.
    pub(super) fn read_node(&mut self, id: &str, body: &str) {
        self.highest_atom_group = self.highest_atom_group.max(highest_atom_group(body));
        let Ok(id) = id.parse::<u32>() else { return };
        let (distinct, body) = match body.strip_prefix("distinct ") {
            Some(rest) => (true, rest.trim_start()),
            None => (false, body),
        };
        if let Some(fields) = node_fields(body, "!DILocation(") {
            let Some(location) = location(&fields) else { return };
            if !distinct {
                self.uniqued.insert(location.clone(), id);
            }
            self.locations.insert(id, location);
            return;
        }
        let kinds = [("!DISubprogram(", true), ("!DILexicalBlock(", false), ("!DILexicalBlockFile(", false)];
        for (prefix, is_subprogram) in kinds {
            if let Some(fields) = node_fields(body, prefix) {
                let parent = if is_subprogram { None } else { field(&fields, "scope").and_then(node_id) };
                let file = field(&fields, "file").and_then(node_id);
                self.scopes.insert(id, Scope { parent, file, is_subprogram });
                return;
            }
        }
    }

    /// The highest atom group of the module's nodes (0 for none).
    pub fn highest_atom_group(&self) -> u64 {
        self.highest_atom_group
    }

    /// The merge of locations `a` (the builder's) and `b` (the reused
    /// instruction's), `getMergedLocation(a, b)`, as `debug-location`
    /// writes it; `None` for no location, or for a merge gisel does not
    /// model. A fresh atom group it needs is taken from `fresh`.
    pub fn merged(&self, a: Option<&str>, b: Option<&str>, fresh: &mut FreshAtomGroups) -> Option<Box<str>> {
        let (a, b) = (a?, b?);
        if a == b {
            return Some(a.into());
        }
        let (a, b) = (self.place(a)?, self.place(b)?);
        let merged = self.merge(&a, &b, fresh).ok()?;
        Some(self.written(&merged).into())
    }

    /// A location as written after `debug-location`.
    fn place(&self, text: &str) -> Option<Place> {
        if let Some(id) = node_id(text) {
            return self.locations.contains_key(&id).then_some(Place::Node(id));
        }
        Some(Place::Inline(location(&node_fields(text, "!DILocation(")?)?))
    }

    fn location<'p>(&'p self, place: &'p Place) -> Option<&'p Location> {
        match place {
            Place::Node(id) => self.locations.get(id),
            Place::Inline(location) => Some(location),
        }
    }

    /// The place `DILocation::get` gives for `location`: the uniqued node
    /// equal to it, else the location itself.
    fn uniqued(&self, location: Location) -> Place {
        match self.uniqued.get(&location) {
            Some(&id) => Place::Node(id),
            None => Place::Inline(location),
        }
    }

    fn merge(&self, a: &Place, b: &Place, fresh: &mut FreshAtomGroups) -> Result<Place, Unmodelled> {
        let chain = |start: &Place| {
            let mut frames = Vec::new();
            let mut at = Some(start.clone());
            while let Some(place) = at {
                let Some(location) = self.location(&place) else { break };
                at = location.inlined_at.as_deref().cloned();
                frames.push(place);
            }
            frames
        };
        let (a_frames, b_frames) = (chain(a), chain(b));
        let frame_key = |place: &Place| {
            let location = self.location(place)?;
            Some((self.subprogram(location.scope), location.inlined_at.clone()))
        };
        // The first frame of b's chain whose subprogram and inlined-at
        // location some frame of a's chain shares.
        let start = b_frames.iter().enumerate().find_map(|(j, frame)| {
            let key = frame_key(frame)?;
            let i = a_frames.iter().position(|other| frame_key(other).as_ref() == Some(&key))?;
            Some((i, j))
        });
        let (a_outer, b_outer) = (self.inlined_at(a), self.inlined_at(b));
        let mut result = None;
        if let Some((i, j)) = start {
            result = self.inlined_at(&a_frames[i]);
            for (l1, l2) in a_frames[..=i].iter().rev().zip(b_frames[..=j].iter().rev()) {
                match self.merge_pair(l1, l2, result.clone(), (&a_outer, &b_outer), fresh)? {
                    Some(merged) => result = Some(merged),
                    None => break,
                }
            }
        }
        match result {
            Some(place) => Ok(place),
            None => {
                let scope = self.location(a).map_or(0, |l| l.scope);
                Ok(self.uniqued(Location {
                    line: 0,
                    column: 0,
                    scope,
                    inlined_at: None,
                    implicit_code: false,
                    atom_group: 0,
                    atom_rank: 0,
                }))
            }
        }
    }

    /// LLVM's `MergeLocPair`: the merge of two frames under `inlined_at`,
    /// `None` when they lie in different subprograms. `outer` holds the
    /// inlined-at locations of the two whole locations.
    fn merge_pair(
        &self,
        l1: &Place,
        l2: &Place,
        inlined_at: Option<Place>,
        outer: (&Option<Place>, &Option<Place>),
        fresh: &mut FreshAtomGroups,
    ) -> Result<Option<Place>, Unmodelled> {
        let (Some(first), Some(second)) = (self.location(l1), self.location(l2)) else { return Ok(None) };
        let make = |line, column, scope, implicit_code, atom_group, atom_rank| {
            let inlined_at = inlined_at.clone().map(Box::new);
            self.uniqued(Location { line, column, scope, inlined_at, implicit_code, atom_group, atom_rank })
        };
        if self.same(l1, l2) {
            let f = first;
            return Ok(Some(make(f.line, f.column, f.scope, f.implicit_code, f.atom_group, f.atom_rank)));
        }
        if self.subprogram(first.scope) != self.subprogram(second.scope) {
            return Ok(None);
        }
        let scope = self.nearest_common_scope(first.scope, second.scope).ok_or(Unmodelled)?;
        let file = |s: u32| self.scopes.get(&s).and_then(|s| s.file);
        if file(scope) != file(first.scope) || file(first.scope) != file(second.scope) {
            return Err(Unmodelled);
        }
        let same_line = first.line == second.line;
        let line = if same_line { first.line } else { 0 };
        let column = if same_line && first.column == second.column { first.column } else { 0 };
        let implicit_code = first.implicit_code && second.implicit_code;
        if !same_line || (first.atom_group == 0 && second.atom_group == 0) {
            return Ok(Some(make(line, column, scope, implicit_code, 0, 0)));
        }
        if !self.same_or_none(outer.0, outer.1) || !self.same_or_none(&inlined_at, outer.1) {
            // The atom cannot be kept: the merge is an atom of its own.
            return Ok(Some(make(line, column, scope, implicit_code, fresh.take(), 1)));
        }
        let first_atom = if first.atom_rank == second.atom_rank {
            if first.atom_group == 0 || second.atom_group == 0 {
                second.atom_group == 0
            } else {
                first.atom_group < second.atom_group
            }
        } else if first.atom_rank == 0 || second.atom_rank == 0 {
            second.atom_rank == 0
        } else {
            first.atom_rank < second.atom_rank
        };
        let kept = if first_atom { first } else { second };
        Ok(Some(make(line, column, scope, implicit_code, kept.atom_group, kept.atom_rank)))
    }

    /// Whether two places are one node (uniqued inline locations are equal
    /// when their fields are).
    fn same(&self, a: &Place, b: &Place) -> bool {
        match (a, b) {
            (Place::Node(x), Place::Node(y)) => x == y,
            (Place::Inline(x), Place::Inline(y)) => x == y,
            (Place::Node(id), Place::Inline(l)) | (Place::Inline(l), Place::Node(id)) => {
                self.uniqued.get(l) == Some(id)
            }
        }
    }

    /// Whether two optional places are one node, or both absent.
    fn same_or_none(&self, a: &Option<Place>, b: &Option<Place>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => self.same(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }

    fn inlined_at(&self, place: &Place) -> Option<Place> {
        self.location(place)?.inlined_at.as_deref().cloned()
    }

    /// The subprogram scope `scope` lies in.
    fn subprogram(&self, mut scope: u32) -> Option<u32> {
        for _ in 0..=self.scopes.len() {
            let s = self.scopes.get(&scope)?;
            if s.is_subprogram {
                return Some(scope);
            }
            scope = s.parent?;
        }
        None
    }

    /// The innermost scope enclosing both, within their subprogram.
    fn nearest_common_scope(&self, a: u32, b: u32) -> Option<u32> {
        let mut enclosing = Vec::new();
        let mut at = Some(a);
        while let Some(scope) = at {
            enclosing.push(scope);
            let s = self.scopes.get(&scope)?;
            at = if s.is_subprogram { None } else { s.parent };
        }
        let mut at = Some(b);
        while let Some(scope) = at {
            if enclosing.contains(&scope) {
                return Some(scope);
            }
            let s = self.scopes.get(&scope)?;
            at = if s.is_subprogram { None } else { s.parent };
        }
        None
    }

    /// `!N`, or the location as LLVM writes one with no number.
    fn written(&self, place: &Place) -> String {
        match place {
            Place::Node(id) => format!("!{id}"),
            Place::Inline(l) => {
                let mut text = format!("!DILocation(line: {}", l.line);
                if l.column != 0 {
                    text += &format!(", column: {}", l.column);
                }
                text += &format!(", scope: !{}", l.scope);
                if let Some(at) = &l.inlined_at {
                    text += &format!(", inlinedAt: {}", self.written(at));
                }
                if l.implicit_code {
                    text += ", isImplicitCode: true";
                }
                if l.atom_group != 0 {
                    text += &format!(", atomGroup: {}", l.atom_group);
                }
                if l.atom_rank != 0 {
                    text += &format!(", atomRank: {}", l.atom_rank);
                }
                text + ")"
            }
        }
    }
}

/// The fields of `text` when it is `prefix ... )`, split at the commas
/// outside nested parentheses, each `name: value`.
fn node_fields<'t>(text: &'t str, prefix: &str) -> Option<Vec<(&'t str, &'t str)>> {
    let inner = text.trim().strip_prefix(prefix)?.strip_suffix(')')?;
    let mut fields = Vec::new();
    let (mut depth, mut start) = (0u32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                fields.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    fields.push(&inner[start..]);
    fields.into_iter().map(|f| f.split_once(':').map(|(name, value)| (name.trim(), value.trim()))).collect()
}

fn field<'t>(fields: &[(&str, &'t str)], name: &str) -> Option<&'t str> {
    fields.iter().find(|(n, _)| *n == name).map(|(_, value)| *value)
}

/// `N` of `!N`.
fn node_id(text: &str) -> Option<u32> {
    text.strip_prefix('!')?.parse().ok()
}

/// A location from its fields; its inlined-at location a node or written
/// inline.
fn location(fields: &[(&str, &str)]) -> Option<Location> {
    let number = |name: &str| field(fields, name).map_or(Some(0), |v| v.parse().ok());
    let inlined_at = match field(fields, "inlinedAt") {
        None => None,
        Some(text) => Some(Box::new(match node_id(text) {
            Some(id) => Place::Node(id),
            None => Place::Inline(location(&node_fields(text, "!DILocation(")?)?),
        })),
    };
    Some(Location {
        line: number("line")? as u32,
        column: number("column")? as u32,
        scope: field(fields, "scope").and_then(node_id)?,
        inlined_at,
        implicit_code: field(fields, "isImplicitCode") == Some("true"),
        atom_group: number("atomGroup")?,
        atom_rank: number("atomRank")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module() -> DebugInfo {
        let mut info = DebugInfo::default();
        for (id, body) in [
            ("1", "distinct !DISubprogram(name: \"f\", scope: !9, file: !9, line: 1, unit: !8)"),
            ("2", "distinct !DILexicalBlock(scope: !1, file: !9, line: 2, column: 3)"),
            ("3", "distinct !DILexicalBlock(scope: !1, file: !9, line: 5, column: 3)"),
            ("4", "!DILocation(line: 7, column: 13, scope: !2, atomGroup: 27, atomRank: 2)"),
            ("5", "!DILocation(line: 7, column: 13, scope: !2, atomGroup: 27, atomRank: 1)"),
            ("6", "!DILocation(line: 9, column: 4, scope: !3)"),
            ("7", "!DILocation(line: 0, scope: !1)"),
        ] {
            info.read_node(id, body);
        }
        info
    }

    #[test]
    fn merges_as_llvm_does() {
        let info = module();
        let mut fresh = FreshAtomGroups::default();
        let mut merged = |a, b| info.merged(Some(a), Some(b), &mut fresh).map(String::from);
        // One line and column, one atom: the lower rank's node.
        assert_eq!(merged("!4", "!5").as_deref(), Some("!5"));
        // Different lines in sibling blocks: line 0 of the subprogram, an
        // existing node.
        assert_eq!(merged("!4", "!6").as_deref(), Some("!7"));
        // Different lines in one block: line 0 of the block, written inline.
        assert_eq!(merged("!DILocation(line: 3, scope: !2)", "!4").as_deref(), Some("!DILocation(line: 0, scope: !2)"));
        assert_eq!(info.merged(None, Some("!4"), &mut fresh), None);
        assert_eq!(fresh.count(), 0);
    }

    #[test]
    fn atoms_of_different_inlined_at_chains_merge_into_a_fresh_group() {
        let mut info = module();
        info.read_node("10", "distinct !DILocation(line: 20, column: 3, scope: !1)");
        info.read_node("11", "distinct !DILocation(line: 21, column: 3, scope: !1)");
        info.read_node("12", "!DILocation(line: 7, column: 13, scope: !2, inlinedAt: !10, atomGroup: 3, atomRank: 2)");
        info.read_node("13", "!DILocation(line: 7, column: 13, scope: !2, inlinedAt: !11, atomGroup: 4, atomRank: 1)");
        assert_eq!(info.highest_atom_group(), 27);
        let mut fresh = FreshAtomGroups::default();
        let first = info.merged(Some("!12"), Some("!13"), &mut fresh).map(String::from).unwrap();
        let second = info.merged(Some("!13"), Some("!12"), &mut fresh).map(String::from).unwrap();
        assert_eq!(fresh.count(), 2);
        // The call sites merge into line 0 of the caller, node 7.
        let inlined_at = "inlinedAt: !7";
        let numbered = |loc: &str| number_fresh_atom_groups(loc, 28);
        assert_eq!(
            numbered(&first).as_deref(),
            Some(&*format!("!DILocation(line: 7, column: 13, scope: !2, {inlined_at}, atomGroup: 28, atomRank: 1)"))
        );
        assert_eq!(
            numbered(&second).as_deref(),
            Some(&*format!("!DILocation(line: 7, column: 13, scope: !2, {inlined_at}, atomGroup: 29, atomRank: 1)"))
        );
        // Placeholders do not count as groups of the file.
        assert_eq!(highest_atom_group(&first), 0);
        assert_eq!(numbered("!DILocation(line: 7, scope: !2, atomGroup: 3, atomRank: 1)"), None);
    }
}
