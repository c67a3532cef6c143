//! The `.mir` reader and writer: the YAML container is parsed with a YAML
//! crate, the machine-function body language by hand, and the writer prints
//! exactly what `llc` 22 prints.

mod body;
mod body_printer;
mod cursor;
pub(crate) mod decimal;
mod error;
mod file;
mod operand_parser;
mod round_trip;
mod stream;
mod target_names;
mod vreg_numbering;

pub use body_printer::{print_body, print_inst, print_mem};
pub use error::MirError;
pub use file::{
    MachineFunction, MirDocuments, MirModule, MirPrintOptions, PIECE_BYTES, Spill, read_mir, read_mir_documents,
    write_function, write_function_in_pieces, write_function_with, write_mir,
};
pub use round_trip::check_round_trip;
pub use stream::{Batch, DocumentBatches, plain_function_names};
pub use vreg_numbering::renumber_vregs;

use crate::ir::Function;

/// Reads a machine-function body (the text of the `body: |` block, without
/// its indentation) into a new function named `name`. `declared` lists the
/// vregs of the YAML `registers:` section (name, class). Error spans are
/// byte offsets into `body`.
pub fn parse_body(
    name: &str,
    body: &str,
    declared: &[(String, Option<String>)],
    pointer_bits: &dyn Fn(u32) -> u32,
) -> Result<Function, MirError> {
    let mut func = Function::new(name);
    body::parse_body(&mut func, body, declared, pointer_bits, None)?;
    Ok(func)
}

mod document;
mod header;
mod header_read;
mod header_write;
mod module;
mod register_list;
mod yaml;
mod yaml_fast;

pub use document::{Body, BodyText, FunctionDoc, MirFile, parse_document};
pub use header::{
    CallSite, Constant, DebugInfo, DebugValueSubstitution, EntryValue, FixedStackObject, FrameInfo, FunctionHeader,
    JumpTable, LiveIn, MfiEntry, RegisterDecl, RegisterEntry, SaveRestorePoint, StackObject, StackObjectType,
};
pub use header_write::{fixed_stack_print_order, validate_machine_function_info, write_function_header};
pub use module::{
    Arch, DataLayout, Target, module_datalayout, module_triple, normalize_triple, pointer_bits, write_ir_module,
};
