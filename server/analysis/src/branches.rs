//! One branch's transitions, published as one: their probabilities sum to exactly 1.
//!
//! Each transition is an element of its own: the analysers fit it on its own observations (per
//! decision of the branch, whether it took this transition), and the judge picks the best
//! proposal of each on its own. Nothing in that makes a branch's transitions add up to 1: the
//! transitions may end up with models of different kinds, and each constant is rounded to its
//! own fewest digits (`0.29` beside `0.7`). So after every grading the judge derives what a
//! branch publishes from the best proposal of every one of its transitions
//! ([`FinalExpression::fitted`] keeps that choice):
//!
//! - **constants**: scaled to sum to 1 and rounded together, to the most decimals any of them
//!   had, by largest remainders ([`shares`]): the printed numbers sum to exactly 1;
//! - **a transition that depends on the inputs**: one transition, the one taken most often, is
//!   published as the remainder `1 - (the others)` (for two transitions, the complement of the
//!   other: `n.VALUE > 10 ? 1 : 0` beside `n.VALUE <= 10 ? 1 : 0`). If the others add up to more
//!   than 1 at a measured point, no remainder is a probability there: the branch is then
//!   published as its measured frequencies, preliminary, saying why.
//!
//! A branch with a transition that has no result yet is left as it is.

use crate::analysers::quality;
use crate::blackboard::{Blackboard, ElementKind, FinalExpression, ProposedExpression, Status};
use beagle_fit::{CmpOp, Cond, Expr};
use std::collections::BTreeMap;

/// Most decimals of a published probability: more is noise, and the model stays readable.
pub const MAX_DECIMALS: u32 = 6;

/// `values` (probabilities of one branch's transitions) scaled to sum to 1 and rounded to as
/// many decimals as the most precise of them shows (at most `max_decimals`), so that the rounded
/// values sum to exactly 1 in decimal: each gets its rounded-down share of `10^decimals` units,
/// and the units left go to the largest remainders (ties: the earlier value). `None` when the
/// values are no probabilities (negative, not finite) or all 0.
pub fn shares(values: &[f64], max_decimals: u32) -> Option<Vec<f64>> {
    if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return None;
    }
    let sum: f64 = values.iter().sum();
    if sum <= 0.0 {
        return None;
    }
    let mut decimals = values
        .iter()
        .map(|v| decimals_of(*v))
        .max()
        .unwrap_or(0)
        .min(max_decimals);
    let sums_to_one = |d: u32| {
        let units = 10f64.powi(d as i32);
        values.iter().map(|v| (v * units).round()).sum::<f64>() == units
    };
    if !sums_to_one(decimals) {
        // Scaled, they are new numbers: two decimals at least (1 and 1 become 0.5 and 0.5).
        decimals = decimals.max(2).min(max_decimals);
    }
    let units = 10u64.pow(decimals);
    let exact: Vec<f64> = values.iter().map(|v| v / sum * units as f64).collect();
    let mut whole: Vec<u64> = exact.iter().map(|x| x.floor() as u64).collect();
    let given: u64 = whole.iter().sum();
    let mut order: Vec<usize> = (0..values.len()).collect();
    // Largest remainder first; stable, so ties go to the earlier value.
    order.sort_by(|a, b| (exact[*b] - exact[*b].floor()).total_cmp(&(exact[*a] - exact[*a].floor())));
    for i in order.into_iter().take(units.saturating_sub(given) as usize) {
        whole[i] += 1;
    }
    Some(whole.into_iter().map(|w| w as f64 / units as f64).collect())
}

/// Decimals of `v` as Rust prints it (the shortest text that reads back as `v`).
fn decimals_of(v: f64) -> u32 {
    let text = format!("{v}");
    text.split_once('.').map_or(0, |(_, d)| d.len() as u32)
}

/// `1 - c`, to the decimals of `c` (`1 - 0.3` is `0.7`, not `0.7000000000000001`).
fn complement_of(c: f64) -> f64 {
    let d = decimals_of(c).min(12);
    let units = 10f64.powi(d as i32);
    ((1.0 - c) * units).round() / units
}

/// The condition's negation, as a comparison where there is one (`x > 10` becomes `x <= 10`).
fn negate(c: &Cond) -> Cond {
    match c {
        Cond::Cmp(op, a, b) => {
            let op = match op {
                CmpOp::Gt => CmpOp::Le,
                CmpOp::Ge => CmpOp::Lt,
                CmpOp::Lt => CmpOp::Ge,
                CmpOp::Le => CmpOp::Gt,
                CmpOp::Eq => CmpOp::Ne,
                CmpOp::Ne => CmpOp::Eq,
            };
            Cond::Cmp(op, a.clone(), b.clone())
        }
        Cond::And(a, b) => negate(a).or(negate(b)),
        Cond::Or(a, b) => negate(a).and(negate(b)),
        Cond::Not(a) => (**a).clone(),
    }
}

