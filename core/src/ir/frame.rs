//! What passes add to a function beside instructions: stack temporaries
//! (LLVM's `MachineFrameInfo::CreateStackObject`) and constant-pool
//! entries (`MachineConstantPool::getConstantPoolIndex`), numbered after
//! the ones its file declared.

use super::FrameRef;

/// A function's stack objects, as far as passes need them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StackFrame {
    /// Number of `stack:` objects the function started with.
    pub declared: u32,
    /// Temporaries created since, numbered after the declared objects.
    pub temporaries: Vec<StackTemporary>,
    /// A pass lowered a tail call (LLVM's `setHasTailCall`).
    pub has_tail_call: bool,
    /// The largest alignment in bytes a pass required of the frame
    /// without creating an object (LLVM's `ensureMaxAlignment`, as a call
    /// lowering's outgoing stack arguments do); 0 when none.
    pub max_alignment: u64,
    /// The object where the variable arguments are saved (the target's
    /// `varArgsFrameIndex`), if the function has one.
    pub var_args: Option<FrameRef>,
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

    /// Raises the frame's maximum alignment to at least `align` bytes.
    pub fn ensure_max_alignment(&mut self, align: u64) {
        self.max_alignment = self.max_alignment.max(align);
    }
}

/// A function's constant pool, as far as passes need it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstantPool {
    /// Number of `constants:` entries the function started with.
    pub declared: u32,
    /// Entries added since, numbered after the declared ones.
    pub added: Vec<PoolConstant>,
}

/// A constant-pool entry: an LLVM IR constant with its type (`double 1.5`,
/// `fp128 0xL...`) and its alignment in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolConstant {
    /// The constant as LLVM IR text.
    pub value: String,
    /// Alignment in bytes.
    pub align: u64,
}

impl ConstantPool {
    /// The `%const.N` number of `value` with `align`, adding it unless an
    /// added entry already holds it.
    pub fn index_of(&mut self, value: String, align: u64) -> u32 {
        let position = self.added.iter().position(|c| c.value == value && c.align == align).unwrap_or_else(|| {
            self.added.push(PoolConstant { value, align });
            self.added.len() - 1
        });
        self.declared + position as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_constants_share_an_entry() {
        let mut pool = ConstantPool { declared: 1, added: Vec::new() };
        assert_eq!(pool.index_of("double 1.5".into(), 8), 1);
        assert_eq!(pool.index_of("fp128 0xL0".into(), 16), 2);
        assert_eq!(pool.index_of("double 1.5".into(), 8), 1);
    }

    #[test]
    fn temporaries_are_numbered_after_the_declared_objects() {
        let mut frame = StackFrame { declared: 2, ..StackFrame::default() };
        assert_eq!(frame.create(16, 16), 2);
        assert_eq!(frame.create(8, 8), 3);
        assert_eq!(frame.temporaries[1], StackTemporary { size: 8, align: 8 });
    }
}
