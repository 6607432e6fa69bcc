use super::*;
use proptest::prelude::*;

/// Section ids: 0 service S, 1 service T, 2 call C, 3 CPU demand A, 4 loop L, 5 transition B/T1;
/// slots: 0 files, 1 n.
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

fn rec(kind: i32, section: i32, execution: i64, a: i64, b: i64) -> Vec<u8> {
    let mut v = Vec::with_capacity(RECORD);
    v.extend_from_slice(&kind.to_le_bytes());
    v.extend_from_slice(&section.to_le_bytes());
    v.extend_from_slice(&execution.to_le_bytes());
    v.extend_from_slice(&a.to_le_bytes());
    v.extend_from_slice(&b.to_le_bytes());
    v
}

fn enter(service: i32, e: i64, caller: i64, call: i32, iteration: u32) -> Vec<u8> {
    rec(ENTER, service, e, caller, ((call as i64) << 32) | iteration as i64)
}

fn param(e: i64, slot: i32, characterisation: i64, v: f64) -> Vec<u8> {
    rec(PARAM, slot, e, characterisation, v.to_bits() as i64)
}

fn run(records: &[Vec<u8>], warmup: u32) -> (Vec<MeasurementEvent>, DecodeSummary) {
    let options = DecodeOptions {
        run: "r1".into(),
        warmup,
        service_times: true,
        count_keys: Default::default(),
    };
    decode(&records.concat(), &table(), &options)
}

fn call(
    e: &str,
    service: &str,
    caller: Option<&str>,
    call: Option<&str>,
    params: &[(&str, f64)],
    ns: u64,
) -> MeasurementEvent {
    MeasurementEvent::ServiceCall {
        execution: e.into(),
        service: service.into(),
        caller_execution: caller.map(Into::into),
        call: call.map(Into::into),
        parameters: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        entry_ns: 0,
        exit_ns: ns,
    }
}

#[test]
fn an_execution_with_parameters_demand_loop_branch_and_a_nested_call() {
    let (events, summary) = run(
        &[
            enter(0, 1, 0, -1, 0),
            param(1, 0, 3, 4.0),
            param(1, 0, 4, 1500.0),
            param(1, 1, 1, 7.0),
            rec(DEMAND, 3, 1, 2500, 0),
            rec(LOOP, 4, 1, 4, 0),
            rec(BRANCH, 5, 1, 0, 0),
            enter(1, 2, 1, 2, 0),
            param(2, 1, 2, 10.0),
            rec(EXIT, 1, 2, 300, 0),
            rec(EXIT, 0, 1, 9000, 0),
        ],
        0,
    );
    let outer = [
        ("files.NUMBER_OF_ELEMENTS", 4.0),
        ("files.INNER.BYTESIZE", 1500.0),
        ("n.VALUE", 7.0),
    ];
    assert_eq!(
        events,
        vec![
            call("r1:1", "_S", None, None, &outer, 9000),
            MeasurementEvent::ResourceDemand {
                execution: "r1:1".into(),
                action: "_A".into(),
                resource: "CPU".into(),
                start_ns: 0,
                stop_ns: 2500,
            },
            MeasurementEvent::Loop {
                execution: "r1:1".into(),
                loop_id: "_L".into(),
                count: 4,
            },
            MeasurementEvent::Branch {
                execution: "r1:1".into(),
                branch: "_B".into(),
                transition: Some("_T1".into()),
            },
            call("r1:2", "_T", Some("r1:1"), Some("_C"), &[("n.BYTESIZE", 10.0)], 300),
        ]
    );
    assert_eq!(
        summary,
        DecodeSummary {
            records: 11,
            executions: 2,
            ..Default::default()
        }
    );
}

#[test]
fn params_separated_from_their_enter_by_another_threads_buffer_still_count() {
    // Thread A enters 1 and its buffer ends; thread B's buffer (execution 2) comes in between.
    let (events, _) = run(
        &[
            enter(0, 1, 0, -1, 0),
            enter(1, 2, 0, -1, 0),
            param(2, 1, 1, 2.0),
            rec(EXIT, 1, 2, 50, 0),
            param(1, 1, 1, 1.0),
            rec(EXIT, 0, 1, 80, 0),
        ],
        0,
    );
    assert_eq!(
        events,
        vec![
            call("r1:2", "_T", None, None, &[("n.VALUE", 2.0)], 50),
            call("r1:1", "_S", None, None, &[("n.VALUE", 1.0)], 80),
        ]
    );
}