/// `1 - e`: into both arms of a condition, so that the complement of a guard `g ? 1 : 0` is the
/// guard `!g ? 1 : 0`.
fn complement(e: &Expr) -> Expr {
    match e {
        Expr::Const(c) => Expr::Const(complement_of(*c)),
        Expr::If(c, a, b) => {
            let (a, b) = (complement(a), complement(b));
            if a == Expr::Const(0.0) && b == Expr::Const(1.0) {
                Expr::if_else(negate(c), b, a)
            } else {
                Expr::If(c.clone(), Box::new(a), Box::new(b))
            }
        }
        other => beagle_fit::simplify(&(Expr::Const(1.0) - other.clone())),
    }
}

/// A proposal's expression with its variables numbered in `names` (added there when new): the
/// engine numbers them by the columns of the data it was fitted on, and `variables` names the
/// ones it uses, in that order.
fn expression_in(p: &ProposedExpression, names: &mut Vec<String>) -> Option<Expr> {
    let e = beagle_fit::parse_infix(&p.infix).ok()?;
    let used = e.variables();
    if used.len() != p.variables.len() {
        return None;
    }
    let mut index = BTreeMap::new();
    for (i, name) in used.iter().zip(&p.variables) {
        let at = match names.iter().position(|n| n == name) {
            Some(at) => at,
            None => {
                names.push(name.clone());
                names.len() - 1
            }
        };
        index.insert(*i, at);
    }
    Some(renumber(&e, &index))
}

fn renumber(e: &Expr, index: &BTreeMap<usize, usize>) -> Expr {
    match e {
        Expr::Const(_) => e.clone(),
        Expr::Var(i) => Expr::Var(index.get(i).copied().unwrap_or(*i)),
        Expr::Unary(op, a) => Expr::unary(*op, renumber(a, index)),
        Expr::Binary(op, a, b) => Expr::binary(*op, renumber(a, index), renumber(b, index)),
        Expr::If(c, a, b) => Expr::If(
            Box::new(renumber_cond(c, index)),
            Box::new(renumber(a, index)),
            Box::new(renumber(b, index)),
        ),
    }
}

fn renumber_cond(c: &Cond, index: &BTreeMap<usize, usize>) -> Cond {
    match c {
        Cond::Cmp(op, a, b) => Cond::Cmp(*op, renumber(a, index), renumber(b, index)),
        Cond::And(a, b) => renumber_cond(a, index).and(renumber_cond(b, index)),
        Cond::Or(a, b) => renumber_cond(a, index).or(renumber_cond(b, index)),
        Cond::Not(a) => renumber_cond(a, index).negate(),
    }
}

/// One transition as the branch publishes it.
struct Published {
    proposal: ProposedExpression,
    status: Status,
    reasons: Vec<String>,
}

/// The final expressions that make every branch's transitions sum to 1 (see the module
/// documentation), where they differ from the blackboard's.
pub(crate) fn reconcile(bb: &Blackboard) -> Vec<(String, FinalExpression)> {
    let mut branches: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in bb.elements() {
        if let ElementKind::Branch { branch, .. } = &e.kind {
            branches.entry(branch).or_default().push(&e.id);
        }
    }
    let mut updates = Vec::new();
    for (branch, ids) in branches {
        let finals: Option<Vec<&FinalExpression>> = ids.iter().map(|id| bb.final_expressions().get(*id)).collect();
        let Some(finals) = finals else { continue };
        let fitted: Vec<&ProposedExpression> = finals
            .iter()
            .map(|f| f.fitted.as_ref().unwrap_or(&f.proposal))
            .collect();
        let published = publish(bb, branch, &ids, &fitted);
        for (((id, current), raw), p) in ids.iter().zip(&finals).zip(&fitted).zip(published) {
            let fe = FinalExpression {
                fitted: (p.proposal != **raw).then(|| (*raw).clone()),
                proposal: p.proposal,
                fitness: current.fitness,
                status: p.status,
                reasons: p.reasons,
            };
            if fe != **current {
                updates.push((id.to_string(), fe));
            }
        }
    }
    updates
}

