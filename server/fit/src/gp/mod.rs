//! Genetic programming in the style of Krogmann et al. (IEEE TSE 2010): a population of
//! expression trees evolves by tournament selection, subtree crossover and mutations; each new
//! tree gets its constants optimised (linear scaling and Levenberg-Marquardt on a robust
//! weighting, [`optimise`]) and its Krogmann fitness ([`fitness`]).
//!
//! - **Representation** ([`program`]): linear postfix programs evaluated over whole columns in
//!   batches, with a reverse-mode pass for the derivatives of the constants.
//! - **Function set** ([`FunctionSet`]): by default what StoEx can print: `+ - * / ^ exp log sqrt`
//!   and `if(x > t, a, b)`.
//! - **Seeds**: the analysers' candidates start in the population, once as they are and once
//!   with optimised constants; the best individuals survive every generation (elitism), so the
//!   GP's best fitness is never worse than the best seed's.
//! - **Answers**: the Pareto front (program length against error) of everything evaluated, plus
//!   the best individual by fitness, each as a [`Candidate`] with an honest penalty
//!   ([`fitness`]); [`crate::fit`] puts them into the same [`crate::criterion::select`] as the
//!   analysers' candidates, so adding GP can only add options.
//! - **Stopping**: an exact fit (error <= `exact_tolerance` with at most `3n/4` fitted values), the generation
//!   budget, stagnation (`stagnation` generations in which no island's description length of
//!   its best error/length trade-off, `min n·ln(e²) + length·2·ln S`, fell by more than
//!   `stagnation_tolerance`: under noise, fitting the noise does not pay for its nodes), the time
//!   limit, or the cancellation flag
//!   (checked before each individual). The first three are deterministic and are the normal
//!   ends of a run; the time limit is a safety net (a run that hits it depends on the speed of the
//!   machine).
//! - **Determinism**: every new individual draws from its own `ChaCha8Rng` seeded by
//!   `(seed, generation, index)` and reads only the previous generation, so the result is the
//!   same for the same seed with any number of threads (unless the time limit or cancellation
//!   stops the run).
//! - **Parallelism**: a local rayon pool of `threads` threads (not the global pool).

pub mod fitness;
pub(crate) mod init;
pub(crate) mod optimise;
pub(crate) mod program;
pub mod throughput;
pub(crate) mod variation;
mod vmath;

