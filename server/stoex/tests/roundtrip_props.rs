//! Property tests: arbitrary trees survive print → parse, printing is a
//! fixpoint, and no input makes the parser (or anything after it) panic.

use beagle_stoex::{
    eval, lint, parse, print, BinaryOp, Characterisation, CompareOp, Expr, ExprKind, ProbFunctionLiteral, Sample, Span,
    UnaryOp,
};
use proptest::prelude::*;

fn identifier() -> impl Strategy<Value = String> {
    // Mostly ordinary names, sometimes ones that look like keywords.
    prop_oneof![
        "[a-zA-Z_][a-zA-Z0-9_]{0,6}",
        Just("INNER".to_string()),
        Just("VALUEx".to_string()),
        Just("Exp".to_string()),
        Just("NOTE".to_string()),
    ]
    .prop_filter("reserved words are not names", |s| beagle_stoex::is_identifier(s))
}

fn characterisation() -> impl Strategy<Value = Characterisation> {
    prop::sample::select(Characterisation::ALL.to_vec())
}

/// Finite doubles of every kind: tiny, huge, negative, -0.0, subnormal.
fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |v| v.is_finite()),
        (-1000i32..1000).prop_map(|v| f64::from(v) / 8.0),
        Just(-0.0),
        Just(f64::MIN_POSITIVE / 4.0),
        Just(f64::MAX),
        Just(1e-20),
    ]
}

fn int_value() -> impl Strategy<Value = i64> {
    prop_oneof![any::<i64>().prop_filter("not MIN", |v| *v != i64::MIN), -50i64..50]
}

fn samples<T: std::fmt::Debug + Clone>(value: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<Sample<T>>> {
    prop::collection::vec((value, finite_f64()), 1..4)
        .prop_map(|v| v.into_iter().map(|(v, p)| Sample::new(v, p)).collect())
}

fn prob_function() -> impl Strategy<Value = Expr> {
    prop_oneof![
        samples(any::<i64>()).prop_map(ProbFunctionLiteral::IntPMF),
        samples(finite_f64()).prop_map(ProbFunctionLiteral::DoublePMF),
        samples(finite_f64()).prop_map(ProbFunctionLiteral::DoublePDF),
        (any::<bool>(), samples(".{0,5}"))
            .prop_map(|(ordered, samples)| ProbFunctionLiteral::EnumPMF { ordered, samples }),
        (any::<bool>(), samples(any::<bool>()))
            .prop_map(|(ordered, samples)| ProbFunctionLiteral::BoolPMF { ordered, samples }),
    ]
    .prop_map(Expr::prob_function)
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        int_value().prop_map(Expr::int),
        finite_f64().prop_map(Expr::double),
        any::<bool>().prop_map(Expr::bool),
        ".{0,8}".prop_map(Expr::string),
        (prop::collection::vec(identifier(), 1..4), characterisation())
            .prop_map(|(path, c)| Expr::var(&path.join("."), c)),
        prob_function(),
    ]
}

fn binary_op() -> impl Strategy<Value = BinaryOp> {
    use BinaryOp::*;
    prop::sample::select(vec![Add, Sub, Mul, Div, Mod, Pow, And, Or, Xor])
}

fn compare_op() -> impl Strategy<Value = CompareOp> {
    use CompareOp::*;
    prop::sample::select(vec![Gt, Lt, Eq, Ne, Ge, Le])
}

