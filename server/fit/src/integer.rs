//! Integer-valued forms for integer targets (loop counts): `floor(t/k)` and `ceil(t/k)`.
//!
//! When every target value is an integer, each regression model of one basis term `t` with
//! coefficient `a` close to `1/k` (`k` an integer from 2 to 1000, `|1/a - k| <= 0.1·k`) proposes
//! `floor(t/k)` and `ceil(t/k)` (one constant, `k`). They compete in the same selection as every
//! other candidate, so they win only where they fit better: exactly, on noise-free loop counts
//! such as `floor(n/2)`.
//!
//! TODO: `floor(a·t + b)` with other coefficients, `round`, and integer forms of several terms.

use crate::criterion::{self, Candidate, ErrorScale};
use crate::dataset::Dataset;
use crate::eval::eval;
use crate::regression::{LinearFit, Term};

/// Candidates `floor(t/k)`, `ceil(t/k)` from the single-term models among `fits` (see the module
/// documentation); none when the target is not integer-valued.
pub fn integer_candidates(data: &Dataset, basis: &[Term], fits: &[LinearFit], scale: ErrorScale) -> Vec<Candidate> {
    if !data.integer_target() {
        return Vec::new();
    }
    let n = data.len();
    let s = criterion::row_scales(&data.y, scale);
    let mut out: Vec<Candidate> = Vec::new();
    for f in fits {
        if f.terms.len() != 1 {
            continue;
        }
        let a = f.coefs[0];
        if a.is_nan() || a <= 0.0 {
            continue;
        }
        let k = (1.0 / a).round();
        if !(2.0..=1000.0).contains(&k) || (1.0 / a - k).abs() > 0.1 * k {
            continue;
        }
        let t = &basis[f.terms[0]];
        let ratio = t.expr.clone() / k;
        for e in [ratio.clone().floor(), ratio.ceil()] {
            if out.iter().any(|c| c.expr == e) {
                continue;
            }
            let pred = eval(&e, &data.columns, n);
            let residuals = criterion::residuals(&data.y, &pred, &s);
            out.push(Candidate {
                penalty: criterion::ebic_penalty(n, 1, basis.len(), 1) + t.cost + 1.0,
                expr: e,
                residuals,
                params: 1,
                source: "integer",
            });
        }
    }
    out
}
