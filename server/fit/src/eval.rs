//! Evaluation of an [`Expr`] over whole columns of data (the fitting hot loop) or at one point.
//!
//! Column evaluation works node by node: each node produces one vector for all rows, so the inner
//! loops are plain slices the compiler vectorises. Constant operands are applied in place without a
//! vector of their own. `If` evaluates both branches over all rows and selects per row (branches
//! are cheap and this keeps the loops branch-free; a NaN in the branch not taken is discarded).

use crate::expr::{BinaryOp, Cond, Expr};

/// Evaluates `e` for every row of `columns` (column `i` is the values of `Var(i)`; all columns
/// have `n` rows). A `Var` beyond the columns evaluates to NaN.
pub fn eval<C: AsRef<[f64]>>(e: &Expr, columns: &[C], n: usize) -> Vec<f64> {
    match e {
        Expr::Const(v) => vec![*v; n],
        Expr::Var(i) => match columns.get(*i) {
            Some(c) => {
                let c = c.as_ref();
                debug_assert_eq!(c.len(), n);
                c[..n].to_vec()
            }
            None => vec![f64::NAN; n],
        },
        Expr::Unary(op, a) => {
            let mut v = eval(a, columns, n);
            let op = *op;
            for x in &mut v {
                *x = op.apply(*x);
            }
            v
        }
        Expr::Binary(op, a, b) => {
            let op = *op;
            match (a.as_ref(), b.as_ref()) {
                (_, Expr::Const(c)) => {
                    let mut v = eval(a, columns, n);
                    let c = *c;
                    apply_const_right(op, &mut v, c);
                    v
                }
                (Expr::Const(c), _) => {
                    let mut v = eval(b, columns, n);
                    let c = *c;
                    for x in &mut v {
                        *x = op.apply(c, *x);
                    }
                    v
                }
                _ => {
                    let mut v = eval(a, columns, n);
                    let w = eval(b, columns, n);
                    apply_binary(op, &mut v, &w);
                    v
                }
            }
        }
        Expr::If(c, a, b) => {
            let mask = eval_cond(c, columns, n);
            let mut v = eval(a, columns, n);
            let w = eval(b, columns, n);
            for ((x, y), m) in v.iter_mut().zip(&w).zip(&mask) {
                if !*m {
                    *x = *y;
                }
            }
            v
        }
    }
}

fn apply_const_right(op: BinaryOp, v: &mut [f64], c: f64) {
    match op {
        BinaryOp::Add => v.iter_mut().for_each(|x| *x += c),
        BinaryOp::Sub => v.iter_mut().for_each(|x| *x -= c),
        BinaryOp::Mul => v.iter_mut().for_each(|x| *x *= c),
        BinaryOp::Div => v.iter_mut().for_each(|x| *x /= c),
        BinaryOp::Pow => v.iter_mut().for_each(|x| *x = crate::expr::pow(*x, c)),
    }
}

fn apply_binary(op: BinaryOp, v: &mut [f64], w: &[f64]) {
    let pairs = v.iter_mut().zip(w);
    match op {
        BinaryOp::Add => pairs.for_each(|(x, y)| *x += y),
        BinaryOp::Sub => pairs.for_each(|(x, y)| *x -= y),
        BinaryOp::Mul => pairs.for_each(|(x, y)| *x *= y),
        BinaryOp::Div => pairs.for_each(|(x, y)| *x /= y),
        BinaryOp::Pow => pairs.for_each(|(x, y)| *x = crate::expr::pow(*x, *y)),
    }
}

