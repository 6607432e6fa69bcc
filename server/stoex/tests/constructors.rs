//! Building expressions in code (as the fitting engine will) and printing them.

mod common;
use beagle_stoex::{parse, print, BinaryOp, Characterisation, CompareOp, Expr, ExprKind, Span, UnaryOp};
use common::{p, sexpr};

#[test]
fn constructors_build_the_expected_trees_with_dummy_spans() {
    let e = Expr::binary(
        BinaryOp::Add,
        Expr::binary(
            BinaryOp::Mul,
            Expr::double(0.5),
            Expr::var("x", Characterisation::Value),
        ),
        Expr::binary(
            BinaryOp::Add,
            Expr::binary(
                BinaryOp::Mul,
                Expr::double(0.5),
                Expr::var("a.b", Characterisation::Value),
            ),
            Expr::double(0.5),
        ),
    );
    assert_eq!(e.span, Span::DUMMY);
    assert_eq!(print(&e), "0.5 * x.VALUE + (0.5 * a.b.VALUE + 0.5)");
    assert_eq!(e, p("0.5 * x.VALUE + (0.5 * a.b.VALUE + (0.5))"));
    assert!(e.same_tree(&p("0.5*x.VALUE+(0.5*a.b.VALUE+0.5)")));
    let ExprKind::Binary { rhs, .. } = &e.kind else {
        panic!()
    };
    let ExprKind::Binary { lhs, .. } = &rhs.kind else {
        panic!()
    };
    let ExprKind::Binary { rhs: var, .. } = &lhs.kind else {
        panic!()
    };
    assert_eq!(var.variable_text().as_deref(), Some("a.b.VALUE"));
}

#[test]
fn every_constructor_prints() {
    let c = Expr::if_else(
        Expr::compare(
            CompareOp::Ge,
            Expr::var("n", Characterisation::NumberOfElements),
            Expr::int(3),
        ),
        Expr::call("Max", vec![Expr::int(1), !Expr::bool(false)]),
        -Expr::string("s"),
    );
    assert_eq!(print(&c), "n.NUMBER_OF_ELEMENTS >= 3 ? Max(1, NOT false) : -\"s\"");
    assert_eq!(print(&Expr::int_pmf([(1, 0.5), (-2, 0.5)])), "IntPMF[(1;0.5)(-2;0.5)]");
    assert_eq!(print(&Expr::double_pmf([(1.5, 1.0)])), "DoublePMF[(1.5;1.0)]");
    assert_eq!(
        print(&Expr::double_pdf([(1.0, 0.0), (2.0, 1.0)])),
        "DoublePDF[(1.0;0.0)(2.0;1.0)]"
    );
    assert_eq!(print(&Expr::unary(UnaryOp::Neg, Expr::int(3))), "-3");
}

#[test]
fn negative_literals_print_as_prefix_minus() {
    // Double(-2.5) prints as "-2.5", which re-parses as Unary(Neg, 2.5);
    // `normalised` makes the two equal.
    let e = Expr::binary(BinaryOp::Pow, Expr::double(-2.5), Expr::int(2));
    assert_eq!(print(&e), "-2.5 ^ 2");
    let back = parse("-2.5 ^ 2").unwrap();
    assert_eq!(sexpr(&back), "(^ (neg 2.5) 2)");
    assert_ne!(back, e);
    assert_eq!(back.normalised(), e.normalised());
    // A negative operand where only a unary fits gets no extra parentheses,
    // a negated power does.
    assert_eq!(
        print(&Expr::binary(BinaryOp::Sub, Expr::int(1), Expr::int(-3))),
        "1 - -3"
    );
    assert_eq!(print(&-Expr::int(-3)), "--3");
    assert_eq!(
        print(&-Expr::binary(BinaryOp::Pow, Expr::int(2), Expr::int(2))),
        "-(2 ^ 2)"
    );
    assert_eq!(print(&Expr::double(-0.0)), "-0.0");
    assert_eq!(parse("-0.0").unwrap().normalised(), Expr::double(-0.0));
    assert_ne!(Expr::double(-0.0), Expr::double(0.0));
}

#[test]
fn normalised_folds_only_what_prints_the_same() {
    assert_eq!(p("-3").normalised(), Expr::int(-3));
    assert_eq!(p("--3").normalised(), -Expr::int(-3));
    assert_eq!(p("-0").normalised(), -Expr::int(0));
    assert_eq!(p("-x.VALUE").normalised(), p("-x.VALUE"));
    assert_eq!(
        p("Max(-1, 2 - -1.5)").normalised(),
        Expr::call(
            "Max",
            vec![
                Expr::int(-1),
                Expr::binary(BinaryOp::Sub, Expr::int(2), Expr::double(-1.5)),
            ]
        )
    );
}

#[test]
fn literals_text_cannot_hold_print_as_stand_ins() {
    assert_eq!(print(&Expr::double(f64::INFINITY)), "1.7976931348623157E308");
    assert_eq!(print(&Expr::double(f64::NEG_INFINITY)), "-1.7976931348623157E308");
    assert_eq!(print(&Expr::double(f64::NAN)), "0.0 / 0.0");
    assert_eq!(
        print(&Expr::binary(BinaryOp::Mul, Expr::int(2), Expr::double(f64::NAN))),
        "2 * (0.0 / 0.0)"
    );
    assert_eq!(print(&Expr::int(i64::MIN)), "-9223372036854775807 - 1");
    assert_eq!(
        print(&Expr::binary(BinaryOp::Mul, Expr::int(i64::MIN), Expr::int(2))),
        "(-9223372036854775807 - 1) * 2"
    );
    assert_eq!(
        print(&Expr::double_pmf([(f64::NAN, f64::INFINITY)])),
        "DoublePMF[(0.0;1.7976931348623157E308)]"
    );
    assert_eq!(
        print(&Expr::int_pmf([(i64::MIN, 1.0)])),
        "IntPMF[(-9223372036854775808;1.0)]"
    );
}

#[test]
fn equality_ignores_spans_but_not_values() {
    assert_eq!(p("1+2"), p(" ( 1 ) + 2 "));
    assert_ne!(p("1+2"), p("2+1"));
    assert_ne!(p("1"), p("1.0"));
    assert_eq!(Expr::double(f64::NAN), Expr::double(f64::NAN));
    assert_ne!(p("EnumPMF[('a';1)]"), p("EnumPMF(ordered)[('a';1)]"));
}
