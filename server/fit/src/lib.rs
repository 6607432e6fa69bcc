//! Beagle's fitting engine: finds the parametric expression behind measurements of a code section.
//!
//! Pure and synchronous: no I/O except [`csv`], randomness only from seeded `ChaCha8Rng`s.
//! [`fit`] runs the analysers (robust best-subset [`regression`], [`threshold`] steps, [`integer`]
//! forms for loop counts, [`mars`] hinge models, [`clamp`] caps and floors), then genetic
//! programming ([`gp`]) seeded with their candidates, and selects among all of them
//! ([`criterion`]). Branch decisions go through
//! [`branch::fit_branch`]. The design and its measurements: the crate's README.md.
//!
//! ```
//! use beagle_fit::{fit, Dataset, FitOptions};
//! let x: Vec<f64> = (1..=40).map(|i| f64::from(i * i) * 100.0).collect();
//! let y: Vec<f64> = x.iter().map(|v| 0.35 * v + 120.0).collect();
//! let data = Dataset::new(vec!["files.NUMBER_OF_ELEMENTS".into()], vec![x], y).unwrap();
//! let result = fit(&data, &FitOptions::default()).unwrap();
//! assert_eq!(result.infix, "0.35*x1 + 120");
//! assert_eq!(result.stoex, "0.35 * files.NUMBER_OF_ELEMENTS + 120");
//! ```

pub mod branch;
pub mod clamp;
pub mod criterion;
pub mod csv;
pub mod dataset;
pub mod decision;
pub mod eval;
pub mod evidence;
pub mod expr;
pub mod gp;
pub mod integer;
pub mod level;
pub mod linalg;
pub mod mars;
pub mod numeric;
pub mod parse;
pub mod print;
pub mod regression;
pub mod simplify;
pub mod spread;
pub mod stats;
pub mod tail;
pub mod threshold;

pub use branch::{fit_branch, BranchFit, BranchKind, BranchOptions};
pub use criterion::{Candidate, ErrorScale};
pub use csv::{parse_csv, to_csv, CsvError};
pub use dataset::{Dataset, DatasetError};
pub use eval::{eval, eval_cond, eval_point};
pub use evidence::{ConstantInterval, Equivalence, Evidence, Want};
pub use expr::{BinaryOp, CmpOp, Complexity, Cond, Expr, UnaryOp};
pub use gp::{FunctionSet, GpOptions, GpProgress, StopReason};
pub use mars::{MarsModel, MarsOptions};
pub use parse::{parse_infix, InfixError};
pub use print::{format_number, infix, stoex_cond_text, stoex_text, stoex_variable_text, to_stoex};
pub use regression::RegressionOptions;
pub use simplify::{mean, simplify};
pub use spread::{Distribution, Spread, StaysConstant};
pub use threshold::ThresholdOptions;

/// How the final model is chosen among the analysers' candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Selection {
    /// Robust extended BIC ([`criterion`]): accounts for the number of rows and the noise level,
    /// so it can tell a spurious term from a real one under noise. The default.
    #[default]
    InformationCriterion,
    /// [`FitnessOptions`] (Krogmann et al. style): error weighted against complexity penalties.
    Fitness,
}

/// Fitness in the style of Krogmann et al. (genetic search for parametric performance models):
/// `error_weight · e + Σ weight · max(0, measure - threshold)` over depth, size and number of
/// variables, where `e` is the root-mean-square scaled residual ([`criterion`]; relative error for
/// positive targets). Lower is better. Used by [`Selection::Fitness`] and, later, by the genetic
/// programming; reported for every result.
#[derive(Clone, Debug, PartialEq)]
pub struct FitnessOptions {
    pub error_weight: f64,
    pub depth_threshold: usize,
    pub depth_weight: f64,
    pub size_threshold: usize,
    pub size_weight: f64,
    pub variables_threshold: usize,
    pub variables_weight: f64,
}

impl Default for FitnessOptions {
    fn default() -> Self {
        FitnessOptions {
            error_weight: 15.0,
            depth_threshold: 5,
            depth_weight: 0.1,
            size_threshold: 12,
            size_weight: 0.05,
            variables_threshold: 2,
            variables_weight: 0.1,
        }
    }
}

