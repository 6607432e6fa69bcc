//! The published level is the mean a simulator adds (issue 35, point 4): skewed demands, seeded,
//! several seeds each; symmetric noise keeps the robust fit.

use beagle_fit::level::fences;
use beagle_fit::{eval, fit, stats, Dataset, FitOptions, FitResult, GpOptions, Target};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn options() -> FitOptions {
    FitOptions {
        gp: Some(GpOptions {
            generations: 20,
            ..GpOptions::default()
        }),
        target: Target::Time,
        ..FitOptions::default()
    }
}

/// A small-file store's `write` in µs: nine calls in ten 5-8, the tenth 35-50.
fn bimodal(rng: &mut ChaCha8Rng) -> f64 {
    if rng.random::<f64>() < 0.1 {
        35.0 + 15.0 * rng.random::<f64>()
    } else {
        5.0 + 3.0 * rng.random::<f64>()
    }
}

fn published(r: &FitResult) -> f64 {
    assert!(r.expr.variables().is_empty(), "a constant: {}", r.infix);
    eval(&r.expr, &[] as &[Vec<f64>], 1)[0]
}

#[test]
fn a_bimodal_constant_is_published_as_its_mean_per_jvm_and_raw() {
    for seed in 0..6u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Java: 8 points (sizes the write does not depend on), 2 JVMs each, 200 calls per JVM;
        // each row is one JVM's median and carries its mean (within its fences, as measured).
        let (mut x, mut medians, mut means, mut all) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for p in 0..8 {
            for _jvm in 0..2 {
                let calls: Vec<f64> = (0..200).map(|_| bimodal(&mut rng)).collect();
                let kept = fences::kept(&calls);
                x.push(f64::from(100 * (p + 1)));
                medians.push(stats::median(&kept));
                means.push(stats::mean(&kept));
                all.extend(calls);
            }
        }
        let mean = stats::mean(&all);
        let median = stats::median(&all);
        let data = Dataset::unnamed(vec![x.clone()], medians)
            .unwrap()
            .with_means(means)
            .unwrap();
        let r = fit(&data, &options()).unwrap();
        let got = published(&r);
        eprintln!(
            "seed {seed} per JVM: median {median:.3}, mean {mean:.3}, published {got} ({})",
            r.evidence.notes.join(" | ")
        );
        assert!(
            (got / mean - 1.0).abs() < 0.05,
            "seed {seed}: {got} for a mean of {mean}"
        );
        assert!(r.evidence.level.as_ref().is_some_and(|l| l.from_means));
        assert!(
            r.evidence.notes.iter().any(|n| n.starts_with("level set from means")),
            "{:?}",
            r.evidence.notes
        );
        // Raw observations (events, Kieker): 8 points, 60 calls each.
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for p in 0..8 {
            for _ in 0..60 {
                x.push(f64::from(100 * (p + 1)));
                y.push(bimodal(&mut rng));
            }
        }
        let (mean, median) = (stats::mean(&y), stats::median(&y));
        let r = fit(&Dataset::unnamed(vec![x], y).unwrap(), &options()).unwrap();
        let got = published(&r);
        eprintln!("seed {seed} raw: median {median:.3}, mean {mean:.3}, published {got}");
        assert!(
            (got / mean - 1.0).abs() < 0.05,
            "seed {seed}: {got} for a mean of {mean}"
        );
        assert!((got / median - 1.0).abs() > 0.3, "not near the median {median}");
    }
}

