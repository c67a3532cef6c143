//! The C math library's transcendental functions (`sin`, `exp`, `pow`,
//! ...), which no IEEE operation defines exactly. The interpreter takes
//! the host's: `f32` and `f64` methods for `float` and `double`, and
//! `float` for `half` (extend, compute, round), so an opcode, its libcall
//! and its widening to `float` agree bit for bit. `fp128` is not modelled.

use super::InterpError;
use super::softfloat::{self, DOUBLE, Format, HALF, SINGLE};
use super::value::Value;
use crate::apint::ApInt;
use crate::opcode::Opcode;

/// A transcendental function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `tan`.
    Tan,
    /// `asin`.
    Asin,
    /// `acos`.
    Acos,
    /// `atan`.
    Atan,
    /// `atan2`.
    Atan2,
    /// `sinh`.
    Sinh,
    /// `cosh`.
    Cosh,
    /// `tanh`.
    Tanh,
    /// `log` (natural).
    Log,
    /// `log2`.
    Log2,
    /// `log10`.
    Log10,
    /// `exp`.
    Exp,
    /// `exp2`.
    Exp2,
    /// `exp10`.
    Exp10,
    /// `pow`.
    Pow,
}

/// Each function with its generic opcode and C name (`sin`, `sinf`,
/// `sinl` take the suffix of their format).
const FUNCTIONS: &[(Function, Opcode, &str)] = &[
    (Function::Sin, Opcode::G_FSIN, "sin"),
    (Function::Cos, Opcode::G_FCOS, "cos"),
    (Function::Tan, Opcode::G_FTAN, "tan"),
    (Function::Asin, Opcode::G_FASIN, "asin"),
    (Function::Acos, Opcode::G_FACOS, "acos"),
    (Function::Atan, Opcode::G_FATAN, "atan"),
    (Function::Atan2, Opcode::G_FATAN2, "atan2"),
    (Function::Sinh, Opcode::G_FSINH, "sinh"),
    (Function::Cosh, Opcode::G_FCOSH, "cosh"),
    (Function::Tanh, Opcode::G_FTANH, "tanh"),
    (Function::Log, Opcode::G_FLOG, "log"),
    (Function::Log2, Opcode::G_FLOG2, "log2"),
    (Function::Log10, Opcode::G_FLOG10, "log10"),
    (Function::Exp, Opcode::G_FEXP, "exp"),
    (Function::Exp2, Opcode::G_FEXP2, "exp2"),
    (Function::Exp10, Opcode::G_FEXP10, "exp10"),
    (Function::Pow, Opcode::G_FPOW, "pow"),
];

impl Function {
    /// The function a generic opcode computes.
    pub fn for_opcode(op: Opcode) -> Option<Function> {
        FUNCTIONS.iter().find(|(_, o, _)| *o == op).map(|(f, _, _)| *f)
    }

    /// The function with C name `base` (no format suffix).
    pub fn for_name(base: &str) -> Option<Function> {
        FUNCTIONS.iter().find(|(_, _, n)| *n == base).map(|(f, _, _)| *f)
    }

    /// Operand count.
    pub fn arity(self) -> usize {
        match self {
            Function::Atan2 | Function::Pow => 2,
            _ => 1,
        }
    }
}

macro_rules! host {
    ($t:ty, $f:expr, $x:expr) => {{
        let (a, b): ($t, $t) = $x;
        match $f {
            Function::Sin => a.sin(),
            Function::Cos => a.cos(),
            Function::Tan => a.tan(),
            Function::Asin => a.asin(),
            Function::Acos => a.acos(),
            Function::Atan => a.atan(),
            Function::Atan2 => a.atan2(b),
            Function::Sinh => a.sinh(),
            Function::Cosh => a.cosh(),
            Function::Tanh => a.tanh(),
            Function::Log => a.ln(),
            Function::Log2 => a.log2(),
            Function::Log10 => a.log10(),
            Function::Exp => a.exp(),
            Function::Exp2 => a.exp2(),
            Function::Exp10 => (10.0 as $t).powf(a),
            Function::Pow => a.powf(b),
        }
    }};
}

fn single(func: Function, xs: &[u32]) -> f32 {
    let arg = |i: usize| f32::from_bits(xs.get(i).copied().unwrap_or(0));
    host!(f32, func, (arg(0), arg(1)))
}

/// `func` of the defined operands `xs` in format `f`; a NaN result is
/// [`Format::nan`].
pub fn compute(f: Format, func: Function, xs: &[ApInt]) -> Result<Value, InterpError> {
    let result = match f {
        SINGLE => {
            let bits: Vec<u32> = xs.iter().map(|x| x.low_u64() as u32).collect();
            let r = single(func, &bits);
            (!r.is_nan()).then(|| ApInt::from_u128(32, u128::from(r.to_bits())))
        }
        DOUBLE => {
            let arg = |i: usize| f64::from_bits(xs.get(i).map_or(0, ApInt::low_u64));
            let r = host!(f64, func, (arg(0), arg(1)));
            (!r.is_nan()).then(|| ApInt::from_u128(64, u128::from(r.to_bits())))
        }
        HALF => {
            // A NaN operand (which `convert` does not carry) makes a NaN.
            let widened: Option<Vec<u32>> =
                xs.iter().map(|x| softfloat::convert(HALF, SINGLE, x).map(|w| w.low_u64() as u32)).collect();
            let r = widened.map_or(f32::NAN, |bits| single(func, &bits));
            let bits = ApInt::from_u128(32, u128::from(r.to_bits()));
            if r.is_nan() { None } else { softfloat::convert(SINGLE, HALF, &bits) }
        }
        _ => return Err(InterpError::Unsupported(format!("{func:?} on f{}", f.width()))),
    };
    Ok(result.map_or_else(|| f.nan(), Value::defined))
}
