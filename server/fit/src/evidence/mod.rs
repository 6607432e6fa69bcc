//! Evidence: what the measurements can carry, and whether a law predicts.
//!
//! A law is only as good as the evidence behind it. The rules, applied by [`crate::fit`] to every
//! target but branch decisions (which have their own, [`crate::branch::branch_evidence`]):
//!
//! 1. **Equivalent inputs** ([`equivalent`]): inputs identical or proportional to an earlier one
//!    over all measurements are dropped and named.
//! 2. **Points** ([`points`]): what counts is the number of distinct parameter points; the fit
//!    runs on one median per point, repetitions measure the noise.
//! 3. **No dependency in noise** ([`hypothesis::points_differ`]): with repetitions, the answer is
//!    a constant unless the points differ beyond the spread of their repetitions (analysis of
//!    variance of the logarithms, permutation p-value below [`DEPENDENCY_ALPHA`]: at most 1 % of constant laws get a
//!    variable; `benchmarks/trust` measures it).
//! 4. **Complexity bounded by evidence**: at most [`max_params`] fitted constants from `d`
//!    points (`d/2`, at least 1); an exact law (every point reproduced) may have up to `d - 1`.
//!    Where the rows carry their runs, `d` counts the runs' blocks of points ([`points`]), and
//!    the held-out folds leave whole blocks out.
//! 5. **Held-out choice** ([`holdout`]): every admissible candidate is refitted without each
//!    point (or fold of points) and predicts it (loss: Huber's, of the scaled residual at the
//!    selection's noise level: quadratic near the noise, linear beyond, so that a wrong
//!    measurement weighs little and a wild extrapolation still costs what it is off by). The
//!    least complex candidate whose held-out loss is not worse than that of the selection's
//!    choice (robust extended BIC) by more than the evidence allows wins ([`choose`]; with many
//!    points the one-standard-error rule, [`ONE_SE`]): no dependency, and no extra term, hinge
//!    or condition, without a better prediction.
//! 6. **Final means it predicts** ([`Evidence::is_final`]): enough points ([`MIN_POINTS`]), a
//!    held-out scatter (RMS of the held-out residuals without the largest tenth) not significantly larger than
//!    the measured noise (single observations' spread; lack-of-fit F test, [`lack_of_fit_p`]) or
//!    below [`NOISE_FLOOR`] (without repetitions, below it only: an unmeasured noise cannot tell
//!    scatter from a missed effect), and for a law
//!    in some input, held-out losses significantly smaller than the constant's (one-sided
//!    Wilcoxon signed-rank, [`BETTER_THAN_CONSTANT_ALPHA`]). Otherwise the result is
//!    preliminary and [`Evidence::reasons`] says why. For Java measurements a repetition is a
//!    JVM (see `server/job/src/measuring/java.rs`).
//!    A law that is not exact is not final either when its shape is unsupported
//!    ([`shape_reasons`]): its terms cancel, it dips to zero inside the measured range, or its
//!    inputs leave a hole of more than a decade unmeasured ([`coverage`]).
//! 7. **Confidence** ([`intervals`]): 95 % intervals of each coefficient; a band of the
//!    prediction error ([`Evidence::band`]).

pub mod coverage;
pub mod edges;
pub mod equivalent;
pub mod holdout;
pub mod hypothesis;
pub mod intervals;
pub mod level_verdict;
pub mod one_point;
pub mod points;

use crate::criterion::{huber_rho, Candidate};
use crate::dataset::Dataset;
use crate::print::format_number;
pub use equivalent::{drop_equivalent, Equivalence};
pub use intervals::ConstantInterval;
pub use points::Points;

/// Level of the rank test for a dependency on the inputs.
pub const DEPENDENCY_ALPHA: f64 = 0.01;
/// Fewest repetitions beyond the first observation of each point for the dependency test on
/// partly repeated points (only its "no dependency" is taken).
pub const PARTIAL_WITHIN_DF: usize = 5;
/// Level of the test that a law predicts held-out points better than a constant.
pub const BETTER_THAN_CONSTANT_ALPHA: f64 = 0.05;
/// Fewest distinct points for a final result (when the inputs vary).
pub const MIN_POINTS: usize = 3;
/// Held-out errors below this scaled error (1 % for relative errors) are within noise whatever
/// the measured spread (a simulation does not care about less).
pub const NOISE_FLOOR: f64 = 0.01;
/// Largest absolute scaled residual of an exact law (rounding of measured values).
pub const EXACT_RESIDUAL: f64 = 1e-7;
/// Fewest degrees of freedom of a measured noise (repetitions beyond each point's first) for a
/// final result whose held-out scatter exceeds [`NOISE_FLOOR`].
pub const MIN_NOISE_DF: usize = 3;
/// Level of the lack-of-fit test ([`lack_of_fit_p`]).
pub const LACK_OF_FIT_ALPHA: f64 = 0.05;
/// Efficiency of a spread from the median absolute deviation relative to the standard
/// deviation under normal errors: such a spread from `n` values carries about `0.37·n` degrees
/// of freedom.
pub const MAD_EFFICIENCY: f64 = 0.37;
/// Widest 95 % band of a point's relative prediction error for a final result ([`judge`]).
pub const MAX_RELATIVE_BAND: f64 = 1.0;
/// Widest 95 % interval half-width of a final branch probability.
pub const BRANCH_HALF_WIDTH: f64 = 0.05;

/// More evidence a preliminary result asks for, by the reason it is preliminary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Want {
    /// New distinct parameter points: too few to tell a law, a law not (yet) better than a
    /// constant, held-out points that the law misses, points that differ with no law found.
    Points,
    /// Repetitions of measured points (for Java: fresh JVMs): the noise is not measured, so a
    /// miss cannot be told from noise; or too few observations for a constant.
    Repetitions,
    /// More executions of a branch: its probability is not yet known precisely enough.
    Trials,
}

/// Most fitted constants `points` distinct points support (a law that is not exact).
pub fn max_params(points: usize) -> usize {
    (points / 2).max(1)
}

