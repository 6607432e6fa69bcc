//! The linter and `variables`.

mod common;
use beagle_stoex::{lint, variables, Expr, Lint, Severity, Span};
use common::p;

fn messages(src: &str) -> Vec<String> {
    lint(&p(src)).into_iter().map(|l| l.message).collect()
}

fn warnings(src: &str) -> Vec<Lint> {
    lint(&p(src))
        .into_iter()
        .filter(|l| l.severity == Severity::Warning)
        .collect()
}

#[test]
fn real_expressions_are_clean() {
    for src in [
        "audioRequest.Count.VALUE*audioRequest.Size.VALUE",
        "1.0512*audios.BYTESIZE+ 400000000",
        "Norm(0.07,0.03)",
        "saleTO.NUMBER_OF_ELEMENTS * IntPMF[ (0;0.99) (1;0.01) ]",
        "IntPMF[ (1;0.1) (2;0.5) (3;0.2) (4;0.2) ]",
        "DoublePDF[ (1.0; 0.25000000) (2.0; 0.50000000) (3.0; 0.25000000) ]",
        "DoublePDF[ (3.9E-4; 0.00000000) (4.0E-4; 1.00000000) ]",
        "Exp(1)",
        "Trunc(data.BYTESIZE/seekSize.VALUE)-1",
        "LognormMoments(0.4,c.VALUE)",
        "IntPMF[ (10;0.2) (30;0.1) (60;0.7) ]",
        "DoublePMF[(1.2;0.5)(0.95;0.5)]",
        "BoolPMF[(true;0.8)(false;0.2)]",
        "IntPMF[(27;0.1)(28;0.2)(29;0.6)(30;0.1)]",
        "Log(2, x.VALUE) + Min(1, 2, 3)",
    ] {
        assert_eq!(lint(&p(src)), vec![], "{src}");
    }
}

#[test]
fn mediastore_rounded_probabilities_do_not_warn() {
    let src = "IntPMF[(38303999; 0.142857)(38304000; 0.142857)(38304001; 0.142857)(38304002; 0.142857)(38304003; 0.142857)(38304004; 0.142857)(88216000; 0.142858)]";
    assert_eq!(lint(&p(src)), vec![]);
}

#[test]
fn family_pmf_that_does_not_sum_to_one_warns() {
    let src = "DoublePMF[(2;3)(1;7)(3;2)]";
    assert_eq!(
        lint(&p(src)),
        vec![Lint {
            span: Span::new(0, 26),
            severity: Severity::Warning,
            message: "the probabilities of this DoublePMF sum to 12 instead of 1".into(),
        }]
    );
}

#[test]
fn sums_just_outside_the_tolerance_warn() {
    assert_eq!(warnings("IntPMF[(1;0.5)(2;0.4985)]").len(), 1);
    assert_eq!(warnings("IntPMF[(1;0.5)(2;0.4995)]").len(), 0);
    assert_eq!(warnings("BoolPMF[(true;0.5)]").len(), 1);
    assert_eq!(warnings("EnumPMF[('a';0.5)('b';0.6)]").len(), 1);
    assert_eq!(warnings("DoublePDF[(1;0.5)(2;0.6)]").len(), 1);
}

#[test]
fn negative_probabilities_warn_at_the_sample() {
    let src = "IntPMF[(1;1.5)(2;-0.5)]";
    assert_eq!(
        warnings(src),
        vec![Lint {
            span: Span::new(14, 22),
            severity: Severity::Warning,
            message: "probability -0.5 is negative".into(),
        }]
    );
}

#[test]
fn pdf_points_must_increase() {
    let src = "DoublePDF[(1;0.5)(3;0.25)(2;0.25)]";
    assert_eq!(
        warnings(src),
        vec![Lint {
            span: Span::new(25, 33),
            severity: Severity::Warning,
            message: "DoublePDF sample points must increase: 2 follows 3".into(),
        }]
    );
    assert_eq!(warnings("DoublePDF[(1;0.5)(1;0.5)]").len(), 1);
}

