//! A StoEx times a constant, the constant carried into the expression's own constants where its
//! form allows (`2 * x + 3` times 1.1 is `2.2 * x + 3.3`), so that a law stays readable when it is
//! calibrated or converted into another unit.

use crate::{format_double, parse, print, BinaryOp, Expr, ExprKind, UnaryOp};

/// `factor · spec` as StoEx text, each constant it changes rounded to `digits` significant
/// digits; a specification that does not parse is wrapped whole.
pub fn scaled_text(spec: &str, factor: f64, digits: i32) -> String {
    match parse(spec) {
        Ok(e) => print(&scaled(&e, factor, digits)),
        Err(_) => format!("{} * ({spec})", format_double(round(factor, digits))),
    }
}

/// `v` rounded to `digits` significant digits.
pub fn round(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    let r = (v * scale).round() / scale;
    // Printed and read back, the shortest decimal that is the rounded value.
    format_double(r).parse().unwrap_or(r)
}

fn constant(e: &Expr) -> Option<f64> {
    match e.kind {
        ExprKind::Int(i) => Some(i as f64),
        ExprKind::Double(d) => Some(d),
        _ => None,
    }
}

fn with(e: &Expr, kind: ExprKind) -> Expr {
    Expr { kind, span: e.span }
}

/// `s·e` (see the module documentation); anything whose constants cannot take the factor is
/// multiplied whole.
pub fn scaled(e: &Expr, s: f64, digits: i32) -> Expr {
    let boxed = |x: Expr| Box::new(x);
    let number = |v: f64| with(e, ExprKind::Double(round(v, digits)));
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Double(_) => number(constant(e).unwrap_or_default() * s),
        ExprKind::Binary {
            op: op @ (BinaryOp::Add | BinaryOp::Sub),
            lhs,
            rhs,
        } => with(
            e,
            ExprKind::Binary {
                op: *op,
                lhs: boxed(scaled(lhs, s, digits)),
                rhs: boxed(scaled(rhs, s, digits)),
            },
        ),
        ExprKind::Binary {
            op: op @ (BinaryOp::Mul | BinaryOp::Div),
            lhs,
            rhs,
        } if constant(lhs).is_some() => with(
            e,
            ExprKind::Binary {
                op: *op,
                lhs: boxed(scaled(lhs, s, digits)),
                rhs: rhs.clone(),
            },
        ),
        ExprKind::Binary {
            op: BinaryOp::Mul,
            lhs,
            rhs,
        } if constant(rhs).is_some() => with(
            e,
            ExprKind::Binary {
                op: BinaryOp::Mul,
                lhs: lhs.clone(),
                rhs: boxed(scaled(rhs, s, digits)),
            },
        ),
        ExprKind::Unary { op: UnaryOp::Neg, expr } => with(
            e,
            ExprKind::Unary {
                op: UnaryOp::Neg,
                expr: boxed(scaled(expr, s, digits)),
            },
        ),
        ExprKind::IfElse { cond, then, else_ } => with(
            e,
            ExprKind::IfElse {
                cond: cond.clone(),
                then: boxed(scaled(then, s, digits)),
                else_: boxed(scaled(else_, s, digits)),
            },
        ),
        _ => with(
            e,
            ExprKind::Binary {
                op: BinaryOp::Mul,
                lhs: boxed(number(s)),
                rhs: Box::new(e.clone()),
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_factor_goes_into_the_laws_constants() {
        assert_eq!(scaled_text("0.5", 0.9, 4), "0.45");
        assert_eq!(scaled_text("1.1E-5 * data.BYTESIZE", 0.9, 4), "9.9E-6 * data.BYTESIZE");
        assert_eq!(scaled_text("2 * n.VALUE + 3", 1.1, 4), "2.2 * n.VALUE + 3.3");
        assert_eq!(
            scaled_text("n.VALUE > 10 ? 4 : 2", 0.5, 4),
            "n.VALUE > 10 ? 2.0 : 1.0",
            "a condition's sides"
        );
        assert_eq!(scaled_text("n.VALUE ^ 2", 2.0, 4), "2.0 * n.VALUE ^ 2");
        assert_eq!(scaled_text("1/3", 3.0, 4), "3.0 / 3", "a quotient's constant numerator");
    }

    #[test]
    fn a_unit_conversion_keeps_the_laws_digits() {
        // ms into work units at 1E9 per second: × 1E6, exact to 12 digits.
        assert_eq!(scaled_text("1.1E-5 * data.BYTESIZE", 1e6, 12), "11.0 * data.BYTESIZE");
        assert_eq!(scaled_text("0.0123456789", 1e6, 12), "12345.6789");
    }

    #[test]
    fn what_does_not_parse_is_wrapped_whole() {
        assert_eq!(scaled_text("n.VALUE +", 0.9, 4), "0.9 * (n.VALUE +)");
    }
}
