//! Interned names of a function: physical registers, target opcodes,
//! register classes and banks, register masks, subregister indices.

use super::Symbol;
use rustc_hash::FxHashMap;

/// A string interner; each distinct name gets one [`Symbol`].
#[derive(Default, Clone, Debug)]
pub struct Names {
    strings: Vec<Box<str>>,
    lookup: FxHashMap<Box<str>, Symbol>,
}

impl Names {
    /// The symbol of `name`, interning it on first use.
    pub fn intern(&mut self, name: &str) -> Symbol {
        if let Some(symbol) = self.lookup.get(name) {
            return *symbol;
        }
        let symbol = Symbol::new(self.strings.len());
        self.strings.push(name.into());
        self.lookup.insert(name.into(), symbol);
        symbol
    }

    /// The symbol of `name` if it was interned.
    pub fn get(&self, name: &str) -> Option<Symbol> {
        self.lookup.get(name).copied()
    }

    /// The text of `symbol`.
    pub fn resolve(&self, symbol: Symbol) -> &str {
        &self.strings[symbol.index()]
    }
}
