//! Target kinds: loop counts and passed values print with exact integer constants; branch
//! decisions give guards (contract infix and StoEx that `beagle_stoex` parses) or probabilities
//! chosen by likelihood.

use beagle_fit::{eval, eval_cond, fit, fit_branch, BranchKind, BranchOptions, Dataset, FitOptions, Target};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn options(target: Target) -> FitOptions {
    FitOptions {
        target,
        ..FitOptions::default()
    }
}

fn log_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    rng.random_range(lo.ln()..hi.ln()).exp().floor()
}

// ---------------------------------------------------------------------------------------------
// Counts.
// ---------------------------------------------------------------------------------------------

/// A law of two inputs.
type Law2 = fn(f64, f64) -> f64;

#[test]
fn loop_counts_print_exactly_with_integer_constants() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let x1: Vec<f64> = (0..50).map(|_| f64::from(rng.random_range(2..500u32))).collect();
    let x2: Vec<f64> = x1
        .iter()
        .map(|v| 1.0 + (rng.random::<f64>() * (v - 1.0)).floor())
        .collect();
    let cases: [(&str, Law2); 6] = [
        ("x1 - x2", |a, b| a - b),
        ("2*x1 + 1", |a, _| 2.0 * a + 1.0),
        ("floor(x1/3)", |a, _| (a / 3.0).floor()),
        ("x1*x2", |a, b| a * b),
        // Pairs of a nested loop: integer constants, not 0.5*x1^2 - 0.5*x1.
        ("(x1^2 - x1)/2", |a, _| a * (a - 1.0) / 2.0),
        // Rounded division: round(x1/4) = floor((x1 + 2)/4).
        ("floor((x1 + 2)/4)", |a, _| ((a + 2.0) / 4.0).floor()),
    ];
    for (want, law) in cases {
        let y: Vec<f64> = x1.iter().zip(&x2).map(|(a, b)| law(*a, *b)).collect();
        let d = Dataset::unnamed(vec![x1.clone(), x2.clone()], y).unwrap();
        let r = fit(&d, &options(Target::Count)).unwrap();
        assert_eq!(r.infix, want, "{:#?}", &r.candidates[..4]);
        assert_eq!(eval(&r.expr, &d.columns, d.len()), d.y, "{want} is exact");
        beagle_stoex::parse(&r.stoex).unwrap_or_else(|e| panic!("{}: {e:?}", r.stoex));
    }
}

#[test]
fn counts_with_zeros_still_fit_exactly() {
    // A loop that runs x1 - 10 times, at least zero times: counts include zeros.
    let x1: Vec<f64> = (0..40).map(|i| f64::from(10 + i * 3)).collect();
    let y: Vec<f64> = x1.iter().map(|v| v - 10.0).collect();
    let d = Dataset::unnamed(vec![x1], y).unwrap();
    let r = fit(&d, &options(Target::Count)).unwrap();
    assert_eq!(r.infix, "x1 - 10");
}

// ---------------------------------------------------------------------------------------------
// Passed values.
// ---------------------------------------------------------------------------------------------

#[test]
fn passed_values_are_exact_integer_forms() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let n: Vec<f64> = (0..40).map(|_| log_uniform(&mut rng, 1.0, 1e5)).collect();
    let names = vec!["files.NUMBER_OF_ELEMENTS".to_string()];
    for (want, stoex, law) in [
        (
            "x1 - 1",
            "files.NUMBER_OF_ELEMENTS - 1",
            (|v| v - 1.0) as fn(f64) -> f64,
        ),
        ("2*x1", "2 * files.NUMBER_OF_ELEMENTS", |v| 2.0 * v),
        // Zero and negative values: absolute residuals.
        ("x1 - 50", "files.NUMBER_OF_ELEMENTS - 50", |v| v - 50.0),
    ] {
        let y: Vec<f64> = n.iter().map(|v| law(*v)).collect();
        let d = Dataset::new(names.clone(), vec![n.clone()], y).unwrap();
        let r = fit(&d, &options(Target::Value)).unwrap();
        assert_eq!(r.infix, want, "{:#?}", &r.candidates[..4]);
        assert_eq!(r.stoex, stoex);
    }
    // Auto chooses the value target for data with negative values.
    let y: Vec<f64> = n.iter().map(|v| v - 50.0).collect();
    let d = Dataset::new(names, vec![n.clone()], y).unwrap();
    assert_eq!(Target::Auto.resolve(&d), Target::Value);
    assert_eq!(fit(&d, &FitOptions::default()).unwrap().infix, "x1 - 50");
}

