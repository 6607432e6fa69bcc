//! Every syntax error: exact message, byte offset and length.

mod common;
use common::err;

/// `(source, offset, len, message)`
const CASES: &[(&str, usize, usize, &str)] = &[
    // Parentheses.
    (
        "(1 + 2",
        6,
        0,
        "expected `)` to close the `(` at byte 0, found end of input",
    ),
    (
        "((1) + 2",
        8,
        0,
        "expected `)` to close the `(` at byte 0, found end of input",
    ),
    (
        "(1 2)",
        3,
        1,
        "expected `)` to close the `(` at byte 0, found number `2`",
    ),
    ("1 + 2)", 5, 1, "unexpected `)`: there is no open `(` to close"),
    ("()", 1, 1, "unexpected `)`: expected an expression"),
    // Non-associative levels.
    ("1 < 2 < 3", 6, 1, "comparisons cannot be chained; add parentheses"),
    ("1 == 2 <> 3", 7, 2, "comparisons cannot be chained; add parentheses"),
    (
        "1 + 1 >= 2 - 1 <= 3",
        15,
        2,
        "comparisons cannot be chained; add parentheses",
    ),
    ("2^3^4", 3, 1, "`^` cannot be chained; add parentheses"),
    ("-2 ^ -3 ^ 4", 8, 1, "`^` cannot be chained; add parentheses"),
    // Conditionals.
    (
        "true ? 1 : 2 ? 3 : 4",
        13,
        1,
        "conditional expressions cannot be nested without parentheses; wrap the inner `?:` in `(` `)`",
    ),
    (
        "true ? 1 ? 2 : 3 : 4",
        9,
        1,
        "conditional expressions cannot be nested without parentheses; wrap the inner `?:` in `(` `)`",
    ),
    (
        "(true ? 1 : 2 ? 3 : 4)",
        14,
        1,
        "conditional expressions cannot be nested without parentheses; wrap the inner `?:` in `(` `)`",
    ),
    (
        "true ? 1",
        8,
        0,
        "expected `:` for the `?` at byte 5, found end of input",
    ),
    ("true ? 1 ; 2", 9, 1, "expected `:` for the `?` at byte 5, found `;`"),
    (
        "Max(1, true ? 1 : 2)",
        12,
        1,
        "a conditional `?:` cannot be a function argument without parentheses; wrap it in `(` `)`",
    ),
    // Function calls.
    (
        "Max(1 2)",
        6,
        1,
        "expected `,` or `)` to close the `(` of `Max` at byte 3, found number `2`",
    ),
    ("Max(1,", 6, 0, "unexpected end of input: expected an expression"),
    ("Max(1,)", 6, 1, "unexpected `)`: expected an expression"),
    (
        "Max(1",
        5,
        0,
        "expected `,` or `)` to close the `(` of `Max` at byte 3, found end of input",
    ),
    // Missing operands.
    ("", 0, 0, "unexpected end of input: expected an expression"),
    ("  \r\n ", 5, 0, "unexpected end of input: expected an expression"),
    ("1 +", 3, 0, "unexpected end of input: expected an expression"),
    ("NOT", 3, 0, "unexpected end of input: expected an expression"),
    ("* 2", 0, 1, "expected an expression, found `*`"),
    ("AND", 0, 3, "expected an expression before `AND`"),
    (
        "1 2",
        2,
        1,
        "expected an operator or the end of the expression, found number `2`",
    ),
    (
        "a.VALUE.VALUE",
        7,
        1,
        "expected an operator or the end of the expression, found `.`",
    ),
    // Variables.
    ("x", 0, 1, "variable `x` needs a characterisation such as x.VALUE"),
    ("x + 1", 0, 1, "variable `x` needs a characterisation such as x.VALUE"),
    (
        "a.b + 1",
        0,
        3,
        "variable `a.b` needs a characterisation such as a.b.VALUE",
    ),
    (
        "a . b",
        0,
        5,
        "variable `a.b` needs a characterisation such as a.b.VALUE",
    ),
    (
        "files_NUMBER_OF_ELEMENTS",
        0,
        24,
        "variable `files_NUMBER_OF_ELEMENTS` needs a characterisation; did you mean `files.NUMBER_OF_ELEMENTS`?",
    ),
    (
        "a.size_BYTESIZE",
        0,
        15,
        "variable `a.size_BYTESIZE` needs a characterisation; did you mean `a.size.BYTESIZE`?",
    ),
    (
        "x.value",
        2,
        5,
        "unknown characterisation `value`; characterisations are upper-case, as in x.VALUE",
    ),
    (
        "x.",
        2,
        0,
        "expected a name or a characterisation such as VALUE after `.`, found end of input",
    ),
    (
        "x.y.(",
        4,
        1,
        "expected a name or a characterisation such as VALUE after `.`, found `(`",
    ),
    // `.1` lexes as a malformed number, so the path simply ends at `x`.
    ("x.1", 0, 1, "variable `x` needs a characterisation such as x.VALUE"),
    (
        "a.true.VALUE",
        2,
        4,
        "`true` is a reserved word and cannot be part of a variable name",
    ),
    (
        "VALUE",
        0,
        5,
        "`VALUE` is a reserved word; a characterisation follows a variable name, as in x.VALUE",
    ),
    (
        "ordered.VALUE",
        0,
        7,
        "`ordered` is a reserved word; a characterisation follows a variable name, as in x.ordered",
    ),
    // Numbers.
    ("007", 0, 3, "leading zeros are not allowed in numbers"),
    ("00.5", 0, 2, "leading zeros are not allowed in numbers"),
    ("1e05", 2, 2, "leading zeros are not allowed in exponents"),
    (
        ".5",
        0,
        1,
        "a number cannot start with `.`; write `0.` before the digits",
    ),
    (
        "1 + .5",
        4,
        1,
        "a number cannot start with `.`; write `0.` before the digits",
    ),
    ("1E", 1, 1, "malformed exponent: expected digits after `E`"),
    ("1.5e+", 3, 2, "malformed exponent: expected digits after `E`"),
    (
        "2x.VALUE",
        0,
        2,
        "`2x` is not a number; names cannot start with a digit",
    ),
    ("1e400", 0, 5, "number `1e400` is out of range for a double"),
    (
        "99999999999999999999",
        0,
        20,
        "integer `99999999999999999999` does not fit in 64 bits; write it as a double, e.g. `99999999999999999999.0`",
    ),
    // Strings.
    ("\"abc", 0, 1, "unterminated string: missing closing quote"),
    ("1 + 'abc", 4, 1, "unterminated string: missing closing quote"),
    ("'abc\"", 0, 1, "unterminated string: missing closing quote"),
    ("\"abc\\", 0, 1, "unterminated string: missing closing quote"),
    ("\"\\q\"", 1, 2, "unknown escape sequence `\\q`"),
    ("\"\\u12\"", 1, 2, "`\\u` must be followed by four hex digits"),
    ("\"\\uD800\"", 1, 6, "unpaired surrogate in `\\u` escape"),
    ("\"\\uDC00\"", 1, 6, "unpaired surrogate in `\\u` escape"),
    // Operators from other languages.
    ("1 != 2", 2, 2, "unknown operator `!=`; StoEx writes not-equal as `<>`"),
    ("1 = 2", 2, 1, "unexpected `=`; StoEx compares with `==`"),
    ("!true", 0, 1, "unexpected `!`; StoEx negates with `NOT`"),
    ("true && false", 5, 2, "unknown operator `&&`; StoEx writes `AND`"),
    ("true || false", 5, 2, "unknown operator `||`; StoEx writes `OR`"),
    ("1 # 2", 2, 1, "unexpected character `#`"),
    ("1 + \u{20ac}", 4, 3, "unexpected character `\u{20ac}`"),
    // Invisible characters are shown escaped.
    ("1\u{a0}+ 2", 1, 2, "unexpected character `\\u{a0}`"),
    // Comments.
    ("/* open", 0, 2, "unterminated comment: missing `*/`"),
    ("1 + /* x", 4, 2, "unterminated comment: missing `*/`"),
    // Probability function literals.
    ("IntPMF[]", 7, 1, "IntPMF needs at least one sample"),
    ("IntPMF[(1.5;1)]", 8, 3, "IntPMF sample values must be integers"),
    (
        "IntPMF[(1;1]",
        11,
        1,
        "expected `)` to close the sample at byte 7, found `]`",
    ),
    (
        "IntPMF[(1 1)]",
        10,
        1,
        "expected `;` between the sample's value and its probability, found number `1`",
    ),
    (
        "IntPMF[(1;1)",
        12,
        0,
        "expected `(` to start a sample or `]` to close the `[` at byte 6, found end of input",
    ),
    (
        "IntPMF[(1;1),(2;0)]",
        12,
        1,
        "expected `(` to start a sample or `]` to close the `[` at byte 6, found `,`",
    ),
    (
        "IntPMF(ordered)[(1;1)]",
        6,
        1,
        "`IntPMF` takes no `(ordered)`; only EnumPMF and BoolPMF do",
    ),
    ("EnumPMF(sorted)[('a';1)]", 8, 6, "expected `ordered`, found `sorted`"),
    (
        "EnumPMF(ordered[('a';1)]",
        15,
        1,
        "expected `)` after `ordered`, found `[`",
    ),
    (
        "IntPMF 1",
        7,
        1,
        "expected `[` to start the samples of IntPMF, found number `1`",
    ),
    (
        "EnumPMF[(1;1)]",
        9,
        1,
        "expected a string sample value such as \"a\", found number `1`",
    ),
    ("BoolPMF[(1;1)]", 9, 1, "expected `true` or `false`, found number `1`"),
    ("DoublePMF[(x.VALUE;1)]", 11, 1, "expected a number, found `x`"),
    (
        "IntPMF[(1;x.VALUE)]",
        10,
        1,
        "sample probabilities must be numbers, found `x`",
    ),
    (
        "IntPMF[(1;(0.5))]",
        10,
        1,
        "sample probabilities must be numbers, found `(`",
    ),
    ("IntPMF[(1;-x)]", 11, 1, "expected a number, found `x`"),
    (
        "IntPMF[(99999999999999999999;1)]",
        8,
        20,
        "integer `99999999999999999999` does not fit in 64 bits",
    ),
    (
        "IntPMF[(-9223372036854775809;1)]",
        9,
        19,
        "integer `9223372036854775809` does not fit in 64 bits",
    ),
    (
        "DoublePMF[(1;1e999)]",
        13,
        5,
        "number `1e999` is out of range for a double",
    ),
];

#[test]
fn syntax_errors_have_exact_messages_and_positions() {
    let mut failures = Vec::new();
    for &(src, offset, len, message) in CASES {
        let got = err(src);
        if got != (offset, len, message.to_string()) {
            failures.push(format!(
                "{src:?}\n   want ({offset}, {len}, {message:?})\n   got  {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_first_problem_in_source_order_is_reported() {
    // A syntax error before a lexical one wins.
    assert_eq!(err("1 + ) \"abc").0, 4);
    // A lexical error before a syntax error wins.
    assert_eq!(err("\"abc").2, "unterminated string: missing closing quote");
    assert_eq!(err("1 + 007 )").2, "leading zeros are not allowed in numbers");
}

#[test]
fn parse_error_is_a_std_error_displaying_its_message() {
    let e = beagle_stoex::parse("x").unwrap_err();
    assert_eq!(e.to_string(), e.message);
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(
        boxed.to_string(),
        "variable `x` needs a characterisation such as x.VALUE"
    );
    assert_eq!(e.span(), beagle_stoex::Span::new(0, 1));
}