/// What each transition of `branch` publishes, given the judge's choices `fitted`.
fn publish(bb: &Blackboard, branch: &str, ids: &[&str], fitted: &[&ProposedExpression]) -> Vec<Published> {
    // The judge's verdict on its own choice (the published status may be derived from it).
    let verdicts: Vec<(Status, Vec<String>)> = fitted.iter().map(|p| bb.fitness_function().verdict(p)).collect();
    let own = |i: usize| Published {
        proposal: fitted[i].clone(),
        status: verdicts[i].0,
        reasons: verdicts[i].1.clone(),
    };
    let mut names = Vec::new();
    let exprs: Option<Vec<Expr>> = fitted.iter().map(|p| expression_in(p, &mut names)).collect();
    let Some(exprs) = exprs else {
        return frequencies(bb, ids, fitted, "its transitions' expressions could not be combined");
    };
    let constants: Option<Vec<f64>> = exprs.iter().map(Expr::as_const).collect();
    if let Some(values) = constants {
        let Some(scaled) = shares(&values, MAX_DECIMALS) else {
            return frequencies(bb, ids, fitted, "its transitions' fitted probabilities are all 0");
        };
        let sum: f64 = values.iter().sum();
        return (0..ids.len())
            .map(|i| {
                let mut p = own(i);
                if scaled[i] != values[i] {
                    p.proposal = constant(fitted[i], bb, ids[i], scaled[i]);
                }
                if (sum - 1.0).abs() > 0.01 {
                    p.status = Status::Preliminary;
                    p.reasons.push(format!(
                        "the transitions of branch {branch}, fitted one by one, summed to {}; scaled to sum to 1",
                        beagle_fit::format_number(sum)
                    ));
                }
                p
            })
            .collect();
    }
    // The transition taken most often (by its mean predicted probability) is the remainder.
    let mean = |p: &ProposedExpression| p.predictions.iter().sum::<f64>() / p.predictions.len().max(1) as f64;
    let holder = (0..ids.len())
        .max_by(|a, b| mean(fitted[*a]).total_cmp(&mean(fitted[*b])).then(b.cmp(a)))
        .unwrap_or(0);
    let others: Vec<&Expr> = (0..ids.len()).filter(|i| *i != holder).map(|i| &exprs[i]).collect();
    let rest = match others.as_slice() {
        [] => Expr::Const(1.0),
        [one] => complement(one),
        [first, more @ ..] => complement(&more.iter().fold((*first).clone(), |sum, e| sum + (*e).clone())),
    };
    let Some(result) = bb.results().get(ids[holder]) else {
        return frequencies(bb, ids, fitted, "its transitions' results are missing");
    };
    let columns: Option<Vec<Vec<f64>>> = names
        .iter()
        .map(|n| {
            result
                .observations
                .iter()
                .map(|o| o.parameters.get(n).copied())
                .collect()
        })
        .collect();
    let Some(columns) = columns else {
        return frequencies(
            bb,
            ids,
            fitted,
            "its transitions' laws use inputs that not every decision has",
        );
    };
    let predictions = beagle_fit::eval(&rest, &columns, result.observations.len());
    if predictions.iter().any(|p| !(-1e-9..=1.0 + 1e-9).contains(p)) {
        return frequencies(
            bb,
            ids,
            fitted,
            "its transitions' laws, fitted one by one, add up to more than 1 at some measured points",
        );
    }
    let y: Vec<f64> = result.observations.iter().map(|o| o.value).collect();
    let (r2, relative_error) = quality(&y, &predictions);
    let raw = fitted[holder];
    let guard = match &rest {
        Expr::If(c, a, b) if **a == Expr::Const(1.0) && **b == Expr::Const(0.0) => {
            Some(beagle_fit::stoex_cond_text(c, &names))
        }
        _ => None,
    };
    let proposal = ProposedExpression {
        stoex: beagle_fit::stoex_text(&rest, &names),
        infix: beagle_fit::infix(&rest),
        r2,
        relative_error,
        size: rest.size(),
        depth: rest.depth(),
        variables: rest.variables().iter().map(|i| names[*i].clone()).collect(),
        guard,
        predictions,
        ..raw.clone()
    };
    let preliminary: Vec<&str> = (0..ids.len())
        .filter(|i| *i != holder && verdicts[*i].0 == Status::Preliminary)
        .map(|i| ids[i])
        .collect();
    (0..ids.len())
        .map(|i| {
            if i != holder {
                return own(i);
            }
            let mut p = own(i);
            p.proposal = proposal.clone();
            if !preliminary.is_empty() {
                p.status = Status::Preliminary;
                let why = format!(
                    "published as 1 minus the other transitions of branch {branch}, of which {} is preliminary",
                    preliminary.join(", ")
                );
                if !p.reasons.contains(&why) {
                    p.reasons.push(why);
                }
            }
            p
        })
        .collect()
}