#[test]
fn a_wide_constant_spread_is_named_and_published_as_its_distribution_on_request() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let y: Vec<f64> = (0..300).map(|_| bimodal(&mut rng)).collect();
    let x: Vec<f64> = (0..300).map(|i| f64::from(i % 5)).collect();
    let data = Dataset::unnamed(vec![x], y.clone()).unwrap();
    let r = fit(&data, &options()).unwrap();
    assert!(
        r.evidence.notes.iter().any(|n| n.starts_with("a wide spread")),
        "{:?}",
        r.evidence.notes
    );
    let d = fit(
        &data,
        &FitOptions {
            spread: beagle_fit::Spread::Distribution,
            ..options()
        },
    )
    .unwrap();
    let dist = d.distribution.expect("a distribution");
    assert!(d.stoex.starts_with("DoublePDF["), "{}", d.stoex);
    // Its mean (box midpoints, as a simulator samples it and `beagle predict` composes it) is the
    // constant's level, not the median: an empty box spans the gap between the modes.
    let mean = stats::mean(&y);
    let composed = beagle_stoex::eval_number(&beagle_stoex::parse(&d.stoex).unwrap(), &|_| None).unwrap();
    assert!((composed - dist.mean()).abs() < 1e-9);
    eprintln!(
        "distribution {} composes to {composed:.3}, observations' mean {mean:.3}, published constant {}",
        d.stoex, r.infix
    );
    assert!((composed / mean - 1.0).abs() < 0.03, "{composed} vs {mean}");
}

/// `law(x)` plus seeded skewed noise, `reps` rows at each of `xs`.
fn skewed(
    seed: u64,
    xs: &[f64],
    reps: usize,
    law: impl Fn(f64) -> f64,
    noise: impl Fn(&mut ChaCha8Rng, f64) -> f64,
) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for v in xs {
        for _ in 0..reps {
            x.push(*v);
            y.push(noise(&mut rng, law(*v)));
        }
    }
    Dataset::unnamed(vec![x], y).unwrap()
}

fn exponential(rng: &mut ChaCha8Rng) -> f64 {
    -(1.0 - rng.random::<f64>()).ln()
}

/// The worst relative miss of `r`'s law against `mean` at fresh points.
fn worst_miss(r: &FitResult, fresh: &[f64], mean: impl Fn(f64) -> f64) -> f64 {
    let f = eval(&r.expr, &[fresh.to_vec()], fresh.len());
    fresh
        .iter()
        .zip(&f)
        .map(|(x, f)| (f / mean(*x) - 1.0).abs())
        .fold(0.0, f64::max)
}

#[test]
fn a_line_with_skewed_noise_predicts_the_means_at_fresh_points() {
    let xs: Vec<f64> = (0..12).map(|i| 10.0 * 1.5f64.powi(i)).collect();
    let fresh = [23.0, 140.0, 611.0, 1500.0];
    for seed in 0..5u64 {
        // Additive exponential noise (a queue, a cache miss of fixed cost; 60 calls a point: with
        // 30 the offset of 0.012 is 1.7 standard errors of a point mean, and one seed in five
        // keeps the robust law, p = 0.018): the mean is
        // 0.002·x + 0.05 + 0.04, the median 0.002·x + 0.05 + 0.04·ln 2.
        let d = skewed(
            seed,
            &xs,
            60,
            |x| 0.002 * x + 0.05,
            |rng, v| v + 0.04 * exponential(rng),
        );
        let r = fit(&d, &options()).unwrap();
        let mean = |x: f64| 0.002 * x + 0.09;
        let median = |x: f64| 0.002 * x + 0.05 + 0.04 * 2f64.ln();
        let miss = worst_miss(&r, &fresh, mean);
        eprintln!(
            "seed {seed} exponential: {} | worst miss of the mean {:.1} % (of the median's law {:.1} %) | {:?}",
            r.infix,
            100.0 * miss,
            100.0
                * fresh
                    .iter()
                    .map(|x| (median(*x) / mean(*x) - 1.0).abs())
                    .fold(0.0, f64::max),
            r.evidence.notes
        );
        // The median's law misses them by up to 9 %; the means' own noise (an intercept known
        // to about 0.003) leaves a few per cent at the smallest fresh point.
        assert!(miss < 0.05, "seed {seed}: {} misses the means by {miss}", r.infix);
        assert!(r.evidence.level.as_ref().is_some_and(|l| l.from_means));
        // Multiplicative lognormal noise (σ = 0.5): the mean is e^(σ²/2) = 1.133 times the median.
        // Its far tail (0.6 % beyond the far-out fence) is fenced, 2 % of the mean.
        let d = skewed(
            seed,
            &xs,
            100,
            |x| 0.002 * x + 0.05,
            |rng, v| v * (0.5 * stats::standard_normal(rng)).exp(),
        );
        let r = fit(&d, &options()).unwrap();
        let mean = |x: f64| (0.002 * x + 0.05) * 0.125f64.exp();
        let f = eval(&r.expr, &[fresh.to_vec()], fresh.len());
        let level = fresh.iter().zip(&f).map(|(x, f)| f / mean(*x)).sum::<f64>() / fresh.len() as f64;
        let miss = worst_miss(&r, &fresh, mean);
        eprintln!(
            "seed {seed} lognormal: {} | level {:.3} of the mean, worst miss {:.1} % | {:?}",
            r.infix,
            level,
            100.0 * miss,
            r.evidence.notes
        );
        // The fences cost 2 % (the tail beyond them), the means' noise a few more.
        assert!(
            (level - 1.0).abs() < 0.06,
            "seed {seed}: {} at {level} of the means",
            r.infix
        );
        assert!(miss < 0.08, "seed {seed}: {} misses the means by {miss}", r.infix);
    }
}

