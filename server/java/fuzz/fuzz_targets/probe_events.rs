//! Arbitrary bytes as a probe events file: decoding must never panic and must account for every
//! byte (whole records plus a truncated tail); a `ServiceCall` must come before the other events
//! of its execution. The first byte picks the warm-up, so the warm-up paths are reached too.

#![no_main]

use beagle_java::probe::decode::{decode, DecodeOptions, RECORD};
use beagle_java::sections::{Section, SectionTable};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

/// One section of every kind (ids 0..6) and two slots, so small ids decode.
fn table() -> SectionTable {
    let mut t = SectionTable::default();
    t.add(Section::Service { service: "_S".into() });
    t.add(Section::Service { service: "_T".into() });
    t.add(Section::Call { call: "_C".into() });
    t.add(Section::Demand {
        action: "_A".into(),
        resource: "CPU".into(),
        cpu: true,
    });
    t.add(Section::Loop { loop_id: "_L".into() });
    t.add(Section::Transition {
        branch: "_B".into(),
        transition: "_T1".into(),
    });
    t.add_slot("files");
    t.add_slot("n");
    t
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let options = DecodeOptions {
        run: "f".into(),
        warmup: u32::from(first % 3),
        service_times: true,
        count_keys: Default::default(),
    };
    let (events, summary) = decode(bytes, &table(), &options);
    assert_eq!(
        summary.records as usize * RECORD + summary.truncated_bytes as usize,
        bytes.len()
    );
    let mut called = HashSet::new();
    for e in &events {
        if let beagle_analysis::events::MeasurementEvent::ServiceCall { execution, .. } = e {
            called.insert(execution.as_str());
        } else {
            assert!(called.contains(e.execution()), "an event before its ServiceCall");
        }
    }
});