/// What the measurements say about a result (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evidence {
    /// Rows (observations) and distinct parameter points.
    pub rows: usize,
    pub points: usize,
    /// Blocks of points measured in one run each (for Java: launch points; see [`points`]):
    /// what the complexity bound and the held-out folds count. Equal to `points` when the rows
    /// carry no runs.
    pub runs: usize,
    /// `(fewest, median)` repetitions per point.
    pub repetitions: (usize, usize),
    /// Most constants the evidence supports for a law that is not exact ([`max_params`]).
    pub max_params: usize,
    /// Fitted constants of the answer.
    pub params: usize,
    /// p-value of the rank test for a dependency on the inputs (`None`: no repetitions).
    pub dependency_p: Option<f64>,
    /// Inputs dropped as equivalent to another.
    pub equivalent: Vec<Equivalence>,
    /// Whether errors are relative to the value (else to the RMS of the values).
    pub relative: bool,
    /// The noise of one observation, from the repetitions (scaled error).
    pub noise: Option<f64>,
    /// Degrees of freedom behind [`Evidence::noise`] (`Σ (repetitions − 1)`).
    pub noise_df: usize,
    /// RMS of the answer's held-out scaled errors at the points.
    pub holdout_error: Option<f64>,
    /// The same for the best constant.
    pub constant_holdout_error: Option<f64>,
    /// p-value of "the answer predicts held-out points better than a constant".
    pub better_than_constant_p: Option<f64>,
    /// Half-width of the 95 % band of a point's prediction error (scaled error).
    pub band: Option<f64>,
    /// 95 % intervals of the answer's coefficients, in the expression's order.
    pub intervals: Vec<ConstantInterval>,
    pub is_final: bool,
    /// Why the result is preliminary (empty when final).
    pub reasons: Vec<String>,
    /// What would settle the reasons: the measurements to ask for (empty when final).
    pub wants: Vec<Want>,
    /// The holes of more than a decade in the law's inputs ([`coverage_reasons`]): a measurement
    /// tool that can map them to its own parameters measures there.
    pub holes: Vec<InputHole>,
    /// What else the user should know (equivalent inputs, the complexity bound, no dependency,
    /// the level).
    pub notes: Vec<String>,
    /// What the points' means said about the published level ([`crate::level`]); `None` where
    /// the points carry no means apart from their medians (one observation each) or the target is
    /// no time.
    pub level: Option<level_verdict::Level>,
    /// What the measurements say when they are one distinct point ([`one_point`]): the inputs'
    /// one value, and whether the runs differ.
    pub one_point: Option<one_point::OnePoint>,
}

impl Evidence {
    /// A scaled error as text: `4.2 %` for relative errors, else `0.042 (of the RMS value)`.
    pub fn error_text(&self, e: f64) -> String {
        if self.relative {
            format!("{} %", format_number(crate::numeric::round_significant(100.0 * e, 2)))
        } else {
            format!(
                "{} of the RMS value",
                format_number(crate::numeric::round_significant(e, 2))
            )
        }
    }

    /// One line: `final` or `preliminary: reason; reason`.
    pub fn status_text(&self) -> String {
        if self.is_final {
            "final".to_string()
        } else {
            format!("preliminary: {}", self.reasons.join("; "))
        }
    }
}

/// The evidence before any fitting: equivalents, points, noise, the dependency test.
pub(crate) fn gather(
    data: &Dataset,
    equivalent: Vec<Equivalence>,
    points: &Points,
    relative: bool,
    scale: crate::criterion::ErrorScale,
    seed: u64,
) -> Evidence {
    let groups = points.groups();
    // Points only partly repeated (Java: a few replicated JVMs among many points) still show
    // when nothing depends on the inputs; a dependency they suggest is left to the held-out
    // checks, as without repetitions (their noise is measured from a few pairs only).
    //
    // But not when the points spread far beyond the repetitions: with mostly single observations,
    // the permutations pair up values of neighbouring points, which agree as closely as
    // repetitions do, and the test loses its power. Compress's 13 points, 0.07 to 3.5 ms with
    // 5 repeated at 4 % spread, got p = 0.015 and came out a constant.
    let dependency_p = hypothesis::points_differ(&groups, seed).or_else(|| {
        hypothesis::points_differ_with(&groups, seed, PARTIAL_WITHIN_DF)
            .filter(|p| *p >= DEPENDENCY_ALPHA)
            .filter(|_| !points_spread_beyond_noise(points, scale) && !points_trend(points))
    });
    let mut notes = Vec::new();
    for e in &equivalent {
        let how = if e.factor == 1.0 {
            "always equals".to_string()
        } else {
            format!("is always {} times", format_number(e.factor))
        };
        notes.push(format!("{} {how} {}: the law uses {}", e.dropped, e.kept, e.kept));
    }
    let d = points.len();
    let runs = points.block_count();
    Evidence {
        rows: data.len(),
        points: d,
        runs,
        repetitions: points.repetitions(),
        max_params: max_params(runs.min(d)),
        dependency_p,
        equivalent,
        relative,
        noise: points.noise(scale),
        noise_df: points.noise_df(),
        ..Evidence::default()
    }
    .with_notes(notes)
}

/// How far beyond one observation's noise the points' medians may scatter about their median and
/// still pass for repetitions of one value (robust standard deviations, relative for positive
/// values): medians of single observations scatter by the noise itself, and a noise measured
/// from five pairs is itself off by half now and then. 3 let a 50-fold range through when five
/// pairs happened to measure 17 % for a 10 % noise; 2 keeps 19 of 20 noise-only runs constant
/// (`fit/tests/evidence.rs`).
const NOISE_SCATTER_FACTOR: f64 = 2.0;

/// Whether the points' medians scatter about their median by more than [`NOISE_SCATTER_FACTOR`]
/// times the noise of one observation (at least 1 %), measured alike.
fn points_spread_beyond_noise(points: &Points, scale: crate::criterion::ErrorScale) -> bool {
    let Some(noise) = points.noise(scale) else {
        return false;
    };
    let medians: Vec<f64> = points.points.iter().map(|p| p.median).collect();
    let all: Vec<f64> = points.points.iter().flat_map(|p| p.values.iter().copied()).collect();
    let relative = crate::criterion::is_relative(&all, scale);
    let centre = crate::stats::median(&medians);
    let rms = (all.iter().map(|v| v * v).sum::<f64>() / all.len().max(1) as f64).sqrt();
    let unit = if relative { centre.abs() } else { rms };
    if unit == 0.0 || !unit.is_finite() {
        return false;
    }
    let deviations: Vec<f64> = medians.iter().map(|m| (m - centre).abs() / unit).collect();
    let scatter = 1.4826 * crate::stats::median(&deviations);
    scatter > NOISE_SCATTER_FACTOR * noise.max(0.01)
}

/// Whether the points' medians follow a monotone trend in some input (Spearman, two-sided,
/// Bonferroni over the inputs, [`DEPENDENCY_ALPHA`]). Hash under the load of another process:
/// 199 points, 0.02 to 0.34 ms over 1 to 400 KB, 35 repeated, some pairs three-fold apart
/// (a time slice lost to the other process); most sizes sit near 80 KB, so the medians'
/// scatter stayed within twice the repetitions' 16 %, the test of differences gave p = 0.0115,
/// and the answer was a constant with a band of ±260 %.
fn points_trend(points: &Points) -> bool {
    let medians: Vec<f64> = points.points.iter().map(|p| p.median).collect();
    let k = points.points.first().map_or(0, |p| p.inputs.len());
    (0..k).any(|j| {
        let x: Vec<f64> = points.points.iter().map(|p| p.inputs[j]).collect();
        hypothesis::trend_p(&x, &medians).is_some_and(|p| p * (k as f64) < DEPENDENCY_ALPHA)
    })
}

impl Evidence {
    fn with_notes(mut self, notes: Vec<String>) -> Self {
        self.notes.extend(notes);
        self
    }

