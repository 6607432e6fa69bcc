//! One test per grammar rule, precedence quirk and literal form.

mod common;
use beagle_stoex::{parse, Characterisation, ExprKind, Span};
use common::{canon, p, tree};

// ----- precedence and associativity ------------------------------------

#[test]
fn and_binds_looser_than_or_and_xor() {
    assert_eq!(
        tree("a.VALUE OR b.VALUE AND c.VALUE"),
        "(AND (OR a.VALUE b.VALUE) c.VALUE)"
    );
    assert_eq!(
        tree("a.VALUE AND b.VALUE OR c.VALUE"),
        "(AND a.VALUE (OR b.VALUE c.VALUE))"
    );
    assert_eq!(
        tree("a.VALUE XOR b.VALUE AND c.VALUE"),
        "(AND (XOR a.VALUE b.VALUE) c.VALUE)"
    );
    assert_eq!(
        canon("(a.VALUE AND b.VALUE) OR c.VALUE"),
        "(a.VALUE AND b.VALUE) OR c.VALUE"
    );
    assert_eq!(
        canon("a.VALUE OR (b.VALUE AND c.VALUE)"),
        "a.VALUE OR (b.VALUE AND c.VALUE)"
    );
}

#[test]
fn and_or_xor_are_left_associative() {
    assert_eq!(tree("true AND false AND true"), "(AND (AND true false) true)");
    assert_eq!(tree("true OR false XOR true"), "(XOR (OR true false) true)");
    assert_eq!(canon("true AND (false AND true)"), "true AND (false AND true)");
    assert_eq!(canon("true OR (false XOR true)"), "true OR (false XOR true)");
    assert_eq!(canon("(true AND false) AND true"), "true AND false AND true");
}

#[test]
fn comparisons_bind_tighter_than_boolean_operators() {
    assert_eq!(tree("1 < 2 AND 3 >= 4"), "(AND (< 1 2) (>= 3 4))");
    assert_eq!(tree("1 == 2 OR 3 <> 4"), "(OR (== 1 2) (<> 3 4))");
}

#[test]
fn all_six_comparison_operators() {
    for op in [">", "<", "==", "<>", ">=", "<="] {
        let src = format!("1 {op} 2");
        assert_eq!(tree(&src), format!("({op} 1 2)"));
        assert_eq!(canon(&src), src);
    }
}

#[test]
fn comparison_operands_are_sums() {
    assert_eq!(tree("1 + 2 > 3 * 4"), "(> (+ 1 2) (* 3 4))");
    // A comparison inside a comparison needs parentheses on either side.
    assert_eq!(canon("(1 < 2) == true"), "(1 < 2) == true");
    assert_eq!(canon("true == (1 < 2)"), "true == (1 < 2)");
}

#[test]
fn sum_and_product_are_left_associative() {
    assert_eq!(tree("1 - 2 - 3"), "(- (- 1 2) 3)");
    assert_eq!(tree("1 - 2 + 3"), "(+ (- 1 2) 3)");
    assert_eq!(tree("8 / 4 / 2"), "(/ (/ 8 4) 2)");
    assert_eq!(tree("8 % 3 * 2"), "(* (% 8 3) 2)");
    assert_eq!(canon("1 - (2 - 3)"), "1 - (2 - 3)");
    assert_eq!(canon("1 - (2 + 3)"), "1 - (2 + 3)");
    assert_eq!(canon("1 + (2 + 3)"), "1 + (2 + 3)");
    assert_eq!(canon("8 / (4 / 2)"), "8 / (4 / 2)");
    assert_eq!(canon("8 / (4 * 2)"), "8 / (4 * 2)");
    assert_eq!(canon("(1 - 2) - 3"), "1 - 2 - 3");
}

#[test]
fn product_binds_tighter_than_sum() {
    assert_eq!(tree("1 + 2 * 3"), "(+ 1 (* 2 3))");
    assert_eq!(tree("1 * 2 + 3"), "(+ (* 1 2) 3)");
    assert_eq!(canon("(1 + 2) * 3"), "(1 + 2) * 3");
    assert_eq!(canon("1 + (2 * 3)"), "1 + 2 * 3");
}

#[test]
fn power_binds_tighter_than_product_and_is_not_associative() {
    assert_eq!(tree("2 * 3 ^ 4"), "(* 2 (^ 3 4))");
    assert_eq!(tree("2 ^ 3 * 4"), "(* (^ 2 3) 4)");
    assert_eq!(canon("(2 ^ 3) ^ 4"), "(2 ^ 3) ^ 4");
    assert_eq!(canon("2 ^ (3 ^ 4)"), "2 ^ (3 ^ 4)");
    assert_eq!(canon("(2 * 3) ^ 4"), "(2 * 3) ^ 4");
    assert_eq!(canon("2 ^ (3 * 4)"), "2 ^ (3 * 4)");
}