use crate::criterion::{self, Candidate, ErrorScale};
use crate::expr::{CmpOp, Expr};
use crate::FitnessOptions;
use init::{random_program, Context, TreeShape};
use optimise::{optimise_in_place, Problem, Workspace};
use program::{Node, Op};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The functions trees may use (leaves are always variables and constants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSet {
    ops: Vec<Op>,
}

impl FunctionSet {
    /// The given inner operations (leaves and duplicates are dropped).
    pub fn new(ops: &[Op]) -> FunctionSet {
        let mut out: Vec<Op> = Vec::new();
        for op in ops {
            if !op.is_leaf() && !out.contains(op) {
                out.push(*op);
            }
        }
        FunctionSet { ops: out }
    }

    /// What StoEx prints: `+ - * / ^ exp log sqrt if(a > b, ...)` (the default).
    pub fn stoex() -> FunctionSet {
        FunctionSet::new(&[
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Div,
            Op::Pow,
            Op::Exp,
            Op::Log,
            Op::Sqrt,
            Op::If(CmpOp::Gt),
        ])
    }

    /// Only `+ - *` (polynomials).
    pub fn arithmetic() -> FunctionSet {
        FunctionSet::new(&[Op::Add, Op::Sub, Op::Mul])
    }

    /// This set and `op`.
    pub fn with(mut self, op: Op) -> FunctionSet {
        if !op.is_leaf() && !self.ops.contains(&op) {
            self.ops.push(op);
        }
        self
    }

    /// This set without `op`.
    pub fn without(mut self, op: Op) -> FunctionSet {
        self.ops.retain(|o| *o != op);
        self
    }

    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

impl Default for FunctionSet {
    fn default() -> Self {
        FunctionSet::stoex()
    }
}

/// Progress of a run, reported once per generation.
#[derive(Clone, Debug, PartialEq)]
pub struct GpProgress {
    pub generation: usize,
    /// Individuals evaluated so far (constant optimisation included).
    pub evaluations: u64,
    pub best_fitness: f64,
    /// Trimmed RMS scaled residual of the best individual.
    pub best_error: f64,
    /// The best individual, contract infix.
    pub best: String,
    /// Mean length of the population's programs (bloat: evaluation cost grows with it).
    pub mean_length: f64,
}

/// The progress callback.
pub type ProgressFn = Arc<dyn Fn(&GpProgress) + Send + Sync>;

/// Options of a GP run.
#[derive(Clone)]
pub struct GpOptions {
    pub seed: u64,
    /// Worker threads (a local pool; 1 runs on the calling thread).
    pub threads: usize,
    /// Safety net on the wall time of the run (see the module documentation).
    pub time_limit: Option<Duration>,
    /// Most generations after the initial population.
    pub generations: usize,
    /// Individuals in all islands together.
    pub population: usize,
    /// Independent sub-populations (no migration). Island 0 holds the seeds; the others start
    /// from random trees only, so the search explores beyond the analysers' answers instead of
    /// converging on them. All feed the same archive.
    pub islands: usize,
    /// How many of the random islands (the last ones) grow smooth trees only: the function set
    /// without `if`. Conditionals buy accuracy cheaply by stitching pieces together; on an island
    /// of their own they crowd out the search for a smooth law (a polynomial in two inputs was
    /// found unseeded but lost to piecewise approximations once seeded).
    pub smooth_islands: usize,
    /// Fitness during the search (Krogmann style). The GP's default has no size or depth
    /// penalty within the length and depth limits (thresholds at the limits): with clean data the
    /// error term is tiny and a size penalty would rule out every exact tree longer than 12
    /// nodes; parsimony comes from the final selection over the Pareto front instead.
    pub fitness: FitnessOptions,
    /// Best individuals (per island) copied unchanged into the next generation.
    pub elite: usize,
    pub tournament: usize,
    pub crossover_probability: f64,
    pub mutation_probability: f64,
    pub max_length: usize,
    pub max_depth: usize,
    /// Random initial trees have a length uniform in `1..=init_max_length`.
    pub init_max_length: usize,
    pub functions: FunctionSet,
    /// Constants found in the code (static analysis); used at initialisation and by mutation.
    pub constants: Vec<f64>,
    /// Range of random constants.
    pub constant_range: (f64, f64),
    /// Levenberg-Marquardt iterations per new individual (0: linear scaling only).
    pub optimisation_iterations: usize,
    /// Generations without improvement before the run stops.
    pub stagnation: usize,
    /// Decrease of the progress measure (`min` over the archive of `n·ln(e²) + length·2·ln S`,
    /// the description length of the best error/length trade-off) that counts as an improvement.
    pub stagnation_tolerance: f64,
    /// Trimmed relative error at which a fit is exact and the run stops.
    pub exact_tolerance: f64,
    /// Set to `true` (from any thread) to stop the run; the best so far is returned.
    pub cancel: Option<Arc<AtomicBool>>,
    pub progress: Option<ProgressFn>,
    /// Most GP candidates handed to the final selection.
    pub max_candidates: usize,
}

impl Default for GpOptions {
    fn default() -> Self {
        GpOptions {
            seed: 1,
            threads: 1,
            time_limit: None,
            generations: 200,
            population: 500,
            islands: 3,
            smooth_islands: 1,
            fitness: FitnessOptions {
                size_threshold: 50,
                depth_threshold: 12,
                ..FitnessOptions::default()
            },
            elite: 5,
            tournament: 5,
            crossover_probability: 0.9,
            mutation_probability: 0.25,
            max_length: 50,
            max_depth: 12,
            init_max_length: 20,
            functions: FunctionSet::default(),
            constants: Vec::new(),
            constant_range: (-2.0, 2.0),
            optimisation_iterations: 5,
            stagnation: 40,
            stagnation_tolerance: 2.0,
            exact_tolerance: 10.0 * criterion::EXACT,
            cancel: None,
            progress: None,
            max_candidates: 30,
        }
    }
}

impl fmt::Debug for GpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpOptions")
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("time_limit", &self.time_limit)
            .field("generations", &self.generations)
            .field("population", &self.population)
            .field("functions", &self.functions)
            .field("constants", &self.constants)
            .field("optimisation_iterations", &self.optimisation_iterations)
            .field("stagnation", &self.stagnation)
            .field("cancel", &self.cancel.is_some())
            .field("progress", &self.progress.is_some())
            .finish_non_exhaustive()
    }
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Exact,
    Generations,
    Stagnation,
    TimeLimit,
    Cancelled,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Exact => "exact fit",
            StopReason::Generations => "generation budget",
            StopReason::Stagnation => "stagnation",
            StopReason::TimeLimit => "time limit",
            StopReason::Cancelled => "cancelled",
        })
    }
}

