//! Arbitrary bytes as the lines of a `.dat` file (with a map naming every record class Beagle
//! reads, plus one it does not): parsing must never panic, and the records parsed from the good
//! lines must convert to events without panicking, through a mapping that covers some operations.
//!
//! Seeds: `seeds/dat_lines/` (the Kieker fixtures' `.dat` files and a CIPM log).

#![no_main]

use beagle_measure::kieker::{parse_dat_line, parse_map, DatLine, KiekerLog};
use beagle_measure::{convert, MappedOperation, OperationMapping};
use libfuzzer_sys::fuzz_target;

const MAP: &str = "$0=kieker.common.record.misc.KiekerMetadataRecord
$1=tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records.ServiceCallRecord
$2=tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records.ResponseTimeRecord
$3=tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records.LoopRecord
$4=tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records.BranchRecord
$5=kieker.common.record.system.CPUUtilizationRecord
$6=kieker.common.record.controlflow.OperationExecutionRecord
$7=kieker.common.record.flow.trace.TraceMetadata
$8=kieker.common.record.flow.trace.operation.BeforeOperationEvent
$9=kieker.common.record.flow.trace.operation.AfterOperationEvent
$10=tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records.ResourceUtilizationRecord
$11=com.example.Unknown
";

fuzz_target!(|data: &[u8]| {
    let map = parse_map(MAP).expect("the map is valid");
    let text = String::from_utf8_lossy(data);
    let mut log = KiekerLog::default();
    for line in text.lines() {
        if let Ok(DatLine::Record(r)) = parse_dat_line(line, &map) {
            log.records.push(r);
        }
    }
    // Map the operations of the input itself: short signatures to SEFFs, long ones to actions.
    let mut mapping = OperationMapping::new();
    for r in &log.records {
        let sig = match &r.record {
            beagle_measure::KiekerRecord::OperationExecution(o) => &o.operation_signature,
            beagle_measure::KiekerRecord::BeforeOperation(e) => &e.operation_signature,
            _ => continue,
        };
        let target = if sig.len() % 2 == 0 {
            MappedOperation::Seff(sig.clone())
        } else {
            MappedOperation::InternalAction {
                action: sig.clone(),
                resource: "_CPU".into(),
            }
        };
        mapping.insert(sig.clone(), target);
    }
    let (events, _) = convert(&log, &mapping);
    assert!(events.len() <= log.records.len());
});
