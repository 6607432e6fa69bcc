//! Simplification to one canonical form, bottom-up, repeated to a fixed point, so that two equal
//! laws print the same (the GP's answers are exact but were not canonical):
//! - constant folding (only when the result is finite), `x+0`, `x-0`, `0-x`, `x*1`, `x*0`,
//!   `x/1`, `0/x`, `x^1`, `x^0`, `--x`, `-c`, `a + -b` -> `a - b`, `a + (-2)*b` -> `a - 2*b`,
//!   `if(c, a, a)` -> `a`, conditions between constants;
//! - products and quotients ([`products`]): constants folded into one leading factor across `*`
//!   and `/` (`x1*2`, `(6*x1)/3`, `3*(x1*2)/3` are all `2*x1`; `c*(1/x)` is `c/x`), equal
//!   factors merged into powers (`x1*x1` -> `x1^2`), the factors in a fixed order (`x2*x1` ->
//!   `x1*x2`); a divisor stays when the quotient is no short decimal (`floor(x1/2)`, `2*x1/3`);
//! - inverse functions: `log(exp(a))` -> `a`, `log2(2^a)` -> `a`, and `exp(log(a))` -> `a` only
//!   where `a >= 0` is known (a positive constant, `exp`, `sqrt`, `abs`, an even power, sums,
//!   products and quotients of those): elsewhere `exp(log(a))` is NaN for `a < 0`, and stays;
//! - `min` and `max` ([`caps`]): the four spellings of each become `if(a < b, a, b)` and
//!   `if(a > b, a, b)`.
//!
//! Sums keep their order (the analysers print terms by rank, `1/(1 + exp(-z))` is the logistic's
//! usual form; [`mean`] collects like terms and puts the constant last for the answer). `x*0 -> 0` and `0/x -> 0` drop a possible NaN of `x` (e.g. `0*log(x)` at `x = 0`);
//! the fit only produces them from a zero coefficient, where 0 is what is meant. Otherwise a
//! finite value is unchanged up to rounding (a property test checks it on random trees).

pub mod caps;
mod products;

use crate::eval::eval_cond_point;
use crate::expr::{BinaryOp, Cond, Expr, UnaryOp};
use products::{constant_over, leading_constant, over_constant, product};

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
            caps::conditional(c, a, b)
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
        (UnaryOp::Neg, p @ Expr::Binary(BinaryOp::Mul, ..)) => match leading_constant(&p) {
            Some((c, rest)) => binary(BinaryOp::Mul, Expr::Const(-c), rest),
            None => Expr::unary(UnaryOp::Neg, p),
        },
        (UnaryOp::Log, Expr::Unary(UnaryOp::Exp, inner)) => *inner,
        (UnaryOp::Exp, Expr::Unary(UnaryOp::Log, inner)) if non_negative(&inner) => *inner,
        (UnaryOp::Log2, Expr::Binary(BinaryOp::Pow, base, inner)) if is_const(&base, 2.0) => *inner,
        (op, a) => Expr::unary(op, a),
    }
}

