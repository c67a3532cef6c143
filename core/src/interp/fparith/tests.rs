use super::*;
use crate::interp::softfloat::{DOUBLE, HALF, QUAD, SINGLE};
use proptest::prelude::*;

/// Cases computed by GCC's `__float128` (libgcc soft-fp and libquadmath);
/// `tools/fp128_vectors.c` writes this file and says how.
const VECTORS: &str = include_str!("vectors.txt");

fn hex(width: u32, text: &str) -> ApInt {
    ApInt::from_u128(width, u128::from_str_radix(text, 16).unwrap_or_else(|e| panic!("{text}: {e}")))
}

/// `Some(bits)` of an expected result, `None` for `nan` (or `oor`).
fn expected(width: u32, text: &str) -> Option<ApInt> {
    (text != "nan" && text != "oor").then(|| hex(width, text))
}

fn show(x: &Option<ApInt>) -> String {
    x.as_ref().and_then(ApInt::to_u128).map_or_else(|| "nan".into(), |b| format!("{b:032x}"))
}

fn op_named(name: &str) -> Option<Op> {
    Some(match name {
        "add" => Op::Add,
        "sub" => Op::Sub,
        "mul" => Op::Mul,
        "div" => Op::Div,
        "rem" => Op::Rem,
        "sqrt" => Op::Sqrt,
        "fma" => Op::Fma,
        "floor" => Op::RoundToIntegral(Direction::Down),
        "ceil" => Op::RoundToIntegral(Direction::Up),
        "trunc" => Op::RoundToIntegral(Direction::TowardZero),
        "round" => Op::RoundToIntegral(Direction::NearestTiesAway),
        "rint" => Op::RoundToIntegral(Direction::NearestTiesEven),
        _ => return None,
    })
}

/// What `softfloat`'s conversions give for a conversion case.
fn convert(name: &str, operand: &str) -> Option<(u32, Option<ApInt>)> {
    let from_quad = |to: Format| softfloat::convert(QUAD, to, &hex(128, operand));
    Some(match name {
        "to_f64" => (64, from_quad(DOUBLE)),
        "to_f32" => (32, from_quad(SINGLE)),
        "to_f16" => (16, from_quad(HALF)),
        "from_f64" => (128, softfloat::convert(DOUBLE, QUAD, &hex(64, operand))),
        "to_i128" => (128, softfloat::to_int(QUAD, &hex(128, operand), 128, true)),
        "from_i128" => (128, Some(softfloat::from_int(QUAD, &hex(128, operand), true))),
        "from_u128" => (128, Some(softfloat::from_int(QUAD, &hex(128, operand), false))),
        _ => return None,
    })
}

#[test]
fn binary128_matches_gcc() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in VECTORS.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (name, operands, result) = (fields[0], &fields[1..fields.len() - 1], fields[fields.len() - 1]);
        let (got, want) = if let Some(op) = op_named(name) {
            assert_eq!(operands.len(), op.arity(), "{line}");
            if operands.contains(&"nan") {
                // A NaN operand makes a NaN.
                assert_eq!(result, "nan", "{line}");
                continue;
            }
            let args: Vec<ApInt> = operands.iter().map(|o| hex(128, o)).collect();
            (eval(QUAD, op, &args), expected(128, result))
        } else {
            let (width, got) = convert(name, operands[0]).unwrap_or_else(|| panic!("unknown case {line}"));
            (got, expected(width, result))
        };
        checked += 1;
        if got != want {
            failures.push(format!("{line}\n    got {}", show(&got)));
        }
    }
    assert!(failures.is_empty(), "{} of {checked} cases differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked > 2000, "only {checked} cases");
}

fn quad(x: f64) -> ApInt {
    softfloat::convert(DOUBLE, QUAD, &ApInt::from_u128(64, u128::from(x.to_bits()))).unwrap_or_else(|| quad(0.0))
}

