//! Correctly rounded IEEE 754 arithmetic on any binary format, by exact
//! integer arithmetic and a single rounding ([`softfloat::encode`]: to
//! nearest, ties to even, with subnormals and overflow to infinity).
//!
//! The interpreter uses it where the host has no matching type (`fp128`,
//! `half`): an operation first computes its exact result as a
//! [`Class`] (`±m·2^e` with `m` as wide as needed), then rounds once, so a
//! fused multiply-add rounds once and `fmod` is exact. Division and square
//! root are not finite binary fractions; they keep enough quotient or root
//! bits that the remainder only decides a final *sticky* bit, which rounds
//! the same as the exact value. The tests hold the results against the
//! host's `f32`/`f64` and against GCC's `__float128`.
//!
//! Functions take and return bit patterns; a NaN result is `None`: LLVM
//! leaves its sign and payload unspecified, so the caller builds whichever
//! NaN its semantics call for.

use super::softfloat::{self, Class, Format};
use crate::apint::ApInt;
use std::cmp::Ordering;

/// A correctly rounded operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a · b`.
    Mul,
    /// `a / b`.
    Div,
    /// C's `fmod`: `a - b·trunc(a / b)`, always exact, with the sign of `a`.
    Rem,
    /// `√a` (`-0` for `-0`, NaN below zero).
    Sqrt,
    /// `a · b + c` with one rounding.
    Fma,
    /// The integral value of `a` chosen by the direction (`floor`, `ceil`,
    /// `trunc`, `round`, `roundeven`); zeros keep the sign of `a`.
    RoundToIntegral(Direction),
}

/// Which integer [`Op::RoundToIntegral`] picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Toward negative infinity (`floor`).
    Down,
    /// Toward positive infinity (`ceil`).
    Up,
    /// Toward zero (`trunc`).
    TowardZero,
    /// To nearest, halfway cases away from zero (`round`).
    NearestTiesAway,
    /// To nearest, halfway cases to even (`roundeven`, `rint` and
    /// `nearbyint` in the default rounding mode).
    NearestTiesEven,
}

impl Op {
    /// The number of operands.
    pub fn arity(self) -> usize {
        match self {
            Op::Sqrt | Op::RoundToIntegral(_) => 1,
            Op::Fma => 3,
            _ => 2,
        }
    }
}

/// Applies `op` to `args`, bit patterns in format `f` (`op.arity()` of
/// them); `None` when the result is a NaN.
///
/// # Panics
///
/// When `args` has fewer than `op.arity()` elements.
pub fn eval(f: Format, op: Op, args: &[ApInt]) -> Option<ApInt> {
    let x: Vec<Class> = args[..op.arity()].iter().map(|a| softfloat::decode(f, a)).collect();
    if x.iter().any(is_nan) {
        return None;
    }
    let exact = match op {
        Op::Add => sum(&x[0], &x[1]),
        Op::Sub => sum(&x[0], &negated(&x[1])),
        Op::Mul => product(&x[0], &x[1]),
        Op::Div => quotient(f, &x[0], &x[1]),
        Op::Rem => remainder(&x[0], &x[1]),
        Op::Sqrt => square_root(f, &x[0]),
        Op::Fma => sum(&product(&x[0], &x[1]), &x[2]),
        Op::RoundToIntegral(d) => integral(&x[0], d),
    };
    rounded(f, &exact)
}

const NAN: Class = Class::Nan { signaling: false };

fn is_nan(x: &Class) -> bool {
    matches!(x, Class::Nan { .. })
}

/// The sign bit of a non-NaN.
fn sign_of(x: &Class) -> bool {
    match x {
        Class::Inf(s) | Class::Zero(s) | Class::Finite { sign: s, .. } => *s,
        Class::Nan { .. } => false,
    }
}

fn negated(x: &Class) -> Class {
    match x {
        Class::Inf(s) => Class::Inf(!s),
        Class::Zero(s) => Class::Zero(!s),
        Class::Finite { sign, mant, exp } => Class::Finite { sign: !sign, mant: mant.clone(), exp: *exp },
        Class::Nan { .. } => NAN,
    }
}

/// The exact value `x` rounded into `f`.
fn rounded(f: Format, x: &Class) -> Option<ApInt> {
    Some(match x {
        Class::Nan { .. } => return None,
        Class::Inf(s) => f.inf(*s),
        Class::Zero(s) => f.zero(*s),
        Class::Finite { sign, mant, exp } => softfloat::encode(f, *sign, mant, *exp),
    })
}

fn significant_bits(m: &ApInt) -> u32 {
    m.bits() - m.leading_zeros()
}