impl FitnessOptions {
    /// The fitness of an expression with root-mean-square scaled residual `error`.
    pub fn fitness(&self, e: &Expr, error: f64) -> f64 {
        self.fitness_of(error, e.size(), e.depth(), e.variables().len())
    }

    /// The fitness of a model of `size` nodes, `depth` levels and `variables` inputs with
    /// error `error`.
    pub fn fitness_of(&self, error: f64, size: usize, depth: usize, variables: usize) -> f64 {
        let over = |m: usize, t: usize| m.saturating_sub(t) as f64;
        self.error_weight * error
            + self.depth_weight * over(depth, self.depth_threshold)
            + self.size_weight * over(size, self.size_threshold)
            + self.variables_weight * over(variables, self.variables_threshold)
    }
}

/// What the target column measures (issue 3, point 4): it decides the residual scale and which
/// analysers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Target {
    /// [`Target::Time`] when every target value is positive, else [`Target::Value`]. Never
    /// [`Target::Count`] (integer-valued times in whole milliseconds are common; the
    /// `floor`/`ceil` forms still run on integer targets) nor [`Target::Probability`] (a
    /// fraction such as `x1/(x1 + x2)` is a time-like law, not a branch decision).
    #[default]
    Auto,
    /// Positive reals with multiplicative noise (CPU times): relative residuals.
    Time,
    /// Loop iteration counts (non-negative integers): integer-valued forms, exact integer
    /// combinations ([`integer::exact_combinations`]) preferred over equal decimal forms.
    Count,
    /// Branch decisions: 0/1 outcomes or frequencies in [0, 1]; [`fit`] returns the probability
    /// of [`branch::fit_branch`] (guards and leaf frequencies are in its [`branch::BranchFit`]).
    Probability,
    /// Passed parameter values (may be zero or negative): absolute residuals; on integer values
    /// the exact integer combinations as for counts.
    Value,
}

impl Target {
    /// `Auto` decided on the data; other kinds unchanged.
    pub fn resolve(self, data: &Dataset) -> Target {
        match self {
            Target::Auto if !data.y.is_empty() && data.y.iter().all(|v| *v > 0.0) => Target::Time,
            Target::Auto => Target::Value,
            t => t,
        }
    }
}

/// Options of [`fit`]; the default runs every analyser.
#[derive(Clone, Debug)]
pub struct FitOptions {
    pub regression: RegressionOptions,
    /// `None` disables the threshold analyser.
    pub threshold: Option<ThresholdOptions>,
    /// `None` disables the MARS analyser ([`mars`]).
    pub mars: Option<MarsOptions>,
    pub selection: Selection,
    pub fitness: FitnessOptions,
    pub target: Target,
    /// Used for [`Target::Probability`].
    pub branch: BranchOptions,
    /// Genetic programming seeded with the analysers' candidates ([`gp`]); `None` disables it.
    pub gp: Option<GpOptions>,
    /// How a constant answer is published: the constant, or the observations' distribution.
    pub spread: Spread,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            regression: RegressionOptions::default(),
            threshold: Some(ThresholdOptions::default()),
            mars: Some(MarsOptions::default()),
            selection: Selection::default(),
            fitness: FitnessOptions::default(),
            target: Target::default(),
            branch: BranchOptions::default(),
            gp: Some(GpOptions::default()),
            spread: Spread::default(),
        }
    }
}

/// What the genetic programming did in a [`fit`].
#[derive(Clone, Debug)]
pub struct GpReport {
    /// Generations after the initial population.
    pub generations: usize,
    /// Individuals evaluated.
    pub evaluations: u64,
    pub stop: StopReason,
    pub elapsed: std::time::Duration,
    /// GP candidates handed to the selection.
    pub candidates: usize,
    /// Best individual by the GP's own fitness (contract infix).
    pub best: Option<String>,
}

/// One candidate as the selection saw it.
#[derive(Clone, Debug)]
pub struct Scored {
    pub infix: String,
    pub source: &'static str,
    /// Selection score (lower is better; see [`criterion`]).
    pub score: f64,
    pub fitness: f64,
}