    /// Whether the rank test found no dependency (so the answer is a constant).
    pub fn no_dependency(&self) -> bool {
        self.dependency_p.is_some_and(|p| p >= DEPENDENCY_ALPHA)
    }
}

/// A candidate's held-out assessment.
#[derive(Clone, Debug)]
struct HeldOut {
    index: usize,
    /// Per block (what the comparisons and tests count).
    residuals: Vec<f64>,
    /// Per point (what a point's prediction error is, for the band).
    point_residuals: Vec<f64>,
    losses: Vec<f64>,
}

use crate::rms;
use crate::stats::{mean, stddev};

/// Whether a candidate has no more fitted constants than `points` distinct points in `runs`
/// runs support ([`max_params`] of the runs; an exact law up to `points - 1`).
pub fn admissible(c: &Candidate, points: usize, runs: usize) -> bool {
    if is_exact(c) {
        c.params < points || c.params <= 1
    } else {
        // A condition inside a condition (`x > a ? x : (x > b ? 1.02·x : 0.74·x)`) is what a
        // search finds in noise, and no one reads it: a law that is not exact has none.
        c.params <= max_params(runs.min(points)) && !c.expr.nested_conditionals()
    }
}

/// Whether a candidate reproduces every point.
pub fn is_exact(c: &Candidate) -> bool {
    c.residuals.iter().all(|r| r.abs() <= EXACT_RESIDUAL)
}

/// How [`choose`] compares held-out predictions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeldOutSetting<'a> {
    /// The residual scale of each point.
    pub scales: &'a [f64],
    /// The selection's noise level.
    pub sigma: f64,
    pub seed: u64,
    pub dependency: Dependency,
    /// The noise of a point's median, when repetitions measure it.
    pub point_noise: Option<f64>,
    /// The block (run) of each point ([`Points::blocks`]).
    pub blocks: &'a [usize],
    /// The measured noise of one observation and its degrees of freedom (repetitions).
    pub noise: Option<(f64, usize)>,
    /// Counts or passed values with integer observations: a form that explains them as counts
    /// ([`crate::integer::explains_counts`]) is not replaced by a plain law within the noise.
    pub counts: bool,
}

/// What [`choose`] decided.
#[derive(Clone, Debug)]
pub(crate) struct Choice {
    pub index: usize,
    /// Held-out scaled residuals of the chosen candidate (per block: per point when the rows
    /// carry no runs).
    pub residuals: Vec<f64>,
    /// The same per point (equal to the above when every point is a block of its own): a point's
    /// prediction error, which the held-out error and the band describe.
    pub point_residuals: Vec<f64>,
    pub constant_point_residuals: Vec<f64>,
    pub losses: Vec<f64>,
    pub constant_losses: Vec<f64>,
    /// Why the answer is as complex as it is, when it is unusually so.
    pub note: Option<String>,
}

/// How many standard errors of the paired held-out loss differences a simpler candidate may be
/// worse by and still be preferred, up to [`holdout::LEAVE_ONE_OUT_UP_TO`] points. With more
/// points the information criterion is reliable (and consistent), and a simpler candidate must
/// predict the held-out points at least as well.
pub const PARSIMONY_SE: f64 = 0.5;
/// Many points (k folds): a candidate with fewer conditionals (hinges, steps) or a form closer
/// to plain inputs than the reference's may be worse by this many standard errors of the paired
/// held-out loss differences and still be preferred (after the one-standard-error rule of
/// Breiman et al., CART, 1984, and Hastie et al., ESL 7.10, at half its width: a full standard
/// error drops offsets that the public perf problems have). Hinges, conditions and functions are
/// what a search overfits with; they must earn their place by a clear held-out improvement.
pub const ONE_SE: f64 = 0.5;
/// What the rank test said about a dependency on the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dependency {
    /// The points differ beyond their repetitions' spread.
    Shown,
    /// No test: too few repetitions (a law must then beat the constant on held-out points).
    Untested,
    /// No dependency shown (the answer is a constant).
    None,
}

impl Evidence {
    /// The noise of a point's median (about `1.25·σ/√repetitions`), when the repetitions measure
    /// it.
    pub fn point_noise(&self) -> Option<f64> {
        self.noise
            .map(|s| 1.2533 * s / (self.repetitions.1.max(1) as f64).sqrt())
    }

    /// The rank test's verdict ([`DEPENDENCY_ALPHA`]).
    pub fn dependency(&self) -> Dependency {
        match self.dependency_p {
            None => Dependency::Untested,
            Some(p) if p < DEPENDENCY_ALPHA => Dependency::Shown,
            Some(_) => Dependency::None,
        }
    }
}

/// How much a simpler candidate's held-out chi-square may exceed the reference's (the price of
/// one constant in the information criteria).
pub const HELD_OUT_CHI2: f64 = 4.0;
/// Most candidates whose held-out error is computed.
pub const HELD_OUT_LIMIT: usize = 48;

/// How far a form is from a sum of scaled inputs: its functions (`sqrt`, `log`, ...), powers
/// and quotients of inputs, products of inputs, and conditionals. Among forms that predict as
/// well, the one closest to plain inputs is preferred: five points cannot tell `a·x + b` from
/// `c·√x + d`, and the line is what a performance engineer would write.
pub fn form_rank(e: &crate::expr::Expr) -> usize {
    use crate::expr::{BinaryOp, Expr, UnaryOp};
    let varies = |e: &Expr| !e.variables().is_empty();
    match e {
        Expr::Const(_) | Expr::Var(_) => 0,
        Expr::Unary(UnaryOp::Neg, a) => form_rank(a),
        Expr::Unary(_, a) => 1 + form_rank(a),
        Expr::Binary(op, a, b) => {
            let own = match op {
                BinaryOp::Add | BinaryOp::Sub => 0,
                BinaryOp::Mul => usize::from(varies(a) && varies(b)),
                BinaryOp::Div | BinaryOp::Pow => usize::from(varies(b) || (*op == BinaryOp::Pow && varies(a))),
            };
            own + form_rank(a) + form_rank(b)
        }
        Expr::If(_, a, b) => 1 + form_rank(a) + form_rank(b),
    }
}

/// Candidates, best by the selection's score, whose held-out loss is compared.
pub const HELD_OUT_POOL: usize = 12;

