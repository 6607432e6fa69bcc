//! `simplify` and the printed caps keep the value of random expressions (issue 21: a canonical
//! form must not change the law it prints).

use beagle_fit::simplify::caps::caps;
use beagle_fit::{eval_point, simplify, BinaryOp, CmpOp, Cond, Expr, UnaryOp};
use proptest::prelude::*;

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        (0usize..3).prop_map(Expr::var),
        prop::sample::select(vec![
            -3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 6.0, 16.0, 40.0, 0.001
        ])
        .prop_map(Expr::Const),
    ]
}

fn unary() -> impl Strategy<Value = UnaryOp> {
    prop::sample::select(UnaryOp::ALL.to_vec())
}

fn binary() -> impl Strategy<Value = BinaryOp> {
    prop::sample::select(BinaryOp::ALL.to_vec())
}

fn cmp() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le])
}

/// Random trees with every node kind, and the shapes the rules look for: products and quotients
/// with constants, inverse functions, the spellings of `min` and `max`, hinges.
fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(5, 48, 4, |inner| {
        prop_oneof![
            (unary(), inner.clone()).prop_map(|(op, a)| Expr::unary(op, a)),
            (binary(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| Expr::binary(op, a, b)),
            (leaf(), inner.clone(), leaf()).prop_map(|(c, a, d)| (c * a) / d),
            inner.clone().prop_map(|a| a.exp().ln()),
            inner.clone().prop_map(|a| a.ln().exp()),
            (cmp(), leaf(), leaf(), any::<bool>()).prop_map(|(op, a, b, swap)| {
                let (t, f) = if swap {
                    (b.clone(), a.clone())
                } else {
                    (a.clone(), b.clone())
                };
                Expr::if_else(Cond::cmp(op, a, b), t, f)
            }),
            (0usize..3, leaf(), leaf(), inner.clone()).prop_map(|(v, k, c, rest)| {
                let hinge = Expr::if_else(
                    Cond::cmp(CmpOp::Lt, Expr::var(v), k.clone()),
                    k - Expr::var(v),
                    Expr::Const(0.0),
                );
                c * hinge + rest
            }),
            (cmp(), inner.clone(), inner.clone(), inner.clone(), inner).prop_map(|(op, l, r, a, b)| Expr::if_else(
                Cond::cmp(op, l, r),
                a,
                b
            )),
        ]
    })
}

/// The largest finite magnitude of any subexpression at `x`: rounding differences between
/// equivalent forms are relative to it (`(x*2)*3 - 6*x` is not exactly 0).
fn magnitude(e: &Expr, x: &[f64]) -> f64 {
    let own = eval_point(e, x).abs();
    let own = if own.is_finite() { own } else { 0.0 };
    let children = match e {
        Expr::Const(_) | Expr::Var(_) => 0.0,
        Expr::Unary(_, a) => magnitude(a, x),
        Expr::Binary(_, a, b) => magnitude(a, x).max(magnitude(b, x)),
        Expr::If(c, a, b) => {
            let cond = match c.as_ref() {
                Cond::Cmp(_, l, r) => magnitude(l, x).max(magnitude(r, x)),
                _ => 0.0,
            };
            cond.max(magnitude(a, x)).max(magnitude(b, x))
        }
    };
    own.max(children).max(1.0)
}

