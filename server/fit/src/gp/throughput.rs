//! The GP evaluator's speed, for the benchmark that sets it beside Operon's
//! (`benchmarks/sr/throughput.sh`): individuals evaluated per second on one thread, over a fixed
//! population of random trees of Operon-like sizes (length uniform in 1..=50, finite on the
//! data), with linear scaling only and with Levenberg-Marquardt constant optimisation. Here, not
//! in the benchmark, so the representation and the optimiser stay private to the crate.

use super::init::{random_program, Context, TreeShape};
use super::optimise::{optimise_in_place, Problem, Workspace};
use super::{rng_for, FunctionSet};
use crate::criterion::{row_scales, ErrorScale};
use std::time::{Duration, Instant};

/// Size of the fixed population, evaluated round-robin.
pub const POPULATION: usize = 1000;

/// The population the figures were measured on.
#[derive(Clone, Debug)]
pub struct Population {
    /// Trees drawn to find [`POPULATION`] finite ones (a non-finite tree is rejected after one
    /// evaluation, which would flatter the count).
    pub drawn: usize,
    pub mean_length: f64,
}

/// One figure: `count` individuals evaluated in `seconds`, `finite` of them finite.
#[derive(Clone, Debug)]
pub struct Throughput {
    pub iterations: usize,
    pub count: u64,
    pub finite: u64,
    pub seconds: f64,
}

impl Throughput {
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.seconds
    }
}

/// Evaluates the population over `columns`/`y` for `seconds` with each number of
/// Levenberg-Marquardt `iterations` (0: linear scaling only).
pub fn measure(columns: &[Vec<f64>], y: &[f64], seconds: f64, iterations: &[usize]) -> (Population, Vec<Throughput>) {
    let functions = FunctionSet::default();
    let shape = TreeShape {
        max_length: 50,
        max_depth: 50,
    };
    let ctx = Context::new(&functions, columns, &[], (-2.0, 2.0), shape);
    let scales = row_scales(y, ErrorScale::Auto);
    let problem = Problem {
        cols: columns,
        y,
        scales: &scales,
        noise: 0.01,
    };
    let mut w = Workspace::new();
    let mut population = Vec::new();
    let mut drawn = 0;
    while population.len() < POPULATION {
        let mut rng = rng_for(1, 0, drawn);
        drawn += 1;
        let length = rand::RngExt::random_range(&mut rng, 1..=50usize);
        let p = random_program(&mut rng, &ctx, length);
        if optimise_in_place(&mut p.clone(), &problem, 0, &mut w).is_some() {
            population.push(p);
        }
    }
    let mean_length = population.iter().map(Vec::len).sum::<usize>() as f64 / population.len() as f64;
    let figures = iterations
        .iter()
        .map(|&iterations| {
            let mut w = Workspace::new();
            let budget = Duration::from_secs_f64(seconds);
            let start = Instant::now();
            let (mut count, mut finite) = (0u64, 0u64);
            while start.elapsed() < budget {
                for _ in 0..100 {
                    let mut p = population[count as usize % POPULATION].clone();
                    if optimise_in_place(&mut p, &problem, iterations, &mut w).is_some() {
                        finite += 1;
                    }
                    count += 1;
                }
            }
            Throughput {
                iterations,
                count,
                finite,
                seconds: start.elapsed().as_secs_f64(),
            }
        })
        .collect();
    (Population { drawn, mean_length }, figures)
}
