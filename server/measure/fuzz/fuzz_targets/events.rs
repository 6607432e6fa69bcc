//! Arbitrary bytes as a Beagle events file: reading must never panic, and whatever reads must
//! write and read back to the same events.
//!
//! Seeds: `seeds/events/`.

#![no_main]

use beagle_measure::events_format::{parse_events, write_events};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(events) = parse_events(&text, Path::new("fuzz.events")) {
        let mut out = Vec::new();
        write_events(&mut out, &events).expect("writing to memory");
        let again = parse_events(
            &String::from_utf8(out).expect("JSON is UTF-8"),
            Path::new("again.events"),
        );
        // NaN-free by construction (JSON has no NaN), so equality is meaningful.
        assert_eq!(again.expect("written events read back"), events);
    }
});
