//! The evidence rules (issue 15) on data the tests did not shape: seeded noise of several
//! kinds, shuffled rows, several seeds each.

use beagle_fit::{fit, Dataset, FitOptions, GpOptions, Target};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    beagle_fit::stats::standard_normal(rng)
}

/// `points` distinct values of each of `k` inputs, `reps` repetitions each, `y = law(x)` times
/// lognormal noise `sigma`, a share `outliers` of the rows tripled.
fn measured(
    seed: u64,
    k: usize,
    points: usize,
    reps: usize,
    sigma: f64,
    outliers: f64,
    law: &dyn Fn(&[f64]) -> f64,
) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut columns = vec![Vec::new(); k];
    let mut y = Vec::new();
    for _ in 0..points {
        let x: Vec<f64> = (0..k).map(|_| f64::from(rng.random_range(1u32..=5000))).collect();
        for _ in 0..reps {
            for (c, v) in columns.iter_mut().zip(&x) {
                c.push(*v);
            }
            let mut v = law(&x) * (sigma * normal(&mut rng)).exp();
            if rng.random::<f64>() < outliers {
                v *= 3.0;
            }
            y.push(v);
        }
    }
    Dataset::unnamed(columns, y).unwrap()
}

fn quick() -> FitOptions {
    FitOptions {
        gp: Some(GpOptions {
            generations: 30,
            ..GpOptions::default()
        }),
        ..FitOptions::default()
    }
}

#[test]
fn noise_alone_gives_a_constant() {
    let mut found = Vec::new();
    for seed in 0..12 {
        let k = 1 + (seed as usize % 3);
        let points = 4 + (seed as usize * 5) % 11;
        let reps = 3 + (seed as usize) % 6;
        let sigma = 0.05 + 0.15 * (seed as f64 / 11.0);
        let d = measured(seed, k, points, reps, sigma, 0.03, &|_| 42.0);
        let f = fit(&d, &quick()).unwrap();
        if !f.variables.is_empty() {
            found.push(format!("seed {seed}: {}", f.infix));
        }
        assert!(f.evidence.dependency_p.is_some(), "repetitions measure the noise");
        assert!((f.expr.size(), f.evidence.params) == (1, 1));
    }
    assert!(found.is_empty(), "dependencies found in noise: {found:?}");
}

#[test]
fn five_points_carry_a_line_and_no_more() {
    let mut lines = 0;
    for seed in 0..8 {
        // Five points spread over the range (jittered), four repetitions, 5 % noise.
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for i in 0..5 {
            let v = f64::from(900 * i + rng.random_range(1u32..=400));
            for _ in 0..4 {
                x.push(v);
                y.push((0.02 * v + 30.0) * (1.0 + 0.05 * normal(&mut rng)));
            }
        }
        let d = Dataset::unnamed(vec![x], y).unwrap();
        let f = fit(&d, &quick()).unwrap();
        assert!(
            f.evidence.params <= 2,
            "seed {seed}: {} ({} constants)",
            f.infix,
            f.evidence.params
        );
        assert_eq!(f.evidence.points, 5);
        assert_eq!(f.evidence.max_params, 2);
        // It predicts fresh points (inside the measured range) within 15 %.
        let (lo, hi) = d.columns[0]
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
        for x in (0..=10).map(|i| lo + (hi - lo) * f64::from(i) / 10.0) {
            let p = beagle_fit::eval_point(&f.expr, &[x]);
            let truth = 0.02 * x + 30.0;
            assert!(
                ((p - truth) / truth).abs() < 0.15,
                "seed {seed}: {} at {x}: {p} vs {truth}",
                f.infix
            );
        }
        // Most often the line itself (a*x1 + b): two points more cannot tell a curve from it.
        let e = beagle_fit::parse_infix(&f.infix).unwrap();
        let affine = matches!(&e, beagle_fit::Expr::Binary(beagle_fit::BinaryOp::Add, a, b)
            if matches!(b.as_ref(), beagle_fit::Expr::Const(_))
                && matches!(a.as_ref(), beagle_fit::Expr::Binary(beagle_fit::BinaryOp::Mul, c, v)
                    if matches!(c.as_ref(), beagle_fit::Expr::Const(_)) && matches!(v.as_ref(), beagle_fit::Expr::Var(0))));
        lines += usize::from(affine);
    }
    assert!(lines >= 6, "{lines} of 8 answers are lines");
}

