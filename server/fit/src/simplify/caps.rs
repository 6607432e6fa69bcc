//! Caps and floors: `min(x, C)` and `max(x, C)` as the plainest conditionals.
//!
//! A capped cost (`a + b·min(x, C)`: a buffer of at most `C` bytes, a pool of at most `C`
//! threads) comes out of MARS as a hinge, `a + b·C - b·if(x < C, C - x, 0)`, and out of the GP
//! in any of the equivalent conditionals. Their canonical forms: `min(a, b)` is
//! `if(a < b, a, b)` and `max(a, b)` is `if(a > b, a, b)`, an input before a constant;
//! [`crate::print::infix`] prints them `min(a, b)`, `max(a, b)` (the harness grammar has both),
//! StoEx as `a < b ? a : b`.
//!
//! - [`conditional`] (in [`super::simplify`]): the four spellings of each (`a > b ? b : a` is a
//!   `min`) become the canonical one, when both operands are inputs or constants (never NaN:
//!   with a NaN operand the spellings differ).
//! - [`caps`] (for the printed answer): in the sum at the top of a law, a hinge on an input that
//!   appears in no other term, `if(x < C, C - x, 0)` or `if(x > C, x - C, 0)`, is
//!   `C - min(x, C)` or `max(x, C) - C`, and a step whose sides meet at the threshold with one
//!   side flat, `if(x > C, a·C + b, a·x + b)`, is `a·min(x, C) + b`; constants are collected:
//!   `-0.001*if(x1 < 40000, 40000 - x1, 0) + 45` prints `0.001*min(x1, 40000) + 5`. A hinge
//!   beside other terms in the same input (a kink, a slope change) stays a hinge.

use super::scaled_terms;
use crate::expr::{BinaryOp, CmpOp, Cond, Expr};

/// `min(a, b)`: `if(a < b, a, b)`.
pub fn min(a: Expr, b: Expr) -> Expr {
    Expr::if_else(Cond::cmp(CmpOp::Lt, a.clone(), b.clone()), a, b)
}

/// `max(a, b)`: `if(a > b, a, b)`.
pub fn max(a: Expr, b: Expr) -> Expr {
    Expr::if_else(Cond::cmp(CmpOp::Gt, a.clone(), b.clone()), a, b)
}

/// `Some((true, a, b))` for `min(a, b)`, `Some((false, a, b))` for `max(a, b)` in canonical form.
pub fn as_min_max(e: &Expr) -> Option<(bool, &Expr, &Expr)> {
    let Expr::If(c, t, f) = e else {
        return None;
    };
    let Cond::Cmp(op, a, b) = c.as_ref() else {
        return None;
    };
    if **t != *a || **f != *b {
        return None;
    }
    match op {
        CmpOp::Lt => Some((true, a, b)),
        CmpOp::Gt => Some((false, a, b)),
        _ => None,
    }
}

/// Never NaN on finite inputs.
fn plain_operand(e: &Expr) -> bool {
    matches!(e, Expr::Var(_)) || matches!(e, Expr::Const(v) if v.is_finite())
}

/// `if(c, t, f)`, a `min` or `max` in canonical form (see the module documentation).
pub(super) fn conditional(c: Cond, t: Expr, f: Expr) -> Expr {
    if let Cond::Cmp(op, a, b) = &c {
        if plain_operand(a) && plain_operand(b) && a != b {
            // Which operand the conditional returns when `a op b` holds, and when not.
            let is_min = match op {
                CmpOp::Lt | CmpOp::Le => (t == *a && f == *b)
                    .then_some(true)
                    .or((t == *b && f == *a).then_some(false)),
                CmpOp::Gt | CmpOp::Ge => (t == *b && f == *a)
                    .then_some(true)
                    .or((t == *a && f == *b).then_some(false)),
                _ => None,
            };
            if let Some(is_min) = is_min {
                // An input before a constant, else the lower index first.
                let swap = match (a, b) {
                    (Expr::Const(_), Expr::Var(_)) => true,
                    (Expr::Var(i), Expr::Var(j)) => j < i,
                    _ => false,
                };
                let (a, b) = if swap {
                    (b.clone(), a.clone())
                } else {
                    (a.clone(), b.clone())
                };
                return if is_min { min(a, b) } else { max(a, b) };
            }
        }
    }
    Expr::if_else(c, t, f)
}

