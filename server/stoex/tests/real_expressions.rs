//! The 24 real expressions of stoex.md section 6 and its extra cases: each
//! must parse to the stated tree and print canonically (re-parsing to the
//! same tree, print being a fixpoint; `canon` checks both).

mod common;
use common::{canon, err, tree};

/// `(source, tree, canonical print)`
const REAL: &[(&str, &str, &str)] = &[
    // 1
    (
        "audioRequest.Count.VALUE*audioRequest.Size.VALUE",
        "(* audioRequest.Count.VALUE audioRequest.Size.VALUE)",
        "audioRequest.Count.VALUE * audioRequest.Size.VALUE",
    ),
    // 2
    (
        "1.0512*audios.BYTESIZE+ 400000000",
        "(+ (* 1.0512 audios.BYTESIZE) 400000000)",
        "1.0512 * audios.BYTESIZE + 400000000",
    ),
    // 3
    (
        "audioRequest.Count.VALUE > 1",
        "(> audioRequest.Count.VALUE 1)",
        "audioRequest.Count.VALUE > 1",
    ),
    // 4
    ("RETURN.BYTESIZE", "RETURN.BYTESIZE", "RETURN.BYTESIZE"),
    // 5 (abridged: three of the ~100 samples, including the exponent form)
    (
        "DoublePDF[(248240.0;0.0021638083026125983)(496480.0;0.8275364641769515)(2.507224E7;8.014104824491104E-5)]",
        "(DoublePDF 248240.0:0.0021638083026125983 496480.0:0.8275364641769515 25072240.0:8.014104824491104e-5)",
        "DoublePDF[(248240.0;0.0021638083026125983)(496480.0;0.8275364641769515)(25072240.0;8.014104824491104E-5)]",
    ),
    // 6
    ("Norm(0.07,0.03)", "(call Norm 0.07 0.03)", "Norm(0.07, 0.03)"),
    // 7
    ("1000 * 1000 * 1000", "(* (* 1000 1000) 1000)", "1000 * 1000 * 1000"),
    // 8
    (
        "saleTO.NUMBER_OF_ELEMENTS * IntPMF[ (0;0.99) (1;0.01) ]",
        "(* saleTO.NUMBER_OF_ELEMENTS (IntPMF 0:0.99 1:0.01))",
        "saleTO.NUMBER_OF_ELEMENTS * IntPMF[(0;0.99)(1;0.01)]",
    ),
    // 9
    (
        "productAmounts.NUMBER_OF_ELEMENTS <= 0",
        "(<= productAmounts.NUMBER_OF_ELEMENTS 0)",
        "productAmounts.NUMBER_OF_ELEMENTS <= 0",
    ),
    // 10
    (
        "IntPMF[ (1;0.1) (2;0.5) (3;0.2) (4;0.2) ]",
        "(IntPMF 1:0.1 2:0.5 3:0.2 4:0.2)",
        "IntPMF[(1;0.1)(2;0.5)(3;0.2)(4;0.2)]",
    ),
    // 11
    ("numberOfStores.VALUE", "numberOfStores.VALUE", "numberOfStores.VALUE"),
    // 12
    (
        "DoublePDF[ (1.0; 0.25000000) (2.0; 0.50000000) (3.0; 0.25000000) ]",
        "(DoublePDF 1.0:0.25 2.0:0.5 3.0:0.25)",
        "DoublePDF[(1.0;0.25)(2.0;0.5)(3.0;0.25)]",
    ),
    // 13
    ("Exp(1)", "(call Exp 1)", "Exp(1)"),
    // 14
    (
        "Trunc(data.BYTESIZE/seekSize.VALUE)-1",
        "(- (call Trunc (/ data.BYTESIZE seekSize.VALUE)) 1)",
        "Trunc(data.BYTESIZE / seekSize.VALUE) - 1",
    ),
    // 15
    (
        "data.BYTESIZE>seekSize.VALUE",
        "(> data.BYTESIZE seekSize.VALUE)",
        "data.BYTESIZE > seekSize.VALUE",
    ),
    // 16
    (
        "seekSize.VALUE * 27.0 / (1024*1024)",
        "(/ (* seekSize.VALUE 27.0) (* 1024 1024))",
        "seekSize.VALUE * 27.0 / (1024 * 1024)",
    ),
    // 17
    (
        "LognormMoments(0.4,c.VALUE)",
        "(call LognormMoments 0.4 c.VALUE)",
        "LognormMoments(0.4, c.VALUE)",
    ),
    // 18
    ("NOT isBook.VALUE", "(not isBook.VALUE)", "NOT isBook.VALUE"),
    // 19
    ("event.VALUE ? 2 : 10", "(if event.VALUE 2 10)", "event.VALUE ? 2 : 10"),
    // 20 (two expressions)
    (
        "IntPMF[ (10;0.2) (30;0.1) (60;0.7) ]",
        "(IntPMF 10:0.2 30:0.1 60:0.7)",
        "IntPMF[(10;0.2)(30;0.1)(60;0.7)]",
    ),
    (
        "5 * callReturnInput.VALUE",
        "(* 5 callReturnInput.VALUE)",
        "5 * callReturnInput.VALUE",
    ),
    // 21
    (
        "DoublePMF[(1.2;0.5)(0.95;0.5)]",
        "(DoublePMF 1.2:0.5 0.95:0.5)",
        "DoublePMF[(1.2;0.5)(0.95;0.5)]",
    ),
    // 22
    (
        "BoolPMF[(true;0.8)(false;0.2)]",
        "(BoolPMF true:0.8 false:0.2)",
        "BoolPMF[(true;0.8)(false;0.2)]",
    ),
    // 23
    (
        "0.5 * x.VALUE + (0.5 * y.VALUE + (0.5))",
        "(+ (* 0.5 x.VALUE) (+ (* 0.5 y.VALUE) 0.5))",
        "0.5 * x.VALUE + (0.5 * y.VALUE + 0.5)",
    ),
    // 24
    (
        r#"(b.VALUE == "true" ? true : (b.VALUE == "false" ? false : true ))"#,
        r#"(if (== b.VALUE "true") true (if (== b.VALUE "false") false true))"#,
        r#"b.VALUE == "true" ? true : (b.VALUE == "false" ? false : true)"#,
    ),
    // Extra cases.
    (
        "-8.106188446451149E-6 * (a.VALUE ^ 3.0) + (0.004717325898827735 * (a.VALUE ^ 0.5) + (0.0018798714625557818))",
        "(+ (* (neg 8.106188446451149e-6) (^ a.VALUE 3.0)) (+ (* 0.004717325898827735 (^ a.VALUE 0.5)) 0.0018798714625557818))",
        "-8.106188446451149E-6 * a.VALUE ^ 3.0 + (0.004717325898827735 * a.VALUE ^ 0.5 + 0.0018798714625557818)",
    ),
    (
        "IntPMF[(73;0.12)(74;0.88)] * x.VALUE + (-IntPMF[(137;0.78)(138;0.22)])",
        "(+ (* (IntPMF 73:0.12 74:0.88) x.VALUE) (neg (IntPMF 137:0.78 138:0.22)))",
        "IntPMF[(73;0.12)(74;0.88)] * x.VALUE + -IntPMF[(137;0.78)(138;0.22)]",
    ),
    (
        "log(exp((1.0 + y.VALUE)^2.0))",
        "(call log (call exp (^ (+ 1.0 y.VALUE) 2.0)))",
        "log(exp((1.0 + y.VALUE) ^ 2.0))",
    ),
    ("4\r\n", "4", "4"),
    (
        "IntPMF[(38303999; 0.142857)(38304000; 0.142857)(38304001; 0.142857)(38304002; 0.142857)(38304003; 0.142857)(38304004; 0.142857)(88216000; 0.142858)]",
        "(IntPMF 38303999:0.142857 38304000:0.142857 38304001:0.142857 38304002:0.142857 38304003:0.142857 38304004:0.142857 88216000:0.142858)",
        "IntPMF[(38303999;0.142857)(38304000;0.142857)(38304001;0.142857)(38304002;0.142857)(38304003;0.142857)(38304004;0.142857)(88216000;0.142858)]",
    ),
    (
        "DoublePMF[(2;3)(1;7)(3;2)]",
        "(DoublePMF 2.0:3.0 1.0:7.0 3.0:2.0)",
        "DoublePMF[(2.0;3.0)(1.0;7.0)(3.0;2.0)]",
    ),
    // The DoublePDF form real files start with.
    (
        "DoublePDF[ (3.9E-4; 0.00000000) (4.0E-4; 1.00000000) ]",
        "(DoublePDF 0.00039:0.0 0.0004:1.0)",
        "DoublePDF[(0.00039;0.0)(0.0004;1.0)]",
    ),
];