#[test]
fn prefix_minus_binds_tighter_than_power() {
    assert_eq!(tree("-2^2"), "(^ (neg 2) 2)");
    assert_eq!(tree("2^-2"), "(^ 2 (neg 2))");
    assert_eq!(canon("-2^2"), "-2 ^ 2");
    assert_eq!(canon("-(2^2)"), "-(2 ^ 2)");
    assert_eq!(canon("2 ^ -2"), "2 ^ -2");
}

#[test]
fn prefix_operators_repeat() {
    assert_eq!(tree("--3"), "(neg (neg 3))");
    assert_eq!(tree("- - 3"), "(neg (neg 3))");
    assert_eq!(tree("NOT NOT true"), "(not (not true))");
    assert_eq!(tree("-NOT true"), "(neg (not true))");
    assert_eq!(tree("NOT -1"), "(not (neg 1))");
    assert_eq!(canon("- - 3"), "--3");
    assert_eq!(canon("NOT NOT true"), "NOT NOT true");
    assert_eq!(canon("NOT(x.VALUE)"), "NOT x.VALUE");
    assert_eq!(canon("NOT (1 < 2)"), "NOT (1 < 2)");
}

#[test]
fn minus_after_binary_operator_is_prefix() {
    assert_eq!(tree("1 - -2"), "(- 1 (neg 2))");
    assert_eq!(tree("1--2"), "(- 1 (neg 2))");
    assert_eq!(tree("3 * -x.VALUE"), "(* 3 (neg x.VALUE))");
    assert_eq!(canon("1--2"), "1 - -2");
}

#[test]
fn conditional_is_loosest_and_parts_are_or_chains() {
    assert_eq!(
        tree("a.VALUE > 1 AND b.VALUE ? 1 + 2 : 3 * 4"),
        "(if (AND (> a.VALUE 1) b.VALUE) (+ 1 2) (* 3 4))"
    );
    assert_eq!(
        tree("true ? a.VALUE OR b.VALUE : false"),
        "(if true (OR a.VALUE b.VALUE) false)"
    );
}

#[test]
fn nested_conditionals_need_parentheses_everywhere() {
    assert_eq!(tree("(true ? 1 : 2) ? 3 : 4"), "(if (if true 1 2) 3 4)");
    assert_eq!(canon("(true ? 1 : 2) ? 3 : 4"), "(true ? 1 : 2) ? 3 : 4");
    assert_eq!(canon("true ? (false ? 1 : 2) : 3"), "true ? (false ? 1 : 2) : 3");
    assert_eq!(canon("true ? 1 : (false ? 2 : 3)"), "true ? 1 : (false ? 2 : 3)");
    assert_eq!(canon("1 + (true ? 1 : 2)"), "1 + (true ? 1 : 2)");
    assert_eq!(canon("((true ? 1 : 2))"), "true ? 1 : 2");
}