#[test]
fn always_equal_inputs_are_one_variable() {
    // uploadFiles, uploadFileIds, uploadFileTypes: the same count, always.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut a, mut y) = (Vec::new(), Vec::new());
    for n in 1..=5 {
        for _ in 0..6 {
            a.push(f64::from(n));
            y.push((0.4 * f64::from(n) + 1.0) * (1.0 + 0.03 * normal(&mut rng)));
        }
    }
    let names = vec![
        "uploadFiles.NUMBER_OF_ELEMENTS".to_string(),
        "uploadFileIds.NUMBER_OF_ELEMENTS".to_string(),
        "uploadFileTypes.NUMBER_OF_ELEMENTS".to_string(),
    ];
    let d = Dataset::new(names, vec![a.clone(), a.clone(), a], y).unwrap();
    let f = fit(&d, &quick()).unwrap();
    assert_eq!(f.variables, vec!["uploadFiles.NUMBER_OF_ELEMENTS"], "{}", f.stoex);
    assert_eq!(f.evidence.equivalent.len(), 2);
    let notes = f.evidence.notes.join("\n");
    assert!(notes.contains("uploadFileIds.NUMBER_OF_ELEMENTS always equals uploadFiles.NUMBER_OF_ELEMENTS"));
    assert!(notes.contains("uploadFileTypes.NUMBER_OF_ELEMENTS always equals uploadFiles.NUMBER_OF_ELEMENTS"));
}

#[test]
fn a_law_that_predicts_is_final_and_its_interval_covers_the_truth() {
    let d = measured(3, 1, 12, 5, 0.03, 0.0, &|x| 0.5 * x[0] + 100.0);
    let f = fit(&d, &quick()).unwrap();
    assert_eq!(f.variables.len(), 1, "{}", f.infix);
    assert!(f.evidence.is_final, "{:?}", f.evidence.reasons);
    let slope = f
        .evidence
        .intervals
        .iter()
        .find(|i| (i.value - 0.5).abs() < 0.05)
        .unwrap_or_else(|| panic!("{:?}", f.evidence.intervals));
    assert!(slope.low <= 0.5 && 0.5 <= slope.high, "{slope:?}");
    assert!(f.evidence.band.unwrap() < 0.1);
}

#[test]
fn too_few_points_stay_preliminary() {
    let d = measured(4, 1, 2, 6, 0.02, 0.0, &|x| 0.5 * x[0] + 100.0);
    let f = fit(&d, &quick()).unwrap();
    assert!(!f.evidence.is_final);
    assert!(
        f.evidence.reasons[0].contains("2 distinct parameter points"),
        "{:?}",
        f.evidence.reasons
    );
    // What would settle it: more points.
    assert_eq!(f.evidence.wants, vec![beagle_fit::Want::Points]);
}

#[test]
fn exact_counts_from_few_points_are_laws() {
    // A loop count files - compressed from four exact points.
    let x1 = vec![3.0, 5.0, 8.0, 12.0, 3.0, 5.0, 8.0, 12.0];
    let x2 = vec![1.0, 2.0, 2.0, 5.0, 1.0, 2.0, 2.0, 5.0];
    let y: Vec<f64> = x1.iter().zip(&x2).map(|(a, b)| a - b).collect();
    let d = Dataset::unnamed(vec![x1, x2], y).unwrap();
    let f = fit(
        &d,
        &FitOptions {
            target: Target::Count,
            ..quick()
        },
    )
    .unwrap();
    assert_eq!(f.infix, "x1 - x2");
    assert!(f.evidence.is_final, "{:?}", f.evidence.reasons);
}

