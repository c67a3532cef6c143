//! Lists of names shipped as text, one a line (a target's registers, CPUs,
//! features), looked up through a set built on first use.

use rustc_hash::FxHashSet;
use std::sync::OnceLock;

/// Names, one a line, looked up through a set built the first time one is
/// looked up, so that a run that never looks pays nothing.
pub struct NameList {
    text: &'static str,
    set: OnceLock<FxHashSet<&'static str>>,
}

impl NameList {
    /// The list of the lines of `text`.
    pub const fn new(text: &'static str) -> NameList {
        NameList { text, set: OnceLock::new() }
    }

    /// Whether `name` is one of the lines.
    pub fn contains(&self, name: &str) -> bool {
        self.set.get_or_init(|| self.text.lines().collect()).contains(name)
    }

    /// The text the list was made from.
    pub fn text(&self) -> &'static str {
        self.text
    }
}