/// Whether `e >= 0` (or NaN) wherever it is defined: `exp(log(e))` is then `e`.
fn non_negative(e: &Expr) -> bool {
    match e {
        Expr::Const(v) => *v >= 0.0,
        Expr::Unary(UnaryOp::Exp | UnaryOp::Sqrt | UnaryOp::Abs, _) => true,
        Expr::Unary(UnaryOp::Floor | UnaryOp::Ceil, a) => non_negative(a),
        Expr::Binary(BinaryOp::Pow, a, k) => non_negative(a) || matches!(**k, Expr::Const(v) if v % 2.0 == 0.0),
        Expr::Binary(BinaryOp::Add | BinaryOp::Mul | BinaryOp::Div, a, b) => non_negative(a) && non_negative(b),
        Expr::If(_, a, b) => non_negative(a) && non_negative(b),
        _ => false,
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
                Expr::Binary(BinaryOp::Div, c, t) if c.as_const().is_some_and(|c| c < 0.0) => Expr::binary(
                    BinaryOp::Sub,
                    a,
                    Expr::binary(BinaryOp::Div, Expr::Const(-c.as_const().unwrap_or(0.0)), *t),
                ),
                b => match leading_constant(&b) {
                    Some((c, rest)) if c < 0.0 => {
                        Expr::binary(BinaryOp::Sub, a, binary(BinaryOp::Mul, Expr::Const(-c), rest))
                    }
                    _ => Expr::binary(op, a, b),
                },
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
                b => match leading_constant(&b) {
                    Some((c, rest)) if c < 0.0 => {
                        Expr::binary(BinaryOp::Add, a, binary(BinaryOp::Mul, Expr::Const(-c), rest))
                    }
                    _ => Expr::binary(op, a, b),
                },
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
            let (a, b) = if b.as_const().is_some() { (b, a) } else { (a, b) };
            match (a, b) {
                // `c1*(c2/x)` is `(c1·c2)/x`; `c1*(t/c2)` is `(c1*t)/c2`, folded.
                (Expr::Const(c1), Expr::Binary(BinaryOp::Div, n, d))
                    if n.as_const().is_some() || d.as_const().is_some() =>
                {
                    match (n.as_const(), d.as_const()) {
                        (Some(c2), _) if (c1 * c2).is_finite() => Expr::binary(BinaryOp::Div, Expr::Const(c1 * c2), *d),
                        (_, Some(c2)) if c2 != 0.0 => match product(Expr::Const(c1), (*n).clone()) {
                            Some(p) => over_constant(p, c2),
                            None => Expr::binary(BinaryOp::Mul, Expr::Const(c1), Expr::Binary(BinaryOp::Div, n, d)),
                        },
                        _ => Expr::binary(BinaryOp::Mul, Expr::Const(c1), Expr::Binary(BinaryOp::Div, n, d)),
                    }
                }
                (a, b) => match product(a.clone(), b.clone()) {
                    Some(p) => p,
                    None => Expr::binary(op, a, b),
                },
            }
        }
        BinaryOp::Div => {
            if is_const(&b, 1.0) {
                return a;
            }
            if is_const(&a, 0.0) {
                return Expr::Const(0.0);
            }
            match (a.as_const(), b.as_const()) {
                (_, Some(c)) if c != 0.0 && c.is_finite() => over_constant(a, c),
                (Some(c), None) => constant_over(c, b),
                _ => Expr::binary(op, a, b),
            }
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

    /// Issue 21: equal laws print equally.
    #[test]
    fn equal_laws_print_equally() {
        use crate::parse::parse_infix;
        use crate::print::infix;
        let canonical = |s: &str| infix(&simplify(&parse_infix(s).unwrap()));
        for (a, b) in [
            ("log(exp(2*x1))", "2*x1"),
            ("(6*x1)/3", "2*x1"),
            ("x1*2", "2*x1"),
            ("3*(x1*2)/3", "2*x1"),
            ("2*(x1/4)", "0.5*x1"),
            ("x2*x1", "x1*x2"),
            ("x1*x1", "x1^2"),
            ("x1^2*x1", "x1^3"),
            ("x1*3*x2*0.5", "1.5*x1*x2"),
            ("log2(x1)*x1*0.02", "0.02*x1*log2(x1)"),
            ("(2*x1)/6", "x1/3"),
            ("(x1/2)/4", "x1/8"),
            ("6/(3*x1)", "2/x1"),
            ("log2(2^x1)", "x1"),
            ("exp(log(sqrt(x1)))", "sqrt(x1)"),
            ("exp(log(x1^2 + 1))", "x1^2 + 1"),
            ("if(x1 > 40000, 40000, x1)", "min(x1, 40000)"),
            ("if(40000 < x1, x1, 40000)", "max(x1, 40000)"),
            ("if(x2 <= x1, x2, x1)", "min(x1, x2)"),
            ("x1 + -2*x2*x3", "x1 - 2*x2*x3"),
            ("x1 - -0.5*x2*x3", "x1 + 0.5*x2*x3"),
            ("-(3*x1*x2)", "-3*x1*x2"),
        ] {
            assert_eq!(canonical(a), b, "{a}");
            assert_eq!(canonical(b), b, "{b} is canonical");
        }
        // Not equal everywhere (`exp(log(x))` is NaN for x < 0), or the divisor is the form.
        for s in [
            "exp(log(x1))",
            "floor(x1/2)",
            "ceil(x1/64)",
            "2*x1/3",
            "floor((x1 + 2)/4)",
            "(x1^2 - x1)/2",
            "1/(1 + exp(-0.01*x1 + 5))",
            "if(log(x1) > 2, 2, log(x1))",
        ] {
            assert_eq!(canonical(s), s);
        }
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

/// `e` as a sum of scaled terms `Σ cᵢ·tᵢ` (`None`: the constant term), seeing through `+`, `-`,
/// negation, and products and quotients with a constant.
pub(crate) fn scaled_terms(e: &Expr, factor: f64, out: &mut Vec<(f64, Option<Expr>)>) {
    match e {
        Expr::Const(v) => out.push((factor * v, None)),
        Expr::Binary(BinaryOp::Add, a, b) => {
            scaled_terms(a, factor, out);
            scaled_terms(b, factor, out);
        }
        Expr::Binary(BinaryOp::Sub, a, b) => {
            scaled_terms(a, factor, out);
            scaled_terms(b, -factor, out);
        }
        Expr::Unary(UnaryOp::Neg, a) => scaled_terms(a, -factor, out),
        Expr::Binary(BinaryOp::Mul, a, b) if matches!(a.as_ref(), Expr::Const(_)) => {
            let Expr::Const(c) = a.as_ref() else { unreachable!() };
            scaled_terms(b, factor * c, out);
        }
        Expr::Binary(BinaryOp::Mul, a, b) if matches!(b.as_ref(), Expr::Const(_)) => {
            let Expr::Const(c) = b.as_ref() else { unreachable!() };
            scaled_terms(a, factor * c, out);
        }
        Expr::Binary(BinaryOp::Div, a, b) if matches!(b.as_ref(), Expr::Const(c) if *c != 0.0) => {
            let Expr::Const(c) = b.as_ref() else { unreachable!() };
            scaled_terms(a, factor / c, out);
        }
        other => out.push((factor, Some(other.clone()))),
    }
}

/// The mean of `exprs` as one expression: like terms collected (`(0.0009 + (-2e-5*x1 + 0.00093))/2`
/// is `-1e-5*x1 + 0.000915`), coefficients without float residue (12 significant digits).
pub fn mean(exprs: &[Expr]) -> Expr {
    let k = exprs.len().max(1) as f64;
    let mut all = Vec::new();
    for e in exprs {
        scaled_terms(e, 1.0 / k, &mut all);
    }
    // Like terms by their printed form, in order of first appearance; the constant last.
    let mut collected: Vec<(String, Expr, f64)> = Vec::new();
    let mut constant = 0.0;
    for (c, t) in all {
        match t {
            None => constant += c,
            Some(t) => {
                let key = crate::print::infix(&t);
                match collected.iter_mut().find(|(k, _, _)| *k == key) {
                    Some(entry) => entry.2 += c,
                    None => collected.push((key, t, c)),
                }
            }
        }
    }
    let clean = |v: f64| crate::numeric::round_significant(v, 12);
    let mut out: Option<Expr> = None;
    for (_, t, c) in collected {
        let c = clean(c);
        if c == 0.0 {
            continue;
        }
        let term = if c == 1.0 {
            t
        } else {
            Expr::Binary(BinaryOp::Mul, Box::new(Expr::Const(c)), Box::new(t))
        };
        out = Some(match out {
            None => term,
            Some(sum) => Expr::Binary(BinaryOp::Add, Box::new(sum), Box::new(term)),
        });
    }
    let constant = clean(constant);
    let e = match out {
        None => Expr::Const(constant),
        Some(sum) if constant == 0.0 => sum,
        Some(sum) => Expr::Binary(BinaryOp::Add, Box::new(sum), Box::new(Expr::Const(constant))),
    };
    simplify(&e)
}

#[cfg(test)]
mod mean_tests {
    use super::*;
    use crate::parse::parse_infix;
    use crate::print::infix;

    #[test]
    fn the_mean_collects_like_terms() {
        let m = |a: &str, b: &str| infix(&mean(&[parse_infix(a).unwrap(), parse_infix(b).unwrap()]));
        assert_eq!(m("0.0008825", "-2e-5*x1 + 0.00093"), "-1e-5*x1 + 0.00090625");
        assert_eq!(m("0.19835", "0.06"), "0.129175");
        assert_eq!(m("2*x1 + 1", "4*x1 - 1"), "3*x1");
        assert_eq!(m("sqrt(x1)", "x1/2"), "0.5*sqrt(x1) + 0.25*x1");
        assert_eq!(m("if(x1 > 5, 1, 0)", "if(x1 > 5, 1, 0)"), "if(x1 > 5, 1, 0)");
    }
}
