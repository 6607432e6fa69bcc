//! The Beagle events format: round trip, comments, and line-numbered errors.

use beagle_measure::events_format::{parse_events, read_events, write_events};
use beagle_measure::MeasurementEvent;
use std::path::Path;

fn sample() -> Vec<MeasurementEvent> {
    vec![
        MeasurementEvent::ServiceCall {
            execution: "e1".into(),
            service: "_seff1".into(),
            caller_execution: None,
            call: None,
            parameters: [("files.NUMBER_OF_ELEMENTS".to_string(), 12.0)].into(),
            entry_ns: 1000,
            exit_ns: 9000,
        },
        MeasurementEvent::ResourceDemand {
            execution: "e1".into(),
            action: "_action1".into(),
            resource: "_oro4gG3fEdy4YaaT-RYrLQ".into(),
            start_ns: 1100,
            stop_ns: 4100,
        },
        MeasurementEvent::Loop {
            execution: "e1".into(),
            loop_id: "_loop1".into(),
            count: 12,
        },
        MeasurementEvent::Branch {
            execution: "e1".into(),
            branch: "_branch1".into(),
            transition: Some("_t2".into()),
        },
        MeasurementEvent::ServiceCall {
            execution: "e2".into(),
            service: "_seff2".into(),
            caller_execution: Some("e1".into()),
            call: Some("_call1".into()),
            parameters: [("size.BYTESIZE".to_string(), 4096.0)].into(),
            entry_ns: 5000,
            exit_ns: 8000,
        },
    ]
}

#[test]
fn round_trip_through_a_file() {
    let path = std::env::temp_dir().join(format!("beagle-measure-events-{}.jsonl", std::process::id()));
    let mut out = Vec::new();
    write_events(&mut out, &sample()).unwrap();
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 5);
    std::fs::write(&path, &out).unwrap();
    assert_eq!(read_events(&path).unwrap(), sample());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_documented_example_parses() {
    // The example in the module documentation, comment line included.
    let text = r##"
# one execution of SEFF _seff1 with 12 files, calling _seff2 from external call _call1
{"event":"service_call","execution":"e1","service":"_seff1","parameters":{"files.NUMBER_OF_ELEMENTS":12.0},"entry_ns":1000,"exit_ns":9000}
{"event":"resource_demand","execution":"e1","action":"_action1","resource":"_oro4gG3fEdy4YaaT-RYrLQ","start_ns":1100,"stop_ns":4100}
   # indented comment

{"event":"loop","execution":"e1","loop_id":"_loop1","count":12}
{"event":"branch","execution":"e1","branch":"_branch1","transition":"_t2"}
{"event":"service_call","execution":"e2","service":"_seff2","caller_execution":"e1","call":"_call1","parameters":{"size.BYTESIZE":4096.0},"entry_ns":5000,"exit_ns":8000}
"##;
    assert_eq!(parse_events(text, Path::new("x.events")).unwrap(), sample());
}

#[test]
fn errors_name_file_and_line() {
    let text = "# header\n{\"event\":\"loop\",\"execution\":\"e\",\"loop_id\":\"l\",\"count\":1}\n{\"event\":\"loop\",\"count\":-1}\n";
    let e = parse_events(text, Path::new("run.events")).unwrap_err().to_string();
    assert!(e.starts_with("run.events:3: not a measurement event: "), "{e}");
    let e = parse_events("{\"event\":\"nope\"}", Path::new("a.events"))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("a.events:1: "), "{e}");
    let e = read_events(Path::new("/nonexistent/b.events")).unwrap_err().to_string();
    assert!(e.starts_with("/nonexistent/b.events: cannot read"), "{e}");
}