/// The answer of [`fit`].
#[derive(Clone, Debug)]
pub struct FitResult {
    pub expr: Expr,
    /// Contract infix grammar, variables `x1..xk`.
    pub infix: String,
    /// StoEx with the dataset's column names: `expr`, or the [`distribution`](Self::distribution).
    pub stoex: String,
    /// Which analyser found it (`"regression"`, `"threshold"`, `"integer"`, `"mars"`, `"cap"`,
    /// `"gp"`, `"constant"`).
    pub source: &'static str,
    /// Coefficient of determination on the data (plain, outliers included).
    pub r2: f64,
    /// Median of `|y - f| / |y|` over rows with `y != 0` (robust to outliers).
    pub relative_error: f64,
    pub size: usize,
    pub depth: usize,
    /// Names of the inputs used.
    pub variables: Vec<String>,
    /// Estimated noise level `σ̂` (scaled residuals; relative for positive targets).
    pub sigma: f64,
    pub score: f64,
    pub fitness: f64,
    /// Every candidate considered, best first.
    pub candidates: Vec<Scored>,
    /// `None` when the GP was disabled.
    pub gp: Option<GpReport>,
    /// What the measurements support: points, noise, held-out error, intervals, whether the
    /// result is final and why not ([`evidence`]).
    pub evidence: Evidence,
    /// With [`Spread::Distribution`], a constant `expr` published as the observations'
    /// distribution (`stoex` is its literal; `expr` stays the constant the scores use).
    pub distribution: Option<Distribution>,
    /// A law whose observations' mean departs from their median beyond noise, published with the
    /// distribution of its residuals ([`tail`]; `stoex` includes it; `expr` stays the law, whose
    /// value is the mean).
    pub tail: Option<tail::Tail>,
}

/// Why [`fit`] found nothing.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("no data rows")]
    NoRows,
    #[error("no analyser produced a model")]
    NoModel,
    #[error("row {0}: a branch outcome must lie in [0, 1]")]
    NotProbability(usize),
    #[error("branch trials: one positive count per row expected")]
    Trials,
}

fn rms(r: &[f64]) -> f64 {
    (r.iter().map(|v| v * v).sum::<f64>() / r.len().max(1) as f64).sqrt()
}

/// Fits `data` (see the crate documentation and [`evidence`] for the rules of evidence).
pub fn fit(data: &Dataset, options: &FitOptions) -> Result<FitResult, FitError> {
    let mut r = fit_law(data, options)?;
    let constant = r.expr.variables().is_empty();
    // A constant whose mean departs from its median beyond noise has a wide, skewed spread.
    let wide = r
        .evidence
        .level
        .as_ref()
        .filter(|l| l.from_means && constant)
        .map(level::Level::ratio);
    if options.spread == Spread::Distribution && constant {
        let counts = options.target.resolve(data) == Target::Count;
        match spread::distribution(&data.y, counts) {
            Ok(None) => {}
            Ok(Some(d)) => {
                r.evidence.notes.push(d.note());
                r.stoex = d.stoex();
                r.distribution = Some(d);
            }
            Err(why) => r.evidence.notes.push(why.to_string()),
        }
    } else if let Some(ratio) = wide {
        r.evidence.notes.push(format!(
            "a wide spread: the mean is {} times the median; with `spread = \"distribution\"` (`--spread distribution`) the measured distribution is published",
            format_number(numeric::round_significant(ratio, 3))
        ));
    }
    if let Some(t) = &r.tail {
        r.stoex = t.stoex(&r.stoex);
    }
    Ok(r)
}