/// `m · 2^shift` in an integer of `width` bits (wide enough to hold it).
fn scaled(m: &ApInt, shift: u32, width: u32) -> ApInt {
    m.zext_or_trunc(width).shl(shift)
}

/// Two finite significands brought to the smaller exponent:
/// `(a, b, e)` with `x = a·2^e` and `y = b·2^e`, one bit of headroom.
fn aligned(ma: &ApInt, ea: i64, mb: &ApInt, eb: i64) -> (ApInt, ApInt, i64) {
    let e = ea.min(eb);
    // Exponents of finite values, even of products, differ by far less
    // than `u32::MAX`.
    let (sa, sb) = ((ea - e) as u32, (eb - e) as u32);
    let width = (significant_bits(ma) + sa).max(significant_bits(mb) + sb) + 1;
    (scaled(ma, sa, width), scaled(mb, sb, width), e)
}

/// The exact sum; an exact zero from nonzero terms is `+0`, as rounding to
/// nearest makes it.
fn sum(x: &Class, y: &Class) -> Class {
    use Class::*;
    match (x, y) {
        (Nan { .. }, _) | (_, Nan { .. }) => NAN,
        (Inf(s), Inf(t)) if s != t => NAN,
        (Inf(s), _) | (_, Inf(s)) => Inf(*s),
        (Zero(s), Zero(t)) => Zero(*s && *t),
        (Zero(_), v) | (v, Zero(_)) => v.clone(),
        (Finite { sign: sa, mant: ma, exp: ea }, Finite { sign: sb, mant: mb, exp: eb }) => {
            let (a, b, exp) = aligned(ma, *ea, mb, *eb);
            if sa == sb {
                return Finite { sign: *sa, mant: a.add(&b), exp };
            }
            match a.ucmp(&b) {
                Ordering::Equal => Zero(false),
                Ordering::Greater => Finite { sign: *sa, mant: a.sub(&b), exp },
                Ordering::Less => Finite { sign: *sb, mant: b.sub(&a), exp },
            }
        }
    }
}

/// The exact product.
fn product(x: &Class, y: &Class) -> Class {
    use Class::*;
    let sign = sign_of(x) != sign_of(y);
    match (x, y) {
        (Nan { .. }, _) | (_, Nan { .. }) | (Inf(_), Zero(_)) | (Zero(_), Inf(_)) => NAN,
        (Inf(_), _) | (_, Inf(_)) => Inf(sign),
        (Zero(_), _) | (_, Zero(_)) => Zero(sign),
        (Finite { mant: ma, exp: ea, .. }, Finite { mant: mb, exp: eb, .. }) => {
            let width = significant_bits(ma) + significant_bits(mb);
            Finite { sign, mant: ma.zext_or_trunc(width).mul(&mb.zext_or_trunc(width)), exp: ea + eb }
        }
    }
}

/// A truncated quotient or root `q` (at least `p + 3` bits) and whether
/// its remainder is nonzero, as a finite value with a sticky bit:
/// `(2q + sticky)·2^(exp - 1)`. Rounding keeps at most `p` bits, so the
/// rounding point is at least two bits above the sticky bit, and the true
/// value and this one lie strictly between the same two neighbours of
/// `2q·2^(exp-1)` that rounding can tell apart.
fn with_sticky(sign: bool, q: &ApInt, inexact: bool, exp: i64) -> Class {
    let mant = q.zext_or_trunc(q.bits() + 1).shl(1).or(&ApInt::from_u128(q.bits() + 1, u128::from(inexact)));
    Class::Finite { sign, mant, exp: exp - 1 }
}

/// The quotient, rounded by way of a sticky bit.
fn quotient(f: Format, x: &Class, y: &Class) -> Class {
    use Class::*;
    let sign = sign_of(x) != sign_of(y);
    match (x, y) {
        (Nan { .. }, _) | (_, Nan { .. }) | (Inf(_), Inf(_)) | (Zero(_), Zero(_)) => NAN,
        (Inf(_), _) | (_, Zero(_)) => Inf(sign),
        (Zero(_), _) | (_, Inf(_)) => Zero(sign),
        (Finite { mant: ma, exp: ea, .. }, Finite { mant: mb, exp: eb, .. }) => {
            // Scale the dividend so the quotient has at least p + 3 bits.
            let (na, nb) = (significant_bits(ma), significant_bits(mb));
            let k = f.frac_bits + 4 + nb;
            let width = na + k;
            // The divisor is a nonzero significand, so the division is defined.
            scaled(ma, k, width)
                .udivrem(&mb.zext_or_trunc(width))
                .map_or(NAN, |(q, r)| with_sticky(sign, &q, !r.is_zero(), ea - eb - i64::from(k)))
        }
    }
}