/// Chooses among `candidates` (fitted to `work`, one row per point) with held-out points (see
/// the module documentation). `scores`: the selection's scores.
///
/// The selection's best admissible candidate `B` is the reference. Held-out points can only
/// make the answer simpler: among the best [`HELD_OUT_POOL`] admissible candidates, the simpler
/// ones and the constant, those that predict the held-out points as well as `B` (see the module
/// documentation) are equivalent predictors, and the simplest of them wins. Held-out losses
/// never promote a more complex form: a form found by searching thousands of candidates on all points has seen
/// the held-out point, and its refitted constants still remember it, so its held-out loss is
/// optimistic; for a simpler answer that bias is on the safe side.
pub(crate) fn choose(
    work: &Dataset,
    candidates: &[Candidate],
    scores: &[f64],
    setting: &HeldOutSetting,
) -> Option<Choice> {
    let HeldOutSetting {
        scales,
        sigma,
        seed,
        dependency,
        point_noise,
        blocks,
        noise,
        counts,
    } = *setting;
    // Blocks, not points, are the evidence the rules below count (see [`points`]).
    let d = blocks.iter().max().map_or(0, |b| b + 1);
    let admissible = |c: &Candidate| admissible(c, work.len(), d);
    let mut pool: Vec<usize> = (0..candidates.len()).filter(|i| admissible(&candidates[*i])).collect();
    pool.sort_by(|a, b| scores[*a].total_cmp(&scores[*b]).then(a.cmp(b)));
    let constant = pool
        .iter()
        .copied()
        .filter(|i| candidates[*i].expr.variables().is_empty())
        .min_by(|a, b| scores[*a].total_cmp(&scores[*b]))?;
    // The best by score, and every simpler one (up to a bound) as an alternative to them.
    let reference_params = pool.first().map(|i| candidates[*i].params)?;
    let mut kept: Vec<usize> = Vec::new();
    for (rank, i) in pool.iter().enumerate() {
        let simpler = candidates[*i].params < reference_params
            || form_rank(&candidates[*i].expr) < form_rank(&candidates[pool[0]].expr);
        if rank < HELD_OUT_POOL || (simpler && kept.len() < HELD_OUT_LIMIT) || *i == constant {
            kept.push(*i);
        }
    }
    let pool = kept;
    let folds = holdout::folds_of_blocks(blocks, seed);
    // Points whose held-out prediction interpolates (inside the other points' range of every
    // input). A point at the end of an input's range is predicted by extrapolation, which a
    // design with one far point (sizes 16, 20, 651, 1427, 563395) turns into a lottery; with few
    // points the comparison uses the interpolated ones when there are at least two. (With many,
    // the ends are where an offset or a curvature shows: they stay.)
    let n = work.len();
    let interior: Vec<bool> = (0..n)
        .map(|r| {
            work.columns.iter().all(|c| {
                let others = (0..n).filter(|o| folds.of_point[*o] != folds.of_point[r]).map(|o| c[o]);
                let (lo, hi) = others.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
                c[r] >= lo && c[r] <= hi
            })
        })
        .collect();
    let few = point_noise.is_some() && d <= holdout::LEAVE_ONE_OUT_UP_TO && dependency != Dependency::Untested;
    // From here on the unit is the block (the run; a point when the rows carry no runs): a
    // block's held-out residual is the mean of its points', and every comparison, test and the
    // band count blocks. The 40 files of one upload share the run's context: counted as 40
    // independent residuals they would make any difference between forms "significant".
    let to_blocks = |r: &[f64]| -> Vec<f64> {
        let mut sum = vec![0.0; d];
        let mut count = vec![0usize; d];
        for (v, b) in r.iter().zip(blocks) {
            sum[*b] += v;
            count[*b] += 1;
        }
        sum.iter().zip(&count).map(|(s, c)| s / (*c).max(1) as f64).collect()
    };
    let mut interior_blocks = vec![true; d];
    for (inside, b) in interior.iter().zip(blocks) {
        interior_blocks[*b] &= *inside;
    }
    let compared: Vec<bool> = if few && interior_blocks.iter().filter(|i| **i).count() >= 2 {
        interior_blocks
    } else {
        vec![true; d]
    };
    let pick = |v: &[f64]| -> Vec<f64> { v.iter().zip(&compared).filter(|(_, c)| **c).map(|(v, _)| *v).collect() };
    let predicted: Vec<(usize, Vec<f64>, Vec<f64>)> = pool
        .iter()
        .filter_map(|i| {
            let p = holdout::held_out(&candidates[*i].expr, work, scales, sigma, &folds)?;
            let r = holdout::residuals(work, &p, scales);
            Some((*i, to_blocks(&r), r))
        })
        .collect();
    // The loss scale: the selection's noise level, but never below the robust scale of the best
    // predictor's held-out residuals: on a handful of points some candidate interpolates them,
    // the noise level collapses, and every held-out residual would saturate the loss alike.
    let scale = predicted
        .iter()
        .map(|(_, r, _)| robust_spread(r))
        .fold(f64::INFINITY, f64::min)
        .max(sigma);
    let assessed: Vec<HeldOut> = predicted
        .into_iter()
        .map(|(index, residuals, point_residuals)| HeldOut {
            index,
            losses: residuals.iter().map(|r| 2.0 * huber_rho(r / scale)).collect(),
            residuals,
            point_residuals,
        })
        .collect();
    let constant = assessed.iter().find(|h| h.index == constant)?.clone();
    // The reference: the best by the selection's score.
    let reference = assessed
        .iter()
        .min_by(|a, b| scores[a.index].total_cmp(&scores[b.index]))?;
    let tolerance = if d <= holdout::LEAVE_ONE_OUT_UP_TO {
        PARSIMONY_SE
    } else {
        ONE_SE
    };
    let few_points_noise = point_noise.filter(|_| few);
    let not_worse = |h: &HeldOut| {
        // A dependency the rank test has shown is not undone by a constant that merely predicts
        // about as well: the constant must predict at least as well.
        let strict = h.index == constant.index && dependency == Dependency::Shown;
        // Few points (each its own fold) with well-measured noise: the noise of a point's
        // median says what "as well" means. Many points: the paired losses do (a misfit of a
        // few points is then significant long before it shows in an average).
        match few_points_noise {
            // Measured noise: worse by no more than the noise of a point's median explains.
            // The held-out chi-square (squared residuals in units of that noise) may grow by at
            // most [`HELD_OUT_CHI2`].
            Some(noise) => {
                let allowance = if strict { 0.0 } else { HELD_OUT_CHI2 };
                let chi2 = |r: &[f64]| pick(r).iter().map(|v| (v / noise.max(1e-12)).powi(2)).sum::<f64>();
                chi2(&h.residuals) <= chi2(&reference.residuals) + allowance + 1e-9
            }
            // Else: within a share of the standard error of the paired loss differences.
            None => {
                // Many points: the benefit of the doubt (ONE_SE) only for dropping what
                // searching overfits with, conditionals and functions of the inputs; an offset or
                // a plain term stays if it predicts better at all.
                let plainer = |a: &Candidate, b: &Candidate| {
                    a.expr.conditionals() < b.expr.conditionals() || form_rank(&a.expr) < form_rank(&b.expr)
                };
                let earned =
                    d <= holdout::LEAVE_ONE_OUT_UP_TO || plainer(&candidates[h.index], &candidates[reference.index]);
                let tolerance = if strict || !earned { 0.0 } else { tolerance };
                let diff: Vec<f64> = pick(&h.losses)
                    .iter()
                    .zip(&pick(&reference.losses))
                    .map(|(a, b)| a - b)
                    .collect();
                mean(&diff) <= tolerance * stddev(&diff) / (diff.len() as f64).sqrt() + 1e-12
            }
        }
    };
    // A dependency the rank test has shown is not undone by the held-out points (they may all be
    // extrapolations): the constant then only answers when no law could be assessed.
    let contenders = |h: &&HeldOut| {
        let constant_form = candidates[h.index].expr.variables().is_empty();
        let laws = assessed
            .iter()
            .any(|a| !candidates[a.index].expr.variables().is_empty());
        not_worse(h) && !(dependency == Dependency::Shown && constant_form && laws)
    };
    let mut chosen = assessed.iter().filter(contenders).min_by(|a, b| {
        let (ca, cb) = (&candidates[a.index], &candidates[b.index]);
        // Few points: the form closest to plain inputs, then the fewest constants. Many points:
        // the fewest conditionals (hinges, steps), then the least penalised (constants, search,
        // nodes), then the form closest to plain inputs.
        let simplicity = if few_points_noise.is_some() {
            form_rank(&ca.expr)
                .cmp(&form_rank(&cb.expr))
                .then(ca.params.cmp(&cb.params))
        } else {
            ca.expr
                .conditionals()
                .cmp(&cb.expr.conditionals())
                .then(ca.penalty.total_cmp(&cb.penalty))
                .then(form_rank(&ca.expr).cmp(&form_rank(&cb.expr)))
        };
        simplicity.then(scores[a.index].total_cmp(&scores[b.index]))
    })?;
    // Without repetitions no rank test has shown a dependency: a law must then predict the
    // held-out points significantly better than the constant (an exact law does).
    if dependency == Dependency::Untested
        && chosen.index != constant.index
        && !is_exact(&candidates[chosen.index])
        && gain_p(&constant.losses, &chosen.losses).is_none_or(|p| p >= BETTER_THAN_CONSTANT_ALPHA)
    {
        chosen = &constant;
    }
    // More than [`PLAIN_CONDITIONALS`] hinges or conditions only when the held-out points show
    // they are needed: the chosen answer must predict them significantly better than the best
    // answer with fewer (one-sided Wilcoxon on the paired losses, [`CONDITIONALS_ALPHA`]).
    let mut note = None;
    let conditionals = candidates[chosen.index].expr.conditionals();
    if conditionals > PLAIN_CONDITIONALS {
        let plain = assessed
            .iter()
            .filter(|h| candidates[h.index].expr.conditionals() <= PLAIN_CONDITIONALS)
            .filter(|h| !(dependency == Dependency::Shown && h.index == constant.index))
            .min_by(|a, b| mean(&a.losses).total_cmp(&mean(&b.losses)).then(a.index.cmp(&b.index)));
        if let Some(plain) = plain {
            // Needed: significantly and materially better (with hundreds of points, a
            // significant gain can be a sliver that no simulation would notice).
            let (spread, plain_spread) = (trimmed_rms(&chosen.residuals), trimmed_rms(&plain.residuals));
            let material = spread <= MATERIAL_GAIN * plain_spread;
            match gain_p(&plain.losses, &chosen.losses) {
                Some(p) if p < CONDITIONALS_ALPHA && material => {
                    note = Some(format!(
                        "{conditionals} conditions or hinges: the held-out points show they are needed (scatter {:.2} of that of the best with at most {PLAIN_CONDITIONALS}, {})",
                        spread / plain_spread.max(f64::MIN_POSITIVE),
                        p_text(p)
                    ));
                }
                _ => chosen = plain,
            }
        }
    }
    // A form beyond plain inputs (a function, a product, a condition) only when it predicts
    // materially better than the best plain law: hundreds of points make a
    // sliver of curvature significant (hash: `6.4E-7·x + 0.0006·ln x` above a threshold, a cubic
    // below, for a scatter of 2.9 % against the line's 3.2 %), and no simulation notices it.
    // Nor an integer form that explains integer counts (most exactly, the rest within one): the
    // count is what the code says, and a line within 1 % of `ceil(x1/64)` is not the loop.
    let count_form = counts && crate::integer::explains_counts(&candidates[chosen.index], &work.y, scales);
    if note.is_none() && !count_form && form_rank(&candidates[chosen.index].expr) > 0 {
        let plain = assessed
            .iter()
            .filter(|h| form_rank(&candidates[h.index].expr) == 0)
            .filter(|h| !candidates[h.index].expr.variables().is_empty() || dependency != Dependency::Shown)
            .min_by(|a, b| mean(&a.losses).total_cmp(&mean(&b.losses)).then(a.index.cmp(&b.index)));
        if let Some(plain) = plain {
            // Nor when the plain law already predicts within the measured noise (its lack of fit
            // is not significant): compress's cost per byte grows by a tenth over 1-400 KB on
            // this machine (caches), a quadratic term captures it, and the line still predicts
            // every fresh size within the 5 % between JVMs. A plain law is what the code says.
            // (Within the noise: below the floor, or at most the noise itself and not
            // significantly above it. A noise from a few repetitions is uncertain, and "not
            // significant" alone would then let a line stand for a cubic missing by 100 %.)
            let within_noise = noise.is_some_and(|(s, df)| {
                let scatter = trimmed_rms(&plain.point_residuals);
                scatter <= NOISE_FLOOR
                    || (df >= MIN_NOISE_DF
                        && scatter <= s
                        && lack_of_fit_p(scatter, plain.residuals.len(), s, df) >= LACK_OF_FIT_ALPHA)
            });
            // Nor when its gain is not significant (one-sided Wilcoxon on the paired held-out
            // losses, as for conditions): on a dozen runs under load one far point decides a
            // scatter, and a CI run got `2E-17·x³ + 1.1E-5·x + 0.03·ln x - 0.01` for compress
            // (a cubic for the top run, a logarithm for the bottom one) where the line predicted
            // the other runs as well.
            let significant = gain_p(&plain.losses, &chosen.losses).is_some_and(|p| p < CONDITIONALS_ALPHA);
            let material = trimmed_rms(&chosen.residuals) <= MATERIAL_GAIN * trimmed_rms(&plain.residuals);
            if within_noise || !material || !significant {
                chosen = plain;
            }
        }
    }
    Some(Choice {
        index: chosen.index,
        residuals: chosen.residuals.clone(),
        point_residuals: chosen.point_residuals.clone(),
        constant_point_residuals: constant.point_residuals.clone(),
        losses: chosen.losses.clone(),
        constant_losses: constant.losses.clone(),
        note,
    })
}

