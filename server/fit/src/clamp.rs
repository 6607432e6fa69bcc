//! Caps and floors as candidates: `a + b·min(x, C)` and `a + b·max(x, C)`, a law that stops
//! growing (a buffer of at most `C` bytes, a pool of at most `C` threads) or only starts at `C`.
//!
//! They are MARS models of one hinge, but MARS adds hinges greedily in reflected pairs and prunes
//! them back greedily: beside the hinge it needs, a floor's flat side is also fitted by the pair's
//! other half plus a hinge at a lower knot (`0.002*if(x < 30000, 30000 - x, 0) +
//! 0.00199*if(x > 2000, x - 2000, 0)` for `0.002*max(x, 30000)`, their slopes cancelling), and the
//! one-hinge model may never be in its backward sequence. Here every input and both kinds are
//! searched exhaustively:
//! 1. the knot `C` at each of MARS's candidate knots ([`crate::mars::candidate_knots`]), by the
//!    least-squares loss of `y` on `min(x, C)` (or `max`) and an intercept (scaled residuals of
//!    [`crate::criterion`]);
//! 2. the best knot moved continuously between its neighbouring candidates (golden section, with
//!    the robustness weights of a bisquare refit: the cap of `min(x, 40000)` lies between data
//!    values);
//! 3. the knot rounded to where programmers put thresholds ([`crate::threshold::plain_knots`]: a
//!    constant of the code, one digit, the nearest power of two, more digits), the plainest
//!    costing at most 1 in robust loss; the
//!    coefficients snapped like the regression's ([`crate::regression::snap`]).
//!
//! The penalty is the one MARS charges for a one-hinge model: `3·ln n` (intercept, coefficient,
//! knot; `2·ln n` when the code names the knot), `2·ln(candidate knots)`, [`crate::threshold::THRESHOLD_DIGIT_COST`] per unit of the
//! knot's [`crate::threshold::complexity`], and `2·ln(3k)` for the input and the kind. Source
//! `"cap"`; the candidate's expression is the cap itself (`0.001*min(x1, 40000) + 5`).

use crate::criterion::{self, Candidate, ErrorScale};
use crate::expr::Expr;
use crate::regression::{self, LinearFit, Term};
use crate::simplify::caps::{max, min};
use crate::simplify::simplify;
use crate::threshold::{complexity, knot_params, plain_knots, THRESHOLD_DIGIT_COST};

/// The best cap and the best floor of each input (see the module documentation); `constants` of
/// the code are tried first as knots. None with fewer than 8 rows.
pub fn clamps<C: AsRef<[f64]>>(columns: &[C], y: &[f64], scale: ErrorScale, constants: &[f64]) -> Vec<Candidate> {
    let n = y.len();
    if n < 8 {
        return Vec::new();
    }
    let s = criterion::row_scales(y, scale);
    let knots = crate::mars::candidate_knots(columns, 3, 20);
    let mut out = Vec::new();
    for (v, ks) in knots.iter().enumerate() {
        if ks.is_empty() {
            continue;
        }
        for is_min in [true, false] {
            let search = Search {
                x: columns[v].as_ref(),
                y,
                s: &s,
                var: v,
                is_min,
                constants,
            };
            if let Some(c) = search.run(ks, columns.len()) {
                out.push(c);
            }
        }
    }
    out
}

struct Search<'a> {
    x: &'a [f64],
    y: &'a [f64],
    s: &'a [f64],
    var: usize,
    is_min: bool,
    constants: &'a [f64],
}

