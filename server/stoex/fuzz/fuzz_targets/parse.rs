//! Parses arbitrary UTF-8. Whatever parses must print to text that parses
//! back to the same tree, printing must be a fixpoint, and the evaluator and
//! linter must not panic on it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(e) = beagle_stoex::parse(src) else {
        return;
    };
    let printed = beagle_stoex::print(&e);
    let again = match beagle_stoex::parse(&printed) {
        Ok(again) => again,
        Err(err) => panic!(
            "{src:?} printed as {printed:?}, which does not parse: {} at {}",
            err.message, err.offset
        ),
    };
    assert!(again == e, "{src:?} printed as {printed:?} re-parses to another tree");
    assert_eq!(beagle_stoex::print(&again), printed, "print is not a fixpoint");
    let _ = beagle_stoex::eval(&e, &|_| Some(0.5));
    let _ = beagle_stoex::lint(&e);
    let _ = beagle_stoex::variables(&e);
});
