//! The evaluator: arithmetic, logic, variables, functions and distributions
//! (by their expectations).

mod common;
use beagle_stoex::{eval, eval_number, parse, Span, Value};
use common::p;

fn env(name: &str) -> Option<f64> {
    match name {
        "files.NUMBER_OF_ELEMENTS" => Some(12.0),
        "audioRequest.Count.VALUE" => Some(3.0),
        "audioRequest.Size.VALUE" => Some(1000.0),
        "data.BYTESIZE" => Some(10.0),
        "seekSize.VALUE" => Some(4.0),
        "x.VALUE" => Some(2.0),
        "y.VALUE" => Some(-1.0),
        "zero.VALUE" => Some(0.0),
        "p.VALUE" => Some(0.25),
        _ => None,
    }
}

fn num(src: &str) -> f64 {
    eval_number(&p(src), &env).unwrap_or_else(|e| panic!("{src}: {}", e.message))
}

fn val(src: &str) -> Value {
    eval(&p(src), &env).unwrap_or_else(|e| panic!("{src}: {}", e.message))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[track_caller]
fn assert_num(src: &str, expected: f64) {
    let got = num(src);
    assert!(close(got, expected), "{src}: got {got}, expected {expected}");
}

fn error(src: &str) -> (Span, String) {
    let e = eval(&p(src), &env).expect_err(src);
    (e.span, e.message)
}

#[test]
fn arithmetic() {
    assert_num("1 + 2 * 3", 7.0);
    assert_num("(1 + 2) * 3", 9.0);
    assert_num("7 / 2", 3.5); // no integer division
    assert_num("7 % 3", 1.0);
    assert_num("-7 % 3", -1.0); // truncating, like Java
    assert_num("2 ^ 10", 1024.0);
    assert_num("-2^2", 4.0); // (-2)^2
    assert_num("-(2^2)", -4.0);
    assert_num("4 ^ 0.5", 2.0);
    assert_num("1 - 2 - 3", -4.0);
    assert_num("1000 * 1000 * 1000", 1e9);
    assert_num("1.5E-6 * 2E6", 3.0);
}

#[test]
fn variables_are_looked_up_by_full_text() {
    assert_num("audioRequest.Count.VALUE*audioRequest.Size.VALUE", 3000.0);
    assert_num("files.NUMBER_OF_ELEMENTS + 1", 13.0);
    assert_num("Trunc(data.BYTESIZE/seekSize.VALUE)-1", 1.0);
    assert_num("seekSize.VALUE * 27.0 / (1024*1024)", 4.0 * 27.0 / 1048576.0);
    assert_num("0.5 * x.VALUE + (0.5 * y.VALUE + (0.5))", 1.0);
}

#[test]
fn unknown_variable_is_an_error_naming_it() {
    let (span, message) = error("1 + nope.BYTESIZE");
    assert_eq!(message, "unknown variable `nope.BYTESIZE`");
    assert_eq!(span, Span::new(4, 17));
}

#[test]
fn division_and_remainder_by_zero_are_errors() {
    let (span, message) = error("1 + x.VALUE / zero.VALUE");
    assert_eq!(message, "division by zero");
    assert_eq!(span, Span::new(4, 24));
    assert_eq!(error("5 % 0").1, "remainder `%` by zero");
    assert_eq!(error("0.0 / 0.0").1, "division by zero");
}

#[test]
fn non_finite_results_are_errors() {
    assert_eq!(error("(-8) ^ 0.5").1, "the result of `^` is not a finite number");
    assert_eq!(error("1E308 * 10").1, "the result of `*` is not a finite number");
    assert_eq!(error("Sqrt(-1)").1, "the result of `Sqrt` is not a finite number");
    assert_eq!(error("log(0)").1, "the result of `log` is not a finite number");
}

#[test]
fn comparisons() {
    assert_eq!(val("audioRequest.Count.VALUE > 1"), Value::Bool(true));
    assert_eq!(val("2 < 1"), Value::Bool(false));
    assert_eq!(val("2 >= 2"), Value::Bool(true));
    assert_eq!(val("2 <= 1"), Value::Bool(false));
    assert_eq!(val("2 == 2.0"), Value::Bool(true));
    assert_eq!(val("2 <> 2"), Value::Bool(false));
    assert_eq!(val("\"a\" == 'a'"), Value::Bool(true));
    assert_eq!(val("\"a\" <> \"b\""), Value::Bool(true));
    assert_eq!(val("true == (1 < 2)"), Value::Bool(true));
    assert_eq!(
        error("\"a\" < \"b\"").1,
        "strings can only be compared with `==` and `<>`"
    );
    assert_eq!(error("\"a\" == 1").1, "cannot compare string \"a\" with number 1");
}

#[test]
fn boolean_logic() {
    assert_eq!(val("true AND false"), Value::Bool(false));
    assert_eq!(val("true OR false"), Value::Bool(true));
    assert_eq!(val("true XOR true"), Value::Bool(false));
    assert_eq!(val("NOT false"), Value::Bool(true));
    // OR binds tighter than AND: (false OR true) AND true.
    assert_eq!(val("false OR true AND true"), Value::Bool(true));
    assert_eq!(val("true AND false OR true"), Value::Bool(true));
    assert_eq!(
        error("NOT 3").1,
        "expected a boolean or a probability in [0, 1], found number 3"
    );
    assert_eq!(
        error("NOT \"x\"").1,
        "expected a boolean or a probability in [0, 1], found string \"x\""
    );
}

#[test]
fn probabilities_combine_as_independent_events() {
    assert_num("BoolPMF[(true;0.8)(false;0.2)]", 0.8);
    assert_num("NOT BoolPMF[(true;0.8)(false;0.2)]", 0.2);
    assert_num("p.VALUE AND 0.5", 0.125);
    assert_num("p.VALUE OR 0.5", 0.625);
    assert_num("p.VALUE XOR 0.5", 0.5);
    assert_num("p.VALUE AND true", 0.25);
    assert_num("BoolPMF[(true;0.8)(false;0.2)] ? 10 : 20", 12.0);
}

#[test]
fn conditionals() {
    assert_num("audioRequest.Count.VALUE > 1 ? 2 : 10", 2.0);
    assert_num("x.VALUE > 5 ? 2 : 10", 10.0);
    assert_eq!(
        val(r#"(b.VALUE == "true" ? true : (b.VALUE == "false" ? false : true ))"#
            .replace("b.VALUE", "'true'")
            .as_str()),
        Value::Bool(true)
    );
    // Only the chosen branch is evaluated.
    assert_num("true ? 1 : 1 / 0", 1.0);
    assert_num("false ? missing.VALUE : 2", 2.0);
    assert_eq!(val("true ? 'a' : 'b'"), Value::Str("a".into()));
}

#[test]
fn helper_functions() {
    assert_num("Trunc(2.7)", 2.0);
    assert_num("Trunc(-2.5)", -3.0); // floor, as stoex.md documents
    assert_num("Round(2.5)", 3.0);
    assert_num("Round(-2.5)", -2.0); // Java's Math.round
    assert_num("Ceil(2.1)", 3.0);
    assert_num("Sqrt(16)", 4.0);
    assert_num("Log(10, 1000)", 3.0); // Palladio's Log(base, value)
    assert_num("Log(2, 8)", 3.0);
    assert_num("Min(3, 1, 2)", 1.0);
    assert_num("Max(3, 1, 2)", 3.0);
    assert_num("log(exp((1.0 + y.VALUE)^2.0))", 0.0);
    assert_num("exp(1)", std::f64::consts::E);
    assert_num("log(exp(2))", 2.0);
}

#[test]
fn distributions_evaluate_to_their_means() {
    assert_num("Exp(4)", 0.25);
    assert_num("Norm(0.07,0.03)", 0.07);
    assert_num("Lognorm(1, 2)", (1.0f64 + 2.0).exp());
    assert_num("LognormMoments(0.4,x.VALUE)", 0.4);
    assert_num("Gamma(2, 3)", 6.0);
    assert_num("GammaMoments(5, 0.5)", 5.0);
    assert_num("UniDouble(1, 4)", 2.5);
    assert_num("UniInt(1, 4)", 2.5);
    assert_num("Pois(7)", 7.0);
    assert_num("Binom(10, 0.3)", 3.0);
    assert_eq!(error("Exp(0)").1, "the rate of `Exp` must be positive, found 0");
}

#[test]
fn functions_are_checked() {
    assert_eq!(error("Foo(1)").1, "unknown function `Foo`");
    assert_eq!(error("Norm(1)").1, "`Norm` takes 2 arguments, found 1");
    assert_eq!(error("Min()").1, "`Min` takes at least 1 argument, found 0");
    assert_eq!(
        error("MinDeviation(1, 2)").1,
        "`MinDeviation` cannot be evaluated by Beagle"
    );
    assert_eq!(error("Sqrt('a')").1, "expected a number, found string \"a\"");
}

#[test]
fn pmfs_evaluate_to_their_expectation() {
    assert_num("IntPMF[(27;0.1)(28;0.2)(29;0.6)(30;0.1)]", 28.7);
    assert_num("IntPMF[ (0;0.99) (1;0.01) ]", 0.01);
    assert_num(
        "saleTO.NUMBER_OF_ELEMENTS * IntPMF[ (0;0.99) (1;0.01) ]"
            .replace("saleTO", "files")
            .as_str(),
        0.12,
    );
    assert_num("DoublePMF[(1.2;0.5)(0.95;0.5)]", 1.075);
    // Probabilities are normalised by their sum.
    assert_num("DoublePMF[(2;3)(1;7)(3;2)]", (6.0 + 7.0 + 6.0) / 12.0);
    assert_num(
        "IntPMF[(73;0.12)(74;0.88)] * x.VALUE + (-IntPMF[(137;0.78)(138;0.22)])",
        73.88 * 2.0 - 137.22,
    );
    assert_eq!(error("EnumPMF[('a';1)]").1, "an EnumPMF has no numeric expectation");
    assert_eq!(
        error("IntPMF[(1;0)]").1,
        "the probabilities of this distribution do not sum to a positive number"
    );
}

#[test]
fn boxed_pdf_evaluates_by_interval_midpoints() {
    // Boxes (0,1], (1,2], (2,3] with midpoints 0.5, 1.5, 2.5.
    assert_num(
        "DoublePDF[ (1.0; 0.25000000) (2.0; 0.50000000) (3.0; 0.25000000) ]",
        1.5,
    );
    // A leading zero-probability sample only sets the lower bound.
    assert_num("DoublePDF[ (3.9E-4; 0.00000000) (4.0E-4; 1.00000000) ]", 3.95e-4);
}

#[test]
fn eval_number_maps_booleans_and_rejects_strings() {
    assert_eq!(num("1 < 2"), 1.0);
    assert_eq!(num("1 > 2"), 0.0);
    let e = eval_number(&p("'abc'"), &env).unwrap_err();
    assert_eq!(e.message, "expected a number, found string \"abc\"");
    assert_eq!(Value::Bool(true).as_f64(), Some(1.0));
    assert_eq!(Value::Str("x".into()).as_f64(), None);
    assert_eq!(Value::Number(2.5).as_f64(), Some(2.5));
}

#[test]
fn booleans_count_as_one_and_zero_in_arithmetic() {
    assert_num("true + true", 2.0);
    assert_num("(1 < 2) * 5", 5.0);
}

#[test]
fn constructed_expressions_evaluate() {
    use beagle_stoex::{BinaryOp, Characterisation, Expr};
    let e = Expr::binary(
        BinaryOp::Add,
        Expr::binary(
            BinaryOp::Mul,
            Expr::double(0.5),
            Expr::var("files", Characterisation::NumberOfElements),
        ),
        Expr::double(-2.5),
    );
    assert_eq!(eval_number(&e, &env).unwrap(), 3.5);
    assert_eq!(eval_number(&Expr::int(i64::MIN), &env).unwrap(), i64::MIN as f64);
    assert!(eval_number(&Expr::double(f64::NAN), &env).is_err());
    // Printing and re-parsing keeps the value.
    let again = parse(&beagle_stoex::print(&e)).unwrap();
    assert_eq!(eval_number(&again, &env).unwrap(), 3.5);
}