fn quad_of(x: &Option<ApInt>) -> u128 {
    x.as_ref().and_then(ApInt::to_u128).unwrap_or(u128::MAX)
}

#[test]
fn known_values() {
    let one = quad(1.0);
    let third = eval(QUAD, Op::Div, &[one.clone(), quad(3.0)]);
    assert_eq!(quad_of(&third), 0x3ffd_5555_5555_5555_5555_5555_5555_5555);
    assert_eq!(eval(QUAD, Op::Sqrt, &[quad(-1.0)]), None);
    assert_eq!(eval(QUAD, Op::Sqrt, &[quad(-0.0)]), Some(quad(-0.0)));
    assert_eq!(eval(QUAD, Op::Sub, &[one.clone(), one.clone()]), Some(quad(0.0)), "x - x is +0");
    assert_eq!(eval(QUAD, Op::Rem, &[quad(-4.0), quad(2.0)]), Some(quad(-0.0)), "fmod keeps the sign");
    assert_eq!(eval(QUAD, Op::Rem, &[quad(7.5), quad(f64::INFINITY)]), Some(quad(7.5)));
    let round = |d, x| eval(QUAD, Op::RoundToIntegral(d), &[quad(x)]);
    assert_eq!(round(Direction::NearestTiesEven, 2.5), Some(quad(2.0)));
    assert_eq!(round(Direction::NearestTiesAway, 2.5), Some(quad(3.0)));
    assert_eq!(round(Direction::Up, -0.5), Some(quad(-0.0)));
    assert_eq!(round(Direction::Down, -0.5), Some(quad(-1.0)));
    // The smallest subnormal halved is a tie with zero, which is even.
    let tiny = ApInt::from_u128(128, 1);
    assert_eq!(eval(QUAD, Op::Mul, &[tiny.clone(), quad(0.5)]), Some(quad(0.0)));
    assert_eq!(eval(QUAD, Op::Fma, &[tiny, quad(-0.5), quad(-0.0)]), Some(quad(-0.0)));
}

/// The host's result for `op` on `f64` operands.
fn host64(op: Op, x: &[f64]) -> f64 {
    match op {
        Op::Add => x[0] + x[1],
        Op::Sub => x[0] - x[1],
        Op::Mul => x[0] * x[1],
        Op::Div => x[0] / x[1],
        Op::Rem => x[0] % x[1],
        Op::Sqrt => x[0].sqrt(),
        Op::Fma => x[0].mul_add(x[1], x[2]),
        Op::RoundToIntegral(d) => match d {
            Direction::Down => x[0].floor(),
            Direction::Up => x[0].ceil(),
            Direction::TowardZero => x[0].trunc(),
            Direction::NearestTiesAway => x[0].round(),
            Direction::NearestTiesEven => x[0].round_ties_even(),
        },
    }
}

fn host32(op: Op, x: &[f32]) -> f32 {
    match op {
        Op::Add => x[0] + x[1],
        Op::Sub => x[0] - x[1],
        Op::Mul => x[0] * x[1],
        Op::Div => x[0] / x[1],
        Op::Rem => x[0] % x[1],
        Op::Sqrt => x[0].sqrt(),
        Op::Fma => x[0].mul_add(x[1], x[2]),
        Op::RoundToIntegral(_) => host64(op, &[f64::from(x[0])]) as f32,
    }
}

const OPS: [Op; 12] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Div,
    Op::Rem,
    Op::Sqrt,
    Op::Fma,
    Op::RoundToIntegral(Direction::Down),
    Op::RoundToIntegral(Direction::Up),
    Op::RoundToIntegral(Direction::TowardZero),
    Op::RoundToIntegral(Direction::NearestTiesAway),
    Op::RoundToIntegral(Direction::NearestTiesEven),
];

