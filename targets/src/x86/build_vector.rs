//! `G_BUILD_VECTOR` of constants as a load from the constant pool
//! (`legalizeBuildVector`): every source an integer constant, a
//! floating-point constant or undefined (looking through copies and, for
//! integers, extensions and truncations); any other source and LLVM 22
//! gives up.

use gisel_core::apint::ApInt;
use gisel_core::ir::{FpConst, Inst, Operand, Reg, VReg};
use gisel_core::legalize::Helper;
use gisel_core::opcode::Opcode;

/// One element of the constant vector.
#[derive(Clone, PartialEq)]
enum Element {
    Int(ApInt),
    Float(FpConst),
    Undef,
}

impl Element {
    /// The element as LLVM prints it in a vector (`i32 7`, `double
    /// 1.500000e+00`, `i16 undef`).
    fn text(&self, bits: u32) -> String {
        match self {
            Element::Int(value) => format!("i{} {value}", value.bits()),
            Element::Float(value) => value.to_string(),
            Element::Undef => format!("i{bits} undef"),
        }
    }

    fn is_null(&self) -> bool {
        match self {
            Element::Int(value) => value.is_zero(),
            Element::Float(value) => value.bits == 0,
            Element::Undef => false,
        }
    }
}

/// Replaces the build vector `inst` by a constant-pool load when all its
/// sources are constants or undefined; false otherwise.
pub(super) fn build_vector(h: &mut Helper<'_>, inst: Inst) -> bool {
    let dst = h.reg(inst, 0);
    let ty = h.func.ty(dst);
    let bits = ty.scalar_size_in_bits();
    let count = h.func.inst(inst).operands.len() - 1;
    let mut elements = Vec::with_capacity(count);
    for index in 1..=count {
        match element(h, h.reg(inst, index)) {
            Some(element) => elements.push(element),
            None => return false,
        }
    }
    let Some(text) = vector_text(&elements, bits) else { return false };
    // The ABI alignment of a vector: its size rounded up to a power of two.
    let align = ty.size_in_bytes().max(1).next_power_of_two();
    h.load_from_constant_pool(dst, text, align);
    h.func.erase(inst);
    true
}

/// The IR constant of a vector of `elements`, as LLVM 22 prints it:
/// `zeroinitializer`, `undef`, `splat (i32 1)` or the element list. None
/// when integers or undefined values mix with floating point (an ill-typed
/// vector in LLVM).
fn vector_text(elements: &[Element], bits: u32) -> Option<String> {
    let first = elements.first()?;
    let floats = elements.iter().filter(|e| matches!(e, Element::Float(_))).count();
    if floats != 0 && floats != elements.len() {
        return None;
    }
    let scalar = first.text(bits);
    let element_type = scalar.split(' ').next().unwrap_or_default().to_owned();
    let vector_type = format!("<{} x {element_type}>", elements.len());
    let body = if elements.iter().all(Element::is_null) {
        "zeroinitializer".to_owned()
    } else if elements.iter().all(|e| *e == Element::Undef) {
        "undef".to_owned()
    } else if elements.iter().all(|e| e == first) {
        format!("splat ({scalar})")
    } else {
        let list: Vec<String> = elements.iter().map(|e| e.text(bits)).collect();
        format!("<{}>", list.join(", "))
    };
    Some(format!("{vector_type} {body}"))
}

/// What `reg` holds, if it is constant or undefined.
fn element(h: &Helper<'_>, reg: VReg) -> Option<Element> {
    if let Some(value) = integer_constant(h, reg) {
        return Some(Element::Int(value));
    }
    let def = h.func.def_inst(through_copies(h, reg))?;
    let data = h.func.inst(def);
    match (data.known_opcode()?, data.operands.get(1)) {
        (Opcode::G_FCONSTANT, Some(Operand::FpImm(value))) => Some(Element::Float(**value)),
        (Opcode::G_IMPLICIT_DEF, _) => Some(Element::Undef),
        _ => None,
    }
}

/// `reg` with virtual-register copies looked through.
fn through_copies(h: &Helper<'_>, mut reg: VReg) -> VReg {
    while let Some(def) = h.func.def_inst(reg) {
        let data = h.func.inst(def);
        match (data.known_opcode(), data.operands.get(1).and_then(Operand::as_reg).map(|r| r.reg)) {
            (Some(Opcode::COPY), Some(Reg::Virtual(src))) => reg = src,
            _ => break,
        }
    }
    reg
}

/// The integer constant `reg` holds, looking through copies, truncations,
/// extensions and `G_INTTOPTR`, each applied to the value on the way back
/// (`getIConstantVRegValWithLookThrough`).
fn integer_constant(h: &Helper<'_>, mut reg: VReg) -> Option<ApInt> {
    let mut applied = Vec::new();
    loop {
        let def = h.func.def_inst(reg)?;
        let data = h.func.inst(def);
        let opcode = data.known_opcode()?;
        let source = || match data.operands.get(1).and_then(Operand::as_reg).map(|r| r.reg) {
            Some(Reg::Virtual(src)) => Some(src),
            _ => None,
        };
        match opcode {
            Opcode::G_CONSTANT => {
                let Some(Operand::CImm(value)) = data.operands.get(1) else { return None };
                let mut value = value.as_ref().clone();
                for (opcode, bits) in applied.into_iter().rev() {
                    value = match opcode {
                        Opcode::G_SEXT => value.sext_or_trunc(bits),
                        _ => value.zext_or_trunc(bits),
                    };
                }
                return Some(value);
            }
            Opcode::G_TRUNC | Opcode::G_SEXT | Opcode::G_ZEXT => {
                applied.push((opcode, h.func.ty(reg).size_in_bits() as u32));
                reg = source()?;
            }
            Opcode::COPY | Opcode::G_INTTOPTR => reg = source()?,
            _ => return None,
        }
    }
}