fn fit_law(data: &Dataset, options: &FitOptions) -> Result<FitResult, FitError> {
    if data.is_empty() {
        return Err(FitError::NoRows);
    }
    let target = options.target.resolve(data);
    if target == Target::Probability {
        return branch::fit_result(data, options);
    }
    let mut reg = options.regression.clone();
    if target == Target::Value && reg.scale == ErrorScale::Auto {
        reg.scale = ErrorScale::Absolute;
    }
    // Times measured at a resolution: relative errors down to it, absolute below.
    if target == Target::Time
        && reg.scale == ErrorScale::Auto
        && data.resolution > 0.0
        && data.y.iter().all(|v| *v >= 0.0)
    {
        reg.scale = ErrorScale::RelativeAbove(data.resolution);
    }
    let seed = options.gp.as_ref().map_or(1, |g| g.seed);
    // Counts and passed values with integer observations: integer forms are expected.
    let counts = matches!(target, Target::Count | Target::Value) && data.integer_target();
    // Equivalent inputs out, then one row per distinct point (its median), in input order.
    let (reduced, kept, equivalent) = evidence::drop_equivalent(data);
    let points = evidence::Points::group(&reduced);
    let work = points.medians(&reduced);
    let scales = criterion::row_scales(&work.y, reg.scale);
    let relative = criterion::is_relative(&work.y, reg.scale);
    let mut ev = evidence::gather(&reduced, equivalent, &points, relative, reg.scale, seed);
    if points.len() == 1 {
        let what = if target == Target::Time { "cost" } else { "value" };
        ev.one_point = Some(evidence::one_point::assess(&reduced, seed, what));
    }
    if !points.inputs_vary() || ev.no_dependency() {
        if let Some(p) = ev.dependency_p.filter(|_| ev.no_dependency()) {
            ev.notes.push(format!(
                "no dependency on the inputs: the points differ no more than their repetitions (rank test {})",
                evidence::p_text(p)
            ));
        }
        return Ok(constant_answer(data, &work, &scales, &points, ev, options, seed));
    }
    let y = &work.y;
    let basis = regression::basis(&work.columns);
    let mut candidates: Vec<Candidate> = Vec::new();
    // Constants of the code: thresholds and knots are tried there first.
    let code_constants: Vec<f64> = options
        .threshold
        .as_ref()
        .map(|t| t.constants.clone())
        .unwrap_or_default();
    if let Some(r) = regression::regress(&basis, y, &reg) {
        let fits: Vec<regression::LinearFit> = r.models.iter().map(|m| m.fit.clone()).collect();
        candidates.extend(r.models.into_iter().map(|m| m.candidate));
        // Integer forms when the observations are integers (their medians need not be).
        if data.integer_target() {
            candidates.extend(integer::integer_candidates(&work, &basis, &fits, reg.scale));
        }
        if counts {
            candidates.extend(integer::exact_combinations(&work, &basis, &fits, reg.scale));
        }
    }
    if let Some(t) = &options.threshold {
        let steps = threshold::thresholds(&work.columns, &basis, y, &reg, t);
        candidates.extend(steps.into_iter().map(|s| s.candidate));
    }
    if let Some(m) = &options.mars {
        // Only models with a hinge: the others are linear models the regression already offers.
        let m = MarsOptions {
            scale: reg.scale,
            constants: code_constants.clone(),
            ..m.clone()
        };
        let models = mars::mars(&work.columns, y, &m);
        candidates.extend(models.into_iter().filter(|m| m.has_hinge()).map(|m| m.candidate));
    }
    let gp = options.gp.as_ref().map(|g| {
        let seeds: Vec<Expr> = candidates.iter().map(|c| c.expr.clone()).collect();
        let r = gp::run(&work.columns, y, reg.scale, &seeds, g);
        let report = GpReport {
            generations: r.generations,
            evaluations: r.evaluations,
            stop: r.stop,
            elapsed: r.elapsed,
            candidates: r.candidates.len(),
            best: r.best.as_ref().map(|b| infix(&restore(&b.expr(), &kept))),
        };
        candidates.extend(r.candidates);
        report
    });
    // One-hinge models searched exhaustively: caps and floors (MARS's greedy passes can miss
    // them). After the GP: they compete in the selection without changing the GP's seeds (MARS's
    // hinges seed it already).
    if options.mars.is_some() {
        candidates.extend(clamp::clamps(&work.columns, y, reg.scale, &code_constants));
    }
    // The constant is the points' median, as when no dependency is found. A constant fitted to
    // relative errors leans towards the smallest values (missing a 0.02 ms point by 0.14 ms is a
    // relative error of 7, missing a 0.16 ms point by 0.14 ms one of 0.9): on a write of
    // 0.02-0.2 ms it answered 0.04 ms where half the writes take over 0.15 ms.
    candidates.retain(|c| !c.expr.variables().is_empty());
    candidates.push(constant_candidate(&work, &scales, stats::median(y)));
    // More constants than the points support: not candidates at all (they would also set the
    // selection's noise level by interpolating a handful of points).
    let over_complex = candidates
        .iter()
        .filter(|c| !evidence::admissible(c, work.len(), ev.runs))
        .count();

    candidates.retain(|c| evidence::admissible(c, work.len(), ev.runs));
    // Nor are forms that turn far negative inside the box of positive measurements (the constant,
    // the points' median, always stays).
    candidates.retain(|c| !evidence::edges::far_below_zero(&c.expr, &work));
    if over_complex > 0 && ev.max_params + 1 < work.len() {
        let runs = if ev.runs < work.len() {
            format!(" from {} runs", ev.runs)
        } else {
            String::new()
        };
        ev.notes.push(format!(
            "{} distinct points{runs}: at most {} coefficients (an exact law at most {})",
            work.len(),
            ev.max_params,
            work.len() - 1
        ));
    }
    let blocks = points.blocks();
    let share = (ev.runs.min(work.len()) as f64 / work.len().max(1) as f64).max(f64::MIN_POSITIVE);
    let sel = criterion::select_with_share(&candidates, share).ok_or(FitError::NoModel)?;
    let setting = evidence::HeldOutSetting {
        scales: &scales,
        sigma: sel.sigma,
        seed,
        dependency: ev.dependency(),
        point_noise: ev.point_noise(),
        blocks: &blocks,
        noise: ev.noise.map(|s| (s, ev.noise_df)),
        counts,
    };
    let choice = evidence::choose(&work, &candidates, &sel.scores, &setting);
    let fitness: Vec<f64> = candidates
        .iter()
        .map(|c| options.fitness.fitness(&c.expr, rms(&c.residuals)))
        .collect();
    let best = match options.selection {
        Selection::InformationCriterion => choice.as_ref().map_or(sel.best, |c| c.index),
        Selection::Fitness => (0..candidates.len())
            .min_by(|a, b| stats::cmp_f64(&fitness[*a], &fitness[*b]))
            .unwrap_or(sel.best),
    };
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|a, b| stats::cmp_f64(&sel.scores[*a], &sel.scores[*b]));
    let scored = order
        .iter()
        .map(|i| Scored {
            infix: infix(&restore(&candidates[*i].expr, &kept)),
            source: candidates[*i].source,
            score: sel.scores[*i],
            fitness: fitness[*i],
        })
        .collect();
    let c = &candidates[best];
    let constant = c.expr.variables().is_empty();
    let choice = choice.filter(|ch| ch.index == best);
    if let Some(note) = choice.as_ref().and_then(|c| c.note.clone()) {
        ev.notes.push(note);
    }
    evidence::judge(
        &mut ev,
        choice.as_ref(),
        work.k(),
        constant,
        evidence::is_exact(c),
        criterion::lts_scale(&c.residuals, c.params),
    );
    ev.params = c.params;
    // The form and its evidence are the robust fit's; the level is the means' where they depart
    // from it (a simulator adds means, [`level`]). Only for times: counts keep their integer
    // forms, and a passed value is fitted to its means already (`beagle_analysis::means`).
    let found = (target == Target::Time).then(|| level::law(&c.expr, &work, &points, &scales, relative));
    let (levelled, work) = match found {
        Some(Ok(l)) => {
            ev.notes.push(level::note(&l.level, constant));
            ev.level = Some(l.level);
            (l.expr, l.work)
        }
        Some(Err(Some(kept))) => {
            note_kept_level(&mut ev, kept, constant);
            (c.expr.clone(), work)
        }
        _ => (c.expr.clone(), work),
    };
    // A heavy tail (the means above the medians by a share of slow calls): the robust law with
    // the distribution of the observations about it, whose mean sets the level ([`tail`]).
    let from_means = ev.level.as_ref().is_some_and(|l| l.from_means);
    let mut tail = None;
    let levelled = if from_means && !constant {
        let robust = eval(&c.expr, &reduced.columns, reduced.len());
        let observed = if reduced.means.len() == reduced.len() {
            &reduced.means
        } else {
            &reduced.y
        };
        match tail::tail(&robust, observed) {
            Some(t) => {
                // Its note says how the level was set, in place of the refit's.
                ev.notes.pop();
                ev.notes.push(t.note());
                let law = t.law(&c.expr);
                tail = Some(t);
                law
            }
            None => levelled,
        }
    } else {
        levelled
    };
    // The errors of the points the law now stands on (the means where the level was set from
    // them): a heavy tail's means are 1.4 times the medians, and scales of the medians made
    // every mean a residual of 40 %, the intervals wide and the slope rounded from 1.4E-6 to 1E-6.
    let scales = criterion::row_scales(&work.y, reg.scale);
    // In printed form first: a level set by a factor (`1.04 * (a·x + b)`) has a coefficient too
    // many, whose intervals are unbounded, and nothing would be rounded.
    let rounded = canonical(
        &evidence::intervals::round_to_evidence(&canonical(&levelled, &work), &work, &scales),
        &work,
    );
    if !evidence::is_exact(c) {
        let reasons = evidence::shape_reasons(&rounded, &work);
        if !reasons.is_empty() {
            ev.reasons.extend(reasons);
            ev.wants.push(evidence::Want::Points);
            ev.wants.sort();
            ev.wants.dedup();
            ev.is_final = false;
        }
        let holes = evidence::coverage_reasons(&rounded, &work);
        if !holes.is_empty() {
            ev.reasons.extend(holes);
            ev.holes = evidence::coverage_holes(&rounded, &work);
            ev.is_final = false;
        }
    }
    ev.intervals = evidence::intervals::intervals(&rounded, &work, &scales);
    let expr = restore(&rounded, &kept);
    let mut r = result(
        data,
        expr,
        c.source,
        sel.sigma,
        sel.scores[best],
        fitness[best],
        scored,
        gp,
        ev,
    );
    r.tail = tail;
    Ok(r)
}

