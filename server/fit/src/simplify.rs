//! Simplification of trivial forms, bottom-up, repeated to a fixed point:
//! constant folding (only when the result is finite), `x+0`, `x-0`, `0-x`, `x*1`, `x*0`, `x/1`,
//! `0/x`, `x^1`, `x^0`, `--x`, `-c`, `c1*(c2*x)`, `c*(1/x)` -> `c/x`, `x*c` -> `c*x`,
//! `a + -b` -> `a - b`, `if(c, a, a)` -> `a`, conditions between constants.
//!
//! `x*0 -> 0` and `0/x -> 0` drop a possible NaN of `x` (e.g. `0*log(x)` at `x = 0`); the fit
//! only produces them from a zero coefficient, where 0 is what is meant.

use crate::eval::eval_cond_point;
use crate::expr::{BinaryOp, Cond, Expr, UnaryOp};

/// A simpler expression that evaluates the same (see the module documentation).
pub fn simplify(e: &Expr) -> Expr {
    let mut cur = e.clone();
    for _ in 0..8 {
        let next = step(&cur);
        if next == cur {
            return next;
        }
        cur = next;
    }
    cur
}

fn is_const(e: &Expr, v: f64) -> bool {
    matches!(e, Expr::Const(c) if *c == v)
}

fn step(e: &Expr) -> Expr {
    match e {
        Expr::Const(_) | Expr::Var(_) => e.clone(),
        Expr::Unary(op, a) => {
            let a = step(a);
            unary(*op, a)
        }
        Expr::Binary(op, a, b) => {
            let a = step(a);
            let b = step(b);
            binary(*op, a, b)
        }
        Expr::If(c, a, b) => {
            let c = step_cond(c);
            let a = step(a);
            let b = step(b);
            if a == b {
                return a;
            }
            if c.variables_free() {
                return if eval_cond_point(&c, &[]) { a } else { b };
            }
            Expr::if_else(c, a, b)
        }
    }
}

fn step_cond(c: &Cond) -> Cond {
    match c {
        Cond::Cmp(op, a, b) => Cond::Cmp(*op, step(a), step(b)),
        Cond::And(a, b) => step_cond(a).and(step_cond(b)),
        Cond::Or(a, b) => step_cond(a).or(step_cond(b)),
        Cond::Not(a) => match &**a {
            Cond::Not(inner) => step_cond(inner),
            other => step_cond(other).negate(),
        },
    }
}

impl Cond {
    fn variables_free(&self) -> bool {
        match self {
            Cond::Cmp(_, a, b) => a.as_const().is_some() && b.as_const().is_some(),
            Cond::And(a, b) | Cond::Or(a, b) => a.variables_free() && b.variables_free(),
            Cond::Not(a) => a.variables_free(),
        }
    }
}

fn unary(op: UnaryOp, a: Expr) -> Expr {
    if let Expr::Const(c) = a {
        let v = op.apply(c);
        if v.is_finite() {
            return Expr::Const(v);
        }
    }
    match (op, a) {
        (UnaryOp::Neg, Expr::Unary(UnaryOp::Neg, inner)) => *inner,
        (UnaryOp::Neg, Expr::Binary(BinaryOp::Sub, x, y)) => Expr::Binary(BinaryOp::Sub, y, x),
        (UnaryOp::Neg, Expr::Binary(BinaryOp::Mul, c, x)) if c.as_const().is_some() => {
            Expr::binary(BinaryOp::Mul, Expr::Const(-c.as_const().unwrap_or(0.0)), *x)
        }
        (op, a) => Expr::unary(op, a),
    }
}

fn fold(op: BinaryOp, a: &Expr, b: &Expr) -> Option<Expr> {
    let (x, y) = (a.as_const()?, b.as_const()?);
    let v = op.apply(x, y);
    v.is_finite().then_some(Expr::Const(v))
}

fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    if let Some(c) = fold(op, &a, &b) {
        return c;
    }
    match op {
        BinaryOp::Add => {
            if is_const(&a, 0.0) {
                return b;
            }
            if is_const(&b, 0.0) {
                return a;
            }
            match b {
                Expr::Unary(UnaryOp::Neg, t) => Expr::Binary(BinaryOp::Sub, Box::new(a), t),
                Expr::Const(c) if c < 0.0 => Expr::binary(BinaryOp::Sub, a, Expr::Const(-c)),
                Expr::Binary(op2 @ (BinaryOp::Mul | BinaryOp::Div), c, t) if c.as_const().is_some_and(|c| c < 0.0) => {
                    Expr::binary(
                        BinaryOp::Sub,
                        a,
                        Expr::binary(op2, Expr::Const(-c.as_const().unwrap_or(0.0)), *t),
                    )
                }
                b => Expr::binary(op, a, b),
            }
        }
        BinaryOp::Sub => {
            if is_const(&b, 0.0) {
                return a;
            }
            if is_const(&a, 0.0) {
                return unary(UnaryOp::Neg, b);
            }
            if a == b {
                return Expr::Const(0.0);
            }
            match b {
                Expr::Unary(UnaryOp::Neg, t) => Expr::Binary(BinaryOp::Add, Box::new(a), t),
                Expr::Const(c) if c < 0.0 => Expr::binary(BinaryOp::Add, a, Expr::Const(-c)),
                b => Expr::binary(op, a, b),
            }
        }
        BinaryOp::Mul => {
            if is_const(&a, 0.0) || is_const(&b, 0.0) {
                return Expr::Const(0.0);
            }
            if is_const(&a, 1.0) {
                return b;
            }
            if is_const(&b, 1.0) {
                return a;
            }
            if is_const(&a, -1.0) {
                return unary(UnaryOp::Neg, b);
            }
            if is_const(&b, -1.0) {
                return unary(UnaryOp::Neg, a);
            }
            match (a, b) {
                // Constants first.
                (a, Expr::Const(c)) => Expr::binary(BinaryOp::Mul, Expr::Const(c), a),
                (Expr::Const(c1), Expr::Binary(BinaryOp::Mul, c2, x)) if c2.as_const().is_some() => {
                    let v = c1 * c2.as_const().unwrap_or(1.0);
                    if v.is_finite() {
                        binary(BinaryOp::Mul, Expr::Const(v), *x)
                    } else {
                        Expr::binary(BinaryOp::Mul, Expr::Const(c1), Expr::Binary(BinaryOp::Mul, c2, x))
                    }
                }
                (Expr::Const(c1), Expr::Binary(BinaryOp::Div, c2, x)) if c2.as_const().is_some() => {
                    let v = c1 * c2.as_const().unwrap_or(1.0);
                    if v.is_finite() {
                        Expr::binary(BinaryOp::Div, Expr::Const(v), *x)
                    } else {
                        Expr::binary(BinaryOp::Mul, Expr::Const(c1), Expr::Binary(BinaryOp::Div, c2, x))
                    }
                }
                (a, b) => Expr::binary(op, a, b),
            }
        }
        BinaryOp::Div => {
            if is_const(&b, 1.0) {
                return a;
            }
            if is_const(&a, 0.0) {
                return Expr::Const(0.0);
            }
            Expr::binary(op, a, b)
        }
        BinaryOp::Pow => {
            if is_const(&b, 1.0) {
                return a;
            }
            if is_const(&b, 0.0) {
                return Expr::Const(1.0);
            }
            Expr::binary(op, a, b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval_point;
    use crate::expr::CmpOp;

    fn x(i: usize) -> Expr {
        Expr::var(i)
    }

    #[test]
    fn trivial_forms() {
        assert_eq!(simplify(&(x(0) * 1.0 + 0.0)), x(0));
        assert_eq!(simplify(&(1.0 * x(0) - 0.0)), x(0));
        assert_eq!(simplify(&(0.0 * x(0) + 3.0)), Expr::Const(3.0));
        assert_eq!(simplify(&(Expr::Const(2.0) * 3.0 + x(1))), 6.0 + x(1));
        assert_eq!(simplify(&(x(0) * 0.5)), 0.5 * x(0));
        assert_eq!(simplify(&(2.0 * (3.0 * x(0)))), 6.0 * x(0));
        assert_eq!(simplify(&(3.0 * (1.0 / x(0)))), 3.0 / x(0));
        assert_eq!(simplify(&(x(0) + -2.0)), x(0) - 2.0);
        assert_eq!(simplify(&(x(0) + -2.0 * x(1))), x(0) - 2.0 * x(1));
        assert_eq!(simplify(&(x(0) + (-1.0) * x(1))), x(0) - x(1));
        assert_eq!(simplify(&(x(0) + -2.0 / x(1))), x(0) - 2.0 / x(1));
        assert_eq!(simplify(&-(-x(0))), x(0));
        assert_eq!(simplify(&x(0).pow(Expr::Const(1.0))), x(0));
        assert_eq!(simplify(&(x(0) - x(0))), Expr::Const(0.0));
        let same = Expr::if_else(Cond::var_gt(0, 3.0), x(1) * 1.0, x(1));
        assert_eq!(simplify(&same), x(1));
        let constant_cond = Expr::if_else(Cond::cmp(CmpOp::Gt, Expr::Const(2.0), Expr::Const(1.0)), x(0), x(1));
        assert_eq!(simplify(&constant_cond), x(0));
        // Not folded: the result would not be finite.
        assert_eq!(simplify(&(Expr::Const(1.0) / 0.0)), Expr::Const(1.0) / 0.0);
    }

    #[test]
    fn simplified_evaluates_the_same() {
        let exprs = vec![
            -(2.0 * x(0) - x(1)) + 0.0 * x(1),
            (x(0) * 2.0) * 3.0 + -1.0 * (x(1) / 1.0),
            Expr::if_else(Cond::var_gt(1, 0.5).negate().negate(), x(0) * -1.0, x(1).powi(1)),
        ];
        for e in &exprs {
            let s = simplify(e);
            for p in [[1.0, 2.0], [3.5, -1.0], [100.0, 0.25]] {
                assert!((eval_point(e, &p) - eval_point(&s, &p)).abs() < 1e-12, "{e} vs {s}");
            }
            assert!(s.size() <= e.size());
        }
    }
}