/// C's `fmod`, exact.
fn remainder(x: &Class, y: &Class) -> Class {
    use Class::*;
    match (x, y) {
        (Nan { .. }, _) | (_, Nan { .. }) | (Inf(_), _) | (_, Zero(_)) => NAN,
        (Zero(_), _) | (_, Inf(_)) => x.clone(),
        (Finite { sign, mant: ma, exp: ea }, Finite { mant: mb, exp: eb, .. }) => {
            let (na, nb) = (significant_bits(ma), significant_bits(mb));
            if ea + i64::from(na) < eb + i64::from(nb) {
                // |x| < |y|: x is its own remainder.
                return x.clone();
            }
            let (r, exp) = if ea < eb {
                // The leading bits are within `na` places of each other.
                let (a, b, e) = aligned(ma, *ea, mb, *eb);
                (a.udivrem(&b).map(|(_, r)| r), e)
            } else {
                (reduced(ma, (ea - eb) as u32, mb), *eb)
            };
            match r {
                Some(r) if !r.is_zero() => Finite { sign: *sign, mant: r, exp },
                _ => Zero(*sign),
            }
        }
    }
}

/// `(a·2^shift) mod b` for a nonzero `b`, a word of the shift at a time so
/// that no number grows past `b`'s width and a word (exponents of `fp128`
/// values differ by up to 2^15).
fn reduced(a: &ApInt, shift: u32, b: &ApInt) -> Option<ApInt> {
    let width = significant_bits(a).max(significant_bits(b)) + 64;
    let b = b.zext_or_trunc(width);
    let mut r = a.zext_or_trunc(width).udivrem(&b)?.1;
    let mut left = shift;
    while left > 0 {
        let step = left.min(64);
        r = r.shl(step).udivrem(&b)?.1;
        left -= step;
    }
    Some(r)
}

/// `⌊√n⌋` by Newton's iteration from above.
fn isqrt(n: &ApInt) -> ApInt {
    let bits = significant_bits(n);
    if bits == 0 {
        return n.clone();
    }
    // One spare bit so that `x + n / x` cannot overflow.
    let n = n.zext_or_trunc(n.bits() + 1);
    // 2^⌈bits/2⌉ > √n.
    let mut x = ApInt::bit_range(n.bits(), bits.div_ceil(2), 1);
    loop {
        // x ≥ ⌊√n⌋ ≥ 1, so the division is defined.
        let q = n.udivrem(&x).map_or_else(|| ApInt::zero(n.bits()), |(q, _)| q);
        let next = x.add(&q).lshr(1);
        if next.ucmp(&x) != Ordering::Less {
            return x.zext_or_trunc(n.bits() - 1);
        }
        x = next;
    }
}

/// The square root, rounded by way of a sticky bit.
fn square_root(f: Format, x: &Class) -> Class {
    match x {
        Class::Zero(_) | Class::Inf(false) => x.clone(),
        Class::Finite { sign: false, mant, exp } => {
            // √(m·2^e) = √(m·2^k)·2^((e-k)/2) with e - k even and m·2^k
            // wide enough for a root of at least p + 3 bits.
            let mut k = 2 * (f.frac_bits + 4);
            if (exp - i64::from(k)).rem_euclid(2) == 1 {
                k += 1;
            }
            let m = scaled(mant, k, significant_bits(mant) + k);
            let root = isqrt(&m);
            let width = m.bits();
            let square = root.zext_or_trunc(width).mul(&root.zext_or_trunc(width));
            with_sticky(false, &root, square != m, (exp - i64::from(k)) / 2)
        }
        _ => NAN,
    }
}

/// The integral value `x` rounds to in direction `d` (exact).
fn integral(x: &Class, d: Direction) -> Class {
    let Class::Finite { sign, mant, exp } = x else { return x.clone() };
    if *exp >= 0 {
        return x.clone();
    }
    let shift = u32::try_from(-exp).unwrap_or(u32::MAX);
    let whole = mant.lshr(shift);
    let inexact = mant.trailing_zeros() < shift;
    let half = mant.bit(shift - 1);
    let below_half = shift >= 2 && mant.trailing_zeros() < shift - 1;
    let up = match d {
        Direction::Down => *sign && inexact,
        Direction::Up => !*sign && inexact,
        Direction::TowardZero => false,
        Direction::NearestTiesAway => half,
        Direction::NearestTiesEven => half && (below_half || whole.bit(0)),
    };
    let width = mant.bits() + 1;
    let whole = whole.zext_or_trunc(width).add(&ApInt::from_u128(width, u128::from(up)));
    if whole.is_zero() { Class::Zero(*sign) } else { Class::Finite { sign: *sign, mant: whole, exp: 0 } }
}

#[cfg(test)]
mod tests;
