//! One instruction's evaluation context and the dispatch over opcode
//! families. Lane-wise opcodes on fixed vectors are split into lanes here,
//! so every family only implements scalars.

use super::value::Value;
use super::{InterpError, bits, float, int, vector};
use crate::ir::{FloatPredicate, InstData, IntPredicate, Operand};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// How a boolean result wider than one bit is extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolExt {
    /// `0` / `1`.
    ZeroOrOne,
    /// `0` / all ones.
    ZeroOrAllOnes,
}

/// The `vscale` the interpreter runs with: `G_VSCALE c` is `c * VSCALE`.
/// Scalable vectors themselves are not modelled.
pub const VSCALE: u32 = 2;

/// The evaluated operands of one instruction.
pub struct Ctx<'a> {
    /// The opcode.
    pub op: Opcode,
    /// The instruction (immediates, predicates, masks, flags).
    pub inst: &'a InstData,
    /// The values of the register uses, in order.
    pub args: Vec<Value>,
    /// Their types.
    pub arg_tys: Vec<Llt>,
    /// The types of the defs.
    pub def_tys: Vec<Llt>,
    /// How boolean results extend.
    pub bool_ext: BoolExt,
}

fn malformed(ctx: &Ctx<'_>, what: &str) -> InterpError {
    InterpError::Malformed(format!("{}: {what}", ctx.op.name()))
}

impl Ctx<'_> {
    /// Register use `i`.
    pub fn arg(&self, i: usize) -> Result<&Value, InterpError> {
        self.args.get(i).ok_or_else(|| malformed(self, &format!("missing register operand {i}")))
    }

    /// The type of register use `i`.
    pub fn arg_ty(&self, i: usize) -> Result<Llt, InterpError> {
        self.arg_tys.get(i).copied().ok_or_else(|| malformed(self, &format!("missing register operand {i}")))
    }

    /// The width of def `i`.
    pub fn def_width(&self, i: usize) -> Result<u32, InterpError> {
        let ty = self.def_tys.get(i).ok_or_else(|| malformed(self, &format!("missing def {i}")))?;
        match u32::try_from(ty.size_in_bits()) {
            Ok(w) if w > 0 => Ok(w),
            _ => Err(malformed(self, &format!("def {i} has no sized type"))),
        }
    }

    /// The type of def `i`.
    pub fn def_ty(&self, i: usize) -> Result<Llt, InterpError> {
        self.def_tys.get(i).copied().ok_or_else(|| malformed(self, &format!("missing def {i}")))
    }

    fn non_reg_uses(&self) -> impl Iterator<Item = &Operand> {
        self.inst.uses().iter().filter(|o| !matches!(o, Operand::Reg(_)))
    }

    /// The `n`th plain immediate among the uses.
    pub fn imm(&self, n: usize) -> Result<i64, InterpError> {
        self.non_reg_uses()
            .filter_map(|o| if let Operand::Imm(v) = o { Some(*v) } else { None })
            .nth(n)
            .ok_or_else(|| malformed(self, "missing immediate"))
    }

    /// The integer predicate.
    pub fn int_pred(&self) -> Result<IntPredicate, InterpError> {
        self.non_reg_uses()
            .find_map(|o| if let Operand::IntPred(p) = o { Some(*p) } else { None })
            .ok_or_else(|| malformed(self, "missing predicate"))
    }

    /// The floating-point predicate.
    pub fn float_pred(&self) -> Result<FloatPredicate, InterpError> {
        self.non_reg_uses()
            .find_map(|o| if let Operand::FloatPred(p) = o { Some(*p) } else { None })
            .ok_or_else(|| malformed(self, "missing predicate"))
    }

    /// The shuffle mask.
    pub fn shuffle_mask(&self) -> Result<&[Option<u32>], InterpError> {
        self.non_reg_uses()
            .find_map(|o| if let Operand::ShuffleMask(m) = o { Some(&**m) } else { None })
            .ok_or_else(|| malformed(self, "missing shuffle mask"))
    }

    /// A boolean result of `width` bits. An undefined one is still `0` or
    /// `1` with zero-or-one booleans: only bit 0 is undefined.
    pub fn boolean(&self, width: u32, v: Option<bool>) -> Value {
        match v {
            None if self.bool_ext == BoolExt::ZeroOrOne => Value::undef(1).zext(width),
            None => Value::undef(width),
            Some(b) => match self.bool_ext {
                BoolExt::ZeroOrOne => Value::from_bool(width, b),
                BoolExt::ZeroOrAllOnes => Value::from_i128(width, -i128::from(b)),
            },
        }
    }
}