/// Arbitrary trees covering every node kind, depth-bounded.
fn expr_from(leaf: BoxedStrategy<Expr>) -> impl Strategy<Value = Expr> {
    leaf.prop_recursive(6, 256, 3, |inner| {
        prop_oneof![
            (prop::sample::select(vec![UnaryOp::Neg, UnaryOp::Not]), inner.clone())
                .prop_map(|(op, e)| Expr::unary(op, e)),
            (binary_op(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| Expr::binary(op, a, b)),
            (compare_op(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| Expr::compare(op, a, b)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Expr::if_else(c, a, b)),
            (identifier(), prop::collection::vec(inner, 0..4)).prop_map(|(name, args)| Expr::call(name, args)),
        ]
    })
}

fn expr() -> impl Strategy<Value = Expr> {
    expr_from(leaf().boxed())
}

/// Operator-heavy trees over tiny leaves: every pair of operators meets
/// often, which is where parenthesisation bugs live.
fn operator_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (-3i64..4).prop_map(Expr::int),
        prop::sample::select(vec![-1.5, 0.5, -0.0]).prop_map(Expr::double),
        any::<bool>().prop_map(Expr::bool),
        Just(Expr::var("x", Characterisation::Value)),
    ];
    leaf.prop_recursive(7, 128, 2, |inner| {
        prop_oneof![
            1 => (prop::sample::select(vec![UnaryOp::Neg, UnaryOp::Not]), inner.clone())
                .prop_map(|(op, e)| Expr::unary(op, e)),
            4 => (binary_op(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| Expr::binary(op, a, b)),
            2 => (compare_op(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| Expr::compare(op, a, b)),
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| Expr::if_else(c, a, b)),
            1 => prop::collection::vec(inner, 1..3).prop_map(|args| Expr::call("Max", args)),
        ]
    })
}

/// Trees with literals that text cannot hold directly (printed as stand-ins).
fn expr_with_specials() -> impl Strategy<Value = Expr> {
    let special = prop_oneof![
        Just(Expr::double(f64::NAN)),
        Just(Expr::double(f64::INFINITY)),
        Just(Expr::double(f64::NEG_INFINITY)),
        Just(Expr::int(i64::MIN)),
        Just(Expr::double_pmf([(f64::NAN, f64::INFINITY), (f64::NEG_INFINITY, 0.5)])),
    ];
    expr_from(prop_oneof![3 => leaf(), 1 => special].boxed())
}

/// Every node's span lies inside the source on char boundaries, and parents
/// cover their children.
fn check_spans(e: &Expr, src: &str) {
    let ok = |s: Span| {
        s.start <= s.end && s.end <= src.len() && src.is_char_boundary(s.start) && src.is_char_boundary(s.end)
    };
    assert!(ok(e.span), "bad span {:?} in {src:?}", e.span);
    for c in e.children() {
        assert!(
            e.span.start <= c.span.start && c.span.end <= e.span.end,
            "child outside parent in {src:?}"
        );
        check_spans(c, src);
    }
}

/// Whatever parses must print, re-parse to the same tree, and survive the
/// evaluator and linter.
fn check_parsed(src: &str) {
    if let Ok(e) = parse(src) {
        check_spans(&e, src);
        let printed = print(&e);
        let again = parse(&printed)
            .unwrap_or_else(|err| panic!("{src:?} printed as {printed:?}, which fails: {}", err.message));
        assert_eq!(again, e, "{src:?} -> {printed:?}");
        assert_eq!(print(&again), printed);
        let _ = eval(&e, &|_| Some(0.5));
        let _ = lint(&e);
    }
}

/// Simple mutations of valid text, on chars so slicing stays valid.
#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, char),
    Duplicate(usize, usize),
    Swap(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let interesting = prop::sample::select(
        "()[];,.?:+-*/%^<>=\"'\\ 0123456789eE.TNOAD_xVALUE\r\n"
            .chars()
            .collect::<Vec<_>>(),
    );
    prop_oneof![
        (any::<usize>(), 1usize..4).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), prop_oneof![interesting, any::<char>()]).prop_map(|(a, c)| Mutation::Insert(a, c)),
        (any::<usize>(), 1usize..6).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
    ]
}

