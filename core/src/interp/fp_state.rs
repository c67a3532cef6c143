//! The floating-point environment and control modes as state the
//! `G_GET_FPENV`/`G_SET_FPENV`/`G_RESET_FPENV` family (and its `FPMODE`
//! twin) reads and writes, and the C library functions that move the
//! state through memory: `fegetenv`/`fegetmode` store it, and
//! `fesetenv`/`fesetmode` load it, or restore the default when given the
//! all-ones pointer (`FE_DFL_ENV`, `FE_DFL_MODE`).
//!
//! Each state is modelled as [`STATE_BITS`] bits, zero by default; the
//! operations see their type's low bits of it. The interpreter's arithmetic
//! always rounds to nearest, whatever the state says, as LLVM's
//! unconstrained operations assume.

use super::InterpError;
use super::mem_ops::{read_exact, write_exact};
use super::memory::Memory;
use super::value::Value;

/// The size of each state, and of what the library functions move.
pub const STATE_BITS: u32 = 128;

/// Which state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpState {
    /// The environment (`fenv_t`): control and status.
    Env,
    /// The control modes (`femode_t`).
    Mode,
}

/// A C library function on a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateFunction {
    /// `fegetenv`/`fegetmode(ptr)`: stores the state at `ptr`.
    Get(FpState),
    /// `fesetenv`/`fesetmode(ptr)`: loads the state from `ptr`.
    Set(FpState),
}

impl StateFunction {
    /// The function called `name`, if it is one.
    pub fn for_symbol(name: &str) -> Option<StateFunction> {
        Some(match name {
            "fegetenv" => StateFunction::Get(FpState::Env),
            "fegetmode" => StateFunction::Get(FpState::Mode),
            "fesetenv" => StateFunction::Set(FpState::Env),
            "fesetmode" => StateFunction::Set(FpState::Mode),
            _ => return None,
        })
    }
}

/// The default state of both kinds.
pub fn default_state() -> Value {
    Value::from_u128(STATE_BITS, 0)
}

/// Runs `function` with the pointer argument `pointer` on `state`.
pub fn call(
    function: StateFunction,
    state: &mut Value,
    memory: &mut Memory,
    pointer: &Value,
) -> Result<(), InterpError> {
    match function {
        StateFunction::Get(_) => write_exact(memory, pointer, state),
        StateFunction::Set(_) => {
            let default_requested = pointer.get().is_some_and(|p| p.is_all_ones());
            *state = if default_requested { default_state() } else { read_exact(memory, pointer, STATE_BITS)? };
            Ok(())
        }
    }
}
