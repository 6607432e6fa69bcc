//! Property tests: random laws of the shapes performance engineers write, with "nice" constants
//! (two significant digits, as measured demands are usually reported), are recovered exactly from
//! clean data, in the same printed form; and the robust statistics keep their defining laws.

use beagle_fit::{fit, format_number, stats, Dataset, Expr, FitOptions};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The printed form with every number replaced by `c`.
fn shape_of(infix: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    let mut prev = ' ';
    for ch in infix.chars() {
        // A digit that follows a letter belongs to a name (`x1`, `log2`).
        let starts_number = ch.is_ascii_digit() && !prev.is_ascii_alphanumeric();
        if in_number && (ch.is_ascii_digit() || ch == '.' || ch == 'e' || ((ch == '-' || ch == '+') && prev == 'e')) {
            prev = ch;
            continue;
        }
        in_number = starts_number;
        out.push(if starts_number { 'c' } else { ch });
        prev = ch;
    }
    out
}

/// A constant with two significant digits in [0.1, 990].
fn nice() -> impl Strategy<Value = f64> {
    (10u32..100, -2i32..2).prop_map(|(m, e)| {
        let v = f64::from(m) * 10f64.powi(e);
        // Round trip through text so that the constant is the decimal a user would write.
        format!("{v:.4}").parse().unwrap()
    })
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    Linear,
    NLogN,
    Sqrt,
    Square,
    Product,
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Linear),
        Just(Shape::NLogN),
        Just(Shape::Sqrt),
        Just(Shape::Square),
        Just(Shape::Product),
    ]
}

fn law(shape: Shape, a: f64, b: f64) -> Expr {
    let x1 = Expr::var(0);
    let term = match shape {
        Shape::Linear => x1,
        Shape::NLogN => x1.clone() * x1.log2(),
        Shape::Sqrt => x1.sqrt(),
        Shape::Square => x1.powi(2),
        Shape::Product => x1 * Expr::var(1),
    };
    Expr::constant(a) * term + Expr::constant(b)
}

/// 40 rows: x1 spread over three decades (as workload generators pick sizes), x2 in 1..=16.
fn data(e: &Expr) -> Dataset {
    let x1: Vec<f64> = (0..40).map(|i| (10f64 * 1.19f64.powi(i)).round()).collect();
    let x2: Vec<f64> = (0..40).map(|i| f64::from(1 + (i * 7) % 16)).collect();
    let y = beagle_fit::eval(e, &[&x1, &x2], 40);
    Dataset::unnamed(vec![x1, x2], y).unwrap()
}

fn noisy(s: Shape, a: f64, share: f64, seed: u64) -> Dataset {
    // The offset is a visible share of the typical value: a term below the noise level cannot be
    // told from noise by anyone, and is not what this test is about.
    let b = a * stats::median(&data(&law(s, 1.0, 0.0)).y) * share;
    let mut d = data(&law(s, a, b));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for (i, y) in d.y.iter_mut().enumerate() {
        *y *= 1.0 + 0.02 * stats::standard_normal(&mut rng);
        if i % 20 == 7 {
            *y *= 3.0; // a GC pause
        }
    }
    d
}

/// Model selection under noise is a statistical test: it has a false-inclusion rate. Over 80
/// noise realisations (2 % noise, 5 % of the samples tripled) of random laws, the printed form
/// must be the true one in at least 97 % of them (with the analysers alone, 1 of 200 realisations
/// lost it; the genetic search runs in each fit, so it may only add options, not spurious terms).
#[test]
fn noise_and_outliers_keep_the_form_in_almost_every_realisation() {
    let shapes = [Shape::Linear, Shape::NLogN, Shape::Sqrt, Shape::Square, Shape::Product];
    let expected = [
        "c*x1 + c",
        "c*x1*log2(x1) + c",
        "c*sqrt(x1) + c",
        "c*x1^c + c",
        "c*x1*x2 + c",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut misses = Vec::new();
    let runs = 80;
    for run in 0..runs {
        let k = run % shapes.len();
        let a = f64::from(rng.random_range(10u32..100)) * 10f64.powi(rng.random_range(-2i32..2));
        let share = rng.random_range(0.2..2.0);
        let result = fit(&noisy(shapes[k], a, share, run as u64), &FitOptions::default()).unwrap();
        if shape_of(&result.infix) != expected[k] {
            misses.push(result.infix);
        }
    }
    eprintln!("{} of {runs} realisations lost the form: {misses:?}", misses.len());
    assert!(
        misses.len() * 100 <= 3 * runs,
        "{} of {runs} lost the form: {misses:?}",
        misses.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn nice_laws_are_recovered_exactly(s in shape(), a in nice(), b in nice()) {
        let truth = law(s, a, b);
        let result = fit(&data(&truth), &FitOptions::default()).unwrap();
        // A coefficient of 1 is not printed.
        let a = if a == 1.0 { String::new() } else { format!("{}*", format_number(a)) };
        let b = format_number(b);
        let expected = match s {
            Shape::Linear => format!("{a}x1 + {b}"),
            Shape::NLogN => format!("{a}x1*log2(x1) + {b}"),
            Shape::Sqrt => format!("{a}sqrt(x1) + {b}"),
            Shape::Square => format!("{a}x1^2 + {b}"),
            Shape::Product => format!("{a}x1*x2 + {b}"),
        };
        prop_assert_eq!(result.infix, expected);
    }

    #[test]
    fn fitting_is_deterministic(s in shape(), a in nice(), b in nice()) {
        let d = data(&law(s, a, b));
        let one = fit(&d, &FitOptions::default()).unwrap();
        let two = fit(&d, &FitOptions::default()).unwrap();
        prop_assert_eq!(one.infix, two.infix);
        prop_assert_eq!(one.stoex, two.stoex);
    }

    #[test]
    fn statistics_keep_their_laws(mut v in prop::collection::vec(-1e6f64..1e6, 1..60), k in 0.5f64..4.0, shift in -1e3f64..1e3) {
        let med = stats::median(&v);
        let (q1, q2, q3) = stats::quartiles(&v);
        let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(lo <= q1 && q1 <= q2 && q2 <= q3 && q3 <= hi);
        prop_assert_eq!(q2, med);
        let tm = stats::trimmed_mean(&v, 0.1);
        prop_assert!(lo <= tm && tm <= hi);
        // Affine equivariance of the median and MAD.
        let moved: Vec<f64> = v.iter().map(|x| k * x + shift).collect();
        prop_assert!((stats::median(&moved) - (k * med + shift)).abs() <= 1e-6 * (1.0 + med.abs() * k + shift.abs()));
        prop_assert!((stats::mad(&moved) - k * stats::mad(&v)).abs() <= 1e-6 * (1.0 + k * stats::mad(&v)));
        // Order does not matter.
        v.reverse();
        prop_assert_eq!(stats::median(&v), med);
    }

    #[test]
    fn the_median_resists_a_minority_of_outliers(base in 1.0f64..1e4, n in 5usize..40) {
        let mut v: Vec<f64> = (0..n).map(|i| base * (1.0 + 0.01 * (i % 5) as f64)).collect();
        let med = stats::median(&v);
        // Triple fewer than a quarter of the samples (GC pauses): the median moves at most to the
        // neighbouring order statistic of the clean samples.
        for x in v.iter_mut().take((n - 1) / 4) {
            *x *= 3.0;
        }
        prop_assert!((stats::median(&v) - med).abs() <= 0.04 * base + 1e-9);
    }
}