fn mutate(src: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for m in mutations {
        let len = chars.len();
        match *m {
            Mutation::Delete(a, n) if len > 0 => {
                let a = a % len;
                chars.drain(a..(a + n).min(len));
            }
            Mutation::Insert(a, c) => chars.insert(a % (len + 1), c),
            Mutation::Duplicate(a, n) if len > 0 => {
                let a = a % len;
                let piece: Vec<char> = chars[a..(a + n).min(len)].to_vec();
                chars.splice(a..a, piece);
            }
            Mutation::Swap(a, b) if len > 0 => chars.swap(a % len, b % len),
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn print_then_parse_gives_the_same_tree(e in expr()) {
        let printed = print(&e);
        let parsed = parse(&printed).map_err(|err| {
            TestCaseError::fail(format!("{printed:?} does not parse: {} at {}", err.message, err.offset))
        })?;
        prop_assert_eq!(parsed.normalised(), e.normalised(), "printed: {}", printed);
        // Normalising never changes the text.
        prop_assert_eq!(print(&e.normalised()), printed.clone());
        // Print is a fixpoint.
        prop_assert_eq!(print(&parsed), printed);
    }

    #[test]
    fn operator_trees_round_trip(e in operator_expr()) {
        let printed = print(&e);
        let parsed = parse(&printed).map_err(|err| {
            TestCaseError::fail(format!("{printed:?} does not parse: {} at {}", err.message, err.offset))
        })?;
        prop_assert_eq!(parsed.normalised(), e.normalised(), "printed: {}", printed);
        prop_assert_eq!(print(&parsed), printed);
    }

    #[test]
    fn printed_parentheses_are_all_needed(e in operator_expr()) {
        // Dropping any one pair of grouping parentheses must break the
        // parse or change the tree: the printer adds none for nothing.
        let printed = print(&e);
        let original = parse(&printed).expect("parses").normalised();
        let bytes = printed.as_bytes();
        for open in 0..bytes.len() {
            let is_call = open > 0 && (bytes[open - 1].is_ascii_alphanumeric() || bytes[open - 1] == b'_');
            if bytes[open] != b'(' || is_call {
                continue;
            }
            let mut depth = 0;
            let close = (open..bytes.len()).find(|&i| {
                match bytes[i] {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
                depth == 0
            }).expect("balanced");
            let without = format!("{}{}{}", &printed[..open], &printed[open + 1..close], &printed[close + 1..]);
            if let Ok(other) = parse(&without) {
                prop_assert_ne!(other.normalised(), original.clone(), "redundant parentheses at {} in {}", open, printed);
            }
        }
    }

    #[test]
    fn print_is_a_fixpoint_even_with_non_finite_numbers(e in expr_with_specials()) {
        let printed = print(&e);
        prop_assert!(!printed.contains("inf") && !printed.contains("NaN"), "{}", printed);
        let parsed = parse(&printed).map_err(|err| {
            TestCaseError::fail(format!("{printed:?} does not parse: {}", err.message))
        })?;
        prop_assert_eq!(print(&parsed), printed);
    }

    #[test]
    fn parse_never_panics_on_arbitrary_strings(s in any::<String>()) {
        check_parsed(&s);
    }

    #[test]
    fn parse_never_panics_on_stoex_like_strings(
        s in "[-+*/%^()<>=?:;,.\\[\\] 0-9eE.a-zA-Z_\"'\\\\\r\n]{0,40}"
    ) {
        check_parsed(&s);
    }

    #[test]
    fn parse_never_panics_on_mutated_expressions(
        e in expr(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        check_parsed(&mutate(&print(&e), &mutations));
    }

    #[test]
    fn parse_never_panics_on_mutated_real_expressions(
        i in 0usize..REAL.len(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        check_parsed(&mutate(REAL[i], &mutations));
    }
}

const REAL: &[&str] = &[
    "audioRequest.Count.VALUE*audioRequest.Size.VALUE",
    "1.0512*audios.BYTESIZE+ 400000000",
    "DoublePDF[(248240.0;0.0021638083026125983)(2.507224E7;8.014104824491104E-5)]",
    "saleTO.NUMBER_OF_ELEMENTS * IntPMF[ (0;0.99) (1;0.01) ]",
    "Trunc(data.BYTESIZE/seekSize.VALUE)-1",
    "(b.VALUE == \"true\" ? true : (b.VALUE == \"false\" ? false : true ))",
    "-8.106188446451149E-6 * (a.VALUE ^ 3.0) + (0.004717325898827735 * (a.VALUE ^ 0.5))",
    "IntPMF[(73;0.12)(74;0.88)] * x.VALUE + (-IntPMF[(137;0.78)(138;0.22)])",
    "EnumPMF(ordered)[('a';0.5)(\"b\\n\";0.5)] /* c */ // d",
    "NOT a.VALUE AND b.VALUE OR c.VALUE XOR 1 <> 2",
];

#[test]
fn every_node_kind_is_generated() {
    // Guards the strategy itself: if a kind disappeared from it, the
    // round-trip property would silently stop covering that kind.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut seen = std::collections::BTreeSet::new();
    let mut runner = TestRunner::deterministic();
    for _ in 0..2000 {
        let e = expr().new_tree(&mut runner).expect("tree").current();
        e.walk(&mut |n| {
            seen.insert(match &n.kind {
                ExprKind::Int(_) => "int",
                ExprKind::Double(_) => "double",
                ExprKind::Bool(_) => "bool",
                ExprKind::String(_) => "string",
                ExprKind::CharacterisedVariable { .. } => "variable",
                ExprKind::Unary { .. } => "unary",
                ExprKind::Binary { .. } => "binary",
                ExprKind::Compare { .. } => "compare",
                ExprKind::IfElse { .. } => "ifelse",
                ExprKind::FunctionCall { .. } => "call",
                ExprKind::ProbFunction(p) => p.keyword(),
            });
        });
    }
    assert_eq!(seen.len(), 15, "{seen:?}");
}