#[test]
fn the_service_call_precedes_its_events_and_its_exit_sets_the_duration() {
    let (events, _) = run(
        &[enter(0, 1, 0, -1, 0), rec(LOOP, 4, 1, 2, 0), rec(EXIT, 0, 1, 700, 0)],
        0,
    );
    assert_eq!(events.len(), 2);
    assert_eq!(events[0], call("r1:1", "_S", None, None, &[], 700));
    assert_eq!(events[1].execution(), "r1:1");
}

#[test]
fn warm_up_executions_are_dropped_with_everything_inside_them() {
    let (events, summary) = run(
        &[
            rec(LOOP, 4, 0, 3, 0), // outside any execution
            enter(0, 1, 0, -1, 0), // iteration 0: warm-up
            param(1, 1, 1, 1.0),
            rec(DEMAND, 3, 1, 10, 0),
            enter(1, 2, 1, 2, 1), // nested, entered in iteration 1: inherits the drop
            rec(BRANCH, 5, 2, 0, 0),
            rec(EXIT, 1, 2, 5, 0),
            rec(EXIT, 0, 1, 20, 0),
            enter(0, 3, 0, -1, 1), // iteration 1: kept
            rec(DEMAND, 3, 3, 11, 0),
            rec(EXIT, 0, 3, 30, 0),
        ],
        1,
    );
    assert_eq!(events.len(), 2);
    assert_eq!(events[0], call("r1:3", "_S", None, None, &[], 30));
    assert_eq!(
        summary,
        DecodeSummary {
            records: 11,
            executions: 1,
            warmup_executions: 2,
            warmup_records: 7,
            outside: 1,
            ..Default::default()
        }
    );
}

#[test]
fn malformed_records_are_counted_not_fatal() {
    let mut bytes = [
        enter(0, 1, 0, 9, 0),      // call section 9: unknown (the execution is kept, without a call)
        rec(DEMAND, 4, 1, 10, 0),  // a loop section as a demand
        rec(DEMAND, 42, 1, 10, 0), // no such section
        rec(LOOP, 4, 1, -1, 0),    // negative count
        param(1, 7, 1, 1.0),       // no such slot
        param(1, 1, 9, 1.0),       // unknown characterisation
        rec(77, 0, 1, 0, 0),       // unknown type
        rec(BRANCH, 5, 55, 0, 0),  // execution never entered
        enter(0, 1, 0, -1, 0),     // second ENTER of a live execution
        enter(7, 2, 0, -1, 0),     // not a service section
        rec(EXIT, 0, 1, 40, 0),
        rec(EXIT, 0, 1, 40, 0), // exited already
    ]
    .concat();
    bytes.extend_from_slice(&[1, 2, 3]);
    let (events, summary) = decode(&bytes, &table(), &DecodeOptions::default());
    assert_eq!(events, vec![call(":1", "_S", None, None, &[], 40)]);
    assert_eq!(
        summary,
        DecodeSummary {
            records: 12,
            executions: 1,
            unknown_sections: 5,
            unknown_types: 1,
            orphans: 2,
            invalid: 3,
            truncated_bytes: 3,
            ..Default::default()
        }
    );
}

#[test]
fn an_execution_never_exited_is_emitted_at_the_end() {
    let (events, summary) = run(&[enter(0, 5, 0, -1, 0), param(5, 0, 2, 64.0)], 0);
    assert_eq!(
        events,
        vec![call("r1:5", "_S", None, None, &[("files.BYTESIZE", 64.0)], 0)]
    );
    assert_eq!(summary.executions, 1);
}

#[test]
fn the_file_decoder_streams_to_the_same_result() {
    let mut bytes = [enter(0, 1, 0, -1, 0), param(1, 1, 1, 3.0), rec(EXIT, 0, 1, 9, 0)].concat();
    bytes.extend_from_slice(&[0; 31]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.events");
    std::fs::write(&path, &bytes).unwrap();
    let options = DecodeOptions {
        run: "x".into(),
        warmup: 0,
        service_times: true,
        count_keys: Default::default(),
    };
    let from_file = decode_file(&path, &table(), &options).unwrap();
    assert_eq!(from_file, decode(&bytes, &table(), &options));
    assert_eq!(from_file.1.truncated_bytes, 31);
    assert_eq!(from_file.0.len(), 1);
}

/// A record with fields drawn near the valid ranges, so that many decode.
fn plausible() -> impl Strategy<Value = Vec<u8>> {
    (
        0i32..8,
        -1i32..8,
        -1i64..6,
        -2i64..6,
        prop_oneof![0i64..4, any::<i64>()],
    )
        .prop_map(|(kind, section, e, a, b)| rec(kind, section, e, a, b))
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let (_, summary) = decode(&bytes, &table(), &DecodeOptions::default());
        prop_assert_eq!(summary.records as usize * RECORD + summary.truncated_bytes as usize, bytes.len());
    }

    #[test]
    fn plausible_records_never_panic_and_calls_come_first(
        records in proptest::collection::vec(plausible(), 0..60),
        warmup in 0u32..3,
    ) {
        let (events, summary) = run(&records, warmup);
        prop_assert_eq!(summary.records as usize, records.len());
        // (An id entered again after its exit, which a real process never writes, is not detected.)
        let mut called = std::collections::HashSet::new();
        let mut calls = 0;
        for e in &events {
            if let MeasurementEvent::ServiceCall { execution, .. } = e {
                called.insert(execution.clone());
                calls += 1;
            } else {
                prop_assert!(called.contains(e.execution()), "an event before its ServiceCall");
            }
        }
        prop_assert_eq!(calls, summary.executions);
    }
}

