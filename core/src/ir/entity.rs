//! Typed `u32` handles into the arenas of a function.

/// Defines a `Copy` handle type wrapping a `u32` index.
macro_rules! define_index {
    ($(#[$meta:meta])* $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            /// The handle for arena slot `index`.
            pub fn new(index: usize) -> Self {
                Self(u32::try_from(index).expect("arena index fits in u32"))
            }

            /// The arena slot.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

define_index!(
    /// An instruction of a function.
    Inst,
    "inst"
);
define_index!(
    /// A basic block of a function.
    Block,
    "bb"
);
define_index!(
    /// A virtual register (`%N` or a named `%x`).
    VReg,
    "%"
);
define_index!(
    /// An interned name: a physical register, a target opcode, a register
    /// class or bank, a symbol.
    Symbol,
    "sym"
);