/// The p-value that held-out losses `better` are smaller than the paired `worse` (one-sided
/// Wilcoxon signed-rank on the differences): how every gate here asks whether an answer predicts
/// significantly better than another. `None` when they never differ.
fn gain_p(worse: &[f64], better: &[f64]) -> Option<f64> {
    let diff: Vec<f64> = worse.iter().zip(better).map(|(a, b)| a - b).collect();
    hypothesis::wilcoxon_greater(&diff)
}

/// Most conditions or hinges an answer has without showing, on held-out points, that it needs
/// more.
pub const PLAIN_CONDITIONALS: usize = 2;
/// Level of that test.
pub const CONDITIONALS_ALPHA: f64 = 0.01;
/// And the held-out scatter must shrink to at most this share of the simpler answer's.
pub const MATERIAL_GAIN: f64 = 0.8;

/// Fills in the held-out figures and the verdict for the chosen answer. `in_sample`: the
/// answer's own noise level (when the repetitions do not measure it); `k`: the inputs the fit
/// saw; `constant`: whether the answer uses no input; `exact`: whether it reproduces every point.
pub(crate) fn judge(ev: &mut Evidence, choice: Option<&Choice>, k: usize, constant: bool, exact: bool, in_sample: f64) {
    if let Some(c) = choice {
        // A point's prediction error (held out with its run): what the band promises for a
        // fresh measurement.
        let e = rms(&c.point_residuals);
        ev.holdout_error = Some(e);
        ev.constant_holdout_error = Some(rms(&c.constant_point_residuals));
        let point_noise = ev.point_noise().unwrap_or(0.0);
        // The RMS comes from `runs` independent pieces of evidence (the points of one run
        // share its context): the band is a tolerance interval over them.
        let independent = ev.runs.min(c.point_residuals.len());
        let factor = hypothesis::tolerance_factor(independent);
        ev.band = factor.is_finite().then(|| (factor * e).max(2.0 * point_noise));
        if !constant {
            ev.better_than_constant_p = gain_p(&c.constant_losses, &c.losses).or(Some(1.0));
        }
    }
    let mut reasons = Vec::new();
    let mut wants = Vec::new();
    // One point with inputs: none varied, which the reason names (the inputs and their value).
    let fixed = ev
        .one_point
        .as_ref()
        .filter(|o| k > 0 && !o.inputs.is_empty() && ev.points == 1);
    if let Some(one) = fixed {
        reasons.push(one_point::fixed_reason(one));
        wants.push(Want::Points);
    } else if k > 0 && ev.points < MIN_POINTS {
        reasons.push(format!(
            "{} distinct parameter point{}: at least {MIN_POINTS} are needed to tell a law",
            ev.points,
            if ev.points == 1 { "" } else { "s" }
        ));
        wants.push(Want::Points);
    } else if k > 0 && ev.runs < MIN_POINTS {
        reasons.push(format!(
            "{} distinct parameter points from {} run{}: at least {MIN_POINTS} runs are needed to tell a law",
            ev.points,
            ev.runs,
            if ev.runs == 1 { "" } else { "s" }
        ));
        wants.push(Want::Points);
    } else if k == 0 && ev.rows < MIN_POINTS {
        reasons.push(format!(
            "only {} observation{}",
            ev.rows,
            if ev.rows == 1 { "" } else { "s" }
        ));
        wants.push(Want::Repetitions);
    }
    // One point whose runs differ beyond their repetitions: no measurement settles that, the
    // model lacks what the value depends on.
    if let Some(reason) = ev.one_point.as_ref().and_then(one_point::differ_reason) {
        reasons.push(reason);
    }
    let (noise, measured) = match ev.noise {
        Some(s) => (s, true),
        None => (in_sample, false),
    };
    if constant {
        if let Some(p) = ev.dependency_p.filter(|p| *p < DEPENDENCY_ALPHA) {
            reasons.push(format!(
                "the points differ beyond their repetitions' spread ({}), but no law predicts them better than a constant",
                p_text(p)
            ));
            wants.push(Want::Points);
        }
    } else if !(exact && ev.holdout_error.is_some_and(|e| e <= EXACT_RESIDUAL)) {
        // Better at most points but far worse at some (a line through zero for demands that
        // have a floor): on average it predicts worse than a constant.
        if let (Some(c), Some(e), Some(k)) = (choice, ev.holdout_error, ev.constant_holdout_error) {
            if trimmed_rms(&c.point_residuals) > trimmed_rms(&c.constant_point_residuals) {
                reasons.push(format!(
                    "predicts held-out points worse on average than a constant (error {} against {})",
                    ev.error_text(e),
                    ev.error_text(k)
                ));
                wants.push(Want::Points);
            }
        }
        if let Some(p) = ev.better_than_constant_p.filter(|p| *p >= BETTER_THAN_CONSTANT_ALPHA) {
            reasons.push(format!(
                "not significantly better than a constant on held-out points ({}, {} points)",
                p_text(p),
                ev.points
            ));
            wants.push(Want::Points);
        }
    }
    // A constant too: one that misses its held-out points by more than the noise (`0.05` for a
    // demand that varies by 70 %) does not predict, whatever found no law. The held-out scatter
    // is robust (the largest tenth of the residuals left out, so one wild JVM does not decide)
    // and must not be significantly larger ([`lack_of_fit_p`]).
    if !(exact && ev.holdout_error.is_some_and(|e| e <= EXACT_RESIDUAL)) {
        if let Some(c) = choice {
            // The points' held-out scatter (each held out with its run) against the noise of
            // one point, with the degrees of freedom of the runs: the 40 files of one upload are
            // one piece of evidence, but a law that misses half of them (hashing right after
            // compression is slower) misses them, which their mean would hide.
            let scatter = trimmed_rms(&c.point_residuals);
            let df = if measured { ev.noise_df } else { c.residuals.len() };
            let p = lack_of_fit_p(scatter, c.residuals.len(), noise, df);
            if scatter > NOISE_FLOOR && p < LACK_OF_FIT_ALPHA {
                let against = match (measured, noise > 0.0) {
                    (true, true) => format!("the repetitions' spread {}", ev.error_text(noise)),
                    (true, false) => "the repetitions, which agree exactly".to_string(),
                    (false, _) => format!("the residual noise {}", ev.error_text(noise)),
                };
                reasons.push(format!(
                    "held-out points scatter {} about it, significantly more than {against} ({})",
                    ev.error_text(scatter),
                    p_text(p)
                ));
                // Where the law misses, points tell its form; an unmeasured noise (no
                // repetitions) cannot tell a miss from noise: repetitions measure it.
                wants.push(Want::Points);
                if !measured {
                    wants.push(Want::Repetitions);
                }
            } else if measured && ev.noise_df < MIN_NOISE_DF && scatter > NOISE_FLOOR {
                // One pair of JVMs says little about the noise: the test above cannot object,
                // which is no evidence that the scatter is noise.
                reasons.push(format!(
                    "the noise is measured from {} repetition{} only: too few to tell a held-out scatter of {} from noise",
                    ev.noise_df,
                    if ev.noise_df == 1 { "" } else { "s" },
                    ev.error_text(scatter)
                ));
                wants.push(Want::Repetitions);
            } else if !measured && scatter > NOISE_FLOOR {
                // "Final" means within the *measured* noise. Without repetitions a scatter is
                // as much an input the law does not see (a 30 % effect of every other point
                // passed as 13 % noise) as noise.
                reasons.push(format!(
                    "no repetitions measure the noise: held-out points scatter {} about it, which may be noise or an effect the law misses",
                    ev.error_text(scatter)
                ));
                wants.push(Want::Repetitions);
            }
        }
    }
    // A relative band beyond ±100 % cannot tell a measurement from nothing or from twice it,
    // and relative errors that large are lopsided: a law 5x above a fresh point misses by 400 %
    // while one 5x below misses by 80 %, so no symmetric band covers fresh points. (The bundled
    // example's microsecond `partition files` once came out a final constant with a ±164 %
    // band, its repetitions 65 % apart, and predicted fresh points 2-5x too high.)
    if ev.relative && !exact && ev.band.is_some_and(|b| b > MAX_RELATIVE_BAND) {
        reasons.push(format!(
            "a fresh measurement may lie ±{} from it (95 %): too wide for a law to carry",
            ev.error_text(ev.band.unwrap_or_default())
        ));
        // What another reason asks for settles this too; alone, noisy repetitions widen it
        // (more of them average it), else too few points do.
        if wants.is_empty() {
            let noisy = ev.point_noise().is_some_and(|s| 2.0 * s > MAX_RELATIVE_BAND);
            wants.push(if noisy { Want::Repetitions } else { Want::Points });
        }
    }
    wants.sort();
    wants.dedup();
    ev.is_final = reasons.is_empty();
    ev.reasons = reasons;
    ev.wants = wants;
}

