//! The stack objects of a function: how many its file declared, and the
//! temporaries passes create after them (LLVM's
//! `MachineFrameInfo::CreateStackObject`).

/// A function's stack objects, as far as passes need them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StackFrame {
    /// Number of `stack:` objects the function started with.
    pub declared: u32,
    /// Temporaries created since, numbered after the declared objects.
    pub temporaries: Vec<StackTemporary>,
}

/// A stack temporary: its size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackTemporary {
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes (a power of two).
    pub align: u64,
}

impl StackFrame {
    /// Creates a temporary of `size` bytes aligned to `align`; returns its
    /// `%stack.N` number.
    pub fn create(&mut self, size: u64, align: u64) -> u32 {
        self.temporaries.push(StackTemporary { size, align });
        self.declared + self.temporaries.len() as u32 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_are_numbered_after_the_declared_objects() {
        let mut frame = StackFrame { declared: 2, temporaries: Vec::new() };
        assert_eq!(frame.create(16, 16), 2);
        assert_eq!(frame.create(8, 8), 3);
        assert_eq!(frame.temporaries[1], StackTemporary { size: 8, align: 8 });
    }
}