#[test]
fn real_expressions_parse_to_the_expected_trees() {
    for (src, expected_tree, _) in REAL {
        assert_eq!(&tree(src), expected_tree, "tree of {src:?}");
    }
}

#[test]
fn real_expressions_print_canonically() {
    for (src, _, expected) in REAL {
        assert_eq!(&canon(src), expected, "print of {src:?}");
    }
}

#[test]
fn canonical_prints_are_stable() {
    // The canonical text must itself be canonical.
    for (_, _, printed) in REAL {
        assert_eq!(&canon(printed), printed);
    }
}

#[test]
fn cipm_variable_without_characterisation_is_rejected_with_a_hint() {
    let (offset, len, message) = err("0.128 * mylist_NUMBER_OF_ELEMENTS + (14.326 * y.VALUE + (-32.215))");
    assert_eq!((offset, len), (8, "mylist_NUMBER_OF_ELEMENTS".len()));
    assert_eq!(
        message,
        "variable `mylist_NUMBER_OF_ELEMENTS` needs a characterisation; did you mean `mylist.NUMBER_OF_ELEMENTS`?"
    );
}

#[test]
fn nested_pmf_inside_a_sample_is_rejected() {
    let src = "DoublePMF[(0;DoublePMF[(0;0.5)(1;0.5)])(1;0.5)]";
    let (offset, len, message) = err(src);
    assert_eq!((offset, len), (13, 9));
    assert_eq!(message, "sample probabilities must be numbers, found `DoublePMF`");
}

#[test]
fn xml_carriage_return_line_feed_is_whitespace() {
    assert_eq!(tree("4\r\n"), "4");
    assert_eq!(tree("\r\n 4 \t\r\n"), "4");
    assert_eq!(tree("a.VALUE\r\n>\r\n1"), "(> a.VALUE 1)");
}
