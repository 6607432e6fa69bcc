//! Equivalent inputs: columns that are identical or exactly proportional over every row.
//!
//! Three collections that always hold the same number of elements (`uploadFiles`,
//! `uploadFileIds`, `uploadFileTypes`) are one input as far as the data can tell: any law in one
//! of them is a law in the others, and a fit that mixes them (`2 ^ a - sqrt(b)`) only spends
//! coefficients on an arbitrary choice. The first column of each class is kept, in the dataset's
//! order: the signature's in an analysis, the file's in `beagle fit`. The others are dropped
//! before fitting and named in the result.

use crate::dataset::Dataset;
use crate::expr::{Cond, Expr};
/// An input dropped because it equals `factor` times a kept one on every row.
#[derive(Clone, Debug, PartialEq)]
pub struct Equivalence {
    /// The column kept.
    pub kept: String,
    /// The column dropped.
    pub dropped: String,
    /// `dropped = factor · kept` on every row.
    pub factor: f64,
}

/// Relative tolerance of "exactly proportional" (rounding of measured values).
const TOLERANCE: f64 = 1e-9;

/// `Some(f)` when `b = f·a` on every row, `f != 0`, and `a` takes at least two values (a column
/// constant over the data carries no information either way: the basis ignores it).
fn proportional(a: &[f64], b: &[f64]) -> Option<f64> {
    let first = a.first()?;
    if a.iter().all(|v| v == first) {
        return None;
    }
    let (i, pivot) = a.iter().enumerate().max_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))?;
    if *pivot == 0.0 {
        return None;
    }
    let f = b[i] / pivot;
    if f == 0.0 || !f.is_finite() {
        return None;
    }
    let scale = a.iter().zip(b).map(|(x, y)| x.abs().max(y.abs())).fold(0.0, f64::max);
    a.iter()
        .zip(b)
        .all(|(x, y)| (y - f * x).abs() <= TOLERANCE * scale)
        .then_some(f)
}

/// The dataset without the inputs equivalent to an earlier one, the indices of the kept columns
/// in `data`, and what was dropped.
pub fn drop_equivalent(data: &Dataset) -> (Dataset, Vec<usize>, Vec<Equivalence>) {
    let mut keep: Vec<usize> = Vec::new();
    let mut dropped = Vec::new();
    for j in 0..data.k() {
        let twin = keep
            .iter()
            .find_map(|i| proportional(&data.columns[*i], &data.columns[j]).map(|f| (*i, f)));
        match twin {
            Some((i, factor)) => dropped.push(Equivalence {
                kept: data.names[i].clone(),
                dropped: data.names[j].clone(),
                factor,
            }),
            None => keep.push(j),
        }
    }
    if dropped.is_empty() {
        return (data.clone(), keep, dropped);
    }
    let reduced = Dataset {
        names: keep.iter().map(|i| data.names[*i].clone()).collect(),
        columns: keep.iter().map(|i| data.columns[*i].clone()).collect(),
        y: data.y.clone(),
        target_name: data.target_name.clone(),
        runs: data.runs.clone(),
        means: data.means.clone(),
        resolution: data.resolution,
    };
    (reduced, keep, dropped)
}

/// `e` with every variable `i` renamed to `kept[i]` (back to the columns of the full dataset).
pub fn restore_columns(e: &Expr, kept: &[usize]) -> Expr {
    match e {
        Expr::Var(i) => Expr::Var(kept.get(*i).copied().unwrap_or(*i)),
        Expr::Const(v) => Expr::Const(*v),
        Expr::Unary(op, a) => Expr::Unary(*op, Box::new(restore_columns(a, kept))),
        Expr::Binary(op, a, b) => Expr::Binary(
            *op,
            Box::new(restore_columns(a, kept)),
            Box::new(restore_columns(b, kept)),
        ),
        Expr::If(c, a, b) => Expr::If(
            Box::new(restore_cond(c, kept)),
            Box::new(restore_columns(a, kept)),
            Box::new(restore_columns(b, kept)),
        ),
    }
}

fn restore_cond(c: &Cond, kept: &[usize]) -> Cond {
    match c {
        Cond::Cmp(op, l, r) => Cond::Cmp(*op, restore_columns(l, kept), restore_columns(r, kept)),
        Cond::And(a, b) => Cond::And(Box::new(restore_cond(a, kept)), Box::new(restore_cond(b, kept))),
        Cond::Or(a, b) => Cond::Or(Box::new(restore_cond(a, kept)), Box::new(restore_cond(b, kept))),
        Cond::Not(a) => Cond::Not(Box::new(restore_cond(a, kept))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_and_proportional_columns_are_one_input() {
        let a = vec![1.0, 2.0, 3.0, 5.0];
        let d = Dataset::new(
            vec![
                "files".into(),
                "ids".into(),
                "bytes".into(),
                "size".into(),
                "flag".into(),
            ],
            vec![
                a.clone(),
                a.clone(),
                a.iter().map(|v| v * 1024.0).collect(),
                vec![7.0, 1.0, 9.0, 2.0],
                vec![1.0, 1.0, 1.0, 1.0],
            ],
            vec![1.0, 2.0, 3.0, 4.0],
        )
        .unwrap();
        let (r, kept, eq) = drop_equivalent(&d);
        assert_eq!(r.names, vec!["files", "size", "flag"]);
        assert_eq!(kept, vec![0, 3, 4]);
        assert_eq!(restore_columns(&Expr::Var(1), &kept), Expr::Var(3));
        assert_eq!(eq.len(), 2);
        assert_eq!(
            (eq[0].kept.as_str(), eq[0].dropped.as_str(), eq[0].factor),
            ("files", "ids", 1.0)
        );
        assert_eq!((eq[1].dropped.as_str(), eq[1].factor), ("bytes", 1024.0));
        // Offsets are not proportionality.
        let d = Dataset::unnamed(vec![a.clone(), a.iter().map(|v| v + 1.0).collect()], vec![0.0; 4]).unwrap();
        assert!(drop_equivalent(&d).2.is_empty());
    }
}