/// One member of the population.
#[derive(Clone, Debug)]
pub struct Individual {
    pub program: Vec<Node>,
    /// Linear scaling: the model is `a + b·program`.
    pub a: f64,
    pub b: f64,
    pub error: f64,
    pub fitness: f64,
}

impl Individual {
    /// The model as a simplified expression.
    pub fn expr(&self) -> Expr {
        fitness::export(&self.program, self.a, self.b)
    }
}

/// The answer of [`run`].
#[derive(Clone, Debug)]
pub struct GpResult {
    /// Candidates for the final selection (Pareto front and best by fitness).
    pub candidates: Vec<Candidate>,
    /// Best individual by fitness.
    pub best: Option<Individual>,
    /// Generations completed after the initial population.
    pub generations: usize,
    pub evaluations: u64,
    pub stop: StopReason,
    pub elapsed: Duration,
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The random stream of individual `index` of `generation`.
pub fn rng_for(seed: u64, generation: usize, index: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(splitmix(splitmix(splitmix(seed) ^ generation as u64) ^ index as u64))
}

/// Everything a generation reads.
struct Shared<'a> {
    ctx: Context<'a>,
    /// The context of smooth islands (no conditionals).
    smooth: Context<'a>,
    /// Islands from this index on are smooth.
    first_smooth: usize,
    island_size: usize,
    prob: Problem<'a>,
    options: &'a GpOptions,
    fitness: &'a FitnessOptions,
    deadline: Option<Instant>,
}

impl Shared<'_> {
    fn interrupted(&self) -> Option<StopReason> {
        if self.options.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(StopReason::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(StopReason::TimeLimit);
        }
        None
    }

    /// Optimises and scores a program.
    fn evaluate(&self, mut program: Vec<Node>, iterations: usize, w: &mut Workspace) -> Individual {
        program::fold_constants(&mut program);
        match optimise_in_place(&mut program, &self.prob, iterations, w) {
            Some((a, b)) => {
                let error = fitness::error(w.residuals(), self.prob.noise);
                let fit = fitness::fitness(self.fitness, &program, error);
                Individual {
                    program,
                    a,
                    b,
                    error,
                    fitness: fit,
                }
            }
            None => Individual {
                program,
                a: 0.0,
                b: 1.0,
                error: f64::INFINITY,
                fitness: f64::INFINITY,
            },
        }
    }

    /// A seed as it is (no scaling, no optimisation).
    fn evaluate_as_is(&self, program: Vec<Node>, w: &mut Workspace) -> Individual {
        let n = self.prob.n();
        let mut f = vec![0.0; n];
        program::evaluate(&program, self.prob.cols, n, &mut f, &mut w.scratch);
        let r = criterion::residuals(self.prob.y, &f, self.prob.scales);
        let error = if r.contains(&criterion::INVALID_RESIDUAL) {
            f64::INFINITY
        } else {
            fitness::error(&r, self.prob.noise)
        };
        Individual {
            fitness: fitness::fitness(self.fitness, &program, error),
            program,
            a: 0.0,
            b: 1.0,
            error,
        }
    }

    fn tournament<'p>(&self, rng: &mut ChaCha8Rng, pop: &'p [Individual]) -> &'p Individual {
        let mut best = rng.random_range(0..pop.len());
        for _ in 1..self.options.tournament.max(1) {
            let c = rng.random_range(0..pop.len());
            if better(&pop[c], c, &pop[best], best) {
                best = c;
            }
        }
        &pop[best]
    }

    /// The context of island `island`.
    fn ctx(&self, island: usize) -> &Context<'_> {
        if island >= self.first_smooth {
            &self.smooth
        } else {
            &self.ctx
        }
    }

    fn breed(
        &self,
        generation: usize,
        island: usize,
        index: usize,
        pop: &[Individual],
        w: &mut Workspace,
    ) -> Individual {
        let mut rng = rng_for(self.options.seed, generation, index);
        let ctx = self.ctx(island);
        let p1 = self.tournament(&mut rng, pop);
        let mut child = if rng.random_bool(self.options.crossover_probability.clamp(0.0, 1.0)) {
            let p2 = self.tournament(&mut rng, pop);
            variation::crossover(&mut rng, ctx, &p1.program, &p2.program)
        } else {
            p1.program.clone()
        };
        if child == p1.program || rng.random_bool(self.options.mutation_probability.clamp(0.0, 1.0)) {
            child = variation::mutate(&mut rng, ctx, &child);
        }
        self.evaluate(child, self.options.optimisation_iterations, w)
    }
}