/// Timings as a JVM-per-point measurement gives them: `points` sizes spread log-uniformly over
/// 1000..400000 bytes, one median per JVM, the first `replicated` sizes measured in a second JVM,
/// lognormal noise `sigma`, and now and then (3 %) a JVM that ran twice as slow.
fn jvm_timings(seed: u64, points: usize, replicated: usize, sigma: f64, law: &dyn Fn(f64) -> f64) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for i in 0..points {
        let size = (1000.0f64.ln() + rng.random::<f64>() * (400.0f64).ln()).exp().round();
        for _ in 0..(if i < replicated { 2 } else { 1 }) {
            let slow = if rng.random::<f64>() < 0.03 { 2.0 } else { 1.0 };
            x.push(size);
            y.push(law(size) * slow * (sigma * normal(&mut rng)).exp());
        }
    }
    Dataset::unnamed(vec![x], y).unwrap()
}

/// The largest relative error on 50 fresh sizes over 1000..400000 (but those in `skip`).
fn relative_error(f: &beagle_fit::FitResult, law: &dyn Fn(f64) -> f64, skip: (f64, f64)) -> f64 {
    let fresh: Vec<f64> = (0..50)
        .map(|i| 1000.0 * 400.0f64.powf(f64::from(i) / 49.0))
        .filter(|x| !(skip.0..=skip.1).contains(x))
        .collect();
    let p = beagle_fit::eval(&f.expr, std::slice::from_ref(&fresh), fresh.len());
    fresh
        .iter()
        .zip(&p)
        .map(|(x, p)| ((p - law(*x)) / law(*x)).abs())
        .fold(0.0, f64::max)
}

#[test]
fn many_points_of_a_linear_demand_give_a_line_not_hinges() {
    let law = |x: f64| 6.7e-7 * x + 0.0044;
    let mut lines = 0;
    for seed in 0..6 {
        let d = jvm_timings(200 + seed, 120 + 10 * seed as usize, 6, 0.03, &law);
        let f = fit(&d, &quick()).unwrap();
        assert!(f.expr.conditionals() <= 2, "seed {seed}: {}", f.infix);
        assert!(relative_error(&f, &law, (0.0, 0.0)) < 0.1, "seed {seed}: {}", f.infix);
        if beagle_fit::evidence::form_rank(&f.expr) == 0 && f.expr.conditionals() == 0 {
            lines += 1;
        }
    }
    assert!(lines >= 5, "{lines}/6 lines");
}

#[test]
fn a_step_that_the_held_out_points_show_is_kept() {
    // Twice the cost per byte above 32 KiB (another allocation path): a conditional earns its
    // place, and the answer predicts fresh sizes on both sides of the step.
    let law = |x: f64| if x > 32768.0 { 2e-6 * x + 0.01 } else { 1e-6 * x + 0.002 };
    for seed in 0..3 {
        let d = jvm_timings(300 + seed, 150, 6, 0.03, &law);
        let f = fit(&d, &quick()).unwrap();
        assert!(f.expr.conditionals() >= 1, "seed {seed}: {}", f.infix);
        // Where between two measured sizes the step lies, no measurement says: fresh sizes
        // within 10 % of it are left out.
        assert!(
            relative_error(&f, &law, (29500.0, 36000.0)) < 0.25,
            "seed {seed}: {}",
            f.infix
        );
    }
}

#[test]
fn a_right_law_is_final_when_jvm_replicates_measure_the_noise() {
    let law = |x: f64| 1.1e-5 * x;
    let finals = (0..6)
        .filter(|seed| {
            let d = jvm_timings(400 + seed, 14, 4, 0.04, &law);
            let f = fit(&d, &quick()).unwrap();
            f.evidence.is_final
        })
        .count();
    assert!(finals >= 5, "{finals}/6 final");
}

