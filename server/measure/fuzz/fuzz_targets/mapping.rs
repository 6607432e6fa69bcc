//! Arbitrary bytes as an operation mapping file: parsing must never panic (errors name the line).
//!
//! Seeds: `seeds/mapping/`.

#![no_main]

use beagle_measure::parse_mapping;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = parse_mapping(&text, Path::new("fuzz.toml")) {
        assert!(e.starts_with("fuzz.toml"), "{e}");
    }
});