/// `p` as the constant `value` (its quality on the element's observations).
fn constant(p: &ProposedExpression, bb: &Blackboard, id: &str, value: f64) -> ProposedExpression {
    let y: Vec<f64> = bb
        .results()
        .get(id)
        .map_or_else(Vec::new, |r| r.observations.iter().map(|o| o.value).collect());
    let predictions = vec![value; y.len()];
    let (r2, relative_error) = quality(&y, &predictions);
    let e = Expr::Const(value);
    ProposedExpression {
        stoex: beagle_fit::stoex_text(&e, &[]),
        infix: beagle_fit::infix(&e),
        r2,
        relative_error,
        size: 1,
        depth: 1,
        variables: Vec::new(),
        guard: None,
        predictions,
        ..p.clone()
    }
}

/// Every transition as its measured frequency (the share of the decisions that took it),
/// preliminary because of `why`.
fn frequencies(bb: &Blackboard, ids: &[&str], fitted: &[&ProposedExpression], why: &str) -> Vec<Published> {
    let frequency = |id: &str| {
        let Some(r) = bb.results().get(id) else { return 0.0 };
        let trials: f64 = r.observations.iter().map(|o| o.executions as f64).sum();
        let taken: f64 = r.observations.iter().map(|o| o.value * o.executions as f64).sum();
        if trials > 0.0 {
            taken / trials
        } else {
            0.0
        }
    };
    let measured: Vec<f64> = ids.iter().map(|id| frequency(id)).collect();
    // Frequencies to the decimals that the decisions behind them support, at most the maximum.
    let rounded: Vec<f64> = measured
        .iter()
        .map(|v| beagle_fit::regression::round_significant(*v, MAX_DECIMALS as usize))
        .collect();
    // Nothing taken at all (cannot be: a measured decision takes a transition): equal shares.
    let values = shares(&rounded, MAX_DECIMALS)
        .or_else(|| shares(&vec![1.0; ids.len()], MAX_DECIMALS))
        .unwrap_or_default();
    (0..ids.len())
        .map(|i| Published {
            proposal: constant(fitted[i], bb, ids[i], values[i]),
            status: Status::Preliminary,
            reasons: vec![format!("{why}: published as the measured frequencies")],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decimal units of `values` at `decimals`: exact integers to add up.
    fn units(values: &[f64], decimals: u32) -> Vec<i64> {
        values
            .iter()
            .map(|v| (v * 10f64.powi(decimals as i32)).round() as i64)
            .collect()
    }

    #[test]
    fn shares_sum_to_one_in_decimal() {
        assert_eq!(shares(&[0.3, 0.7], 6), Some(vec![0.3, 0.7]));
        // Rounded one by one: 0.29 and 0.7 sum to 0.99.
        assert_eq!(shares(&[0.29, 0.7], 6), Some(vec![0.29, 0.71]));
        let thirds = shares(&[1.0 / 3.0; 3], 6).unwrap();
        assert_eq!(units(&thirds, 6), [333_334, 333_333, 333_333]);
        assert_eq!(shares(&[1.0, 1.0], 6), Some(vec![0.5, 0.5]));
        assert_eq!(shares(&[0.64, 1.0], 6), Some(vec![0.39, 0.61]));
        assert_eq!(shares(&[0.0, 0.0], 6), None);
        assert_eq!(shares(&[-0.1, 1.1], 6), None);
        assert_eq!(shares(&[2.0], 6), Some(vec![1.0]));
    }

    #[test]
    fn the_complement_of_a_guard_is_the_negated_guard() {
        let g = Expr::if_else(
            Cond::Cmp(CmpOp::Le, Expr::Var(0), Expr::Const(210000.0)),
            Expr::Const(1.0),
            Expr::Const(0.0),
        );
        let names = ["size.VALUE".to_string()];
        assert_eq!(
            beagle_fit::stoex_text(&complement(&g), &names),
            "size.VALUE > 210000 ? 1 : 0"
        );
        assert_eq!(complement(&Expr::Const(0.3)), Expr::Const(0.7));
        assert_eq!(complement(&Expr::Const(0.285)), Expr::Const(0.715));
    }
}