#[test]
fn a_demand_total_is_the_runs_of_a_section_in_one_execution() {
    let (events, summary) = run(
        &[
            enter(0, 1, 0, -1, 1),
            param(1, 1, 1, 3.0),
            rec(DEMAND_TOTAL, 3, 1, 250_000, 100_000),
            rec(DEMAND_TOTAL, 3, 1, -1, 5), // a negative time
            rec(DEMAND_TOTAL, 3, 1, 10, 0), // no runs
            rec(EXIT, 0, 1, 9000, 0),
        ],
        1,
    );
    assert_eq!(
        events,
        vec![
            call("r1:1", "_S", None, None, &[("n.VALUE", 3.0)], 9000),
            MeasurementEvent::ResourceDemandTotal {
                execution: "r1:1".into(),
                action: "_A".into(),
                resource: "CPU".into(),
                count: 100_000,
                total_ns: 250_000,
            },
        ]
    );
    assert_eq!(summary.invalid, 2);
}

/// Validation runs: an EXIT's `b` is the execution's thread CPU time; 0 means not measured, and
/// warm-up executions leave none.
#[test]
fn exits_carry_the_thread_cpu_time_of_their_executions_when_measured() {
    let (_, summary) = run(
        &[
            enter(0, 1, 0, -1, 1),
            enter(1, 2, 1, 2, 1),
            rec(EXIT, 0, 2, 900, 700),
            rec(EXIT, 0, 1, 5000, 4200),
            enter(0, 3, 0, -1, 1),
            rec(EXIT, 0, 3, 800, 0),
            enter(0, 4, 0, -1, 0),
            rec(EXIT, 0, 4, 800, 600),
        ],
        1,
    );
    let cpu: Vec<(&str, u64)> = summary.service_cpu_ns.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(cpu, [("r1:1", 4200), ("r1:2", 700)]);
}

#[test]
fn disturbed_records_add_up_and_a_negative_count_is_invalid() {
    let (events, summary) = run(
        &[
            rec(DISTURBED, 80, 0, 3, 1),
            rec(DISTURBED, 140, 0, 2, 0),
            rec(DISTURBED, 10, 0, -1, 0),
        ],
        0,
    );
    assert!(events.is_empty());
    assert_eq!(
        (
            summary.disturbed_again,
            summary.disturbed_kept,
            summary.disturbed_worst_percent
        ),
        (5, 1, 140)
    );
    assert_eq!((summary.invalid, summary.unknown_types), (1, 0));
}

#[test]
fn a_collection_the_model_abstracts_to_a_number_is_its_size_as_the_value() {
    let mut t = table();
    // Slot 0 (`files`): a list the model declares as an INT.
    t.sizes_as_value.insert(0);
    let options = DecodeOptions {
        run: "r1".into(),
        warmup: 0,
        service_times: false,
        count_keys: Default::default(),
    };
    let records = [
        enter(0, 1, 0, -1, 1),
        param(1, 0, 3, 40.0),
        param(1, 0, 4, 9000.0),
        param(1, 1, 1, 7.0),
        rec(EXIT, 0, 1, 0, 0),
    ]
    .concat();
    let (events, summary) = decode(&records, &t, &options);
    let MeasurementEvent::ServiceCall { parameters, .. } = &events[0] else {
        panic!("{events:?}");
    };
    let names: Vec<(&str, f64)> = parameters.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(names, [("files.VALUE", 40.0), ("n.VALUE", 7.0)]);
    assert_eq!(summary.invalid, 0);
}