#[test]
fn duplicate_pmf_values_warn() {
    assert_eq!(
        messages("IntPMF[(1;0.5)(1;0.5)]"),
        vec!["value 1 appears more than once"]
    );
    assert_eq!(
        messages("EnumPMF[('a';0.5)(\"a\";0.5)]"),
        vec!["value \"a\" appears more than once"]
    );
    assert_eq!(
        messages("DoublePMF[(0.0;0.5)(-0.0;0.5)]"),
        vec!["value -0 appears more than once"]
    );
}

#[test]
fn unknown_functions_warn() {
    let l = warnings("1 + Foo(2)");
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].span, Span::new(4, 10));
    assert!(
        l[0].message
            .starts_with("unknown function `Foo`; Palladio knows Exp, Norm,"),
        "{}",
        l[0].message
    );
    assert!(messages("sqrt(4)")[0].starts_with("unknown function `sqrt` (did you mean `Sqrt`?)"));
}

#[test]
fn lowercase_log_and_exp_parse_but_warn() {
    let m = messages("log(exp((1.0 + y.VALUE)^2.0))");
    assert_eq!(
        m,
        vec![
            "`log` is not known to Palladio's analysers (it means natural logarithm (written by CIPM; unknown to Palladio)); use a Palladio function instead",
            "`exp` is not known to Palladio's analysers (it means e^x (written by CIPM; unknown to Palladio)); use a Palladio function instead",
        ]
    );
}

#[test]
fn wrong_arity_warns() {
    assert_eq!(messages("Norm(1)"), vec!["`Norm` takes 2 arguments, found 1"]);
    assert_eq!(messages("Exp(1, 2)"), vec!["`Exp` takes 1 argument, found 2"]);
    assert_eq!(messages("Log(8)"), vec!["`Log` takes 2 arguments, found 1"]);
    assert_eq!(messages("Max()"), vec!["`Max` takes at least 1 argument, found 0"]);
}

#[test]
fn functions_without_a_signature_are_info() {
    let l = lint(&p("MinDeviation(1, 2)"));
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].severity, Severity::Info);
}

#[test]
fn ints_beyond_32_bits_warn() {
    assert_eq!(
        messages("3400000000"),
        vec!["integer 3400000000 is outside Palladio's 32-bit int range; write it as a double"]
    );
    assert_eq!(messages("2147483647"), Vec::<String>::new());
    assert_eq!(messages("IntPMF[(-2147483649;1)]").len(), 1);
}

#[test]
fn constructed_trees_that_cannot_print_faithfully_warn() {
    assert_eq!(lint(&Expr::double(f64::NAN)).len(), 1);
    assert_eq!(lint(&Expr::double_pmf([(f64::INFINITY, 1.0)])).len(), 1);
    assert_eq!(lint(&Expr::int_pmf([])).len(), 1);
    assert_eq!(lint(&Expr::var("a b", beagle_stoex::Characterisation::Value)).len(), 1);
    assert_eq!(lint(&Expr::call("VALUE", vec![])).len(), 1);
}

#[test]
fn lints_serialise_to_json_friendly_values() {
    // Span and Severity are serde-serialisable for the CLI's JSON output.
    fn assert_serialize<T: serde::Serialize>(_: &T) {}
    let l = lint(&p("Foo()"));
    assert_serialize(&l);
}

#[test]
fn variables_are_distinct_in_order_of_appearance() {
    assert_eq!(
        variables(&p("files.NUMBER_OF_ELEMENTS * 2")),
        vec!["files.NUMBER_OF_ELEMENTS"]
    );
    assert_eq!(
        variables(&p(
            "b.VALUE + a.b.VALUE * b.VALUE - Max(c.BYTESIZE, a.b.VALUE) > 0 ? d.TYPE : b.VALUE"
        )),
        vec!["b.VALUE", "a.b.VALUE", "c.BYTESIZE", "d.TYPE"]
    );
    assert_eq!(variables(&p("1 + 2")), Vec::<String>::new());
    assert_eq!(variables(&p("x.VALUE + x.BYTESIZE")), vec!["x.VALUE", "x.BYTESIZE"]);
}