/// The bundled example's compress, as one run measured it: 13 sizes spread evenly over
/// 1000..400000 bytes, 5 of them repeated in a second JVM. The test on partly repeated points
/// pairs up neighbouring sizes under permutation and loses its power: a 50-fold range came out
/// "no dependency" (p = 0.015), a constant. Seeds 0 and 3 here did the same.
fn thirteen_jvm_points(seed: u64, sigma: f64, law: &dyn Fn(f64) -> f64) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for i in 0..13 {
        let size = (1000.0 + rng.random::<f64>() * 399000.0).round();
        for _ in 0..(if i < 5 { 2 } else { 1 }) {
            x.push(size);
            y.push(law(size) * (sigma * normal(&mut rng)).exp());
        }
    }
    Dataset::unnamed(vec![x], y).unwrap()
}

#[test]
fn points_spread_far_beyond_their_repetitions_are_not_called_noise() {
    let law = |x: f64| 1.1e-5 * x;
    for (sigma, seeds) in [(0.04, 0..20), (0.1, 0..20)] {
        for seed in seeds {
            let f = fit(&thirteen_jvm_points(seed, sigma, &law), &quick()).unwrap();
            assert!(
                !f.evidence.no_dependency() && !f.expr.variables().is_empty(),
                "sigma {sigma} seed {seed}: {} (p = {:?})",
                f.infix,
                f.evidence.dependency_p
            );
        }
    }
    // Noise alone, measured the same way, still is.
    let mut constants = 0;
    for seed in 0..20 {
        let f = fit(&thirteen_jvm_points(seed, 0.1, &|_| 2.0), &quick()).unwrap();
        if f.expr.variables().is_empty() {
            constants += 1;
        }
    }
    assert!(constants >= 19, "{constants}/20 constants");
}

#[test]
fn a_law_that_misses_a_hidden_effect_is_preliminary() {
    // Every other point 30 % slower (an input the law does not see): the replicates agree within
    // 2 %, the held-out points scatter far more, so the answer is not final.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for i in 0..40 {
        let size = f64::from(rng.random_range(1000u32..400000));
        let hidden = if i % 2 == 0 { 1.3 } else { 1.0 };
        for _ in 0..2 {
            x.push(size);
            y.push(1e-6 * size * hidden * (0.02 * normal(&mut rng)).exp());
        }
    }
    let f = fit(&Dataset::unnamed(vec![x.clone()], y.clone()).unwrap(), &quick()).unwrap();
    assert!(!f.evidence.is_final, "{}", f.infix);
    assert!(
        f.evidence.reasons.iter().any(|r| r.contains("scatter")),
        "{:?}",
        f.evidence.reasons
    );
    // The replicates measured the noise: it is the law's form that needs points, not the noise
    // that needs repetitions.
    assert_eq!(f.evidence.wants, vec![beagle_fit::Want::Points]);
    // Without the replicates the noise is unmeasured: a miss cannot be told from noise.
    let (x1, y1): (Vec<f64>, Vec<f64>) = (0..x.len()).step_by(2).map(|i| (x[i], y[i])).unzip();
    let single = fit(&Dataset::unnamed(vec![x1], y1).unwrap(), &quick()).unwrap();
    assert!(
        single.evidence.wants.contains(&beagle_fit::Want::Repetitions),
        "{:?}",
        single.evidence
    );
    // A final result asks for nothing.
    let good = jvm_timings(3, 24, 6, 0.02, &|b| 1e-6 * b + 0.01);
    let g = fit(&good, &quick()).unwrap();
    assert!(g.evidence.is_final == g.evidence.wants.is_empty(), "{:?}", g.evidence);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    /// The same measurements in any order give the same expression.
    #[test]
    fn row_order_does_not_change_the_answer(seed in 0u64..1000, shuffle in 0u64..1000) {
        let d = measured(seed, 2, 6, 3, 0.05, 0.02, &|x| 0.01 * x[0] + 20.0);
        let options = FitOptions { gp: None, ..FitOptions::default() };
        let a = fit(&d, &options).unwrap();
        let mut rows: Vec<usize> = (0..d.len()).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(shuffle);
        for i in (1..rows.len()).rev() {
            let j = rng.random_range(0..=i);
            rows.swap(i, j);
        }
        let b = fit(&d.subset(&rows), &options).unwrap();
        prop_assert_eq!(a.infix, b.infix);
        prop_assert_eq!(a.evidence, b.evidence);
    }
}