/// `f64` bit patterns weighted toward the interesting: any bits, values of
/// nearby magnitudes (so sums cancel and round), subnormals, specials.
fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        (any::<bool>(), 1000u64..1050, any::<u64>())
            .prop_map(|(s, e, f)| f64::from_bits(u64::from(s) << 63 | e << 52 | f >> 12)),
        (any::<bool>(), any::<u64>()).prop_map(|(s, f)| f64::from_bits(u64::from(s) << 63 | f >> 12)),
        prop::sample::select(vec![0.0, -0.0, 1.0, -1.0, 0.5, 2.5, f64::INFINITY, f64::NEG_INFINITY, f64::MAX]),
    ]
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        (any::<bool>(), 120u32..135, any::<u32>())
            .prop_map(|(s, e, f)| f32::from_bits(u32::from(s) << 31 | e << 23 | f >> 9)),
        (any::<bool>(), any::<u32>()).prop_map(|(s, f)| f32::from_bits(u32::from(s) << 31 | f >> 9)),
    ]
}

fn bits64(x: f64) -> ApInt {
    ApInt::from_u128(64, u128::from(x.to_bits()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// On `double`, the exact arithmetic gives the host's correctly rounded
    /// results, bit for bit (NaN for NaN).
    #[test]
    fn double_matches_the_host(op in prop::sample::select(OPS.to_vec()), x in [any_f64(), any_f64(), any_f64()]) {
        let args: Vec<ApInt> = x.iter().map(|v| bits64(*v)).collect();
        let want = host64(op, &x);
        let got = eval(DOUBLE, op, &args);
        prop_assert_eq!(got, (!want.is_nan()).then(|| bits64(want)), "{:?} {:?}", op, x);
    }

    /// On `float` likewise.
    #[test]
    fn single_matches_the_host(op in prop::sample::select(OPS.to_vec()), x in [any_f32(), any_f32(), any_f32()]) {
        let args: Vec<ApInt> = x.iter().map(|v| ApInt::from_u128(32, u128::from(v.to_bits()))).collect();
        let want = host32(op, &x);
        let got = eval(SINGLE, op, &args);
        prop_assert_eq!(got, (!want.is_nan()).then(|| ApInt::from_u128(32, u128::from(want.to_bits()))), "{:?} {:?}", op, x);
    }

    /// `fp128` has more than twice `double`'s precision plus two bits, so
    /// computing on extended `double`s in `fp128` and rounding back to
    /// `double` gives the `double` result (no double-rounding error for
    /// `+ - * / sqrt`; `fmod` and rounding to integers are exact).
    #[test]
    fn binary128_rounds_back_to_double(op in prop::sample::select(OPS.to_vec()), x in [any_f64(), any_f64()]) {
        prop_assume!(op != Op::Fma);
        let args: Vec<ApInt> = x.iter().map(|v| quad(*v)).collect();
        prop_assume!(x.iter().all(|v| !v.is_nan()));
        let want = host64(op, &x);
        let got = eval(QUAD, op, &args).and_then(|q| softfloat::convert(QUAD, DOUBLE, &q));
        prop_assert_eq!(got, (!want.is_nan()).then(|| bits64(want)), "{:?} {:?}", op, x);
    }

    /// The product of two `double`s is exact in `fp128`: subtracting the
    /// rounded `double` product with a fused multiply-add leaves exactly
    /// the rounding error, which the host computes the same way.
    #[test]
    fn binary128_products_of_doubles_are_exact(a in -1e100f64..1e100, b in -1e100f64..1e100) {
        let p = a * b;
        let exact = eval(QUAD, Op::Mul, &[quad(a), quad(b)]);
        let error = eval(QUAD, Op::Sub, &[exact.clone().unwrap_or_else(|| quad(0.0)), quad(p)]);
        prop_assert_eq!(error, Some(quad(a.mul_add(b, -p))));
        let fused = eval(QUAD, Op::Fma, &[quad(a), quad(b), quad(-p)]);
        prop_assert_eq!(fused, Some(quad(a.mul_add(b, -p))));
    }
}
