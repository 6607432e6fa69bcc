//! The Kieker fixtures (Kieker 1.8, 1.9 and 1.10 logs, `fixtures/kieker`) import with the
//! right record counts, values and timings.

use beagle_measure::kieker::{read_log, KiekerRecord};

mod common;
use common::fixture;

#[test]
fn operation_execution_records_1_8() {
    let log = read_log(&fixture("operation-execution-records")).unwrap();
    assert_eq!(log.records.len(), 11);
    assert!(log.unknown_classes.is_empty());
    let KiekerRecord::Metadata(m) = &log.records[0].record else {
        panic!()
    };
    assert_eq!(log.records[0].logging_timestamp, 1378814632852912850);
    assert_eq!(
        (m.version.as_str(), m.hostname.as_str(), m.time_unit.as_str()),
        ("1.8-SNAPSHOT", "Desktop", "NANOSECONDS")
    );
    assert!(!m.debug_mode);
    let KiekerRecord::OperationExecution(first) = &log.records[1].record else {
        panic!()
    };
    assert_eq!(
        first.operation_signature,
        "public void kieker.examples.userguide.ch2bookstore.manual.Catalog.getBook(boolean)"
    );
    assert_eq!((first.trace_id, first.eoi, first.ess), (-1, -1, -1));
    assert_eq!((first.tin, first.tout), (1378814632849896821, 1378814632852105483));
    assert_eq!(first.tout - first.tin, 2_208_662);
    let KiekerRecord::OperationExecution(last) = &log.records[10].record else {
        panic!()
    };
    assert_eq!(log.records[10].logging_timestamp, 1378814632883739386);
    assert_eq!(last.tout - last.tin, 2_064_340);
}

#[test]
fn trace_events_1_9() {
    let log = read_log(&fixture("trace-events")).unwrap();
    assert_eq!(log.records.len(), 13);
    let count = |f: fn(&KiekerRecord) -> bool| log.records.iter().filter(|r| f(&r.record)).count();
    assert_eq!(count(|r| matches!(r, KiekerRecord::TraceMetadata(_))), 2);
    assert_eq!(count(|r| matches!(r, KiekerRecord::BeforeOperation(_))), 5);
    assert_eq!(count(|r| matches!(r, KiekerRecord::AfterOperation(_))), 5);
    let KiekerRecord::TraceMetadata(t) = &log.records[1].record else {
        panic!()
    };
    assert_eq!(
        (t.trace_id, t.thread_id, t.parent_order_id),
        (3881283897249497088, 1, -1)
    );
    assert_eq!(t.session_id, "<no-session-id>");
    let KiekerRecord::BeforeOperation(b) = &log.records[2].record else {
        panic!()
    };
    assert_eq!(
        (b.timestamp, b.trace_id, b.order_index),
        (1412763178849798259, 3881283897249497088, 0)
    );
    assert_eq!(b.class_signature, "kieker.examples.monitoring.aspectj.BookstoreStarter");
    let KiekerRecord::AfterOperation(a) = &log.records[12].record else {
        panic!()
    };
    assert_eq!(
        (a.timestamp, a.trace_id, a.order_index),
        (1412763178864697902, 3881283897249497089, 3)
    );
    assert_eq!(
        a.operation_signature,
        "public void kieker.examples.monitoring.aspectj.BookstoreStarter$1.run()"
    );
}

#[test]
fn trace_events_1_10() {
    let log = read_log(&fixture("trace-events-1.10")).unwrap();
    assert_eq!(log.records.len(), 106);
    let KiekerRecord::Metadata(m) = &log.records[0].record else {
        panic!()
    };
    assert_eq!(m.version, "1.10");
    let KiekerRecord::AfterOperation(a) = &log.records[105].record else {
        panic!()
    };
    assert_eq!((a.timestamp, a.order_index), (1501939452205429735, 103));
    assert_eq!(
        a.operation_signature,
        "public static void throughput.Main.main(java.lang.String[])"
    );
    let befores = log
        .records
        .iter()
        .filter(|r| matches!(r.record, KiekerRecord::BeforeOperation(_)))
        .count();
    assert_eq!(befores, 52);
}
