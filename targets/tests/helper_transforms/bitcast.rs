//! `bitcast` (§3.6): an operation redone on a type of the same size.

use super::case::Case;
use gisel_core::opcode::Opcode::{self, *};

/// The opcodes §3.6 lists.
pub const LISTED: &[Opcode] = &[
    G_LOAD,
    G_STORE,
    G_SELECT,
    G_AND,
    G_OR,
    G_XOR,
    G_EXTRACT_VECTOR_ELT,
    G_INSERT_VECTOR_ELT,
    G_CONCAT_VECTORS,
    G_SHUFFLE_VECTOR,
    G_EXTRACT_SUBVECTOR,
    G_INSERT_SUBVECTOR,
];

/// The cases.
pub const CASES: &[Case] = &[
    Case::new(&[G_LOAD], 0, "s64", &["<4 x s16>"], &["p0"], "%0(p0)").mem("(load (<4 x s16>))"),
    Case::new(&[G_STORE], 0, "s64", &[], &["<4 x s16>", "p0"], "%0, %1(p0)").mem("(store (<4 x s16>))"),
    Case::new(&[G_SELECT], 0, "s64", &["<4 x s16>"], &["s1", "<4 x s16>", "<4 x s16>"], "%0(s1), %1, %2"),
    Case::new(&[G_AND, G_OR, G_XOR], 0, "s64", &["<4 x s16>"], &["<4 x s16>", "<4 x s16>"], "%0, %1"),
    Case::new(&[G_AND, G_OR, G_XOR], 0, "<2 x s32>", &["<8 x s8>"], &["<8 x s8>", "<8 x s8>"], "%0, %1"),
    Case::new(&[G_EXTRACT_VECTOR_ELT], 1, "<2 x s32>", &["s16"], &["<4 x s16>", "s2"], "%0(<4 x s16>), %k(s64)")
        .pre("%k:_(s64) = G_ZEXT %1(s2)"),
    Case::new(&[G_EXTRACT_VECTOR_ELT], 1, "<8 x s8>", &["s32"], &["<2 x s32>", "s1"], "%0(<2 x s32>), %k(s64)")
        .pre("%k:_(s64) = G_ZEXT %1(s1)"),
    Case::new(
        &[G_INSERT_VECTOR_ELT],
        0,
        "<2 x s32>",
        &["<4 x s16>"],
        &["<4 x s16>", "s16", "s2"],
        "%0, %1(s16), %k(s64)",
    )
    .pre("%k:_(s64) = G_ZEXT %2(s2)"),
    Case::new(
        &[G_CONCAT_VECTORS],
        0,
        "<2 x s32>",
        &["<4 x s16>"],
        &["<2 x s16>", "<2 x s16>"],
        "%0(<2 x s16>), %1(<2 x s16>)",
    ),
    Case::new(
        &[G_SHUFFLE_VECTOR],
        0,
        "<2 x s64>",
        &["<2 x p0>"],
        &["<2 x p0>", "<2 x p0>"],
        "%0(<2 x p0>), %1, shufflemask(3, 0)",
    ),
    Case::new(&[G_EXTRACT_SUBVECTOR], 0, "<1 x s16>", &["<2 x s8>"], &["<4 x s8>"], "%0(<4 x s8>), 2"),
    Case::new(&[G_INSERT_SUBVECTOR], 0, "<2 x s16>", &["<4 x s8>"], &["<4 x s8>", "<2 x s8>"], "%0, %1(<2 x s8>), 2"),
];