fn with_spread(mut options: FitOptions) -> FitOptions {
    options.spread = beagle_fit::Spread::Distribution;
    options
}

#[test]
fn noise_is_published_as_its_measured_distribution_when_asked() {
    for seed in 0..6 {
        let k = 1 + (seed as usize % 2);
        let points = 5 + (seed as usize * 3) % 9;
        let reps = 3 + (seed as usize) % 5;
        // (Outliers and the false discoveries they cause are the noise test's business.)
        let d = measured(seed, k, points, reps, 0.05 + 0.03 * seed as f64, 0.0, &|_| 0.042);
        let f = fit(&d, &with_spread(quick())).unwrap();
        assert!(f.variables.is_empty(), "seed {seed}: {}", f.infix);
        let dist = f.distribution.as_ref().expect("a noisy constant gets its distribution");
        assert_eq!(f.stoex, dist.stoex());
        assert!(f.stoex.starts_with("DoublePDF[("), "{}", f.stoex);
        assert!(beagle_stoex::parse(&f.stoex).is_ok(), "{}", f.stoex);
        assert!(
            f.evidence.notes.iter().any(|n| n.contains("distribution of the")),
            "{:?}",
            f.evidence.notes
        );
        // The published cumulative probabilities are the measured shares.
        let mut cumulative = 0.0;
        for (edge, p) in &dist.samples {
            cumulative += p;
            let share = d.y.iter().filter(|v| *v <= edge).count() as f64 / d.len() as f64;
            assert!(
                (cumulative - share).abs() < 2e-3,
                "seed {seed}: at {edge}: {cumulative} vs {share}"
            );
        }
        assert!((cumulative - 1.0).abs() < 1e-9);
        // The constant the scores use is unchanged.
        assert_eq!(f.expr.size(), 1);
    }
}

#[test]
fn a_law_or_counts_are_published_in_their_own_form() {
    let law = measured(3, 1, 8, 4, 0.03, 0.0, &|x| 2e-6 * x[0] + 0.01);
    let f = fit(&law, &with_spread(quick())).unwrap();
    assert!(!f.variables.is_empty() && f.distribution.is_none(), "{}", f.stoex);
    // Loop counts of 3 to 6 whatever the input: an IntPMF of their frequencies.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let x: Vec<f64> = (0..60).map(|i| f64::from(1 + i % 6)).collect();
    let y: Vec<f64> = (0..60).map(|_| f64::from(rng.random_range(3u32..=6))).collect();
    let d = Dataset::unnamed(vec![x], y.clone()).unwrap();
    let options = FitOptions {
        target: Target::Count,
        ..with_spread(quick())
    };
    let f = fit(&d, &options).unwrap();
    assert!(f.variables.is_empty(), "{}", f.infix);
    assert!(f.stoex.starts_with("IntPMF[(3;"), "{}", f.stoex);
    let share_of_3 = y.iter().filter(|v| **v == 3.0).count() as f64 / 60.0;
    assert!(
        f.stoex
            .starts_with(&format!("IntPMF[(3;{})", (share_of_3 * 1e4).round() / 1e4)),
        "{}",
        f.stoex
    );
}