/// Evaluates a condition for every row.
pub fn eval_cond<C: AsRef<[f64]>>(c: &Cond, columns: &[C], n: usize) -> Vec<bool> {
    match c {
        Cond::Cmp(op, a, b) => {
            let op = *op;
            let v = eval(a, columns, n);
            match b {
                Expr::Const(k) => v.iter().map(|x| op.apply(*x, *k)).collect(),
                _ => {
                    let w = eval(b, columns, n);
                    v.iter().zip(&w).map(|(x, y)| op.apply(*x, *y)).collect()
                }
            }
        }
        Cond::And(a, b) => {
            let mut m = eval_cond(a, columns, n);
            let k = eval_cond(b, columns, n);
            m.iter_mut().zip(&k).for_each(|(x, y)| *x = *x && *y);
            m
        }
        Cond::Or(a, b) => {
            let mut m = eval_cond(a, columns, n);
            let k = eval_cond(b, columns, n);
            m.iter_mut().zip(&k).for_each(|(x, y)| *x = *x || *y);
            m
        }
        Cond::Not(a) => {
            let mut m = eval_cond(a, columns, n);
            m.iter_mut().for_each(|x| *x = !*x);
            m
        }
    }
}

/// Evaluates `e` at one point (`x[i]` is the value of `Var(i)`; missing ones are NaN).
pub fn eval_point(e: &Expr, x: &[f64]) -> f64 {
    match e {
        Expr::Const(v) => *v,
        Expr::Var(i) => x.get(*i).copied().unwrap_or(f64::NAN),
        Expr::Unary(op, a) => op.apply(eval_point(a, x)),
        Expr::Binary(op, a, b) => op.apply(eval_point(a, x), eval_point(b, x)),
        Expr::If(c, a, b) => {
            if eval_cond_point(c, x) {
                eval_point(a, x)
            } else {
                eval_point(b, x)
            }
        }
    }
}

/// Evaluates a condition at one point.
pub fn eval_cond_point(c: &Cond, x: &[f64]) -> bool {
    match c {
        Cond::Cmp(op, a, b) => op.apply(eval_point(a, x), eval_point(b, x)),
        Cond::And(a, b) => eval_cond_point(a, x) && eval_cond_point(b, x),
        Cond::Or(a, b) => eval_cond_point(a, x) || eval_cond_point(b, x),
        Cond::Not(a) => !eval_cond_point(a, x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{CmpOp, UnaryOp};

    fn cols() -> Vec<Vec<f64>> {
        vec![vec![1.0, 4.0, 250000.0, 0.5], vec![0.0, 1.0, 1.0, 0.0]]
    }

    #[test]
    fn columns_and_points_agree() {
        let x1 = Expr::var(0);
        let x2 = Expr::var(1);
        let exprs = vec![
            0.35 * x1.clone() + 120.0,
            x1.clone().powi(2) - x2.clone() / (x1.clone() + 1.0),
            x1.clone().sqrt() * x1.clone().log2(),
            Expr::if_else(Cond::var_gt(0, 200000.0), 0.04 * x1.clone(), Expr::Const(1500.0)),
            Expr::if_else(
                Cond::var_gt(1, 0.5).and(Cond::cmp(CmpOp::Le, x1.clone(), Expr::Const(4.0))),
                x1.clone().floor(),
                -x1.clone().ceil().abs().exp(),
            ),
            (x1.clone() / 2.0).floor(),
            Expr::unary(UnaryOp::Log, x2.clone()),
            Expr::Const(2.0).pow(x2.clone()),
        ];
        let c = cols();
        for e in &exprs {
            let v = eval(e, &c, 4);
            for (row, got) in v.iter().enumerate() {
                let p = [c[0][row], c[1][row]];
                let want = eval_point(e, &p);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{e}: row {row}"
                );
            }
        }
    }

    #[test]
    fn known_values() {
        let c = cols();
        let step = Expr::if_else(Cond::var_gt(0, 200000.0), 0.04 * Expr::var(0), Expr::Const(1500.0));
        assert_eq!(eval(&step, &c, 4), vec![1500.0, 1500.0, 10000.0, 1500.0]);
        let half = (Expr::var(0) / 2.0).floor();
        assert_eq!(eval(&half, &c, 4), vec![0.0, 2.0, 125000.0, 0.0]);
        assert!(eval(&Expr::var(0).ln(), &[vec![-1.0]], 1)[0].is_nan());
        assert!(eval(&Expr::var(7), &c, 4)[0].is_nan());
    }
}