/// True for opcodes whose vector form applies the scalar form lane by lane.
fn is_lanewise(op: Opcode) -> bool {
    use Opcode::*;
    !matches!(
        op,
        G_MERGE_VALUES
            | G_UNMERGE_VALUES
            | G_EXTRACT
            | G_INSERT
            | G_BUILD_VECTOR
            | G_BUILD_VECTOR_TRUNC
            | G_CONCAT_VECTORS
            | G_EXTRACT_VECTOR_ELT
            | G_INSERT_VECTOR_ELT
            | G_EXTRACT_SUBVECTOR
            | G_INSERT_SUBVECTOR
            | G_SHUFFLE_VECTOR
            | G_SPLAT_VECTOR
            | G_BITCAST
            | G_FREEZE
            | G_IMPLICIT_DEF
            | COPY
    ) && !op.name().starts_with("G_VECREDUCE")
}

/// Evaluates a pure (register-to-register) generic instruction. `Ok(None)`
/// when the opcode is not one the pure families know.
pub fn eval_pure(ctx: &Ctx<'_>) -> Result<Option<Vec<Value>>, InterpError> {
    let vector_def = ctx.def_tys.iter().find(|t| t.is_vector()).copied();
    if let Some(vty) = vector_def
        && is_lanewise(ctx.op)
    {
        return eval_lanes(ctx, vty);
    }
    eval_scalar(ctx)
}

fn eval_scalar(ctx: &Ctx<'_>) -> Result<Option<Vec<Value>>, InterpError> {
    if let Some(v) = int::eval(ctx)? {
        return Ok(Some(v));
    }
    if let Some(v) = bits::eval(ctx)? {
        return Ok(Some(v));
    }
    if let Some(v) = float::eval(ctx)? {
        return Ok(Some(v));
    }
    vector::eval(ctx)
}

fn lane_of(value: &Value, ty: Llt, lane: u32) -> (Value, Llt) {
    if ty.is_vector() {
        let w = ty.scalar_size_in_bits();
        (value.extract(lane * w, w), ty.scalar_type())
    } else {
        (value.clone(), ty)
    }
}

fn eval_lanes(ctx: &Ctx<'_>, vty: Llt) -> Result<Option<Vec<Value>>, InterpError> {
    if vty.is_scalable() {
        return Err(InterpError::Unsupported(format!("{} on scalable vector {vty}", ctx.op.name())));
    }
    let lanes = vty.num_elements();
    let mut outs: Vec<Vec<Value>> = vec![Vec::with_capacity(lanes as usize); ctx.def_tys.len()];
    for lane in 0..lanes {
        let mut args = Vec::with_capacity(ctx.args.len());
        let mut arg_tys = Vec::with_capacity(ctx.args.len());
        for (v, t) in ctx.args.iter().zip(&ctx.arg_tys) {
            let (lv, lt) = lane_of(v, *t, lane);
            args.push(lv);
            arg_tys.push(lt);
        }
        let lane_ctx = Ctx {
            op: ctx.op,
            inst: ctx.inst,
            args,
            arg_tys,
            def_tys: ctx.def_tys.iter().map(|t| t.scalar_type()).collect(),
            bool_ext: ctx.bool_ext,
        };
        let Some(results) = eval_scalar(&lane_ctx)? else { return Ok(None) };
        for (out, r) in outs.iter_mut().zip(results) {
            out.push(r);
        }
    }
    Ok(Some(outs.iter().map(|lanes| Value::concat(lanes)).collect()))
}