/// Uploads as a Java launch point measures them: `runs` launch points, each of one size (spread
/// log-uniformly over 1000..400000 bytes) and `files` files whose sizes differ by under 1 % (the
/// compressed sizes of files of one size), all in one JVM whose context (JIT, heap, the
/// workload's mix) makes the run as a whole `context` (lognormal) slower or faster, each file
/// `sigma` on top. The first `replicated` runs are measured again in a fresh JVM (the same sizes,
/// a fresh context). Returns the data with its runs, and the sizes of every run.
fn launch_points(
    seed: u64,
    runs: usize,
    files: usize,
    replicated: usize,
    context: f64,
    sigma: f64,
    law: &dyn Fn(f64) -> f64,
) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut x, mut y, mut run) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..runs {
        let size = (1000.0f64.ln() + rng.random::<f64>() * (400.0f64).ln()).exp().round();
        let sizes: Vec<f64> = (0..files)
            .map(|_| (size * (1.0 + 0.01 * rng.random::<f64>())).round())
            .collect();
        for _ in 0..(if r < replicated { 2 } else { 1 }) {
            let jvm = (context * normal(&mut rng)).exp();
            for s in &sizes {
                x.push(*s);
                y.push(law(*s) * jvm * (sigma * normal(&mut rng)).exp());
                run.push(r as u64);
            }
        }
    }
    Dataset::unnamed(vec![x], y).unwrap().with_runs(run).unwrap()
}

#[test]
fn the_points_of_one_run_are_one_piece_of_evidence() {
    // 16 launch points of 30 files each: about 400 distinct sizes, but 16 runs. Each run's
    // context shifts it by about 8 %, each file by 1 %. The answer is the law, its band holds
    // fresh runs, and the complexity bound counts runs.
    let law = |x: f64| 1e-6 * x + 0.004;
    let (mut within, mut checked, mut lines, mut blind_hinges) = (0, 0, 0, 0);
    for seed in 0..6 {
        let d = launch_points(500 + seed, 16, 30, 4, 0.08, 0.01, &law);
        let f = fit(&d, &quick()).unwrap();
        let ev = &f.evidence;
        assert_eq!((ev.points > 300, ev.runs, ev.max_params), (true, 16, 8), "seed {seed}");
        assert!(f.expr.conditionals() <= 2, "seed {seed}: {}", f.infix);
        assert!(relative_error(&f, &law, (0.0, 0.0)) < 0.1, "seed {seed}: {}", f.infix);
        if beagle_fit::evidence::form_rank(&f.expr) == 0 && f.expr.conditionals() == 0 && ev.params <= 2 {
            lines += 1;
        }
        // Fresh runs: each a size and a context of its own, the median error over its files.
        if ev.is_final {
            let band = ev.band.unwrap();
            let fresh = launch_points(900 + seed, 20, 5, 0, 0.08, 0.01, &law);
            let p = beagle_fit::eval(&f.expr, &fresh.columns, fresh.len());
            for r in 0..20 {
                let rows: Vec<usize> = (0..fresh.len()).filter(|i| fresh.runs[*i] == r).collect();
                let errors: Vec<f64> = rows.iter().map(|i| (p[*i] - fresh.y[*i]) / fresh.y[*i]).collect();
                checked += 1;
                within += usize::from(beagle_fit::stats::median(&errors).abs() <= band);
            }
        }
        // The same rows without their runs: 400 "independent" points make the runs' offsets
        // look like a law's wiggles (why the runs are counted).
        let mut blind = d.clone();
        blind.runs.clear();
        let options = FitOptions {
            gp: None,
            ..FitOptions::default()
        };
        blind_hinges += usize::from(fit(&blind, &options).unwrap().expr.conditionals() > 2);
    }
    assert!(lines >= 5, "{lines}/6 plain lines");
    assert!(checked >= 60, "{checked} fresh runs checked: too few final answers");
    assert!(
        within as f64 >= 0.9 * checked as f64,
        "{within} of {checked} fresh runs within the band"
    );
    assert!(
        blind_hinges >= 4,
        "without runs {blind_hinges}/6 answers with more than 2 hinges"
    );
}