/// `(input, threshold, right)`: the hinge `if(x > C, x - C, 0)` (right) or `if(x < C, C - x, 0)`.
fn hinge(e: &Expr) -> Option<(usize, f64, bool)> {
    let Expr::If(c, t, f) = e else {
        return None;
    };
    let (Cond::Cmp(op, Expr::Var(v), Expr::Const(k)), Expr::Const(zero)) = (c.as_ref(), f.as_ref()) else {
        return None;
    };
    if *zero != 0.0 {
        return None;
    }
    let Expr::Binary(BinaryOp::Sub, l, r) = t.as_ref() else {
        return None;
    };
    match (op, l.as_ref(), r.as_ref()) {
        (CmpOp::Gt | CmpOp::Ge, Expr::Var(u), Expr::Const(k2)) if u == v && k2 == k => Some((*v, *k, true)),
        (CmpOp::Lt | CmpOp::Le, Expr::Const(k2), Expr::Var(u)) if u == v && k2 == k => Some((*v, *k, false)),
        _ => None,
    }
}

/// `(a, b)` when `e` is `a·x_v + b`.
fn affine_in(e: &Expr, v: usize) -> Option<(f64, f64)> {
    let mut terms = Vec::new();
    scaled_terms(e, 1.0, &mut terms);
    let (mut a, mut b) = (0.0, 0.0);
    for (c, t) in terms {
        match t {
            None => b += c,
            Some(Expr::Var(u)) if u == v => a += c,
            Some(_) => return None,
        }
    }
    Some((a, b))
}

/// The step `if(x > C, p, q)` (or `<`) as `(input, C, a, b, is_min)` when one side is a constant
/// the other, `a·x + b`, reaches at `C`: `a·min(x, C) + b` or `a·max(x, C) + b`.
fn flat_sided_step(e: &Expr) -> Option<(usize, f64, f64, f64, bool)> {
    let Expr::If(c, t, f) = e else {
        return None;
    };
    let Cond::Cmp(op, Expr::Var(v), Expr::Const(k)) = c.as_ref() else {
        return None;
    };
    let above = match op {
        CmpOp::Gt | CmpOp::Ge => true,
        CmpOp::Lt | CmpOp::Le => false,
        _ => return None,
    };
    // (the flat value, the sloped side, whether the flat side is above the threshold)
    let (flat, slope, flat_above) = match (t.as_const(), f.as_const()) {
        (Some(level), None) => (level, f.as_ref(), above),
        (None, Some(level)) => (level, t.as_ref(), !above),
        _ => return None,
    };
    let (a, b) = affine_in(slope, *v)?;
    let meets = (a * k + b - flat).abs() <= 1e-9 * flat.abs().max((a * k).abs()).max(f64::MIN_POSITIVE);
    (a != 0.0 && meets).then_some((*v, *k, a, b, flat_above))
}

/// The law with its caps and floors written as such (see the module documentation).
pub fn caps(e: &Expr) -> Expr {
    let mut terms = Vec::new();
    scaled_terms(e, 1.0, &mut terms);
    let uses = |v: usize, skip: usize| {
        terms
            .iter()
            .enumerate()
            .any(|(i, (_, t))| i != skip && t.as_ref().is_some_and(|t| t.variables().contains(&v)))
    };
    let mut out: Vec<(f64, Option<Expr>)> = Vec::new();
    let mut changed = false;
    for (i, (c, t)) in terms.iter().enumerate() {
        let Some(t) = t else {
            out.push((*c, None));
            continue;
        };
        if let Some((v, k, right)) = hinge(t).filter(|h| !uses(h.0, i)) {
            // if(x > C, x - C, 0) = max(x, C) - C; if(x < C, C - x, 0) = C - min(x, C).
            let x = Expr::var(v);
            if right {
                out.extend([(*c, Some(max(x, Expr::Const(k)))), (-c * k, None)]);
            } else {
                out.extend([(-c, Some(min(x, Expr::Const(k)))), (c * k, None)]);
            }
            changed = true;
        } else if let Some((v, k, a, b, is_min)) = flat_sided_step(t).filter(|s| !uses(s.0, i)) {
            let (x, k) = (Expr::var(v), Expr::Const(k));
            out.extend([(c * a, Some(if is_min { min(x, k) } else { max(x, k) })), (c * b, None)]);
            changed = true;
        } else {
            out.push((*c, Some(t.clone())));
        }
    }
    if !changed {
        return e.clone();
    }
    let sum = out
        .into_iter()
        .map(|(c, t)| match t {
            None => Expr::Const(c),
            Some(t) => Expr::Const(c) * t,
        })
        .reduce(|a, b| a + b)
        .unwrap_or(Expr::Const(0.0));
    super::mean(&[sum])
}