// ---------------------------------------------------------------------------------------------
// Branch decisions.
// ---------------------------------------------------------------------------------------------

fn bernoulli(rng: &mut ChaCha8Rng, p: f64) -> f64 {
    if rng.random::<f64>() < p {
        1.0
    } else {
        0.0
    }
}

#[test]
fn a_guard_is_recovered_exactly_and_printed_as_stoex() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let size: Vec<f64> = (0..200).map(|_| log_uniform(&mut rng, 1000.0, 1e6)).collect();
    let other: Vec<f64> = (0..200).map(|_| f64::from(rng.random_range(1..100u32))).collect();
    let y: Vec<f64> = size.iter().map(|v| f64::from(u8::from(*v > 200000.0))).collect();
    let names = vec!["file.BYTESIZE".to_string(), "n".to_string()];
    let d = Dataset::new(names, vec![size.clone(), other], y.clone()).unwrap();
    let b = fit_branch(&d, &BranchOptions::default()).unwrap();
    assert_eq!(b.kind, BranchKind::Guard);
    assert_eq!(b.guard_infix.as_deref(), Some("x1 > 200000"));
    assert_eq!(b.guard_errors, 0.0);
    let stoex = b.guard_stoex.clone().unwrap();
    assert_eq!(stoex, "file.BYTESIZE > 200000");
    let parsed = beagle_stoex::parse(&stoex).unwrap();
    for (row, v) in size.iter().enumerate() {
        let env = |name: &str| (name == "file.BYTESIZE").then_some(*v);
        let got = beagle_stoex::eval(&parsed, &env).unwrap();
        assert_eq!(got, beagle_stoex::Value::Bool(y[row] == 1.0));
    }
    assert_eq!(b.infix, "if(x1 > 200000, 1, 0)");
    beagle_stoex::parse(&b.stoex).unwrap();
    // Through fit with the probability target.
    let r = fit(&d, &options(Target::Probability)).unwrap();
    assert_eq!((r.infix.as_str(), r.source), ("if(x1 > 200000, 1, 0)", "guard"));
    assert_eq!(r.r2, 1.0);
}

#[test]
fn a_conjunction_guard_and_a_guard_with_a_glitch() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let size: Vec<f64> = (0..300).map(|_| log_uniform(&mut rng, 1000.0, 1e6)).collect();
    let flag: Vec<f64> = (0..300).map(|_| f64::from(rng.random_range(0..2u8))).collect();
    let mut y: Vec<f64> = size
        .iter()
        .zip(&flag)
        .map(|(s, f)| f64::from(u8::from(*s > 50000.0 && *f > 0.5)))
        .collect();
    let d = Dataset::unnamed(vec![size.clone(), flag.clone()], y.clone()).unwrap();
    let b = fit_branch(&d, &BranchOptions::default()).unwrap();
    assert_eq!(b.kind, BranchKind::Guard);
    let g = b.guard.clone().unwrap();
    let g_text = b.guard_infix.clone().unwrap();
    assert!(
        g_text == "x2 > 0.5 && x1 > 50000" || g_text == "x1 > 50000 && x2 > 0.5",
        "{g_text}"
    );
    assert_eq!(
        eval_cond(&g, &d.columns, d.len()),
        y.iter().map(|v| *v == 1.0).collect::<Vec<_>>()
    );
    let stoex = b.guard_stoex.unwrap();
    assert!(stoex.contains(" AND "), "{stoex}");
    beagle_stoex::parse(&stoex).unwrap();
    // One measurement glitch among 300: still a guard, with its error counted.
    let row = (0..300).find(|r| y[*r] == 0.0 && size[*r] > 50000.0).unwrap();
    y[row] = 1.0;
    let d = Dataset::unnamed(vec![size, flag], y).unwrap();
    let b = fit_branch(&d, &BranchOptions::default()).unwrap();
    assert_eq!(b.kind, BranchKind::Guard);
    assert_eq!(b.guard_errors, 1.0);
    assert_eq!(b.guard.unwrap(), g);
    // The probability keeps the leaf frequencies (nested `if`s), and its StoEx parses.
    assert!(b.infix.starts_with("if("), "{}", b.infix);
    assert_ne!(b.infix, "if(x2 > 0.5 && x1 > 50000, 1, 0)");
    beagle_stoex::parse(&b.stoex).unwrap_or_else(|e| panic!("{}: {e:?}", b.stoex));
}