#[test]
fn a_law_made_of_cancelling_terms_is_told_from_a_plain_one() {
    // The bundled example's "partition files" once came out final as
    // `0.0007*N + 0.0009*ln(S) + 27*S/(S + C) - 27`: hundredths of a millisecond from terms of 27.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let rows = 40;
    let n: Vec<f64> = (0..rows).map(|_| (1.0 + 39.0 * rng.random::<f64>()).round()).collect();
    let c: Vec<f64> = n.iter().map(|n| (n * rng.random::<f64>()).round()).collect();
    let s: Vec<f64> = (0..rows).map(|_| 1000.0 + 399000.0 * rng.random::<f64>()).collect();
    let d = Dataset::unnamed(vec![n, s, c], vec![1.0; rows]).unwrap();
    let ratio = |infix: &str| beagle_fit::evidence::term_cancellation(&beagle_fit::parse_infix(infix).unwrap(), &d);
    let bad = ratio("0.0007*x1 + 0.0009*log(x2) + 27*x2/(x2 + x3) - 27");
    assert!(bad < beagle_fit::evidence::CANCELLATION_RATIO, "{bad}");
    for plain in [
        "1e-5*x2 - 0.002",
        "0.0008*x1 + 0.01",
        "x1 - x3 + 1",
        "2.5e-8*x2*x1 + 0.003*sqrt(x1)",
    ] {
        let r = ratio(plain);
        assert!(r > 0.3, "{plain}: {r}");
    }
}

#[test]
fn a_law_too_noisy_to_carry_is_preliminary_and_says_so() {
    // A microsecond section whose JVMs disagree by tens of percent: the right form (a constant, a
    // line) with lognormal noise; whatever is found, a final answer promises a band within ±100 %,
    // and one whose band is wider says so.
    let mut wide = 0;
    for seed in 0..8 {
        let sigma = 0.8 + 0.1 * (seed % 3) as f64;
        let law = |x: &[f64]| if seed % 2 == 0 { 0.02 } else { 0.0007 * x[0] };
        let d = measured(200 + seed, 1, 14, 2, sigma, 0.0, &law);
        let f = fit(&d, &quick()).unwrap();
        let ev = &f.evidence;
        let band = ev.band.expect("a band");
        if f.evidence.is_final {
            assert!(band <= beagle_fit::evidence::MAX_RELATIVE_BAND, "seed {seed}: {band}");
        }
        if band > beagle_fit::evidence::MAX_RELATIVE_BAND {
            wide += 1;
            assert!(!ev.is_final, "seed {seed}: {} final with band {band}", f.infix);
            assert!(
                ev.reasons.iter().any(|r| r.contains("too wide for a law to carry")),
                "seed {seed}: {:?}",
                ev.reasons
            );
        }
    }
    assert!(wide >= 6, "{wide} of 8 noisy fits with a band over ±100 %");
    // The same laws at 5 % noise keep a narrow band, and the rule says nothing.
    for seed in 0..4 {
        let d = measured(300 + seed, 1, 14, 3, 0.05, 0.0, &|x| 0.0007 * x[0] + 0.01);
        let f = fit(&d, &quick()).unwrap();
        assert!(f.evidence.band.unwrap() < 0.5, "seed {seed}: {:?}", f.evidence);
        assert!(
            !f.evidence.reasons.iter().any(|r| r.contains("too wide")),
            "{:?}",
            f.evidence.reasons
        );
    }
}

/// Real measurements (`tests/data/compress-busy-core`): compress timings under the load of
/// another process, a dozen runs, the smallest and largest ones far from the others
/// (0.1 to 0.26 ms at 1000 bytes). The fit chose `7.3E-7·x·log2 x + 0.2`,
/// `1.7E-5·x - 0.002·√x + 0.3` and `1.5E-5·x + 0.0009·√x - 0.2·ln x + 1` on them: a curve whose
/// held-out gain over the line came from one or two runs. A form beyond plain inputs needs a
/// significant gain: LZW is linear in the bytes, and the answer is affine.
#[test]
fn a_curve_whose_gain_rests_on_one_run_is_no_law() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/compress-busy-core");
    for run in [4, 7, 8, 9] {
        let text = std::fs::read_to_string(format!("{dir}/run{run}.csv")).unwrap();
        let data = beagle_fit::parse_csv(&text).unwrap();
        let f = fit(&data, &FitOptions::default()).unwrap();
        // Affine: equal increments over equal steps, and it grows.
        let at = |x: f64| beagle_fit::eval(&f.expr, &[vec![x]], 1)[0];
        let (a, b, c) = (at(1000.0), at(200_500.0), at(400_000.0));
        assert!(
            ((c - b) - (b - a)).abs() <= 1e-9 * c.abs() && c > 5.0 * a.max(0.0) && c > 0.0,
            "run {run}: {}",
            f.infix
        );
    }
}

