//! Legality query cost on the toy 32-bit target: a cache hit, an uncached
//! evaluation (the work a miss does), and a cold miss (cache cleared).

use divan::{Bencher, black_box};
use gisel_core::legality::{LegalityQuery, LegalizerInfo, examples};
use gisel_core::prelude::*;

fn main() {
    divan::main();
}

const S7: Llt = Llt::scalar(7);
const S32: Llt = Llt::scalar(32);

/// A query answered from the cache (the first call warms it).
#[divan::bench]
fn hit(bencher: Bencher) {
    let info = examples::toy32();
    let types = [S7];
    let q = LegalityQuery::new(Opcode::G_ADD, &types);
    info.action(&q);
    bencher.bench_local(|| {
        black_box(info.action(black_box(&q)));
    });
}

/// A cache hit on a two-index opcode whose answer comes late in its set.
#[divan::bench]
fn hit_shift(bencher: Bencher) {
    let info = examples::toy32();
    let types = [S32, Llt::scalar(64)];
    let q = LegalityQuery::new(Opcode::G_SHL, &types);
    info.action(&q);
    bencher.bench_local(|| {
        black_box(info.action(black_box(&q)));
    });
}

/// The rule scan a miss performs (no cache lookup or insert).
#[divan::bench]
fn miss_evaluation(bencher: Bencher) {
    let info = examples::toy32();
    let types = [S7];
    let q = LegalityQuery::new(Opcode::G_ADD, &types);
    bencher.bench_local(|| {
        black_box(info.action_uncached(black_box(&q)));
    });
}

/// A real miss: lookup fails, rules run, the answer is inserted. Each
/// iteration asks a different scalar size, so the direct-mapped cache
/// keeps missing as long as the sizes outnumber its slots.
#[divan::bench]
fn miss_with_insert(bencher: Bencher) {
    let toy: LegalizerInfo = examples::toy32().with_cache_slots(2);
    let mut bits = 1u32;
    bencher.bench_local(|| {
        bits = bits % 4000 + 1;
        let types = [Llt::scalar(bits)];
        black_box(toy.action(black_box(&LegalityQuery::new(Opcode::G_ADD, &types))));
    });
}
