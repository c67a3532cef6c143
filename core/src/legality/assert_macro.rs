//! Support for [`assert_legality!`](crate::assert_legality), the one-line
//! legality test.

use super::action::{LegalizeAction, LegalizeStep};
use super::info::LegalizerInfo;
use super::query::{LegalityQuery, MemDesc, parse_type_name};
use crate::opcode::Opcode;

/// Asserts what a [`LegalizerInfo`] answers for one query, and on failure
/// panics with the query, both answers and the explain trail.
///
/// ```
/// use gisel_core::assert_legality;
/// let info = gisel_core::legality::examples::toy32();
/// assert_legality!(info, G_ADD(s32) => Legal);
/// assert_legality!(info, G_ADD(s7) => WidenScalar(0, s32));
/// assert_legality!(info, G_SHL(s32, s64) => NarrowScalar(1, s32));
/// // Memory operands after `;`: memory type `@` alignment in bits.
/// assert_legality!(info, G_LOAD(s32, p0; s16 @ 16) => Legal);
/// ```
///
/// Types are LLVM spellings or identifier-friendly short forms (`v4s32`,
/// `nxv2s64`); a quoted string holds any spelling (`"<4 x s32>"`).
/// Pointers take the info's pointer size.
#[macro_export]
macro_rules! assert_legality {
    ($info:expr, $op:ident ( $($ty:tt),* $(; $($mty:tt @ $align:literal),* )? ) => $action:ident $( ( $idx:literal, $nty:tt ) )? ) => {
        $crate::legality::assert_macro::check_legality(
            &$info,
            $crate::opcode::Opcode::$op,
            &[$(stringify!($ty)),*],
            &[$($( (stringify!($mty), $align) ),*)?],
            stringify!($action),
            &[$( ($idx, stringify!($nty)) )?],
            concat!(file!(), ":", line!()),
        )
    };
}

/// The body of [`assert_legality!`]; panics with a readable report.
#[doc(hidden)]
pub fn check_legality(
    info: &LegalizerInfo,
    opcode: Opcode,
    types: &[&str],
    mems: &[(&str, u64)],
    action: &str,
    new_type: &[(u8, &str)],
    location: &str,
) {
    let bits = info.pointer_bits();
    let parse = |text: &str| {
        parse_type_name(text, bits).unwrap_or_else(|| panic!("{location}: assert_legality!: bad type '{text}'"))
    };
    let types: Vec<_> = types.iter().map(|t| parse(t)).collect();
    let mems: Vec<MemDesc> = mems.iter().map(|&(t, align)| MemDesc::new(parse(t), align)).collect();
    let Some(action) = LegalizeAction::from_name(action) else {
        panic!("{location}: assert_legality!: unknown action '{action}'")
    };
    let new_type = new_type.first().copied();
    let expected = match new_type {
        Some((idx, ty)) => LegalizeStep::with_type(action, idx, parse(ty)),
        None => LegalizeStep::new(action),
    };
    let query = LegalityQuery::with_mem(opcode, &types, &mems);
    let got = info.action(&query);
    let matches = if new_type.is_some() { got == expected } else { got.action == expected.action };
    if !matches {
        panic!("{location}: legality of {query}\n  expected: {expected}\n       got: {got}\n{}", info.explain(&query));
    }
}