/// Why the shape of a law that is not exact keeps it from being final, whatever its held-out
/// figures: its terms cancel at the typical point ([`term_cancellation`]), or it drops to zero
/// or below inside the measured range ([`edges::lowest_in_range`]). More points settle both.
/// (Holes in an input's range: [`coverage_reasons`].)
pub fn shape_reasons(expr: &crate::expr::Expr, data: &crate::dataset::Dataset) -> Vec<String> {
    use crate::numeric::round_significant;
    use crate::print::format_number;
    let mut reasons = Vec::new();
    let cancellation = term_cancellation(expr, data);
    if cancellation < CANCELLATION_RATIO {
        reasons.push(format!(
            "its terms cancel: at the typical point its value is {} % of its largest term, so its constants do not carry it",
            format_number(round_significant(100.0 * cancellation, 2))
        ));
    }
    if let Some((lowest, at)) = edges::lowest_in_range(expr, data).filter(|(lowest, _)| *lowest <= 0.0) {
        let at: Vec<String> = data
            .names
            .iter()
            .zip(&at)
            .map(|(n, v)| format!("{n} = {}", format_number(*v)))
            .collect();
        reasons.push(format!(
            "inside the measured range it predicts {} at {}, where every measurement was positive: its form is not carried there by measurements",
            format_number(round_significant(lowest, 2)),
            at.join(", ")
        ));
    }
    reasons
}