#[test]
fn symmetric_noise_keeps_the_robust_fit() {
    let xs: Vec<f64> = (0..10).map(|i| 100.0 * f64::from(i + 1)).collect();
    for seed in 0..6u64 {
        let d = skewed(
            seed,
            &xs,
            20,
            |x| 0.35 * x + 120.0,
            |rng, v| v * (1.0 + 0.05 * stats::standard_normal(rng)),
        );
        let r = fit(&d, &options()).unwrap();
        let level = r
            .evidence
            .level
            .clone()
            .expect("repetitions say something about the level");
        assert!(!level.from_means, "seed {seed}: {level:?} {}", r.infix);
        assert!(
            !r.evidence.notes.iter().any(|n| n.starts_with("level set")),
            "{:?}",
            r.evidence.notes
        );
    }
}

/// A copy's occasional slow path (issue 51, point 3): one call in ten takes five times as long,
/// at every size. The law's level is the means' and the published StoEx carries the spread as a
/// unit-mean factor (`law * DoublePDF[...]`), so a simulator gets the mean and the tail; its
/// expectation is the mean at fresh sizes.
#[test]
fn a_heavy_tail_is_published_as_a_distribution_over_the_law() {
    for seed in 0..3u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(500 + seed);
        let truth = |size: f64| 1e-6 * size + 0.01;
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for p in 0..12 {
            let size = 1000.0 * 400f64.powf(f64::from(p) / 11.0);
            for _call in 0..40 {
                let slow = if rng.random::<f64>() < 0.1 { 5.0 } else { 1.0 };
                x.push(size.round());
                y.push(truth(size.round()) * slow * (1.0 + 0.02 * (rng.random::<f64>() - 0.5)));
            }
        }
        let data = Dataset::new(vec!["data.BYTESIZE".into()], vec![x], y).unwrap();
        let r = fit(&data, &options()).unwrap();
        eprintln!("seed {seed}: {}", r.stoex);
        let tail = r
            .tail
            .as_ref()
            .unwrap_or_else(|| panic!("no tail: {} {:?}", r.stoex, r.evidence.notes));
        assert_eq!(tail.form, beagle_fit::tail::TailForm::Times, "{}", r.stoex);
        assert!(r.stoex.contains(") * DoublePDF[("), "{}", r.stoex);
        assert!(tail.mean_over_median > 1.2, "{}", tail.mean_over_median);
        // The mean of the calls is 1.4 times the fast ones': the published expectation holds it.
        let parsed = beagle_stoex::parse(&r.stoex).unwrap();
        for size in [2000.0, 50_000.0, 300_000.0] {
            let want = 1.4 * truth(size);
            let got = beagle_stoex::eval_number(&parsed, &|_| Some(size)).unwrap();
            assert!(
                (got / want - 1.0).abs() < 0.1,
                "seed {seed} at {size}: {got} vs {want} ({})",
                r.stoex
            );
        }
    }
}