fn mean_length(pops: &[Vec<Individual>]) -> f64 {
    let (sum, count) = pops
        .iter()
        .flatten()
        .fold((0usize, 0usize), |(s, c), i| (s + i.program.len(), c + 1));
    sum as f64 / count.max(1) as f64
}

/// Whether individual `x` (at index `i`) wins a tournament against `y` (at `j`): the lower
/// fitness, but between two exact fits (error at most [`criterion::EXACT`], where the
/// difference is rounding) the shorter program. A search that goes on after an exact fit
/// otherwise grows its programs without limit, each longer variant as exact as the last.
fn better(x: &Individual, i: usize, y: &Individual, j: usize) -> bool {
    if x.error <= criterion::EXACT && y.error <= criterion::EXACT && x.program.len() != y.program.len() {
        return x.program.len() < y.program.len();
    }
    x.fitness < y.fitness || (x.fitness == y.fitness && i < j)
}

/// `min` over a population of `n·ln(e²) + length·2·ln S` (`e` floored at [`criterion::EXACT`]):
/// the description length of its best error/length trade-off, the measure of progress for the
/// stagnation test (an improvement that does not pay for its nodes does not count).
fn progress(pop: &[Individual], n: usize, symbols: usize) -> f64 {
    let node = 2.0 * (symbols.max(2) as f64).ln();
    pop.iter()
        .filter(|i| i.error.is_finite())
        .map(|ind| {
            let e = ind.error.max(criterion::EXACT);
            n as f64 * (e * e).ln() + ind.program.len() as f64 * node
        })
        .fold(f64::INFINITY, f64::min)
}

/// Best individual of each program length (by error), for the Pareto front.
struct Archive {
    by_length: Vec<Option<Individual>>,
}

impl Archive {
    fn new(max_length: usize) -> Archive {
        Archive {
            by_length: vec![None; max_length + 1],
        }
    }

    fn offer(&mut self, ind: &Individual) {
        if !ind.error.is_finite() {
            return;
        }
        let l = ind.program.len();
        if l >= self.by_length.len() {
            self.by_length.resize(l + 1, None);
        }
        let slot = &mut self.by_length[l];
        if slot.as_ref().is_none_or(|s| ind.error < s.error) {
            *slot = Some(ind.clone());
        }
    }

    /// Smallest error of any individual seen with at most `max_params` fitted values (constants,
    /// variable weights and the linear scaling): with about as many values as rows, any tree
    /// fits the data "exactly" without being the law.
    fn best_error(&self, max_params: usize) -> f64 {
        self.by_length
            .iter()
            .flatten()
            .filter(|i| i.program.iter().filter(|n| n.is_parameter()).count() + 2 <= max_params)
            .map(|i| i.error)
            .fold(f64::INFINITY, f64::min)
    }

    /// Shortest first, each strictly more accurate than every shorter one.
    fn front(&self) -> Vec<&Individual> {
        let mut out: Vec<&Individual> = Vec::new();
        for ind in self.by_length.iter().flatten() {
            if out.last().is_none_or(|l| ind.error < l.error) {
                out.push(ind);
            }
        }
        out
    }
}

