//! GP evaluation throughput: individuals evaluated per second on one thread, for a population of
//! random trees of Operon-like sizes (length uniform in 1..=50, finite on the data), without constant optimisation
//! (linear scaling only) and with 10 Levenberg-Marquardt iterations. Compare with the peers'
//! `shared/bench/sr/throughput.py`.
//!
//! `cargo run --release -p beagle-fit --example gp_throughput -- FILE.csv [SECONDS]`

use beagle_fit::criterion::{row_scales, ErrorScale};
use beagle_fit::gp::init::{random_program, Context, TreeShape};
use beagle_fit::gp::optimise::{optimise, Problem, Workspace};
use beagle_fit::gp::{rng_for, FunctionSet};
use beagle_fit::parse_csv;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: gp_throughput FILE.csv [SECONDS]");
    let seconds: f64 = args.next().map_or(10.0, |s| s.parse().expect("seconds"));
    let data = parse_csv(&std::fs::read_to_string(&path).expect("read")).expect("csv");
    let fs = FunctionSet::default();
    let shape = TreeShape {
        max_length: 50,
        max_depth: 50,
    };
    let ctx = Context::new(&fs, &data.columns, &[], (-2.0, 2.0), shape);
    let scales = row_scales(&data.y, ErrorScale::Auto);
    let prob = Problem {
        cols: &data.columns,
        y: &data.y,
        scales: &scales,
        noise: 0.01,
    };
    // A fixed population of 1000 random trees that are finite on the data (a non-finite tree is
    // rejected after one evaluation, which would flatter the count), evaluated round-robin.
    let mut w = Workspace::new();
    let mut population = Vec::new();
    let mut i = 0;
    while population.len() < 1000 {
        let mut rng = rng_for(1, 0, i);
        i += 1;
        let len = rand::RngExt::random_range(&mut rng, 1..=50usize);
        let p = random_program(&mut rng, &ctx, len);
        if optimise(&mut p.clone(), &prob, 0, &mut w).is_some() {
            population.push(p);
        }
    }
    let mean_len = population.iter().map(|p| p.len()).sum::<usize>() as f64 / population.len() as f64;
    println!(
        "{}: {} rows, {} inputs; 1000 random finite trees (of {i} drawn), mean length {:.1}, one thread, {} s each",
        path,
        data.len(),
        data.k(),
        mean_len,
        seconds
    );
    for (label, iterations) in [
        ("without constant optimisation", 0),
        ("with 10 optimisation iterations", 10),
    ] {
        let mut w = Workspace::new();
        let budget = Duration::from_secs_f64(seconds);
        let start = Instant::now();
        let mut count = 0u64;
        let mut valid = 0u64;
        while start.elapsed() < budget {
            for _ in 0..100 {
                let mut p = population[(count % 1000) as usize].clone();
                if optimise(&mut p, &prob, iterations, &mut w).is_some() {
                    valid += 1;
                }
                count += 1;
            }
        }
        let t = start.elapsed().as_secs_f64();
        println!(
            "{label}: {:.0} individuals/s ({count} in {t:.2} s, {:.0} % finite)",
            count as f64 / t,
            100.0 * valid as f64 / count as f64
        );
    }
}
