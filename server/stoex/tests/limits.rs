//! Deep or huge input gives an error, never a stack overflow, even on the
//! 2 MiB stack of a test thread in a debug build.

use beagle_stoex::{eval, lint, parse, print, MAX_DEPTH};

/// Runs `f` on a thread with a 2 MiB stack (Rust's default for spawned threads).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic or overflow");
}

fn parens(n: usize) -> String {
    format!("{}1{}", "(".repeat(n), ")".repeat(n))
}

fn assert_too_deep(src: &str) {
    let e = parse(src).expect_err("too deep");
    assert_eq!(
        e.message,
        format!("expression is nested too deeply (the limit is {MAX_DEPTH} levels)")
    );
}

/// Every walk over the tree must survive the deepest tree the parser accepts.
fn exercise(src: &str) {
    let e = parse(src).unwrap_or_else(|err| panic!("{}", err.message));
    let printed = print(&e);
    assert_eq!(parse(&printed).expect("re-parse"), e);
    let _ = eval(&e, &|_| Some(1.0));
    let _ = lint(&e);
    let _ = beagle_stoex::variables(&e);
    let _ = e.normalised() == e.clone();
}

#[test]
fn nesting_at_the_limit_works() {
    on_small_stack(|| {
        exercise(&parens(MAX_DEPTH));
        exercise(&format!("{}x.VALUE", "-".repeat(MAX_DEPTH - 1)));
        exercise(&format!("{}true", "NOT ".repeat(MAX_DEPTH - 1)));
        exercise(&vec!["1"; MAX_DEPTH].join("+"));
        exercise(&vec!["2"; MAX_DEPTH].join(" AND "));
        let n = MAX_DEPTH - 1; // each call is a node above the leaf
        exercise(&format!("{}1{}", "Max(".repeat(n), ")".repeat(n)));
        exercise(&format!("{}1{}", "(-".repeat(MAX_DEPTH / 2), ")".repeat(MAX_DEPTH / 2)));
        // Right-nested sums, as CIPM writes them: a + (b + (c + …)).
        let n = MAX_DEPTH / 2;
        exercise(&format!("{}1{}", "1 + (".repeat(n - 1), ")".repeat(n - 1)));
    });
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    on_small_stack(|| {
        assert_too_deep(&parens(MAX_DEPTH + 1));
        assert_too_deep(&format!("{}1", "-".repeat(MAX_DEPTH)));
        assert_too_deep(&vec!["1"; MAX_DEPTH + 1].join("+"));
        assert_too_deep(&format!(
            "{}1{}",
            "Max(".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        ));
        // Far beyond: still an error, not an overflow.
        assert_too_deep(&parens(100_000));
        assert_too_deep(&format!("{}1", "-".repeat(100_000)));
        assert_too_deep(&format!("{}1", "NOT ".repeat(100_000)));
        assert_too_deep(&vec!["1"; 100_000].join("*"));
        assert_too_deep(&"(".repeat(100_000));
    });
}

#[test]
fn the_limit_error_points_into_the_input() {
    let src = parens(MAX_DEPTH + 1);
    let e = parse(&src).unwrap_err();
    // The `(` that opens one level too many.
    assert_eq!((e.offset, e.len), (MAX_DEPTH, 1));
}

#[test]
fn long_flat_inputs_are_fine() {
    // Width is not depth: a PMF with 100 000 samples parses.
    let samples: String = (0..100_000).map(|i| format!("({i};0.00001)")).collect();
    let e = parse(&format!("IntPMF[{samples}]")).expect("wide PMF");
    assert!(lint(&e).is_empty(), "{:?}", lint(&e));
    let args = vec!["1"; 10_000].join(",");
    assert!(parse(&format!("Max({args})")).is_ok());
}
