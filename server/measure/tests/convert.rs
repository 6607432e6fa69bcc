//! Conversion to measurement events: a synthetic CIPM log, and the Kieker fixtures through a small
//! operation mapping.

use beagle_measure::{convert, read_log, MappedOperation, MeasurementEvent, OperationMapping};
use std::path::{Path, PathBuf};

mod common;
use common::fixture;

/// A fresh directory under the target's temp dir.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beagle-measure-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

const P: &str = "tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records";

#[test]
fn cipm_log_converts_to_events() {
    let dir = temp_dir("cipm");
    write(
        &dir,
        "kieker.map",
        &format!(
            "$0=kieker.common.record.misc.KiekerMetadataRecord\n$1={P}.ServiceCallRecord\n$2={P}.ResponseTimeRecord\n\
             $3={P}.LoopRecord\n$4={P}.BranchRecord\n$5=kieker.common.record.system.CPUUtilizationRecord\n\
             $6=com.example.SomethingElse\n$7={P}.ResourceUtilizationRecord\n"
        ),
    );
    // Two files: file-name order is reading order; the nested call is written first (at its exit).
    write(
        &dir,
        "kieker-001.dat",
        "$0;1000;1.15;KIEKER-SINGLETON;host;1;false;0;NANOSECONDS;0\n\
         $2;105;s-1;e-1;_IntAct1;_CPU;50;104\n\
         $1;350;s-1;e-2;_Seff2;{\"size_BYTESIZE\":4096,};e-1;_Call1;300;340;<not set>\n\
         $5;360;1;host;0;0.1;0.1;0;0;0;0.2;0.8\n\
         $6;361;whatever\n",
    );
    write(
        &dir,
        "kieker-002.dat",
        "$3;205;s-1;e-1;_Loop1;12\n\
         $4;305;s-1;e-1;_Branch1;<not set>\n\
         $7;306;s-1;_CPU;0.5;306\n\
         $1;405;s-1;e-1;_Seff1;{\"files_NUMBER_OF_ELEMENTS\":12,};<not set>;<not set>;0;400;<not set>\n",
    );
    let log = read_log(&dir).unwrap();
    assert_eq!(log.records.len(), 8);
    assert_eq!(log.unknown_classes.get("com.example.SomethingElse"), Some(&1));
    let (events, report) = convert(&log, &OperationMapping::new());
    assert_eq!(report.ignored_records, 3);
    let expected = vec![
        MeasurementEvent::ServiceCall {
            execution: "e-1".into(),
            service: "_Seff1".into(),
            caller_execution: None,
            call: None,
            parameters: [("files.NUMBER_OF_ELEMENTS".to_string(), 12.0)].into(),
            entry_ns: 0,
            exit_ns: 400,
        },
        MeasurementEvent::ResourceDemand {
            execution: "e-1".into(),
            action: "_IntAct1".into(),
            resource: "_CPU".into(),
            start_ns: 50,
            stop_ns: 104,
        },
        MeasurementEvent::Loop {
            execution: "e-1".into(),
            loop_id: "_Loop1".into(),
            count: 12,
        },
        MeasurementEvent::ServiceCall {
            execution: "e-2".into(),
            service: "_Seff2".into(),
            caller_execution: Some("e-1".into()),
            call: Some("_Call1".into()),
            parameters: [("size.BYTESIZE".to_string(), 4096.0)].into(),
            entry_ns: 300,
            exit_ns: 340,
        },
        MeasurementEvent::Branch {
            execution: "e-1".into(),
            branch: "_Branch1".into(),
            transition: None,
        },
    ];
    assert_eq!(events, expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn seff(id: &str) -> MappedOperation {
    MappedOperation::Seff(id.into())
}

fn action(id: &str) -> MappedOperation {
    MappedOperation::InternalAction {
        action: id.into(),
        resource: "_CPU".into(),
    }
}

#[test]
fn operation_execution_records_map_to_demands() {
    let log = read_log(&fixture("operation-execution-records")).unwrap();
    let mapping: OperationMapping = [(
        "public void kieker.examples.userguide.ch2bookstore.manual.Catalog.getBook(boolean)".to_string(),
        action("_getBook"),
    )]
    .into();
    let (events, report) = convert(&log, &mapping);
    assert_eq!(events.len(), 10);
    assert!(report.unmapped_operations.is_empty());
    // Records without a trace (traceId -1) get their log position as execution id.
    let MeasurementEvent::ResourceDemand {
        execution,
        action,
        start_ns,
        stop_ns,
        ..
    } = &events[0]
    else {
        panic!()
    };
    assert_eq!((execution.as_str(), action.as_str()), ("#1", "_getBook"));
    assert_eq!((*start_ns, stop_ns - start_ns), (1378814632849896821, 2_208_662));
    let MeasurementEvent::ResourceDemand {
        execution,
        start_ns,
        stop_ns,
        ..
    } = &events[9]
    else {
        panic!()
    };
    assert_eq!((execution.as_str(), stop_ns - start_ns), ("#10", 2_064_340));
}

#[test]
fn trace_events_map_to_calls_and_demands() {
    let log = read_log(&fixture("trace-events")).unwrap();
    let s = "kieker.examples.monitoring.aspectj.";
    let mapping: OperationMapping = [
        (
            format!("public static void {s}BookstoreStarter.main(java.lang.String[])"),
            seff("_main"),
        ),
        (format!("public void {s}BookstoreStarter$1.run()"), seff("_run")),
        (
            format!("private static int {s}BookstoreStarter.extractNumRequestsFromArgs(java.lang.String[])"),
            action("_extract"),
        ),
        (format!("public void {s}Bookstore.searchBook()"), action("_search")),
    ]
    .into();
    let (events, report) = convert(&log, &mapping);
    assert_eq!(report.unmapped_operations.len(), 1);
    assert_eq!(report.unmatched_operation_events, 0);
    let t0 = "3881283897249497088";
    let t1 = "3881283897249497089";
    let expected = vec![
        MeasurementEvent::ServiceCall {
            execution: format!("{t0}:0"),
            service: "_main".into(),
            caller_execution: None,
            call: None,
            parameters: Default::default(),
            entry_ns: 1412763178849798259,
            exit_ns: 1412763178864684753,
        },
        MeasurementEvent::ResourceDemand {
            execution: format!("{t0}:0"),
            action: "_extract".into(),
            resource: "_CPU".into(),
            start_ns: 1412763178851719086,
            stop_ns: 1412763178853429518,
        },
        MeasurementEvent::ServiceCall {
            execution: format!("{t1}:0"),
            service: "_run".into(),
            caller_execution: None,
            call: None,
            parameters: Default::default(),
            entry_ns: 1412763178860300750,
            exit_ns: 1412763178864697902,
        },
        MeasurementEvent::ResourceDemand {
            execution: format!("{t1}:0"),
            action: "_search".into(),
            resource: "_CPU".into(),
            start_ns: 1412763178860350783,
            stop_ns: 1412763178864617079,
        },
    ];
    assert_eq!(events, expected);
}

#[test]
fn trace_events_1_10_nest_demands_in_the_mapped_service() {
    let log = read_log(&fixture("trace-events-1.10")).unwrap();
    let mapping: OperationMapping = [
        (
            "public static void throughput.Main.main(java.lang.String[])".to_string(),
            seff("_main"),
        ),
        (
            "private void throughput.Main.compute(int)".to_string(),
            action("_compute"),
        ),
    ]
    .into();
    let (events, report) = convert(&log, &mapping);
    assert_eq!(report.unmapped_operations.values().sum::<usize>(), 1);
    assert_eq!(events.len(), 51);
    let main = "3319726230491627520:0";
    assert!(events.iter().all(|e| e.execution() == main));
    let MeasurementEvent::ResourceDemand { start_ns, stop_ns, .. } = &events[1] else {
        panic!()
    };
    assert_eq!((*start_ns, *stop_ns), (1501939452204253561, 1501939452204821535));
}

#[test]
fn operation_execution_records_nest_by_stack_size() {
    let dir = temp_dir("oer-nesting");
    write(
        &dir,
        "kieker.map",
        "$1=kieker.common.record.controlflow.OperationExecutionRecord\n",
    );
    // Trace 7: a() calls b() which calls c(); then a() calls c() directly. Written at exit, so the
    // callees come first; eoi/ess give the nesting.
    write(
        &dir,
        "a.dat",
        "$1;30;void c();<no-session-id>;7;20;30;h;2;2\n\
         $1;40;void b();<no-session-id>;7;10;40;h;1;1\n\
         $1;60;void c();<no-session-id>;7;50;60;h;3;1\n\
         $1;70;void a();<no-session-id>;7;0;70;h;0;0\n",
    );
    let log = read_log(&dir).unwrap();
    let mapping: OperationMapping = [
        ("void a()".to_string(), seff("_a")),
        ("void b()".to_string(), seff("_b")),
        ("void c()".to_string(), action("_c")),
    ]
    .into();
    let (events, report) = convert(&log, &mapping);
    assert!(report.unmapped_operations.is_empty());
    let summary: Vec<(String, Option<String>)> = events
        .iter()
        .map(|e| match e {
            MeasurementEvent::ServiceCall {
                service,
                caller_execution,
                execution,
                ..
            } => (format!("{service}@{execution}"), caller_execution.clone()),
            MeasurementEvent::ResourceDemand { action, execution, .. } => (format!("{action}@{execution}"), None),
            _ => unreachable!(),
        })
        .collect();
    let s = |a: &str, b: Option<&str>| (a.to_string(), b.map(str::to_string));
    assert_eq!(
        summary,
        vec![
            s("_a@7:0", None),
            s("_b@7:1", Some("7:0")),
            s("_c@7:1", None),
            s("_c@7:0", None)
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