/// Real measurements (`tests/data/hash-busy-core`): hash timings under load, 199 sizes of which
/// 35 repeated, some repetitions three-fold apart. The test of differences between points
/// (p = 0.0115) called it noise and the answer was a constant, `0.0801`, with a band of ±260 %;
/// the medians' rank trend in the bytes shows the dependency, and the answer is a line.
#[test]
fn a_trend_in_partly_repeated_points_is_no_noise() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hash-busy-core/dbg3.csv");
    let data = beagle_fit::parse_csv(&std::fs::read_to_string(path).unwrap()).unwrap();
    let options = FitOptions {
        target: Target::Time,
        ..FitOptions::default()
    };
    let f = fit(&data, &options).unwrap();
    assert!(!f.evidence.no_dependency(), "{:?}", f.evidence.notes);
    let at = |x: f64| beagle_fit::eval(&f.expr, &[vec![x]], 1)[0];
    assert!(at(400_000.0) > 5.0 * at(1000.0) && at(1000.0) > 0.0, "{}", f.infix);
}

/// Real measurements (`tests/data/small-write`): a write that clones 1-200 KB records, net of
/// a probe cost of 152 ns per call, its smallest records at 13-50 ns in some JVMs. Relative to
/// 13 ns every law missed by 1,000 % and the answer was a constant. At the measurement's
/// resolution (the cost subtracted) the answer grows with the record, by its clone's cost per
/// byte: 0.13 ns in most JVMs, 0.41 in two (the level is the means', which a simulator adds).
#[test]
fn timings_near_the_probes_cost_are_known_to_that_cost_only() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/small-write/run.csv");
    let data = beagle_fit::parse_csv(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .with_resolution(152e-6);
    let options = FitOptions {
        target: Target::Time,
        ..FitOptions::default()
    };
    let f = fit(&data, &options).unwrap();
    let at = |x: f64| beagle_fit::eval(&f.expr, &[vec![x]], 1)[0];
    let per_byte = (at(190_000.0) - at(20_000.0)) / 170_000.0;
    assert!(
        (0.12e-6..=0.3e-6).contains(&per_byte),
        "{}: {per_byte} ms per byte",
        f.infix
    );
    let band = f.evidence.band.unwrap();
    assert!(band < 3.0, "{}: band ±{band}", f.infix);
}

/// Real measurements (`tests/data/hash-level-factor`): a law levelled to the means by a factor
/// is rounded as any other, to the digits its intervals carry (it was published with twelve).
#[test]
fn a_law_levelled_by_a_factor_is_rounded_to_its_evidence() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hash-level-factor/run.csv");
    let data = beagle_fit::parse_csv(&std::fs::read_to_string(path).unwrap()).unwrap();
    let options = FitOptions {
        target: Target::Time,
        ..FitOptions::default()
    };
    let f = fit(&data, &options).unwrap();
    let digits = |c: &str| {
        c.trim_start_matches(['-', '0', '.'])
            .chars()
            .take_while(|ch| ch.is_ascii_digit() || *ch == '.')
            .filter(char::is_ascii_digit)
            .count()
    };
    for word in f.stoex.split([' ', '(', ')', ',']) {
        if word.starts_with(|c: char| c.is_ascii_digit()) {
            assert!(digits(word) <= 4, "{word} in {}", f.stoex);
        }
    }
}
