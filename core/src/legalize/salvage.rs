//! What LLVM's legalizer keeps of a dead instruction's value for the
//! debugger before erasing it (`salvageDebugInfo`): a `DBG_VALUE` of a
//! `COPY`'s result shows its source instead, and one of a scalar
//! `G_TRUNC`'s result shows the truncation's source through conversion
//! operations prepended to its expression (as a stack value).

use crate::ir::{Function, Inst, Operand, Reg, RegOperand};
use crate::opcode::Opcode;

/// The longest expression (in elements) a salvage may leave.
const MAX_EXPRESSION_ELEMENTS: usize = 128;

/// Points the `DBG_VALUE`s of the results of `dead`, about to be erased,
/// at what the results were made from, where LLVM 22 does.
pub(super) fn salvage_debug_values(func: &mut Function, dead: Inst) {
    let data = func.inst(dead);
    let (Some(opcode), [Operand::Reg(def), Operand::Reg(source), ..]) = (data.known_opcode(), &data.operands[..])
    else {
        return;
    };
    let (Reg::Virtual(value), source) = (def.reg, source.clone()) else { return };
    let conversions = match opcode {
        Opcode::COPY => Vec::new(),
        Opcode::G_TRUNC => {
            let Reg::Virtual(wide) = source.reg else { return };
            let (from, to) = (func.ty(wide), func.ty(value));
            if !from.is_scalar() {
                return;
            }
            let unsigned = |bits: u64| format!("DW_OP_LLVM_convert, {bits}, DW_ATE_unsigned");
            vec![unsigned(from.size_in_bits()), unsigned(to.size_in_bits())]
        }
        _ => return,
    };
    let users: Vec<Inst> = func.use_insts(value).collect();
    for user in users {
        let data = func.inst(user);
        let [Operand::Reg(location), Operand::Reg(indirect), _, Operand::Metadata(expression)] = &data.operands[..]
        else {
            continue;
        };
        // An indirect value (an offset instead of `$noreg`) is left alone.
        let direct = matches!(indirect.reg, Reg::Physical(r) if func.names.resolve(r) == "noreg");
        if !data.is(Opcode::DBG_VALUE) || location.reg != Reg::Virtual(value) || !direct {
            continue;
        }
        let Some(salvaged) = prepended(expression, &conversions) else { continue };
        let new_location = RegOperand { reg: source.reg, subreg: source.subreg, ..RegOperand::use_of(source.reg) };
        func.modify(user, |d| {
            d.operands[0] = Operand::Reg(new_location);
            d.operands[3] = Operand::Metadata(salvaged.into());
        });
    }
}

/// `expression` (`!DIExpression(...)`) with `ops` in front and, when there
/// are any, a `DW_OP_stack_value` at its end (before a fragment) unless it
/// has one (LLVM's `DIExpression::prependOpcodes`); `None` for an
/// expression written as a node, one with arguments (`DW_OP_LLVM_arg`), or
/// one grown too long.
fn prepended(expression: &str, ops: &[String]) -> Option<String> {
    let inner = expression.strip_prefix("!DIExpression(")?.strip_suffix(')')?;
    let old: Vec<&str> = inner.split(',').map(str::trim).filter(|e| !e.is_empty()).collect();
    if old.contains(&"DW_OP_LLVM_arg") {
        return None;
    }
    let mut elements: Vec<String> = ops.iter().flat_map(|op| op.split(", ").map(String::from)).collect();
    let mut stack_value = !ops.is_empty();
    for element in old {
        if stack_value && element == "DW_OP_stack_value" {
            stack_value = false;
        } else if stack_value && element == "DW_OP_LLVM_fragment" {
            elements.push("DW_OP_stack_value".into());
            stack_value = false;
        }
        elements.push(element.into());
    }
    if stack_value {
        elements.push("DW_OP_stack_value".into());
    }
    (elements.len() <= MAX_EXPRESSION_ELEMENTS).then(|| format!("!DIExpression({})", elements.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::prepended;

    #[test]
    fn conversions_go_first_and_the_value_is_on_the_stack() {
        let ops = ["DW_OP_LLVM_convert, 64, DW_ATE_unsigned".to_string()];
        assert_eq!(
            prepended("!DIExpression()", &ops).as_deref(),
            Some("!DIExpression(DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)")
        );
        assert_eq!(
            prepended("!DIExpression(DW_OP_LLVM_fragment, 0, 8)", &ops).as_deref(),
            Some(
                "!DIExpression(DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 8)"
            )
        );
        assert_eq!(prepended("!DIExpression()", &[]).as_deref(), Some("!DIExpression()"));
        assert_eq!(prepended("!12", &ops), None);
    }
}