/// No measurement of input `input` between `below` and `above` (both measured).
#[derive(Clone, Debug, PartialEq)]
pub struct InputHole {
    pub input: String,
    pub below: f64,
    pub above: f64,
}

/// The holes [`coverage_reasons`] names.
pub fn coverage_holes(expr: &crate::expr::Expr, data: &crate::dataset::Dataset) -> Vec<InputHole> {
    coverage::gaps(expr, data)
        .into_iter()
        .map(|gap| InputHole {
            input: data.names[gap.input].clone(),
            below: gap.below,
            above: gap.above,
        })
        .collect()
}

/// Why a law that is not exact is not final because an input it uses leaves a hole of more
/// than a decade unmeasured ([`coverage::gaps`]). Unlike [`shape_reasons`], this asks for no
/// points: a measurement tool places points by its own parameters (a launch's file size), not by
/// the element's inputs (the size compression made of it), so more points need not fall in the
/// hole, and on the bundled example they changed which laws were measured without filling it.
pub fn coverage_reasons(expr: &crate::expr::Expr, data: &crate::dataset::Dataset) -> Vec<String> {
    use crate::numeric::round_significant;
    use crate::print::format_number;
    let mut reasons = Vec::new();
    for gap in coverage::gaps(expr, data) {
        reasons.push(format!(
            "no measurement of {} between {} and {}: a hole of {} of the {} decades measured, where the law is not checked",
            data.names[gap.input],
            format_number(round_significant(gap.below, 3)),
            format_number(round_significant(gap.above, 3)),
            format_number(round_significant(gap.decades(), 2)),
            format_number(round_significant(gap.span_decades, 2)),
        ));
    }
    reasons
}

/// Fewest share of its largest term a law's value may be at the typical point: below it the law
/// is a small difference of large terms.
pub const CANCELLATION_RATIO: f64 = 0.1;

/// How much of its largest additive term a law's value is, at the median point of `data` (1 for
/// a single term): `27*S/(S + C) - 27 + 0.0007*N` is a few hundredths of a millisecond made of
/// terms of 27, so 0.001. Such a law is ill-conditioned: its printed constants, rounded to what
/// the evidence supports, do not carry it, and it says nothing an architect can read.
pub fn term_cancellation(expr: &crate::expr::Expr, data: &crate::dataset::Dataset) -> f64 {
    use crate::expr::{BinaryOp, Expr};
    fn terms(e: &Expr, sign: f64, out: &mut Vec<(f64, Expr)>) {
        match e {
            Expr::Binary(BinaryOp::Add, a, b) => {
                terms(a, sign, out);
                terms(b, sign, out);
            }
            Expr::Binary(BinaryOp::Sub, a, b) => {
                terms(a, sign, out);
                terms(b, -sign, out);
            }
            other => out.push((sign, other.clone())),
        }
    }
    let mut parts = Vec::new();
    terms(expr, 1.0, &mut parts);
    if parts.len() < 2 || data.is_empty() {
        return 1.0;
    }
    let values: Vec<Vec<f64>> = parts
        .iter()
        .map(|(sign, t)| {
            crate::eval::eval(t, &data.columns, data.len())
                .iter()
                .map(|v| sign * v)
                .collect()
        })
        .collect();
    let ratios: Vec<f64> = (0..data.len())
        .filter_map(|i| {
            let largest = values.iter().map(|v| v[i].abs()).fold(0.0, f64::max);
            let sum: f64 = values.iter().map(|v| v[i]).sum();
            (largest > 0.0 && largest.is_finite()).then(|| sum.abs() / largest)
        })
        .collect();
    if ratios.is_empty() {
        1.0
    } else {
        crate::stats::median(&ratios)
    }
}

/// The lack-of-fit test (the textbook one, pure error from the repetitions, with held-out
/// residuals in place of fitted ones): p-value of "the held-out residuals' spread `scatter` (from
/// `points` residuals) exceeds the noise `noise` (with `df` degrees of freedom)", an F test of
/// the squared ratio with the degrees of freedom of the two robust spreads
/// ([`MAD_EFFICIENCY`]). A noise measured from a few repetitions is uncertain, and the test
/// says so: four pairs of JVMs do not make a 1 % spread certain.
pub fn lack_of_fit_p(scatter: f64, points: usize, noise: f64, df: usize) -> f64 {
    if df == 0 || points == 0 {
        return 1.0;
    }
    if noise <= 0.0 {
        return if scatter > 0.0 { 0.0 } else { 1.0 };
    }
    let eff = |n: usize| (MAD_EFFICIENCY * n as f64).max(1.0);
    hypothesis::f_sf((scatter / noise).powi(2), eff(points), eff(df))
}