#[test]
fn parentheses_are_not_nodes_but_widen_spans() {
    let e = p("((1))");
    assert!(matches!(e.kind, ExprKind::Int(1)));
    assert_eq!(e.span, Span::new(0, 5));
    let e = p(" ( 1 + 2 ) * 3");
    let ExprKind::Binary { lhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(lhs.span, Span::new(1, 10));
    assert_eq!(e.span, Span::new(1, 14));
}

// ----- atoms -------------------------------------------------------------

#[test]
fn integer_literals() {
    assert_eq!(tree("0"), "0");
    assert_eq!(tree("42"), "42");
    assert_eq!(tree("3400000000"), "3400000000"); // beyond i32: parses, lint warns
    assert_eq!(tree("9223372036854775807"), "9223372036854775807");
    assert_eq!(tree("-3"), "(neg 3)");
}

#[test]
fn double_literals() {
    assert_eq!(tree("1."), "1.0");
    assert_eq!(tree("1.5"), "1.5");
    assert_eq!(tree("1.5E-6"), "1.5e-6");
    assert_eq!(tree("1.5e+6"), "1500000.0");
    assert_eq!(tree("2E5"), "200000.0");
    assert_eq!(tree("1.e3"), "1000.0");
    assert_eq!(tree("0.0"), "0.0");
    assert_eq!(tree("0E0"), "0.0");
    assert!(matches!(p("2E5").kind, ExprKind::Double(_)));
    assert!(matches!(p("1.").kind, ExprKind::Double(_)));
    assert!(matches!(p("10").kind, ExprKind::Int(10)));
}

#[test]
fn doubles_print_as_doubles_with_the_same_value() {
    assert_eq!(canon("2.0"), "2.0");
    assert_eq!(canon("1."), "1.0");
    assert_eq!(canon("1E-20"), "1.0E-20");
    assert_eq!(canon("1.5E300"), "1.5E300");
    assert_eq!(canon("2E5"), "200000.0");
    assert_eq!(canon("1E16"), "1.0E16");
    assert_eq!(canon("0.1"), "0.1");
    assert_eq!(canon("0.30000000000000004"), "0.30000000000000004");
    assert_eq!(canon("4.9E-324"), "5.0E-324");
    assert_eq!(canon("1.7976931348623157E308"), "1.7976931348623157E308");
}

#[test]
fn boolean_and_string_literals() {
    assert_eq!(tree("true"), "true");
    assert_eq!(tree("false"), "false");
    assert_eq!(tree(r#""polygon""#), r#""polygon""#);
    assert_eq!(tree("'single'"), r#""single""#);
    assert_eq!(canon("'single'"), r#""single""#);
    assert_eq!(canon(r#"'say "hi"'"#), r#""say \"hi\"""#);
}

#[test]
fn string_escapes_follow_java() {
    let ExprKind::String(s) = p(r#""a\tb\nc\rd\be\ff\"g\'h\\i\u00e9\uD83D\uDE00""#).kind else {
        panic!()
    };
    assert_eq!(s, "a\tb\nc\rd\u{8}e\u{c}f\"g'h\\i\u{e9}\u{1F600}");
    // Printing escapes what must be escaped and nothing else.
    assert_eq!(
        canon(r#""a\tb\nc\rd\be\ff\"g\'h\\i\u00e9\u0001""#),
        "\"a\\tb\\nc\\rd\\be\\ff\\\"g'h\\\\i\u{e9}\\u0001\""
    );
    // A raw newline inside a string is allowed, as in Xtext's STRING.
    assert_eq!(tree("\"a\nb\""), "\"a\\nb\"");
}

#[test]
fn characterised_variables() {
    for c in Characterisation::ALL {
        let src = format!("x.{}", c.as_str());
        assert_eq!(tree(&src), src);
    }
    assert_eq!(tree("a.b.c.VALUE"), "a.b.c.VALUE");
    assert_eq!(tree("list.INNER.VALUE"), "list.INNER.VALUE");
    assert_eq!(tree("_x1.VALUE"), "_x1.VALUE");
    assert_eq!(tree("graphic.TYPE == \"polygon\""), "(== graphic.TYPE \"polygon\")");
    let ExprKind::CharacterisedVariable { name, characterisation } = p("audioRequest.Count.VALUE").kind else {
        panic!()
    };
    assert_eq!(name, vec!["audioRequest", "Count"]);
    assert_eq!(characterisation, Characterisation::Value);
    // Whitespace and comments may separate the path's tokens, like in Xtext.
    assert_eq!(canon("a . b /*c*/ . VALUE"), "a.b.VALUE");
}

#[test]
fn characterisation_names_and_from_str() {
    assert_eq!(Characterisation::NumberOfElements.as_str(), "NUMBER_OF_ELEMENTS");
    assert_eq!("BYTESIZE".parse::<Characterisation>(), Ok(Characterisation::ByteSize));
    assert!("value".parse::<Characterisation>().is_err());
    for c in Characterisation::ALL {
        assert_eq!(c.as_str().parse::<Characterisation>(), Ok(c));
        assert_eq!(c.to_string(), c.as_str());
    }
}

#[test]
fn function_calls() {
    assert_eq!(tree("Foo()"), "(call Foo)");
    assert_eq!(tree("Min(1, 2, 3)"), "(call Min 1 2 3)");
    assert_eq!(
        tree("Max(a.VALUE AND b.VALUE, 1 < 2)"),
        "(call Max (AND a.VALUE b.VALUE) (< 1 2))"
    );
    assert_eq!(tree("Max((true ? 1 : 2), 3)"), "(call Max (if true 1 2) 3)");
    assert_eq!(canon("Max((true ? 1 : 2),3)"), "Max((true ? 1 : 2), 3)");
    assert_eq!(canon("Trunc( Norm(1,2) )"), "Trunc(Norm(1, 2))");
    assert_eq!(canon("Foo ( )"), "Foo()");
}

#[test]
fn probability_function_literals() {
    assert_eq!(tree("IntPMF[(-3;0.5)(3;0.5)]"), "(IntPMF -3:0.5 3:0.5)");
    assert_eq!(
        tree("DoublePMF[(-3;0.5)( - 2.5 ; 0.5 )]"),
        "(DoublePMF -3.0:0.5 -2.5:0.5)"
    );
    assert_eq!(tree("DoublePDF[(1;0)(2E1;1)]"), "(DoublePDF 1.0:0.0 20.0:1.0)");
    assert_eq!(
        tree(r#"EnumPMF[("circle";0.2)('rectangle';0.8)]"#),
        r#"(EnumPMF "circle":0.2 "rectangle":0.8)"#
    );
    assert_eq!(
        tree(r#"EnumPMF(ordered)[("a";0.5)("b";0.5)]"#),
        r#"(EnumPMF(ordered) "a":0.5 "b":0.5)"#
    );
    assert_eq!(tree("BoolPMF(ordered)[(true;1)]"), "(BoolPMF(ordered) true:1.0)");
    assert_eq!(
        canon("EnumPMF ( ordered ) [ ( 'a' ; 1 ) ]"),
        r#"EnumPMF(ordered)[("a";1.0)]"#
    );
    assert_eq!(canon("BoolPMF(ordered)[(true;1)]"), "BoolPMF(ordered)[(true;1.0)]");
    assert_eq!(canon("IntPMF[(-3;0.5)(3;0.5)]"), "IntPMF[(-3;0.5)(3;0.5)]");
    assert_eq!(canon("DoublePMF[(-0.0;1)]"), "DoublePMF[(-0.0;1.0)]");
    assert_eq!(
        canon("IntPMF[(-9223372036854775808;1)]"),
        "IntPMF[(-9223372036854775808;1.0)]"
    );
    // Sample spans cover the parentheses.
    let ExprKind::ProbFunction(beagle_stoex::ProbFunctionLiteral::IntPMF(s)) = p("IntPMF[ (1;0.5) (2;0.5) ]").kind
    else {
        panic!()
    };
    assert_eq!(s[1].span, Span::new(16, 23));
}

#[test]
fn pmf_literals_are_atoms() {
    assert_eq!(tree("-IntPMF[(1;1)] ^ 2"), "(^ (neg (IntPMF 1:1.0)) 2)");
    assert_eq!(canon("2 * (IntPMF[(1;1)])"), "2 * IntPMF[(1;1.0)]");
}

#[test]
fn comments_and_whitespace_are_hidden() {
    assert_eq!(tree("/* lead */ 1 + // to eol\n 2 /**/"), "(+ 1 2)");
    assert_eq!(tree("1 /* a * b */ * 2"), "(* 1 2)");
    assert_eq!(tree("\t1\n+\r2 // end"), "(+ 1 2)");
    assert_eq!(tree("1/*x*//2"), "(/ 1 2)");
}

#[test]
fn keywords_are_case_sensitive() {
    assert!(parse("a.VALUE and b.VALUE").is_err());
    assert!(parse("not true").is_err());
    assert!(parse("TRUE").is_err());
    assert!(parse("intpmf[(1;1)]").is_err());
}

#[test]
fn spans_are_byte_offsets() {
    let src = "é.VALUE"; // not an identifier: the error points at byte 0, 2 bytes long
    let e = parse(src).unwrap_err();
    assert_eq!((e.offset, e.len), (0, 2));
    let e = p("\"é\" == x.VALUE");
    let ExprKind::Compare { rhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(rhs.span, Span::new(8, 15));
    assert_eq!(e.span, Span::new(0, 15));
}

#[test]
fn node_spans_cover_their_source() {
    let src = "Trunc(data.BYTESIZE/seekSize.VALUE)-1";
    let e = p(src);
    let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(
        &src[lhs.span.start..lhs.span.end],
        "Trunc(data.BYTESIZE/seekSize.VALUE)"
    );
    assert_eq!(&src[rhs.span.start..rhs.span.end], "1");
    let ExprKind::FunctionCall { args, .. } = &lhs.kind else {
        panic!()
    };
    assert_eq!(
        &src[args[0].span.start..args[0].span.end],
        "data.BYTESIZE/seekSize.VALUE"
    );
    let e = p("-x.VALUE");
    assert_eq!(e.span, Span::new(0, 8));
}

#[test]
fn display_uses_the_printer() {
    assert_eq!(p("1+2*3").to_string(), "1 + 2 * 3");
}

#[test]
fn nesting_up_to_the_limit_parses() {
    // 200 levels of parentheses and 200 prefix minus signs are fine.
    let src = format!("{}1{}", "(".repeat(200), ")".repeat(200));
    assert_eq!(tree(&src), "1");
    let src = format!("{}1", "-".repeat(200));
    assert!(parse(&src).is_ok());
    let src = vec!["1"; 200].join("+");
    assert!(parse(&src).is_ok());
}
