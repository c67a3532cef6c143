//! The hot paths of `gisel llc -run-pass=legalizer`, per function size:
//! reading a file (header and body), legalizing one AArch64 function, and
//! printing it. Time per instruction should stay flat as the function
//! grows (the scale issue's bar): compare the sizes of one benchmark.

use divan::{Bencher, black_box};
use gisel_core::legalize::{LegalizeOptions, legalize};
use gisel_core::mir::{read_mir, write_mir};
use gisel_targets::{TargetOptions, target_for};
use std::fmt::Write;

fn main() {
    divan::main();
}

/// Operations per generated function.
const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// One AArch64 function of `ops` operations, each on a value of a legal or
/// illegal width (s8 to s96) made from an argument and folded into a
/// running s64 sum, so that nothing is dead.
fn function(ops: usize) -> String {
    let mut text = String::from(
        "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: $x0, $x1\n\n    \
         %0:_(s64) = COPY $x0\n    %1:_(s64) = COPY $x1\n",
    );
    let widths = [8, 16, 24, 48, 64, 96];
    let mut last = String::from("%0");
    for i in 0..ops {
        let width = widths[i % widths.len()];
        let (value, result, wide, sum) = (2 + 4 * i, 3 + 4 * i, 4 + 4 * i, 5 + 4 * i);
        let arg = i % 2;
        let _ = match width {
            64 => writeln!(text, "    %{value}:_(s64) = COPY %{arg}"),
            w if w < 64 => writeln!(text, "    %{value}:_(s{w}) = G_TRUNC %{arg}(s64)"),
            w => writeln!(text, "    %{value}:_(s{w}) = G_ANYEXT %{arg}(s64)"),
        };
        let op = ["G_ADD", "G_MUL", "G_SHL", "G_LSHR", "G_XOR", "G_SUB"][i % 6];
        let _ = writeln!(text, "    %{result}:_(s{width}) = {op} %{value}, %{value}");
        let _ = match width {
            64 => writeln!(text, "    %{wide}:_(s64) = COPY %{result}"),
            w if w < 64 => writeln!(text, "    %{wide}:_(s64) = G_ANYEXT %{result}(s{w})"),
            w => writeln!(text, "    %{wide}:_(s64) = G_TRUNC %{result}(s{w})"),
        };
        let _ = writeln!(text, "    %{sum}:_(s64) = G_ADD {last}, %{wide}");
        last = format!("%{sum}");
    }
    let _ = writeln!(text, "    $x0 = COPY {last}(s64)\n    RET_ReallyLR implicit $x0\n...");
    text
}

/// Reading the file: the header and the body of one function.
#[divan::bench(args = SIZES)]
fn read(bencher: Bencher, ops: usize) {
    let text = function(ops);
    bencher.bench(|| black_box(read_mir(black_box(&text), "f.mir", Some("aarch64"), "")));
}

/// Legalizing one function, as read (the target is built once).
#[divan::bench(args = SIZES)]
fn legalize_function(bencher: Bencher, ops: usize) {
    let module = read_mir(&function(ops), "f.mir", Some("aarch64"), "").expect("the generated function reads");
    let options = TargetOptions { opt_level: 2, ..TargetOptions::default() };
    let target = target_for("aarch64", &options).expect("AArch64 is a target");
    bencher.with_inputs(|| module.functions[0].func.clone()).bench_local_values(|mut func| {
        legalize(&mut func, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
            .expect("the generated function legalizes");
        func
    });
}

/// Printing the file back.
#[divan::bench(args = SIZES)]
fn print(bencher: Bencher, ops: usize) {
    let module = read_mir(&function(ops), "f.mir", Some("aarch64"), "").expect("the generated function reads");
    bencher.bench(|| black_box(write_mir(black_box(&module))));
}