#[test]
fn a_constant_probability_gets_no_spurious_split() {
    for seed in 0..10 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let x1: Vec<f64> = (0..200).map(|_| log_uniform(&mut rng, 1.0, 1e6)).collect();
        let x2: Vec<f64> = (0..200).map(|_| rng.random_range(0.0..1.0)).collect();
        let y: Vec<f64> = (0..200).map(|_| bernoulli(&mut rng, 0.3)).collect();
        let d = Dataset::unnamed(vec![x1, x2], y).unwrap();
        let b = fit_branch(&d, &BranchOptions::default()).unwrap();
        assert_eq!(b.kind, BranchKind::Constant, "seed {seed}: {}", b.infix);
        assert!(b.guard.is_none());
        let p = b.probability.as_const().unwrap();
        assert!((p - 0.3).abs() < 0.08, "seed {seed}: {p}");
        // Rounded to few digits.
        assert!(b.infix.len() <= 4, "{}", b.infix);
    }
}

#[test]
fn a_logistic_dependence_is_recovered() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let x1: Vec<f64> = (0..600).map(|_| rng.random_range(0.0..1000.0)).collect();
    let truth = |x: f64| 1.0 / (1.0 + (-(x - 500.0) / 100.0).exp());
    let y: Vec<f64> = x1.iter().map(|x| bernoulli(&mut rng, truth(*x))).collect();
    let d = Dataset::unnamed(vec![x1], y).unwrap();
    let b = fit_branch(&d, &BranchOptions::default()).unwrap();
    assert_eq!(b.kind, BranchKind::Logistic, "{} {:?}", b.infix, &b.candidates[..3]);
    assert!(b.infix.starts_with("1/(1 + exp("), "{}", b.infix);
    for x in [100.0, 300.0, 500.0, 700.0, 900.0] {
        let p = beagle_fit::eval_point(&b.probability, &[x]);
        assert!((p - truth(x)).abs() < 0.08, "{} at {x}: {p}", b.infix);
    }
    beagle_stoex::parse(&b.stoex).unwrap();
}

#[test]
fn a_step_in_the_probability_is_a_tree() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let x1: Vec<f64> = (0..400).map(|_| rng.random_range(0.0..1000.0)).collect();
    let y: Vec<f64> = x1
        .iter()
        .map(|x| bernoulli(&mut rng, if *x > 500.0 { 0.8 } else { 0.2 }))
        .collect();
    let d = Dataset::unnamed(vec![x1], y).unwrap();
    let b = fit_branch(&d, &BranchOptions::default()).unwrap();
    assert_eq!(b.kind, BranchKind::Tree, "{}", b.infix);
    assert!(b.guard.is_none());
    for (x, want) in [(100.0, 0.2), (450.0, 0.2), (550.0, 0.8), (900.0, 0.8)] {
        let p = beagle_fit::eval_point(&b.probability, &[x]);
        assert!((p - want).abs() < 0.08, "{} at {x}: {p}", b.infix);
    }
    beagle_stoex::parse(&b.stoex).unwrap();
}

#[test]
fn frequencies_with_trials() {
    // Per-parameter-point frequencies of 50 calls each: 0.1 below 64, 0.6 from 64 on.
    let x1: Vec<f64> = (1..=20).map(|i| f64::from(i * 8)).collect();
    let y: Vec<f64> = x1.iter().map(|x| if *x >= 64.0 { 0.6 } else { 0.1 }).collect();
    let d = Dataset::unnamed(vec![x1], y).unwrap();
    let opts = BranchOptions {
        trials: Some(vec![50.0; 20]),
        ..BranchOptions::default()
    };
    let b = fit_branch(&d, &opts).unwrap();
    assert_eq!(b.infix, "if(x1 > 60, 0.6, 0.1)");
    assert_eq!(b.trials, 1000.0);
    let bad = BranchOptions {
        trials: Some(vec![1.0; 3]),
        ..BranchOptions::default()
    };
    assert!(fit_branch(&d, &bad).is_err());
}
