//! Arbitrary input never panics the `.dat` line parser, the map parser, the parameter parser or
//! the events reader (the proptest counterpart of a fuzz target).

use beagle_measure::events_format::parse_events;
use beagle_measure::kieker::{parse_dat_line, parse_map, parse_parameters, RecordMap};
use proptest::prelude::*;
use std::path::Path;

fn map() -> RecordMap {
    let p = "tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records";
    parse_map(&format!(
        "$0=kieker.common.record.misc.KiekerMetadataRecord\n$1={p}.ServiceCallRecord\n$2={p}.ResponseTimeRecord\n\
         $3={p}.LoopRecord\n$4={p}.BranchRecord\n$5=kieker.common.record.system.CPUUtilizationRecord\n\
         $6=kieker.common.record.controlflow.OperationExecutionRecord\n$7=kieker.common.record.flow.trace.TraceMetadata\n\
         $8=kieker.common.record.flow.trace.operation.BeforeOperationEvent\n$9={p}.ResourceUtilizationRecord\n$10=x.Y\n"
    ))
    .unwrap()
}

/// Lines that look like records: a known or unknown `$n` and fields from a small alphabet that
/// hits numbers, `<not set>`, parameter objects and separators.
fn recordish() -> impl Strategy<Value = String> {
    let field = prop_oneof![
        Just("<not set>".to_string()),
        Just("{\"a_VALUE\":1,}".to_string()),
        Just("-1".to_string()),
        Just("true".to_string()),
        "[0-9]{0,20}",
        "[-{}\":,a-zA-Z0-9_.;$]{0,12}",
    ];
    (0u32..12, prop::collection::vec(field, 0..14)).prop_map(|(n, f)| format!("${n};{}", f.join(";")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn dat_lines_never_panic(line in "\\PC{0,200}") {
        let _ = parse_dat_line(&line, &map());
    }

    #[test]
    fn record_like_lines_never_panic(line in recordish()) {
        let _ = parse_dat_line(&line, &map());
    }

    #[test]
    fn maps_and_parameters_never_panic(text in "\\PC{0,120}") {
        let _ = parse_map(&text);
        let _ = parse_parameters(&text);
    }

    #[test]
    fn events_reader_never_panics(text in "(\\PC{0,80}\n){0,4}") {
        let _ = parse_events(&text, Path::new("x.events"));
    }
}
