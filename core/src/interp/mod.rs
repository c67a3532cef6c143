//! A GMIR interpreter with exact semantics for scalars of any width,
//! pointers, fixed vectors and a byte-addressed memory, used to check that
//! legalization keeps meaning ([`check_equivalent`]).
//!
//! Every value carries a mask of undefined bits ([`Value`]): `G_IMPLICIT_DEF`,
//! the high bits of `G_ANYEXT`, poison-producing operations (shifts by the
//! width or more, `G_CTLZ_ZERO_UNDEF` of zero, out-of-range `G_FPTOSI`) and
//! uninitialised stack memory are undefined, and operations propagate
//! undefinedness conservatively. Immediate undefined behaviour (division by
//! zero, a branch on an undefined condition, an access through an undefined
//! pointer) stops the run with [`InterpError::Undefined`]. A function under
//! test may refine the reference: every bit the reference defines must
//! match, undefined ones match anything.
//!
//! Target knowledge (register names, return and call instructions, how a
//! libcall's arguments travel) comes from an [`Abi`]; calls to known runtime
//! functions (`__divti3`, `__muldi3`, `__fixdfti`, ...) are interpreted by
//! name; calls to anything else are an opaque oracle whose calls the
//! function under test must repeat ([`ExternalCall`]). Globals, jump
//! tables and blocks have fixed addresses ([`Symbols`]). Anything the
//! interpreter does not model is an
//! [`InterpError::Unsupported`] naming it, never a panic.

mod abi;
mod atomic;
mod bits;
mod call_args;
mod equivalence;
mod eval;
mod external;
mod float;
mod fp_state;
mod fparith;
mod input_sites;
mod inputs;
mod int;
mod libcall;
mod libm;
mod machine;
mod mem_calls;
mod mem_ops;
mod memory;
#[cfg(test)]
mod mips_abi_tests;
mod o32_args;
mod softfloat;
mod symbols;
#[cfg(test)]
mod target_abi_tests;
mod target_ops;
#[cfg(test)]
mod tests;
mod value;
mod vector;
mod x87_ops;

pub use abi::{Abi, RegClass, RegView};
pub use equivalence::{CheckError, Checked, Mismatch, Side, check_equivalent, check_equivalent_within};
pub use external::ExternalCall;
pub use inputs::random_inputs;
pub use machine::{Inputs, Options, Outcome, replay, run};
pub use memory::{FixedObjects, Memory};
pub use symbols::Symbols;
pub use value::Value;

use crate::apint::ApInt;
use crate::ir::{FpConst, FpKind, Function};
use crate::mir::{MachineFunction, fixed_stack_print_order};

/// Why a run stopped without a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// An instruction, operand or register the interpreter does not model.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Immediate undefined behaviour on this input.
    #[error("undefined behaviour: {0}")]
    Undefined(String),
    /// The function is not well formed.
    #[error("malformed: {0}")]
    Malformed(String),
    /// The step limit was reached.
    #[error("step limit reached")]
    StepLimit,
    /// Replaying a reference run's calls, the run made a call the
    /// reference did not make at that point (see [`ExternalCall`]).
    #[error("diverged: {0}")]
    Diverged(String),
}

/// A function with what it refers to outside its body: the constant pool,
/// and where its module's symbols, its jump tables and its blocks are.
#[derive(Clone, Debug)]
pub struct Program<'f> {
    /// The function.
    pub func: &'f Function,
    /// Constant-pool entries by id, as values laid out in memory.
    pub constant_pool: Vec<(u32, Value)>,
    /// The addresses of globals, jump tables and blocks.
    pub symbols: Symbols,
    /// Where the incoming stack arguments are.
    pub fixed_objects: FixedObjects,
}

impl<'f> Program<'f> {
    /// A function with the constant-pool entries passes added to it (the
    /// declared ones, and jump tables, live in a `.mir` header: see
    /// [`Program::from_machine_function`]).
    pub fn new(func: &'f Function) -> Program<'f> {
        let symbols = Symbols::new(&func.module);
        Program { func, constant_pool: added_constants(func), symbols, fixed_objects: FixedObjects::default() }
    }

    /// A function read from a `.mir` file with its `constants:` and those
    /// passes added (integer and scalar floating-point entries; others are
    /// left out, and a `G_CONSTANT_POOL` of them reports them unsupported)
    /// its `jumpTable:` and its `fixedStack:` offsets.
    pub fn from_machine_function(mf: &'f MachineFunction) -> Program<'f> {
        let mut constant_pool: Vec<(u32, Value)> =
            mf.header.constants.iter().filter_map(|c| Some((c.id, parse_constant(&c.value)?))).collect();
        constant_pool.extend(added_constants(&mf.func));
        let tables = mf.header.jump_table.as_ref().map_or(&[][..], |t| &t.entries[..]);
        let symbols = Symbols::new(&mf.func.module).with_jump_tables(mf.func.jump_table_kind, tables);
        // The reader renumbers the body's references as llc prints them.
        let printed = fixed_stack_print_order(&mf.header);
        let fixed_objects = FixedObjects::new(printed.into_iter().zip(mf.header.fixed_stack.iter().map(|o| o.offset)));
        Program { func: &mf.func, constant_pool, symbols, fixed_objects }
    }
}

/// The constant-pool entries passes added to `func`, numbered after the
/// declared ones.
fn added_constants(func: &Function) -> Vec<(u32, Value)> {
    let pool = &func.constant_pool;
    (pool.declared..).zip(&pool.added).filter_map(|(id, c)| Some((id, parse_constant(&c.value)?))).collect()
}

/// An IR constant (`i64 -5`, `double 1.0`, `fp128 0xL...`) as a value.
fn parse_constant(text: &str) -> Option<Value> {
    let (ty, literal) = text.trim().split_once(' ')?;
    let literal = literal.trim();
    if let Some(bits) = ty.strip_prefix('i').and_then(|b| b.parse::<u32>().ok()) {
        return ApInt::parse(bits, literal).map(Value::defined);
    }
    let c = FpConst::parse(FpKind::from_name(ty)?, literal)?;
    let w = c.kind.bits();
    let bits = if c.kind == FpKind::Fp128 { c.bits.rotate_left(64) } else { c.bits };
    Some(Value::from_u128(w, bits))
}