/// The noise level the search measures errors against: the smallest LTS scale of the seeds and
/// of the constant model `median(y)`.
fn seed_noise(cols: &[Vec<f64>], y: &[f64], scales: &[f64], seeds: &[Expr]) -> f64 {
    let n = y.len();
    if n == 0 {
        return criterion::EXACT;
    }
    let median = Expr::Const(crate::stats::median(y));
    std::iter::once(&median)
        .chain(seeds)
        .map(|e| {
            let f = crate::eval::eval(e, cols, n);
            criterion::lts_scale(&criterion::residuals(y, &f, scales), 0)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Runs the GP on inputs `cols` and target `y` (see the module documentation). `seeds` start in
/// the population (those that do not compile, e.g. with `&&` conditions, or that exceed the
/// length or depth limits are left out); `scale` chooses relative or absolute residuals as in
/// [`crate::criterion`].
pub fn run(cols: &[Vec<f64>], y: &[f64], scale: ErrorScale, seeds: &[Expr], options: &GpOptions) -> GpResult {
    let started = Instant::now();
    let scales = criterion::row_scales(y, scale);
    let shape = TreeShape {
        max_length: options.max_length.max(1),
        max_depth: options.max_depth.max(1),
    };
    let smooth_functions = FunctionSet::new(
        &options
            .functions
            .ops()
            .iter()
            .copied()
            .filter(|op| !matches!(op, Op::If(_)))
            .collect::<Vec<_>>(),
    );
    let islands = options.islands.max(1);
    let island_size = (options.population.max(2 * islands) / islands).max(2);
    let shared = Shared {
        ctx: Context::new(
            &options.functions,
            cols,
            &options.constants,
            options.constant_range,
            shape,
        ),
        smooth: Context::new(
            &smooth_functions,
            cols,
            &options.constants,
            options.constant_range,
            shape,
        ),
        // Island 0 holds the seeds and is never smooth.
        first_smooth: islands - options.smooth_islands.min(islands - 1),
        island_size,
        prob: Problem {
            cols,
            y,
            scales: &scales,
            noise: seed_noise(cols, y, &scales, seeds),
        },
        options,
        fitness: &options.fitness,
        deadline: options.time_limit.map(|t| started + t),
    };
    let pool = if options.threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .build()
            .ok()
    } else {
        None
    };
    // Maps `f` over `0..count` (in parallel when there is a pool), `None` when interrupted.
    let map = |count: usize, f: &(dyn Fn(usize, &mut Workspace) -> Individual + Sync)| -> Option<Vec<Individual>> {
        let one = |w: &mut Workspace, i: usize| -> Option<Individual> {
            if shared.interrupted().is_some() {
                None
            } else {
                Some(f(i, w))
            }
        };
        match &pool {
            Some(pool) => pool.install(|| (0..count).into_par_iter().map_init(Workspace::new, one).collect()),
            None => {
                let mut w = Workspace::new();
                (0..count).map(|i| one(&mut w, i)).collect()
            }
        }
    };
    let n = y.len();
    let mut evaluations: u64 = 0;
    let mut archive = Archive::new(shape.max_length);
    let elite = options.elite.min(island_size - 1);
    // Island 0 starts from the seeds, as they are and optimised; the rest is random trees.
    let seed_programs: Vec<Vec<Node>> = seeds
        .iter()
        .filter_map(program::from_expr)
        .filter(|p| variation::within_limits(p, &shared.ctx))
        .collect();
    let mut w = Workspace::new();
    let mut seeded: Vec<Individual> = Vec::new();
    if n > 0 {
        for p in &seed_programs {
            seeded.push(shared.evaluate_as_is(p.clone(), &mut w));
            seeded.push(shared.evaluate(p.clone(), options.optimisation_iterations.max(10), &mut w));
        }
    }
    evaluations += seeded.len() as u64;
    seeded.truncate(island_size);
    let random_count = islands * island_size - seeded.len();
    let seeded_count = seeded.len();
    let mut stop = StopReason::Generations;
    let mut generation = 0;
    let mut pops: Vec<Vec<Individual>> = Vec::new();
    if n > 0 {
        let init = |i: usize, w: &mut Workspace| {
            let mut rng = rng_for(options.seed, 0, i);
            let len = rng.random_range(1..=options.init_max_length.clamp(1, shape.max_length));
            // Random trees fill the islands after the seeds.
            let island = (seeded_count + i) / shared.island_size;
            let p = random_program(&mut rng, shared.ctx(island), len);
            shared.evaluate(p, options.optimisation_iterations, w)
        };
        match map(random_count, &init) {
            Some(v) => {
                evaluations += v.len() as u64;
                let mut all = seeded;
                all.extend(v);
                let mut it = all.into_iter();
                for _ in 0..islands {
                    pops.push(it.by_ref().take(island_size).collect());
                }
            }
            None => stop = shared.interrupted().unwrap_or(StopReason::Cancelled),
        }
    }
    for ind in pops.iter().flatten() {
        archive.offer(ind);
    }
    let best_of = |pops: &[Vec<Individual>]| -> Option<Individual> {
        pops.iter()
            .flatten()
            .fold(None, |b: Option<&Individual>, i| match b {
                Some(b) if b.fitness <= i.fitness => Some(b),
                _ => Some(i),
            })
            .cloned()
    };
    let report = |generation: usize, evaluations: u64, pops: &[Vec<Individual>]| {
        if let (Some(cb), Some(b)) = (&options.progress, best_of(pops)) {
            cb(&GpProgress {
                generation,
                evaluations,
                best_fitness: b.fitness,
                best_error: b.error,
                best: b.expr().to_string(),
                mean_length: mean_length(pops),
            });
        }
    };
    report(0, evaluations, &pops);
    let symbols = options.functions.len() + shared.ctx.usable.len().max(1) + 1;
    let mut references: Vec<f64> = pops.iter().map(|p| progress(p, n, symbols)).collect();
    let mut since_improvement = 0;
    if !pops.is_empty() {
        loop {
            if archive.best_error(3 * n / 4) <= options.exact_tolerance {
                stop = StopReason::Exact;
                break;
            }
            if generation >= options.generations {
                stop = StopReason::Generations;
                break;
            }
            if since_improvement >= options.stagnation.max(1) {
                stop = StopReason::Stagnation;
                break;
            }
            if let Some(s) = shared.interrupted() {
                stop = s;
                break;
            }
            let next_generation = generation + 1;
            let per_island = island_size - elite;
            let parents = &pops;
            let breed = |i: usize, w: &mut Workspace| {
                let island = i / per_island;
                shared.breed(next_generation, island, i, &parents[island], w)
            };
            let Some(offspring) = map(islands * per_island, &breed) else {
                stop = shared.interrupted().unwrap_or(StopReason::Cancelled);
                break;
            };
            evaluations += offspring.len() as u64;
            for ind in &offspring {
                archive.offer(ind);
            }
            let mut offspring = offspring.into_iter();
            let mut next_pops = Vec::with_capacity(islands);
            for pop in &pops {
                let mut order: Vec<usize> = (0..pop.len()).collect();
                order.sort_by(|a, b| crate::stats::cmp_f64(&pop[*a].fitness, &pop[*b].fitness).then(a.cmp(b)));
                let mut next: Vec<Individual> = order[..elite].iter().map(|i| pop[*i].clone()).collect();
                next.extend(offspring.by_ref().take(per_island));
                next_pops.push(next);
            }
            pops = next_pops;
            generation = next_generation;
            // Stagnation: no island improved its own best trade-off.
            let mut improved = false;
            for (r, pop) in references.iter_mut().zip(&pops) {
                let now = progress(pop, n, symbols);
                if now < *r - options.stagnation_tolerance {
                    *r = now;
                    improved = true;
                }
            }
            if improved {
                since_improvement = 0;
            } else {
                since_improvement += 1;
            }
            report(generation, evaluations, &pops);
        }
    }
    // Candidates: the Pareto front and the best by fitness.
    let scoring = fitness::Scoring {
        cols,
        y,
        scales: &scales,
        symbols,
        listed: &options.constants,
    };
    let best = best_of(&pops);
    let mut chosen: Vec<&Individual> = archive.front();
    if chosen.len() > options.max_candidates.max(1) {
        // Keep the most accurate (the end of the front).
        let drop = chosen.len() - options.max_candidates.max(1);
        chosen.drain(..drop);
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    for ind in best.iter().chain(chosen) {
        // Simplify the expression first (drops dead parts), then collapse redundant constants.
        let (program, a, b) = match program::from_expr(&ind.expr()) {
            Some(p) => fitness::simplify_constants(&p, 0.0, 1.0, &shared.prob, &mut w, 16),
            None => (ind.program.clone(), ind.a, ind.b),
        };
        let expr = fitness::export(&program, a, b);
        if let Some(c) = fitness::candidate(&expr, &scoring) {
            if !candidates.iter().any(|o| o.expr == c.expr) {
                candidates.push(c);
            }
        }
    }
    GpResult {
        candidates,
        best,
        generations: generation,
        evaluations,
        stop,
        elapsed: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn individual(length: usize, error: f64) -> Individual {
        Individual {
            program: vec![Node::constant(1.0); length],
            a: 0.0,
            b: 1.0,
            error,
            fitness: 15.0 * error,
        }
    }

    #[test]
    fn between_exact_fits_the_shorter_wins_otherwise_the_fitter() {
        let (exact_long, exact_short) = (individual(30, 1e-16), individual(7, 5e-10));
        assert!(better(&exact_short, 1, &exact_long, 0));
        assert!(!better(&exact_long, 0, &exact_short, 1));
        // Above the exact level the error decides, whatever the length.
        let (close_long, close_short) = (individual(30, 1e-6), individual(7, 2e-6));
        assert!(better(&close_long, 1, &close_short, 0));
        assert!(better(&exact_long, 1, &close_short, 0));
        // Equal fitness and length: the lower index, as before.
        assert!(better(&individual(7, 1e-3), 0, &individual(7, 1e-3), 1));
        assert!(!better(&individual(7, 1e-3), 1, &individual(7, 1e-3), 0));
    }
}