/// `e` in the form it is printed in, when that evaluates the same on the data: like terms of its
/// sums collected (`x + 20 - 4` is `x + 16`, `3*(x1 - 6) + 12` is `3*x1 - 6`; unless that makes
/// it longer), and caps and floors written as such (`-0.001*if(x1 < 40000, 40000 - x1, 0) + 45`
/// is `0.001*min(x1, 40000) + 5`, [`simplify::caps`]); else `e`.
fn canonical(e: &Expr, work: &Dataset) -> Expr {
    let a = eval(e, &work.columns, work.len());
    let same = |c: &Expr| {
        let b = eval(c, &work.columns, work.len());
        a.iter()
            .zip(&b)
            .all(|(x, y)| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1e-300) || (x.is_nan() && y.is_nan()))
    };
    let mut out = e.clone();
    let collected = simplify::mean(std::slice::from_ref(e));
    if collected.size() <= e.size() && same(&collected) {
        out = collected;
    }
    let capped = simplify::caps::caps(&out);
    if capped != out && same(&capped) {
        out = capped;
    }
    out
}

/// `e` over the columns of the full dataset (equivalent inputs were dropped before fitting).
fn restore(e: &Expr, kept: &[usize]) -> Expr {
    evidence::equivalent::restore_columns(e, kept)
}

