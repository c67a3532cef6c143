//! The `legalizer!` macro of gisel: a target's legality rules written
//! inline, checked at compile time, expanded into gisel-core's builder
//! calls. The pipeline is `parse -> resolve -> validate -> expand`, one
//! module each, with every error collected in one `ctxt::Ctxt`.

mod ast;
mod checks;
mod ctxt;
mod expand;
mod lists;
mod opcodes;
mod options;
mod parse;
mod resolve;
mod sigs;
mod types;
mod validate;

use proc_macro::TokenStream;

/// Defines a function that builds a target's
/// `gisel_core::legality::LegalizerInfo` from rules written inline.
///
/// The rules are checked while compiling: a malformed rule is a compile
/// error pointing at the offending token, never a panic at run time. The
/// expansion is plain builder calls (`info.rules_for(&[..]).legal_for(..)`),
/// so the result is the same data a hand-written builder would give.
///
/// # Grammar
///
/// ```text
/// legalizer!  := attr* vis "fn" name "(" args ")" "->" Type "{" option* stmt* "}"
/// option      := "custom" "=" path ";"            // the custom hook (needed by custom actions)
///              | "pointer_bits" "=" (int | expr) ";"   // size of every pN (default 64)
/// stmt        := "let" ident "=" expr ";"          // a runtime value; type literals allowed inside
///              | "let" ident "=" list ";"          // a named type list
///              | "if" expr "{" stmt* "}" ("else" ("{" stmt* "}" | if))?
///              | opcodes "=>" (call ("." call)*)? ";"
/// opcodes     := G_NAME ("|" G_NAME)*              // one rule set shared by the opcodes
/// call        := method "(" gate? (arg ("," arg)*)? ")" // a RuleSet builder method, snake_case
/// gate        := "if" expr ","                     // the rule (or list) exists only when expr holds
/// arg         := int                               // a type index, count or size in bits
///              | type                              // s32, p0, v4s32, nxv2s64, <4 x s32>,
///                                                  // <vscale x 2 x s64>, a `let` name, { expr }
///              | "(" (type | list) ("," (type | list))+ ")" // several type indices; lists: their product
///              | list                              // spliced into a type list; cartesian products, *_in_set
///              | pred | mutation                   // is_scalar(0), change_to(0, s32), ...
///              | closure | path | "{" expr "}"     // custom predicates and mutations
/// list        := "[" gate? arg,* "]" | list_name   // a list, or one named by `let`
/// ```
///
/// Type lists are written inline: `legal_for(s32, s64)` for type index 0,
/// `legal_for((s32, p0), (s64, p0))` for indices 0 and 1. A list named by
/// `let int_vecs = [..];` can stand in any of them, alone or with other
/// types; `[if cond, ..]` gates its members, and a tuple of lists is their
/// cartesian product (`(xlen, [s32, s64])`). Numeric
/// parameters with an LLVM default may be left out
/// (`widen_scalar_to_next_pow2(0)`). Memory descriptors are
/// `(type0, type1, memory type, align in bits)` tuples. Predicates and
/// mutations are gisel-core's constructors by name; a closure or function
/// path becomes a named `custom` one; `{ expr }` passes any expression.
/// Bool-gated LLVM overloads become gated rules (`custom_for(if cond,
/// s32)`), or `if` blocks when whole rule sets differ; an opcode may get
/// rule sets in different arms of one `if`.
///
/// # Checks
///
/// Unknown opcodes, methods, predicates and options (with "did you
/// mean"), ill-formed type literals, wrong argument counts and kinds,
/// type or memory indices past the opcode's last, tuple arities that do
/// not fit the opcode, empty rule sets and type lists, duplicate types,
/// an opcode given two rule sets, opcodes of different layouts sharing
/// one set, rules after one that always fires, vector-only rules on
/// indices that are never vectors (and the reverse), types an index can
/// never hold, clamps with min above max or different element types,
/// `max_scalar` below `min_scalar`, widening to a type that is not wider,
/// memory rules on opcodes without memory operands, `lower`/`libcall` on
/// opcodes the legalizer helper cannot lower or call, uncovered type and
/// immediate indices, custom actions without a hook, and type lists that
/// are unknown, defined twice, empty, unused or used where one type or one
/// type index belongs.
///
/// # Example
///
/// ```
/// use gisel_core::prelude::*;
/// use gisel_macros::legalizer;
///
/// pub struct Subtarget {
///     pub has_mul: bool,
/// }
///
/// legalizer! {
///     /// A small 32-bit target.
///     pub fn tiny(st: &Subtarget) -> LegalizerInfo {
///         pointer_bits = 32;
///         let xlen = s32;
///
///         G_ADD | G_SUB | G_AND => legal_for(xlen, v2s16, <4 x s8>)
///             .widen_scalar_to_next_pow2(0)
///             .clamp_scalar(0, s32, s32)
///             .scalarize(0);
///         G_SHL => legal_for((s32, s32)).clamp_scalar(0, s32, s32).clamp_scalar(1, s32, s32);
///         if st.has_mul {
///             G_MUL => legal_for(xlen).clamp_scalar(0, s32, s32);
///         } else {
///             G_MUL => libcall_for(xlen).clamp_scalar(0, s32, s32);
///         }
///         G_ICMP => legal_if(all(is_scalar(0), |q| q.ty(1).size_in_bits() == 32));
///     }
/// }
///
/// let info = tiny(&Subtarget { has_mul: false });
/// gisel_core::assert_legality!(info, G_ADD(s16) => WidenScalar(0, s32));
/// gisel_core::assert_legality!(info, G_MUL(s32) => Libcall);
/// assert!(info.validate().is_ok());
/// ```
#[proc_macro]
pub fn legalizer(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as ast::Input);
    expand::expand(&input).into()
}
