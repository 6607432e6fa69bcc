//! Known performance laws (as in `shared/bench/sr/problems.py`, group `perf`) recovered from data
//! generated here with a seeded RNG: exactly on clean data, and in the same form with 2 %
//! multiplicative noise and with 10 % noise plus 5 % of the samples tripled.

use beagle_fit::{eval, fit, BinaryOp, Cond, Dataset, Expr, FitOptions, UnaryOp};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug)]
enum Sampler {
    /// Uniform float.
    U(f64, f64),
    /// Uniform integer in [lo, hi].
    Iu(i64, i64),
    /// Log-uniform integer in [lo, hi].
    Ilu(f64, f64),
    /// 0 or 1.
    Flag,
    /// Integer in [1, x_j - 1].
    FracOf(usize),
    /// `x_j` times a uniform integer in [lo, hi]: a total over groups of `x_j` (items in orders).
    TimesOf(usize, i64, i64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Noise {
    Exact,
    Mult2,
    Mult10Out5,
}

struct Law {
    name: &'static str,
    truth: fn(&[f64]) -> f64,
    samplers: &'static [Sampler],
    n: usize,
    /// Expected infix on clean data.
    exact: &'static [&'static str],
    /// Expected shapes (constants as `c`) on noisy data.
    shapes: &'static [&'static str],
    /// Noise levels at which the form is not expected from these data (a term too small for the
    /// noise, or `floor` under non-integer noise): only the accuracy is checked there.
    limits: &'static [Noise],
}

fn seed(parts: &str) -> u64 {
    // FNV-1a.
    parts.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

use beagle_fit::stats::standard_normal as normal;

fn inputs(law: &Law, n: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    let mut cols: Vec<Vec<f64>> = Vec::new();
    for s in law.samplers {
        let col = (0..n)
            .map(|row| match *s {
                Sampler::U(lo, hi) => rng.random_range(lo..hi),
                Sampler::Iu(lo, hi) => rng.random_range(lo..=hi) as f64,
                Sampler::Ilu(lo, hi) => {
                    let v = rng.random_range(lo.ln()..(hi + 1.0).ln()).exp().floor();
                    v.clamp(lo, hi)
                }
                Sampler::Flag => f64::from(rng.random_range(0..2u8)),
                Sampler::FracOf(j) => 1.0 + (rng.random::<f64>() * (cols[j][row] - 1.0)).floor(),
                Sampler::TimesOf(j, lo, hi) => cols[j][row] * rng.random_range(lo..=hi) as f64,
            })
            .collect();
        cols.push(col);
    }
    cols
}

fn dataset(law: &Law, noise: Noise) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed(law.name));
    let cols = inputs(law, law.n, &mut rng);
    let mut y: Vec<f64> = (0..law.n)
        .map(|r| (law.truth)(&cols.iter().map(|c| c[r]).collect::<Vec<_>>()))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed(&format!("{}|{noise:?}", law.name)));
    match noise {
        Noise::Exact => {}
        Noise::Mult2 => y.iter_mut().for_each(|v| *v *= 1.0 + 0.02 * normal(&mut rng)),
        Noise::Mult10Out5 => {
            y.iter_mut().for_each(|v| *v *= 1.0 + 0.10 * normal(&mut rng));
            let k = ((0.05 * law.n as f64).round() as usize).max(1);
            let mut idx: Vec<usize> = (0..law.n).collect();
            for i in 0..k {
                let j = rng.random_range(i..law.n);
                idx.swap(i, j);
                y[idx[i]] *= 3.0;
            }
        }
    }
    Dataset::unnamed(cols, y).unwrap()
}

/// The expression with every constant that is not structural (an exponent or the base of a power)
/// printed as `c`.
fn shape(e: &Expr) -> String {
    const MARK: f64 = 7777.0;
    fn mark(e: &Expr) -> Expr {
        match e {
            Expr::Const(_) => Expr::Const(MARK),
            Expr::Var(_) => e.clone(),
            Expr::Unary(op, a) => Expr::unary(*op, mark(a)),
            Expr::Binary(BinaryOp::Pow, _, _) => e.clone(),
            Expr::Binary(op, a, b) => Expr::binary(*op, mark(a), mark(b)),
            Expr::If(c, a, b) => {
                let c = match &**c {
                    Cond::Cmp(op, l, r) => Cond::Cmp(*op, mark(l), mark(r)),
                    other => other.clone(),
                };
                Expr::if_else(c, mark(a), mark(b))
            }
        }
    }
    let _ = UnaryOp::Neg;
    mark(e).to_string().replace("7777", "c")
}

