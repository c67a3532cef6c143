//! How a function's jump-table entries are encoded (LLVM's
//! `MachineJumpTableInfo::JTEntryKind`), read from the MIR `jumpTable:`
//! `kind`, with the size and alignment of one entry.

/// The encoding of every entry of a function's jump tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpTableKind {
    /// `block-address`: the address of the target block.
    BlockAddress,
    /// `gp-rel64-block-address`: a 64-bit offset from the global pointer.
    GpRel64BlockAddress,
    /// `gp-rel32-block-address`: a 32-bit offset from the global pointer.
    GpRel32BlockAddress,
    /// `label-difference32`: a 32-bit offset from a base label.
    LabelDifference32,
    /// `label-difference64`: a 64-bit offset from a base label.
    LabelDifference64,
    /// `inline`: the table is emitted in the code.
    Inline,
    /// `custom32`: a 32-bit entry the target defines.
    Custom32,
}

impl JumpTableKind {
    /// The kind a MIR `jumpTable:` names, if it is one.
    pub fn from_mir(name: &str) -> Option<JumpTableKind> {
        use JumpTableKind::*;
        Some(match name {
            "block-address" => BlockAddress,
            "gp-rel64-block-address" => GpRel64BlockAddress,
            "gp-rel32-block-address" => GpRel32BlockAddress,
            "label-difference32" => LabelDifference32,
            "label-difference64" => LabelDifference64,
            "inline" => Inline,
            "custom32" => Custom32,
            _ => return None,
        })
    }

    /// Bytes of one entry, with pointers of `pointer_bytes`.
    pub fn entry_size(self, pointer_bytes: u64) -> u64 {
        use JumpTableKind::*;
        match self {
            BlockAddress => pointer_bytes,
            GpRel64BlockAddress | LabelDifference64 => 8,
            GpRel32BlockAddress | LabelDifference32 | Custom32 => 4,
            Inline => 0,
        }
    }

    /// Alignment of one entry in bytes: naturally aligned entries, one
    /// byte for an inline table.
    pub fn entry_align(self, pointer_bytes: u64) -> u64 {
        self.entry_size(pointer_bytes).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::JumpTableKind;

    #[test]
    fn entries_have_the_size_of_their_encoding() {
        let kind = |name| JumpTableKind::from_mir(name).expect("a kind");
        assert_eq!(kind("block-address").entry_size(8), 8);
        assert_eq!(kind("block-address").entry_size(4), 4);
        assert_eq!(kind("label-difference32").entry_size(8), 4);
        assert_eq!(kind("gp-rel64-block-address").entry_align(4), 8);
        assert_eq!(kind("inline").entry_align(8), 1);
        assert_eq!(JumpTableKind::from_mir("sideways"), None);
    }
}
