//! Deterministic random inputs for a function: a value for every live-in
//! physical register and every incoming stack argument (edge values `0`,
//! `1`, `-1`, signed minimum and maximum at the input's width and at the
//! narrower widths the function truncates it to, powers of two, small
//! numbers, special floats, random bits; see [`input_sites`](super::input_sites)
//! for where inputs enter) and a seed for the rest of the initial memory.

use super::Program;
use super::abi::{Abi, RegClass};
use super::input_sites::{Site, live_ins, stack_slots};
use super::machine::Inputs;
use super::memory::splitmix64;
use super::value::Value;
use crate::apint::ApInt;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        splitmix64(self.0)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn random_bits(rng: &mut Rng, bits: u32) -> ApInt {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.next()).collect();
    ApInt::from_words(bits, &words)
}

fn int_value(rng: &mut Rng, index: usize, reg: &Site) -> ApInt {
    let w = reg.bits;
    let k = reg.widths[rng.below(reg.widths.len() as u64) as usize];
    let sext = rng.below(2) == 0;
    let at = |v: ApInt| if sext { v.sext_or_trunc(w) } else { v.zext_or_trunc(w) };
    let choice = if index < 3 { index as u64 } else { rng.below(10) };
    match choice {
        0 => ApInt::zero(w),
        1 => ApInt::all_ones(w),
        2 => ApInt::from_u128(w, 1),
        3 => at(ApInt::signed_min(k)),
        4 => at(ApInt::signed_max(k)),
        5 => at(ApInt::all_ones(k)),
        6 => {
            let p = rng.below(u64::from(w)) as u32;
            let v = ApInt::from_u128(w, 1).shl(p);
            match rng.below(3) {
                0 => v,
                1 => v.sub(&ApInt::from_u128(w, 1)),
                _ => v.negate(),
            }
        }
        7 => {
            let v = ApInt::from_u128(w, u128::from(rng.below(17)));
            if rng.below(2) == 0 { v } else { v.negate() }
        }
        _ => at(random_bits(rng, k)).or(&if sext {
            ApInt::zero(w)
        } else {
            random_bits(rng, w).and(&ApInt::bit_range(w, k, w))
        }),
    }
}

fn float_value(rng: &mut Rng, reg: &Site) -> ApInt {
    let w = reg.widths[rng.below(reg.widths.len() as u64) as usize].min(reg.bits);
    let special: &[u128] = match w {
        16 => &[0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x3800, 0x4500],
        32 => &[
            0,
            0x8000_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            1,
            0x7f7f_ffff,
            0x4f00_0000,
            0xcf00_0000,
            0x3fc0_0000,
        ],
        64 => &[
            0,
            1 << 63,
            0x3ff0_0000_0000_0000,
            0xbff0_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            1,
            0x43e0_0000_0000_0000,
            0xc3e0_0000_0000_0000,
            0x41e0_0000_0000_0000,
        ],
        // x86_fp80, its integer bit explicit: ±0, ±1, +∞, a quiet NaN, the
        // smallest denormal, ±2^63, 2^31.
        80 => &[
            0,
            1 << 79,
            0x3fff_8000_0000_0000_0000,
            0xbfff_8000_0000_0000_0000,
            0x7fff_8000_0000_0000_0000,
            0x7fff_c000_0000_0000_0000,
            1,
            0x403e_8000_0000_0000_0000,
            0xc03e_8000_0000_0000_0000,
            0x401e_8000_0000_0000_0000,
        ],
        _ => &[0],
    };
    let v = match rng.below(3) {
        0 => ApInt::from_u128(w, special[rng.below(special.len() as u64) as usize]),
        // A moderate value: random sign and mantissa, exponent near the bias.
        1 if w >= 16 => {
            let exp_bits = match w {
                16 => 5,
                32 => 8,
                64 => 11,
                _ => 15,
            };
            let bias = (1u64 << (exp_bits - 1)) - 1;
            let e = bias + rng.below(40).min(bias) - 20.min(bias);
            let frac = random_bits(rng, w - 1 - exp_bits);
            // x86_fp80 stores the significand's leading one.
            let integer_bit = ApInt::bit_range(w, 63, u32::from(w == 80));
            ApInt::from_u128(w, u128::from(e))
                .shl(w - 1 - exp_bits)
                .or(&frac.zext_or_trunc(w))
                .or(&integer_bit)
                .or(&ApInt::bit_range(w, w - 1, rng.below(2) as u32))
        }
        _ => random_bits(rng, w),
    };
    v.zext_or_trunc(reg.bits)
}

/// The value of input `index` at `site`: the first three inputs take the
/// edge values `0`, `-1` and `1` whatever the site's class; each is then
/// extended as the caller promises, if it does.
fn site_value(rng: &mut Rng, index: usize, site: &Site) -> Value {
    let value = match site.class {
        RegClass::Int => int_value(rng, index, site),
        RegClass::Float if index < 3 => int_value(rng, index, site),
        RegClass::Float => float_value(rng, site),
    };
    // Extended as the caller promises.
    Value::defined(match site.promised {
        Some((true, from)) => value.zext_or_trunc(from).sext_or_trunc(site.bits),
        Some((false, from)) => value.zext_or_trunc(from).zext_or_trunc(site.bits),
        None => value,
    })
}

/// `count` inputs for `program`'s function, deterministic in `seed`.
pub fn random_inputs(program: &Program<'_>, abi: &Abi, count: usize, seed: u64) -> Vec<Inputs> {
    let regs = live_ins(program.func, abi);
    let slots: Vec<(i64, Site)> =
        stack_slots(program.func).into_iter().map(|(i, site)| (program.fixed_objects.offset(i), site)).collect();
    let mut rng = Rng(splitmix64(seed));
    (0..count)
        .map(|index| Inputs {
            regs: regs.iter().map(|(name, site)| (name.clone(), site_value(&mut rng, index, site))).collect(),
            stack: slots.iter().map(|(offset, site)| (*offset, site_value(&mut rng, index, site))).collect(),
            memory_seed: rng.next(),
        })
        .collect()
}
