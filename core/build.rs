//! Generates the opcode enum and its description table from
//! `data/standard-opcodes.txt` and `data/generic-opcodes.tsv`, so that the
//! table is the single source of truth for `gisel-core` and `gisel-macros`.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let standard = fs::read_to_string("data/standard-opcodes.txt").expect("read standard opcodes");
    let generic = fs::read_to_string("data/generic-opcodes.tsv").expect("read generic opcodes");
    println!("cargo::rerun-if-changed=data/standard-opcodes.txt");
    println!("cargo::rerun-if-changed=data/generic-opcodes.tsv");

    let mut variants = String::new();
    let mut infos = String::new();
    let mut list = String::new();
    let mut count = 0usize;
    for name in standard.lines().map(str::trim).filter(|l| !l.is_empty()) {
        writeln!(variants, "    /// Target-independent `{name}`.\n    {name} = {count},").unwrap();
        writeln!(list, "    Opcode::{name},").unwrap();
        writeln!(
            infos,
            "    OpcodeInfo {{ name: {name:?}, generic: false, num_type_indices: 0, operands: &[], \
             mem_operands: MemOperands::None, category: \"standard\", num_imm_indices: 0, \
             legalizer_visits: false, flags: 0 }},"
        )
        .unwrap();
        count += 1;
    }
    for line in generic.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [name, types, layout, _has_mem, category, value, _defs, imms, visits, mems, props] = cols[..] else {
            panic!("bad row in generic-opcodes.tsv: {line}");
        };
        assert_eq!(value.parse::<usize>().unwrap(), count, "opcode values must be dense: {name}");
        let operands: Vec<String> = layout.split_whitespace().filter(|w| *w != "(none)").map(operand).collect();
        let mem = match mems {
            "0" => "None",
            "1" => "One",
            "2" => "Two",
            "0+" => "Optional",
            other => panic!("bad mem_operands {other}"),
        };
        let flags: Vec<String> =
            props.split(',').filter(|p| *p != "-").map(|p| format!("flags::{}", flag(p))).collect();
        let flags = if flags.is_empty() { "0".to_owned() } else { flags.join(" | ") };
        writeln!(variants, "    /// Generic `{name}` ({category}).\n    {name} = {count},").unwrap();
        writeln!(list, "    Opcode::{name},").unwrap();
        writeln!(
            infos,
            "    OpcodeInfo {{ name: {name:?}, generic: true, num_type_indices: {types}, operands: &[{}], \
             mem_operands: MemOperands::{mem}, category: {category:?}, num_imm_indices: {imms}, \
             legalizer_visits: {}, flags: {flags} }},",
            operands.join(", "),
            visits == "yes"
        )
        .unwrap();
        count += 1;
    }
    let code = format!(
        "/// Every target-independent opcode of LLVM 22, in `TargetOpcode` order.\n\
         #[allow(non_camel_case_types)]\n\
         #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         #[repr(u16)]\n\
         pub enum Opcode {{\n{variants}}}\n\n\
         /// Number of opcodes in [`Opcode`].\n\
         pub const NUM_OPCODES: usize = {count};\n\n\
         static OPCODE_INFO: [OpcodeInfo; NUM_OPCODES] = [\n{infos}];\n\n\
         static ALL_OPCODES: [Opcode; NUM_OPCODES] = [\n{list}];\n"
    );
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("opcodes.rs");
    fs::write(out, code).expect("write opcodes.rs");
}

/// Translates one `def:type0`-style word of the layout column.
fn operand(word: &str) -> String {
    let (role, rest) = word.split_once(':').expect("role:kind");
    let def = role == "def";
    let (rest, variadic) = match rest.strip_suffix('*') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let kind = if let Some(idx) = rest.strip_prefix("(type").and_then(|r| r.strip_suffix(",mbb)")) {
        format!("OperandKind::TypeAndBlock({idx})")
    } else if let Some(idx) = rest.strip_prefix("ptype") {
        format!("OperandKind::Type {{ index: {idx}, pointer: true }}")
    } else if let Some(idx) = rest.strip_prefix("type") {
        format!("OperandKind::Type {{ index: {idx}, pointer: false }}")
    } else {
        let k = match rest {
            "imm0" => "GenericImm",
            "imm" => "Imm",
            "cimm" => "CImm",
            "fpimm" => "FpImm",
            "intpred" => "IntPred",
            "floatpred" => "FloatPred",
            "mbb" => "Block",
            "frameindex" => "FrameIndex",
            "global" => "Global",
            "cpindex" => "ConstantPoolIndex",
            "jtindex" => "JumpTableIndex",
            "blockaddress" => "BlockAddress",
            "intrinsicid" => "IntrinsicId",
            "shufflemask" => "ShuffleMask",
            "metadata" => "Metadata",
            "any" => "Any",
            other => panic!("unknown operand kind {other}"),
        };
        format!("OperandKind::{k}")
    };
    format!("OperandSpec {{ def: {def}, kind: {kind}, variadic: {variadic} }}")
}

fn flag(property: &str) -> &'static str {
    match property {
        "hasSideEffects" => "HAS_SIDE_EFFECTS",
        "isBarrier" => "IS_BARRIER",
        "isBranch" => "IS_BRANCH",
        "isCommutable" => "IS_COMMUTABLE",
        "isConvergent" => "IS_CONVERGENT",
        "isIndirectBranch" => "IS_INDIRECT_BRANCH",
        "isTerminator" => "IS_TERMINATOR",
        "mayLoad" => "MAY_LOAD",
        "mayStore" => "MAY_STORE",
        "mayRaiseFPException" => "MAY_RAISE_FP_EXCEPTION",
        other => panic!("unknown property {other}"),
    }
}