impl Search<'_> {
    fn expr(&self, knot: f64) -> Expr {
        let (x, k) = (Expr::var(self.var), Expr::Const(knot));
        if self.is_min {
            min(x, k)
        } else {
            max(x, k)
        }
    }

    fn term(&self, knot: f64) -> Term {
        let values = self
            .x
            .iter()
            .map(|v| if self.is_min { v.min(knot) } else { v.max(knot) })
            .collect();
        Term {
            expr: self.expr(knot),
            values,
            rank: 5,
            cost: 0.0,
        }
    }

    /// Weighted least squares of `y` on the clamped input and an intercept: the fit and its
    /// weighted residual sum of squares (`u` robustness weights).
    fn fit(&self, knot: f64, u: &[f64]) -> Option<(LinearFit, f64)> {
        let t = self.term(knot);
        let n = self.y.len();
        let w: Vec<f64> = (0..n).map(|i| u[i].sqrt() / self.s[i]).collect();
        let cols = vec![w.clone(), t.values.iter().zip(&w).map(|(a, b)| a * b).collect()];
        let b: Vec<f64> = self.y.iter().zip(&w).map(|(a, b)| a * b).collect();
        let c = crate::linalg::lstsq(cols, b)?;
        let fit = LinearFit {
            terms: vec![0],
            coefs: vec![c[1]],
            intercept: Some(c[0]),
        };
        let r = criterion::residuals(self.y, &fit.predict(&[t], n), self.s);
        Some((fit, r.iter().zip(u).map(|(r, u)| u * r * r).sum()))
    }

    fn loss(&self, knot: f64, u: &[f64]) -> f64 {
        self.fit(knot, u).map_or(f64::INFINITY, |f| f.1)
    }

    /// Golden section for the knot in `[lo, hi]`, keeping the best point seen (`start` included).
    fn refine(&self, start: f64, lo: f64, hi: f64, u: &[f64]) -> f64 {
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (lo, hi);
        let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
        let (mut fc, mut fd) = (self.loss(c, u), self.loss(d, u));
        let mut best = (self.loss(start, u), start);
        for _ in 0..60 {
            if fc < fd {
                (b, d, fd) = (d, c, fc);
                c = b - g * (b - a);
                fc = self.loss(c, u);
            } else {
                (a, c, fc) = (c, d, fd);
                d = a + g * (b - a);
                fd = self.loss(d, u);
            }
            if b - a <= 1e-13 * (a.abs() + b.abs()).max(1e-300) {
                break;
            }
        }
        for (v, t) in [(fc, c), (fd, d)] {
            if v < best.0 {
                best = (v, t);
            }
        }
        best.1
    }

    /// The robust fit at `knot`: the fit, its robustness weights and scaled residuals.
    fn robust(&self, knot: f64) -> Option<(LinearFit, Vec<f64>, Vec<f64>)> {
        let basis = [self.term(knot)];
        let (fit, u) = regression::fit_robust(&basis, &[0], true, self.y, self.s)?;
        let r = criterion::residuals(self.y, &fit.predict(&basis, self.y.len()), self.s);
        Some((fit, u, r))
    }

    fn run(&self, knots: &[f64], k: usize) -> Option<Candidate> {
        let n = self.y.len();
        let ones = vec![1.0; n];
        let (at, _) = knots
            .iter()
            .enumerate()
            .map(|(i, t)| (i, self.loss(*t, &ones)))
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        let lo = if at > 0 {
            knots[at - 1]
        } else {
            self.x.iter().copied().fold(f64::INFINITY, f64::min)
        };
        let hi = knots
            .get(at + 1)
            .copied()
            .unwrap_or_else(|| self.x.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        let (_, u, _) = self.robust(knots[at])?;
        let knot = self.refine(knots[at], lo, hi, &u);
        let (_, u, r) = self.robust(knot)?;
        // The plainest knot within 1 of the robust loss (coefficients refitted with the weights).
        let sigma = criterion::lts_scale(&r, 3);
        let robust_loss = |t: f64| {
            self.fit(t, &u).map_or(f64::INFINITY, |(f, _)| {
                let res = criterion::residuals(self.y, &f.predict(&[self.term(t)], n), self.s);
                criterion::rho_sum(&res, sigma)
            })
        };
        let base = robust_loss(knot);
        let knot = plain_knots(knot, self.constants, n)
            .into_iter()
            .find(|(t, allowance)| *t == knot || robust_loss(*t) - base <= *allowance)
            .map_or(knot, |(t, _)| t);
        let (fit, _, r) = self.robust(knot)?;
        let basis = [self.term(knot)];
        let fit = regression::snap(&basis, &fit, self.y, self.s, criterion::lts_scale(&r, 3));
        if fit.coefs.first().is_none_or(|c| *c == 0.0) {
            return None;
        }
        let residuals = criterion::residuals(self.y, &fit.predict(&basis, n), self.s);
        if residuals.contains(&criterion::INVALID_RESIDUAL) {
            return None;
        }
        let params = 2 + knot_params(knot, self.constants);
        let penalty = params as f64 * (n.max(2) as f64).ln()
            + 2.0 * (knots.len().max(1) as f64).ln()
            + THRESHOLD_DIGIT_COST * complexity(knot, self.constants)
            + 2.0 * ((3 * k.max(1)) as f64).ln();
        let expr = simplify(&(Expr::Const(fit.coefs[0]) * self.expr(knot) + fit.intercept.unwrap_or(0.0)));
        Some(Candidate {
            expr,
            residuals,
            params,
            penalty,
            source: "cap",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_floor_between_data_values() {
        // The floor at 30000 lies between the data values 29700 and 30600.
        let x: Vec<f64> = (0..60).map(|i| 300.0 + f64::from(i) * 1650.0 + 150.0).collect();
        let y: Vec<f64> = x.iter().map(|v| 20.0 + 0.002 * v.max(30000.0)).collect();
        let c = clamps(std::slice::from_ref(&x), &y, ErrorScale::Auto, &[]);
        let best = c
            .iter()
            .min_by(|a, b| {
                let e = |c: &Candidate| c.residuals.iter().map(|r| r * r).sum::<f64>();
                e(a).total_cmp(&e(b))
            })
            .unwrap();
        assert_eq!(best.expr.to_string(), "0.002*max(x1, 30000) + 20");
        assert!(best.residuals.iter().all(|r| r.abs() < 1e-9));
    }
}