/// Whether `e` is ill-conditioned at `x`: a comparison within rounding of its boundary, the
/// argument of a `floor` or `ceil` within rounding of an integer, of a logarithm, root, divisor
/// or power base within rounding of 0. `log(exp(x)) >= x` may hold or not, and `exp(log(16))`
/// may floor to 15, depending on the last bit.
fn near_boundary(e: &Expr, x: &[f64]) -> bool {
    match e {
        Expr::Const(_) | Expr::Var(_) => false,
        Expr::Unary(UnaryOp::Floor | UnaryOp::Ceil, a) => {
            let v = eval_point(a, x);
            (v - v.round()).abs() <= 1e-9 * magnitude(a, x) || near_boundary(a, x)
        }
        // Near a pole or branch point the value is rounding noise (`log(log(exp(x)) - x)`).
        Expr::Unary(UnaryOp::Log | UnaryOp::Log2 | UnaryOp::Sqrt, a) => {
            zero_within_rounding(a, x) || near_boundary(a, x)
        }
        Expr::Binary(BinaryOp::Div, a, b) => zero_within_rounding(b, x) || near_boundary(a, x) || near_boundary(b, x),
        Expr::Binary(BinaryOp::Pow, a, b) => zero_within_rounding(a, x) || near_boundary(a, x) || near_boundary(b, x),
        Expr::Unary(_, a) => near_boundary(a, x),
        Expr::Binary(_, a, b) => near_boundary(a, x) || near_boundary(b, x),
        Expr::If(c, a, b) => {
            let here = match c.as_ref() {
                Cond::Cmp(_, l, r) => {
                    let (p, q) = (eval_point(l, x), eval_point(r, x));
                    (p - q).abs() <= 1e-9 * magnitude(l, x).max(magnitude(r, x))
                }
                _ => false,
            };
            here || near_boundary(a, x) || near_boundary(b, x)
        }
    }
}

/// Whether a subexpression of `e` leaves the normal range at `x`: not finite (`log(exp(a))` is
/// `a` where `exp(a)` overflows, `0*log(x)` is 0 where the logarithm is NaN) or subnormal
/// (`exp(-738)`: its logarithm is off in the fourth digit, and `a` is then the exact one).
fn extreme(e: &Expr, x: &[f64]) -> bool {
    let v = eval_point(e, x).abs();
    // A negative base: whether the exponent is an integer (a real power) is up to the last bit.
    let negative_base = matches!(e, Expr::Binary(BinaryOp::Pow, a, _) if eval_point(a, x) < 0.0);
    let own = !v.is_finite() || (v != 0.0 && !(1e-300..=1e300).contains(&v)) || negative_base;
    own || match e {
        Expr::Const(_) | Expr::Var(_) => false,
        Expr::Unary(_, a) => extreme(a, x),
        Expr::Binary(_, a, b) => extreme(a, x) || extreme(b, x),
        Expr::If(c, a, b) => {
            let cond = match c.as_ref() {
                Cond::Cmp(_, l, r) => extreme(l, x) || extreme(r, x),
                _ => false,
            };
            cond || extreme(a, x) || extreme(b, x)
        }
    }
}

/// Whether `e` is 0 up to the rounding of its subexpressions at `x`.
fn zero_within_rounding(e: &Expr, x: &[f64]) -> bool {
    eval_point(e, x).abs() <= 1e-9 * magnitude(e, x)
}

fn agree(e: &Expr, s: &Expr, x: &[f64]) -> Result<(), TestCaseError> {
    let (v, w) = (eval_point(e, x), eval_point(s, x));
    // Where the original is not finite the rules may give a value.
    if !near_boundary(e, x) && !extreme(e, x) {
        prop_assert!(
            (v - w).abs() <= 1e-9 * magnitude(e, x),
            "{} = {} but {} = {} at {:?}",
            e,
            v,
            s,
            w,
            x
        );
    }
    Ok(())
}

const POINTS: [[f64; 3]; 6] = [
    [1.0, 2.0, 3.0],
    [0.5, 40.0, 7.25],
    [16.0, 16.0, 0.001],
    [123.0, 0.75, 9.0],
    [3.0, 6.0, 40.0],
    [2.5, 1.5, 0.25],
];

proptest! {
    // Seeded: the same 2000 trees on every run.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(21),
        ..ProptestConfig::default()
    })]

    #[test]
    fn simplify_keeps_the_value_and_is_canonical(e in expr()) {
        let s = simplify(&e);
        for x in POINTS {
            agree(&e, &s, &x)?;
        }
        prop_assert!(s.size() <= e.size(), "{} grew to {}", e, s);
        // A canonical form is its own canonical form.
        prop_assert_eq!(simplify(&s), s.clone(), "{}", e);
    }

    #[test]
    fn caps_keep_the_value(e in expr()) {
        let s = simplify(&e);
        let c = caps(&s);
        for x in POINTS {
            agree(&s, &c, &x)?;
        }
    }
}
