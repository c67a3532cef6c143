//! A module legalized through the library and written with `write_mir`
//! numbers the fresh atom groups of its location merges as llc 22 does:
//! from one above the highest group of the module's nodes and every
//! function's locations, function after function.

use gisel_core::legalize::{LegalizeOptions, legalize};
use gisel_core::mir::{read_mir, write_mir};
use gisel_targets::{TargetOptions, target_for};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/mir/debug-locations-fresh-atom-groups-aarch64.mir");

#[test]
fn write_mir_numbers_fresh_atom_groups_in_function_order() {
    let source = std::fs::read_to_string(FILE).unwrap();
    let mut module = read_mir(&source, FILE, None, "").unwrap();
    let target =
        target_for(&module.target.triple, &TargetOptions { opt_level: 2, ..TargetOptions::default() }).unwrap();
    for function in &mut module.functions {
        legalize(&mut function.func, &target.info, target.hooks.as_ref(), LegalizeOptions::default()).unwrap();
    }
    let text = write_mir(&module);
    // The group each fresh atom takes, in file order: the highest group of
    // the file is 9 (in the last function, whose locations are not merged),
    // and "second" takes three, one of them merged again.
    let groups: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("G_AND") && line.contains("atomRank: 1)"))
        .filter_map(|line| line.split("atomGroup: ").nth(1)?.split(',').next())
        .collect();
    assert_eq!(groups, ["10", "11", "13"]);
}