/// The RMS of `r` without its largest tenth (by size): how far an answer is off, robust to a few
/// wild JVMs, yet counting a misfit over a whole region of the inputs, which the median of the
/// sizes ([`robust_spread`]) overlooks as long as it covers fewer than half the points.
fn trimmed_rms(r: &[f64]) -> f64 {
    let mut sq: Vec<f64> = r.iter().map(|v| v * v).collect();
    sq.sort_by(f64::total_cmp);
    let keep = sq.len() - sq.len() / 10;
    (sq[..keep].iter().sum::<f64>() / keep.max(1) as f64).sqrt()
}

/// `1.4826·median|r|`: the standard deviation of normal residuals, robust to a few wild ones.
fn robust_spread(r: &[f64]) -> f64 {
    let abs: Vec<f64> = r.iter().map(|v| v.abs()).collect();
    1.4826 * crate::stats::median(&abs)
}

/// A p-value as text: `p = 0.034` (two significant digits), `p < 0.001` below.
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {}", format_number(crate::numeric::round_significant(p, 2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_bounds_coefficients() {
        assert_eq!(max_params(1), 1);
        assert_eq!(max_params(3), 1);
        assert_eq!(max_params(5), 2);
        assert_eq!(max_params(14), 7);
    }

    fn choice(residuals: Vec<f64>, constant_residuals: Vec<f64>) -> Choice {
        let loss = |r: &[f64]| r.iter().map(|v| 2.0 * huber_rho(v / 0.05)).collect::<Vec<f64>>();
        Choice {
            index: 0,
            losses: loss(&residuals),
            constant_losses: loss(&constant_residuals),
            point_residuals: residuals.clone(),
            constant_point_residuals: constant_residuals.clone(),
            residuals,
            note: None,
        }
    }

    fn measured_noise(points: usize, noise: f64) -> Evidence {
        Evidence {
            rows: 3 * points,
            points,
            runs: points,
            repetitions: (3, 3),
            relative: true,
            noise: Some(noise),
            noise_df: 2 * points,
            ..Evidence::default()
        }
    }

    #[test]
    fn a_law_far_off_at_a_third_of_the_points_is_not_final() {
        // Within 2 % at two thirds of the points, 100 % off at the others (a line through zero
        // for a demand with a floor); a constant is 40 % off everywhere.
        let residuals: Vec<f64> = (0..30)
            .map(|i| {
                if i % 3 == 0 {
                    -1.0
                } else {
                    0.02 * ((i % 5) as f64 - 2.0) / 2.0
                }
            })
            .collect();
        let mut ev = measured_noise(30, 0.03);
        judge(&mut ev, Some(&choice(residuals, vec![0.4; 30])), 1, false, false, 0.03);
        assert!(!ev.is_final);
        assert!(
            ev.reasons
                .iter()
                .any(|r| r.contains("worse on average than a constant")),
            "{:?}",
            ev.reasons
        );
        assert!(ev.wants.contains(&Want::Points));
    }

    #[test]
    fn a_noise_from_one_pair_of_repetitions_does_not_make_a_result_final() {
        // Held-out scatter 60 %, the noise 18 % from one pair: the F test cannot object.
        let mut ev = measured_noise(10, 0.18);
        ev.noise_df = 1;
        let residuals: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { 0.6 } else { -0.6 }).collect();
        judge(
            &mut ev,
            Some(&choice(residuals.clone(), vec![0.6; 10])),
            0,
            true,
            false,
            0.6,
        );
        assert!(!ev.is_final);
        assert!(
            ev.reasons.iter().any(|r| r.contains("from 1 repetition only")),
            "{:?}",
            ev.reasons
        );
        assert_eq!(ev.wants, vec![Want::Repetitions]);
        // Three pairs are enough to let the test decide.
        let mut ev = measured_noise(10, 0.5);
        ev.noise_df = 3;
        judge(&mut ev, Some(&choice(residuals, vec![0.6; 10])), 0, true, false, 0.6);
        assert!(
            ev.reasons.iter().all(|r| !r.contains("repetition only")),
            "{:?}",
            ev.reasons
        );
    }

    #[test]
    fn exactly_agreeing_repetitions_are_named_as_such() {
        // Passed sizes repeat exactly between JVMs (the same files): no "spread 0" in the reason.
        let mut ev = measured_noise(20, 0.0);
        ev.relative = false;
        let residuals: Vec<f64> = (0..20).map(|i| if i % 2 == 0 { 0.05 } else { -0.05 }).collect();
        judge(&mut ev, Some(&choice(residuals, vec![0.5; 20])), 1, false, false, 0.05);
        assert!(
            ev.reasons
                .iter()
                .any(|r| r.ends_with("significantly more than the repetitions, which agree exactly (p < 0.001)")),
            "{:?}",
            ev.reasons
        );
    }

    #[test]
    fn without_repetitions_only_a_scatter_below_the_floor_is_final() {
        let scatter = |s: f64| {
            (0..30)
                .map(|i| s * if i % 2 == 0 { 1.0 } else { -1.0 })
                .collect::<Vec<f64>>()
        };
        let unmeasured = || Evidence {
            rows: 30,
            points: 30,
            runs: 30,
            repetitions: (1, 1),
            relative: true,
            ..Evidence::default()
        };
        let mut ev = unmeasured();
        judge(
            &mut ev,
            Some(&choice(scatter(0.05), vec![0.5; 30])),
            1,
            false,
            false,
            0.05,
        );
        assert!(!ev.is_final);
        assert!(
            ev.reasons
                .iter()
                .any(|r| r.contains("no repetitions measure the noise")),
            "{:?}",
            ev.reasons
        );
        assert_eq!(ev.wants, vec![Want::Repetitions]);
        let mut ev = unmeasured();
        judge(
            &mut ev,
            Some(&choice(scatter(0.005), vec![0.5; 30])),
            1,
            false,
            false,
            0.005,
        );
        assert!(ev.is_final, "{:?}", ev.reasons);
        assert!(ev.wants.is_empty());
        // With the noise measured, the same 5 % scatter within a 5 % noise is final.
        let mut ev = measured_noise(30, 0.05);
        judge(
            &mut ev,
            Some(&choice(scatter(0.05), vec![0.5; 30])),
            1,
            false,
            false,
            0.05,
        );
        assert!(ev.is_final, "{:?}", ev.reasons);
    }

    #[test]
    fn trimmed_rms_leaves_out_the_largest_tenth_only() {
        let mut r = vec![0.01; 18];
        r.extend([5.0, -7.0]);
        assert!((trimmed_rms(&r) - 0.01).abs() < 1e-12);
        let mut r = vec![0.01; 14];
        r.extend([1.0; 6]);
        assert!(trimmed_rms(&r) > 0.4, "a misfit of 30 % of the points counts");
        assert!(robust_spread(&r) < 0.02, "which the median of the sizes overlooks");
    }
}
