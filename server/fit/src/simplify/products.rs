//! Products and quotients in one form, so that equal laws print alike: the constant factors of a
//! product folded into one leading constant (`x1*2` and `2*(3*x1)/3` are `2*x1`), equal factors
//! merged into a power (`x1*x1` is `x1^2`), the other factors in a fixed order (inputs by index,
//! then powers, functions, other operations, conditionals: `x2*x1` is `x1*x2`). A constant
//! divisor is folded into the leading constant when the quotient is a short decimal (`(6*x1)/3`
//! is `2*x1`, `(2*x1)/6` is `x1/3`) and kept otherwise (`floor(x1/2)`, `2*x1/3`: the integer
//! forms print their divisor).

use crate::expr::{BinaryOp, Expr, UnaryOp};
use crate::numeric::{round_significant, significant_digits};

/// Most significant digits of a folded quotient: `0.00078125` (`0.8/1024`) is folded, `2/3` not.
const SHORT: usize = 6;

/// Largest exponent that equal factors are merged into (`x^3`; the evaluator computes `x^2` and
/// `x^3` exactly as products).
const MERGE_UP_TO: f64 = 3.0;

/// `a/b` as a short decimal (float residue rounded away), when it is one.
pub(super) fn short_quotient(a: f64, b: f64) -> Option<f64> {
    let q = round_significant(a / b, 12);
    (q.is_finite() && q != 0.0 && significant_digits(q) <= SHORT).then_some(q)
}

/// The factors of a chain of `*`.
fn flatten(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Binary(BinaryOp::Mul, a, b) => {
            flatten(*a, out);
            flatten(*b, out);
        }
        other => out.push(other),
    }
}

/// A factor as `base^k` with a small positive integer exponent `k` (1 for any other factor).
fn power_of(e: Expr) -> (Expr, f64) {
    match e {
        Expr::Binary(BinaryOp::Pow, base, k) => match *k {
            Expr::Const(v) if (1.0..=MERGE_UP_TO).contains(&v) && v == v.trunc() => (*base, v),
            k => (Expr::Binary(BinaryOp::Pow, base, Box::new(k)), 1.0),
        },
        other => (other, 1.0),
    }
}

/// Order of factors: inputs (by index), powers, functions, other operations, conditionals; ties
/// by the printed text.
fn key(e: &Expr) -> (u8, usize, String) {
    let class = match e {
        Expr::Const(_) => 0,
        Expr::Var(_) => 1,
        Expr::Binary(BinaryOp::Pow, ..) => 2,
        Expr::Unary(..) => 3,
        Expr::Binary(..) => 4,
        Expr::If(..) => 5,
    };
    let first = e.variables().first().copied().unwrap_or(usize::MAX);
    (class, first, crate::print::infix(e))
}

/// `a*b` in canonical form (see the module documentation); `None` when the folded constant
/// would not be finite (the product is then left as it is).
pub(super) fn product(a: Expr, b: Expr) -> Option<Expr> {
    let mut factors = Vec::new();
    flatten(a, &mut factors);
    flatten(b, &mut factors);
    let mut c = 1.0;
    let mut merged: Vec<(Expr, f64)> = Vec::new();
    for f in factors {
        if let Expr::Const(v) = f {
            c *= v;
            continue;
        }
        let (base, k) = power_of(f);
        match merged.iter_mut().find(|(b, m)| *b == base && *m + k <= MERGE_UP_TO) {
            Some(m) => m.1 += k,
            None => merged.push((base, k)),
        }
    }
    if !c.is_finite() {
        return None;
    }
    if c == 0.0 {
        return Some(Expr::Const(0.0));
    }
    let mut rest: Vec<Expr> = merged
        .into_iter()
        .map(|(b, k)| if k == 1.0 { b } else { b.pow(Expr::Const(k)) })
        .collect();
    rest.sort_by_cached_key(key);
    if rest.is_empty() {
        return Some(Expr::Const(c));
    }
    // Left to right, as the printer reads `c*a*b` back.
    if c != 1.0 && c != -1.0 {
        rest.insert(0, Expr::Const(c));
    }
    let body = rest
        .into_iter()
        .reduce(|acc, f| Expr::binary(BinaryOp::Mul, acc, f))
        .unwrap_or(Expr::Const(c));
    Some(if c == -1.0 {
        Expr::unary(UnaryOp::Neg, body)
    } else {
        body
    })
}

/// `(c, rest)` when `e` is a product with the leading constant `c` (canonical form).
pub(super) fn leading_constant(e: &Expr) -> Option<(f64, Expr)> {
    let Expr::Binary(BinaryOp::Mul, ..) = e else {
        return None;
    };
    let mut factors = Vec::new();
    flatten(e.clone(), &mut factors);
    let Expr::Const(c) = factors[0] else {
        return None;
    };
    let mut it = factors.into_iter().skip(1);
    let first = it.next()?;
    Some((c, it.fold(first, |acc, f| Expr::binary(BinaryOp::Mul, acc, f))))
}

/// `a/c` for a constant `c` (not 0 or 1): see the module documentation.
pub(super) fn over_constant(a: Expr, c: f64) -> Expr {
    let keep = |a: Expr| Expr::binary(BinaryOp::Div, a, Expr::Const(c));
    if let Some((c1, t)) = leading_constant(&a) {
        if let Some(q) = short_quotient(c1, c) {
            return product(Expr::Const(q), t.clone()).unwrap_or_else(|| keep(a));
        }
        // `(2*x1)/6` is `x1/3`.
        if let Some(d) = short_quotient(c, c1).filter(|d| *d == d.trunc() && d.abs() > 1.0) {
            return Expr::binary(BinaryOp::Div, t, Expr::Const(d));
        }
        return keep(a);
    }
    match a {
        // `(t/c1)/c` is `t/(c1·c)`.
        Expr::Binary(BinaryOp::Div, t, c1) if c1.as_const().is_some_and(|c1| (c1 * c).is_finite()) => {
            let d = c1.as_const().unwrap_or(1.0) * c;
            Expr::binary(BinaryOp::Div, *t, Expr::Const(d))
        }
        // `(c1/t)/c` is `(c1/c)/t`.
        Expr::Binary(BinaryOp::Div, c1, t) if c1.as_const().is_some_and(|c1| short_quotient(c1, c).is_some()) => {
            let q = short_quotient(c1.as_const().unwrap_or(0.0), c).unwrap_or(1.0);
            Expr::binary(BinaryOp::Div, Expr::Const(q), *t)
        }
        a => keep(a),
    }
}

/// `c/b` for a constant `c` and `b` a product with a leading constant: `(c/c2)/rest` when that
/// quotient is short.
pub(super) fn constant_over(c: f64, b: Expr) -> Expr {
    match leading_constant(&b).and_then(|(c2, t)| Some((short_quotient(c, c2)?, t))) {
        Some((q, t)) => Expr::binary(BinaryOp::Div, Expr::Const(q), t),
        None => Expr::binary(BinaryOp::Div, Expr::Const(c), b),
    }
}