/// Relative RMS error against the truth on fresh clean inputs.
fn test_error(law: &Law, e: &Expr) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed(&format!("{}|test", law.name)));
    let cols = inputs(law, 500, &mut rng);
    let f = eval(e, &cols, 500);
    let (mut se, mut sy) = (0.0, 0.0);
    for (r, fr) in f.iter().enumerate() {
        let t = (law.truth)(&cols.iter().map(|c| c[r]).collect::<Vec<_>>());
        se += (t - fr) * (t - fr);
        sy += t * t;
    }
    (se / sy).sqrt()
}

/// The StoEx text of a result parses and evaluates, on every row, to what the fitting evaluator
/// computes.
fn stoex_agrees(data: &Dataset, stoex: &str, e: &Expr) {
    let parsed = beagle_stoex::parse(stoex).unwrap_or_else(|err| panic!("{stoex}: {err:?}"));
    let f = eval(e, &data.columns, data.len());
    for (row, want) in f.iter().enumerate() {
        let x = data.row(row);
        let env = |v: &str| {
            data.names
                .iter()
                .position(|n| beagle_fit::stoex_variable_text(n) == v)
                .map(|i| x[i])
        };
        let got = beagle_stoex::eval_number(&parsed, &env).unwrap_or_else(|err| panic!("{stoex}: {err:?}"));
        assert!(
            (got - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{stoex} row {row}: {got} vs {want}"
        );
    }
}

const LAWS: &[Law] = &[
    Law {
        name: "perf_const",
        truth: |_| 42.5,
        samplers: &[Sampler::Ilu(1.0, 100000.0)],
        n: 30,
        exact: &["42.5"],
        shapes: &["c"],
        limits: &[],
    },
    Law {
        name: "perf_linear",
        truth: |x| 0.35 * x[0],
        samplers: &[Sampler::Ilu(10.0, 1e6)],
        n: 50,
        exact: &["0.35*x1"],
        shapes: &["c*x1", "c*x1 + c"],
        limits: &[],
    },
    Law {
        name: "perf_affine",
        truth: |x| 0.35 * x[0] + 120.0,
        samplers: &[Sampler::Ilu(10.0, 1e6)],
        n: 50,
        exact: &["0.35*x1 + 120"],
        shapes: &["c*x1 + c"],
        limits: &[],
    },
    Law {
        name: "perf_affine_irrelevant",
        truth: |x| 0.35 * x[0] + 120.0,
        samplers: &[Sampler::Ilu(10.0, 1e6), Sampler::U(0.0, 100.0)],
        n: 50,
        exact: &["0.35*x1 + 120"],
        shapes: &["c*x1 + c"],
        limits: &[],
    },
    Law {
        name: "perf_quadratic",
        truth: |x| 0.00025 * x[0] * x[0] + 0.8 * x[0] + 50.0,
        samplers: &[Sampler::Iu(10, 5000)],
        n: 60,
        exact: &["0.00025*x1^2 + 0.8*x1 + 50"],
        shapes: &["c*x1^2 + c*x1 + c"],
        limits: &[],
    },
    Law {
        name: "perf_cubic",
        truth: |x| 1.5e-6 * x[0] * x[0] * x[0],
        samplers: &[Sampler::Iu(10, 1000)],
        n: 40,
        exact: &["1.5e-6*x1^3"],
        shapes: &["c*x1^3", "c*x1^3 + c"],
        limits: &[],
    },
    Law {
        name: "perf_nlogn",
        truth: |x| 0.02 * x[0] * x[0].log2(),
        samplers: &[Sampler::Ilu(2.0, 1e6)],
        n: 60,
        exact: &["0.02*x1*log2(x1)"],
        shapes: &["c*x1*log2(x1)", "c*x1*log2(x1) + c"],
        limits: &[],
    },
    Law {
        name: "perf_sqrt",
        truth: |x| 12.0 * x[0].sqrt() + 3.0,
        samplers: &[Sampler::Ilu(1.0, 1e6)],
        n: 40,
        exact: &["12*sqrt(x1) + 3"],
        shapes: &["c*sqrt(x1) + c"],
        limits: &[],
    },
    Law {
        name: "perf_nm",
        truth: |x| 0.013 * x[0] * x[1],
        samplers: &[Sampler::Iu(1, 2000), Sampler::Iu(1, 2000)],
        n: 100,
        exact: &["0.013*x1*x2"],
        shapes: &["c*x1*x2", "c*x1*x2 + c"],
        limits: &[],
    },
    Law {
        name: "perf_3var",
        truth: |x| 0.01 * x[0] * x[1] + 2.0 * x[2] + 5.0,
        samplers: &[Sampler::Iu(1, 1000), Sampler::Iu(1, 1000), Sampler::Iu(1, 100)],
        n: 150,
        exact: &["0.01*x1*x2 + 2*x3 + 5"],
        shapes: &["c*x1*x2 + c*x3 + c"],
        // The offset 5 is under 1 % of almost every sample.
        limits: &[Noise::Mult10Out5],
    },
    Law {
        name: "perf_bytes",
        truth: |x| 0.8 * x[0] / 1024.0 + 35.0,
        samplers: &[Sampler::Ilu(512.0, 5e8)],
        n: 40,
        exact: &["0.00078125*x1 + 35"],
        shapes: &["c*x1 + c"],
        limits: &[],
    },
    Law {
        name: "perf_step",
        truth: |x| if x[0] > 200000.0 { 0.04 * x[0] } else { 1500.0 },
        samplers: &[Sampler::Iu(1000, 500000)],
        n: 80,
        exact: &["if(x1 > 200000, 0.04*x1, 1500)"],
        shapes: &["if(x1 > c, c*x1, c)"],
        limits: &[],
    },
    Law {
        name: "perf_flag",
        truth: |x| if x[1] > 0.5 { 0.9 * x[0] } else { 0.3 * x[0] } + 20.0,
        samplers: &[Sampler::Iu(1, 10000), Sampler::Flag],
        n: 60,
        exact: &["0.6*x1*x2 + 0.3*x1 + 20", "if(x2 > 0.5, 0.9*x1 + 20, 0.3*x1 + 20)"],
        shapes: &["c*x1*x2 + c*x1 + c", "if(x2 > c, c*x1 + c, c*x1 + c)"],
        limits: &[],
    },
    Law {
        name: "perf_count_diff",
        truth: |x| x[0] - x[1],
        samplers: &[Sampler::Iu(2, 500), Sampler::FracOf(0)],
        n: 50,
        exact: &["x1 - x2"],
        shapes: &["c*x1 - c*x2", "c*x1 - c*x2 + c", "c*x1 - c*x2 - c", "x1 - x2"],
        limits: &[],
    },
    Law {
        name: "perf_halfloop",
        truth: |x| (x[0] / 2.0).floor(),
        samplers: &[Sampler::Iu(1, 10000)],
        n: 60,
        exact: &["floor(x1/2)"],
        // Noise makes the loop count non-integer: `floor` cannot be told from `0.5*x1`.
        shapes: &["floor(x1/c)"],
        limits: &[Noise::Mult2, Noise::Mult10Out5],
    },
    Law {
        name: "perf_pairs",
        truth: |x| x[0] * (x[0] - 1.0) / 2.0,
        samplers: &[Sampler::Iu(2, 2000)],
        n: 40,
        exact: &["0.5*x1^2 - 0.5*x1"],
        shapes: &["c*x1^2 - c*x1", "c*x1^2 - c*x1 + c", "c*x1^2 - c*x1 - c"],
        // `-x1/2` is 1/x1 of `x1^2/2`: below 2 % for all but a few of these samples.
        limits: &[Noise::Mult2, Noise::Mult10Out5],
    },
    Law {
        // A training step over N groups of M items each (x1 = N, x2 = N*M items in all): every
        // group's pairwise matrix, N*M^2 = items^2/groups, beside a pass over the items.
        name: "perf_pairs_in_groups",
        truth: |x| 0.002 * x[1] * x[1] / x[0] + 0.05 * x[1] + 3.0,
        samplers: &[Sampler::Iu(2, 200), Sampler::TimesOf(0, 2, 60)],
        n: 80,
        exact: &["0.002*x2^2/x1 + 0.05*x2 + 3"],
        shapes: &["c*x2^2/x1 + c*x2 + c"],
        limits: &[],
    },
    Law {
        // The same cost over the groups and the items per group (N*M^2).
        name: "perf_n_m_squared",
        truth: |x| 0.002 * x[0] * x[1] * x[1] + 0.05 * x[0] * x[1],
        samplers: &[Sampler::Iu(2, 200), Sampler::Iu(2, 60)],
        n: 80,
        exact: &["0.002*x1*x2^2 + 0.05*x1*x2"],
        shapes: &["c*x1*x2^2 + c*x1*x2", "c*x1*x2^2 + c*x1*x2 + c"],
        limits: &[],
    },
    Law {
        name: "perf_pow2",
        truth: |x| x[0].exp2(),
        samplers: &[Sampler::Iu(1, 16)],
        n: 20,
        exact: &["2^x1"],
        shapes: &["c*2^x1", "2^x1", "c*2^x1 + c"],
        limits: &[],
    },
    Law {
        name: "perf_fraction",
        truth: |x| x[0] / (x[0] + x[1]),
        samplers: &[Sampler::Iu(1, 1000), Sampler::Iu(1, 1000)],
        n: 100,
        exact: &["x1/(x1 + x2)"],
        shapes: &["c*x1/(x1 + x2)", "x1/(x1 + x2)", "c*x1/(x1 + x2) + c"],
        limits: &[],
    },
];

fn check(noise: Noise) -> Vec<String> {
    let mut failures = Vec::new();
    for law in LAWS {
        let data = dataset(law, noise);
        if let Ok(dir) = std::env::var("BEAGLE_FIT_DUMP") {
            // Debugging aid: the generated data as CSV (`examples/debug_fit.rs` reads it).
            let mut text = format!("{},y\n", data.names.join(","));
            for r in 0..data.len() {
                let row: Vec<String> = data
                    .row(r)
                    .iter()
                    .chain([&data.y[r]])
                    .map(|v| format!("{v:?}"))
                    .collect();
                text.push_str(&(row.join(",") + "\n"));
            }
            std::fs::write(format!("{dir}/{}__{noise:?}.csv", law.name), text).unwrap();
        }
        let r = fit(&data, &FitOptions::default()).unwrap();
        let err = test_error(law, &r.expr);
        let (form, accurate) = match noise {
            Noise::Exact => (law.exact.contains(&r.infix.as_str()), err < 1e-9),
            Noise::Mult2 => (law.shapes.contains(&shape(&r.expr).as_str()), err < 0.02),
            Noise::Mult10Out5 => (law.shapes.contains(&shape(&r.expr).as_str()), err < 0.1),
        };
        stoex_agrees(&data, &r.stoex, &r.expr);
        let limit = law.limits.contains(&noise);
        let ok = accurate && (form || limit);
        eprintln!(
            "{:?} {:24} {} {:50} shape {:30} test error {:.2e}",
            noise,
            law.name,
            match (ok, form) {
                (false, _) => "FAIL ",
                (true, true) => "ok   ",
                (true, false) => "limit",
            },
            r.infix,
            shape(&r.expr),
            err
        );
        if !ok {
            for c in r.candidates.iter().take(4) {
                eprintln!("      {:10} score {:10.2} {}", c.source, c.score, c.infix);
            }
            failures.push(format!("{}: {}", law.name, r.infix));
        }
    }
    failures
}

#[test]
fn clean_laws_are_recovered_exactly() {
    let f = check(Noise::Exact);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn two_percent_noise_keeps_the_form() {
    let f = check(Noise::Mult2);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn ten_percent_noise_and_outliers_keep_the_form() {
    let f = check(Noise::Mult10Out5);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn reproducible() {
    for law in &LAWS[..4] {
        let data = dataset(law, Noise::Mult10Out5);
        let a = fit(&data, &FitOptions::default()).unwrap();
        let b = fit(&data, &FitOptions::default()).unwrap();
        assert_eq!(a.infix, b.infix);
        assert_eq!(a.score.to_bits(), b.score.to_bits());
    }
}

#[test]
fn csv_with_pcm_names_gives_stoex_with_those_names() {
    let mut text = String::from("files.NUMBER_OF_ELEMENTS,compressed.VALUE,time\n");
    for i in 0..40 {
        let n = 10.0 + f64::from(i) * 37.0;
        let c = f64::from(i % 2);
        let y = if c > 0.5 { 0.9 * n } else { 0.3 * n } + 20.0;
        text.push_str(&format!("{n:?},{c:?},{y:?}\n"));
    }
    let data = beagle_fit::parse_csv(&text).unwrap();
    let r = fit(&data, &FitOptions::default()).unwrap();
    assert_eq!(
        r.stoex,
        "0.6 * files.NUMBER_OF_ELEMENTS * compressed.VALUE + 0.3 * files.NUMBER_OF_ELEMENTS + 20"
    );
    assert_eq!(r.infix, "0.6*x1*x2 + 0.3*x1 + 20");
    assert_eq!(r.variables, vec!["files.NUMBER_OF_ELEMENTS", "compressed.VALUE"]);
    assert!(r.r2 > 0.999999 && r.relative_error < 1e-9);
}

#[test]
fn tiny_and_degenerate_data() {
    let one = Dataset::unnamed(vec![vec![1.0]], vec![5.0]).unwrap();
    assert_eq!(fit(&one, &FitOptions::default()).unwrap().infix, "5");
    let flat = Dataset::unnamed(vec![vec![1.0, 2.0, 3.0]], vec![5.0; 3]).unwrap();
    assert_eq!(fit(&flat, &FitOptions::default()).unwrap().infix, "5");
    let signs = Dataset::unnamed(vec![vec![1.0, 2.0, 3.0, 4.0, 5.0]], vec![-3.0, 0.0, 3.0, 6.0, 9.0]).unwrap();
    assert_eq!(fit(&signs, &FitOptions::default()).unwrap().infix, "3*x1 - 6");
    let none = Dataset::unnamed(vec![vec![]], vec![]).unwrap();
    assert!(fit(&none, &FitOptions::default()).is_err());
}