/// Records a level the means did not move; says so where the gap is visible (beyond the noise
/// floor) but not beyond noise, so that a reader comparing mean and median knows why.
fn note_kept_level(ev: &mut Evidence, kept: level::Level, constant: bool) {
    if (kept.ratio() - 1.0).abs() > evidence::NOISE_FLOOR {
        ev.notes.push(level::note(&kept, constant));
    }
    ev.level = Some(kept);
}

/// `m` rounded to the fewest significant digits within `tolerance` (12 when none is).
fn round_within(m: f64, tolerance: f64) -> f64 {
    (1..=6)
        .map(|digits| numeric::round_significant(m, digits))
        .find(|r| (r - m).abs() <= tolerance)
        // No spread measured: the value as measured, without float residue.
        .unwrap_or_else(|| numeric::round_significant(m, 12))
}

/// A constant candidate of value `v` on `work`.
fn constant_candidate(work: &Dataset, scales: &[f64], v: f64) -> Candidate {
    let f = vec![v; work.len()];
    Candidate {
        expr: Expr::Const(v),
        residuals: criterion::residuals(&work.y, &f, scales),
        params: 1,
        penalty: criterion::ebic_penalty(work.len(), 1, 0, 0),
        source: "constant",
    }
}

/// The answer when the inputs do not vary or do not matter: the median of all observations,
/// rounded to the digits its precision supports, or for a time whose fenced mean departs from it
/// beyond noise, that mean ([`level::constant`]).
#[allow(clippy::too_many_arguments)]
fn constant_answer(
    data: &Dataset,
    work: &Dataset,
    scales: &[f64],
    points: &evidence::Points,
    mut ev: Evidence,
    options: &FitOptions,
    seed: u64,
) -> FitResult {
    let blocks = &points.blocks();
    let m = stats::median(&data.y);
    // The median's standard error, about 1.25 σ/√n; digits below a tenth of it are noise.
    let sigma = ev.noise.unwrap_or(0.0) * if ev.relative { m.abs() } else { 1.0 };
    let v = round_within(m, 0.1 * 1.2533 * sigma / (data.len() as f64).sqrt());
    // The median judges the evidence (held-out points are medians); the mean may be published.
    let c = constant_candidate(work, scales, v);
    let sigma = ev.noise.unwrap_or(0.0).max(criterion::EXACT);
    let setting = evidence::HeldOutSetting {
        scales,
        sigma,
        seed,
        dependency: ev.dependency(),
        point_noise: ev.point_noise(),
        blocks,
        noise: ev.noise.map(|s| (s, ev.noise_df)),
        counts: false,
    };
    let choice = evidence::choose(work, std::slice::from_ref(&c), &[0.0], &setting);
    evidence::judge(
        &mut ev,
        choice.as_ref(),
        work.k(),
        true,
        evidence::is_exact(&c),
        criterion::lts_scale(&c.residuals, 1),
    );
    ev.params = 1;
    let sigma = criterion::lts_scale(&c.residuals, 1);
    let fitness = options.fitness.fitness(&c.expr, rms(&c.residuals));
    let time = options.target.resolve(data) == Target::Time;
    let scale = if ev.relative {
        m.abs()
    } else {
        (data.y.iter().map(|v| v * v).sum::<f64>() / data.len().max(1) as f64).sqrt()
    };
    let published = match time.then(|| level::constant(points, m, scale)) {
        Some(Ok((mean, se, found))) => {
            ev.notes.push(level::note(&found, true));
            ev.level = Some(found);
            // Digits below a tenth of the mean's standard error are noise.
            Expr::Const(round_within(mean, 0.1 * se))
        }
        Some(Err(Some(kept))) => {
            note_kept_level(&mut ev, kept, true);
            c.expr.clone()
        }
        _ => c.expr.clone(),
    };
    let scored = vec![Scored {
        infix: infix(&published),
        source: c.source,
        score: 0.0,
        fitness,
    }];
    result(data, published, c.source, sigma, 0.0, fitness, scored, None, ev)
}

/// Assembles a [`FitResult`] for `expr` (over the columns of `data`).
#[allow(clippy::too_many_arguments)]
fn result(
    data: &Dataset,
    expr: Expr,
    source: &'static str,
    sigma: f64,
    score: f64,
    fitness: f64,
    candidates: Vec<Scored>,
    gp: Option<GpReport>,
    evidence: Evidence,
) -> FitResult {
    let pred = eval(&expr, &data.columns, data.len());
    FitResult {
        infix: infix(&expr),
        stoex: stoex_text(&expr, &data.names),
        source,
        r2: stats::r_squared(&data.y, &pred),
        relative_error: stats::median_relative_error(&data.y, &pred),
        size: expr.size(),
        depth: expr.depth(),
        variables: expr.variables().iter().map(|i| data.names[*i].clone()).collect(),
        sigma,
        score,
        fitness,
        candidates,
        expr,
        gp,
        evidence,
        distribution: None,
        tail: None,
    }
}
