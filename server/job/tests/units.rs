//! Demands in the work units Palladio's simulators read (issue 36), on copies of MediaStore's real
//! model (`fixtures/pcm/mediastore`: Packaging on the ApplicationServer, FileStorage on the
//! DatabaseServer; CPU at 1E9 on both, HDD at 5E7 and 6E8): a measured time written into the
//! model is the time, in the model's time unit, times the rate of the container measured on, so
//! that what a simulator computes, written value / rate, is the measured time again.

use beagle_analysis::{
    write_back, DemandUnit, DemandUnits, ElementKind, FinalExpression, MeasurableElement, ProposedExpression, Status,
    WriteBack,
};
use beagle_job::writing::units::demand_units;
use beagle_job::{JobError, Workspace};
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;
use std::path::Path;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";
const HDD: &str = "_BIjHoQ3KEdyouMqirZIhzQ";
/// Packaging's "Zipping" (CPU), on the ApplicationServer.
const ZIPPING: &str = "_OC0O0HQgEeSabL89DKH5bQ";
/// FileStorage's "get files" (CPU and HDD), on the DatabaseServer.
const GET_FILES: &str = "_vwTL0L0LEeSAHuL4ItXOLQ";
const FILE_STORAGE: &str = "_qxAiILg7EeSNPorBlo7x9g";

const FILES: [&str; 5] = [
    "MediaStore.repository",
    "MediaStore-Cacheless.system",
    "MediaStore-Cacheless.allocation",
    "MediaStore.resourceenvironment",
    "MediaStore.usagemodel",
];

/// A copy of MediaStore with a `beagle.toml` naming its repository and `extra` under `[model]`;
/// `leave_out` files are not copied.
fn mediastore(extra: &str, leave_out: &[&str]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore");
    for f in FILES.iter().filter(|f| !leave_out.contains(f)) {
        std::fs::copy(from.join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(
        dir.path().join("beagle.toml"),
        format!("[model]\nrepository = \"MediaStore.repository\"\n{extra}\n"),
    )
    .unwrap();
    let ws = beagle_job::resolve(dir.path()).unwrap();
    (dir, ws)
}

fn final_expression(element: &str, stoex: &str) -> FinalExpression {
    FinalExpression {
        proposal: ProposedExpression {
            element: element.into(),
            analyser: "test".into(),
            stoex: stoex.into(),
            infix: String::new(),
            r2: 1.0,
            relative_error: 0.0,
            samples: 10,
            parameter_ranges: BTreeMap::new(),
            size: 1,
            depth: 1,
            variables: vec![],
            guard: None,
            predictions: vec![],
            evidence: None,
        },
        fitness: 0.0,
        status: Status::Final,
        reasons: Vec::new(),
        fitted: None,
    }
}

/// Writes `laws` (action, resource type, law in ms) into the copy's repository as the job does.
fn write(ws: &Workspace, laws: &[(&str, &str, &str)]) -> (ModelFile, DemandUnits, WriteBack) {
    let file = ModelFile::read(&ws.repositories[0]).unwrap();
    let units = demand_units(ws, &file).unwrap();
    let finals: Vec<(MeasurableElement, FinalExpression)> = laws
        .iter()
        .map(|(action, resource, law)| {
            let e = MeasurableElement::new(ElementKind::ResourceDemand {
                action: action.to_string(),
                resource: resource.to_string(),
            });
            let fe = final_expression(&e.id, law);
            (e, fe)
        })
        .collect();
    let written = write_back(&file, finals.iter().map(|(e, f)| (e, f)), true, &units).unwrap();
    let new = ModelFile::parse(file.path.clone(), written.text.clone());
    (new, units, written)
}

/// The demand of `resource` of `action` as written, evaluated with `vars`.
fn demand(file: &ModelFile, action: &str, resource: &str, vars: &[(&str, f64)]) -> f64 {
    let a = file.repository.as_ref().unwrap().action(action).unwrap();
    let d = (a.resource_demands.iter())
        .find(|d| {
            d.resource_type
                .as_ref()
                .is_some_and(|r| r.target.fragment() == resource)
        })
        .unwrap();
    let text = &file.specifications[d.specification.unwrap()].text;
    let e = beagle_stoex::parse(text).unwrap();
    let env = |name: &str| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    beagle_stoex::eval_number(&e, &env).unwrap_or_else(|err| panic!("{text}: {err:?}"))
}

fn within(actual: f64, expected: f64) -> bool {
    ((actual - expected) / expected).abs() <= 1e-3
}

#[test]
fn a_measured_time_on_each_container_is_written_as_time_times_its_rate() {
    let (_dir, ws) = mediastore("", &[]);
    let (file, _, written) = write(
        &ws,
        &[
            (ZIPPING, CPU, "0.02 * audios.BYTESIZE + 75"),
            (GET_FILES, CPU, "2"),
            (GET_FILES, HDD, "4"),
        ],
    );
    assert!(written.unconverted.is_empty(), "{:?}", written.unconverted);
    // Time unit seconds (the default): the simulator's time is written value / rate, in seconds.
    let zipping = demand(&file, ZIPPING, CPU, &[("audios.BYTESIZE", 1000.0)]);
    assert!(within(zipping / 1e9, (0.02 * 1000.0 + 75.0) / 1e3), "{zipping}");
    let cpu = demand(&file, GET_FILES, CPU, &[]);
    assert!(within(cpu / 1e9, 2e-3), "{cpu}");
    let hdd = demand(&file, GET_FILES, HDD, &[]);
    assert!(within(hdd / 6e8, 4e-3), "the database server's disk: {hdd}");
    // Only the demands changed: the loop counts, probabilities and parameters are as they were.
    let original = std::fs::read_to_string(&ws.repositories[0]).unwrap();
    assert_eq!(written.edits.len(), 3, "{:?}", written.edits);
    assert!(written
        .edits
        .iter()
        .all(|e| original[e.span.range()].contains("1.0512*audios.BYTESIZE")
            || original[e.span.range()].contains("75182981.91")
            || original[e.span.range()].contains("audioRequest.Size.VALUE")));
}

#[test]
fn with_rates_per_millisecond_a_written_value_over_its_rate_is_milliseconds() {
    let (_dir, ws) = mediastore("time_unit = \"ms\"", &[]);
    let (file, _, _) = write(&ws, &[(ZIPPING, CPU, "75"), (GET_FILES, HDD, "4")]);
    assert!(within(demand(&file, ZIPPING, CPU, &[]) / 1e9, 75.0));
    assert!(within(demand(&file, GET_FILES, HDD, &[]) / 6e8, 4.0));
}

#[test]
fn measured_on_names_the_machine_every_demand_was_measured_on() {
    let (_dir, ws) = mediastore("measured_on = \"ApplicationServer\"", &[]);
    let (file, units, _) = write(&ws, &[(GET_FILES, CPU, "2"), (GET_FILES, HDD, "4")]);
    // FileStorage runs on the database server, but was measured on the application server,
    // whose disk is slower: 4 ms there is 4 ms × 5E7/s of work.
    assert!(within(demand(&file, GET_FILES, HDD, &[]) / 5e7, 4e-3));
    assert!(within(demand(&file, GET_FILES, CPU, &[]) / 1e9, 2e-3));
    let DemandUnit::WorkUnits(c) = units.of(FILE_STORAGE, HDD) else {
        panic!("converted")
    };
    assert_eq!(
        (c.container.as_str(), c.rate, c.resource.as_str()),
        ("ApplicationServer", 5e7, "HDD")
    );
    // By id too.
    let (_dir, ws) = mediastore("measured_on = \"_t8rcYHlPEeSGtbTG2d9Ipg\"", &[]);
    let file = ModelFile::read(&ws.repositories[0]).unwrap();
    assert!(
        matches!(demand_units(&ws, &file).unwrap().of(FILE_STORAGE, HDD), DemandUnit::WorkUnits(c) if c.rate == 5e7)
    );
}

#[test]
fn a_measured_on_that_names_no_container_is_an_error_naming_the_containers() {
    let (_dir, ws) = mediastore("measured_on = \"AppServer\"", &[]);
    let file = ModelFile::read(&ws.repositories[0]).unwrap();
    let e = demand_units(&ws, &file).unwrap_err();
    assert!(matches!(e, JobError::MeasuredOn { .. }));
    let text = e.to_string();
    assert!(
        text.contains("measured_on = \"AppServer\"") && text.contains("ApplicationServer, DatabaseServer"),
        "{text}"
    );
    // Without a resource environment it cannot name anything.
    let (_dir, ws) = mediastore(
        "measured_on = \"AppServer\"",
        &["MediaStore.resourceenvironment", "MediaStore-Cacheless.allocation"],
    );
    let e = demand_units(&ws, &file).unwrap_err().to_string();
    assert!(e.contains("no resource environment"), "{e}");
}

#[test]
fn without_a_resource_environment_demands_stay_in_milliseconds() {
    let (_dir, ws) = mediastore(
        "",
        &["MediaStore.resourceenvironment", "MediaStore-Cacheless.allocation"],
    );
    let (file, units, written) = write(&ws, &[(ZIPPING, CPU, "75")]);
    assert_eq!(units, DemandUnits::milliseconds());
    assert_eq!(demand(&file, ZIPPING, CPU, &[]), 75.0);
    assert_eq!(written.applied[0].value, "75");
    let rates = beagle_job::writing::units::Rates::load(&ws).unwrap();
    assert!(rates
        .milliseconds_note()
        .unwrap()
        .contains("demands are in milliseconds"));
}

/// FileStorage also placed on the ApplicationServer (a second assembly context): its CPU runs at
/// 1E9 on both, so CPU demands convert; its HDD at 5E7 and 6E8, so which machine was measured
/// decides the number, and without `measured_on` HDD demands are not written at all.
#[test]
fn a_component_on_containers_that_disagree_is_not_written_and_the_containers_are_named() {
    let (dir, ws) = mediastore("", &[]);
    let system = dir.path().join("MediaStore-Cacheless.system");
    let text = std::fs::read_to_string(&system).unwrap();
    let second = "  <assemblyContexts__ComposedStructure id=\"_fs_second\" entityName=\"FileStorage2\">\n    \
        <encapsulatedComponent__AssemblyContext xsi:type=\"repository:BasicComponent\" href=\"MediaStore.repository#_qxAiILg7EeSNPorBlo7x9g\"/>\n  \
        </assemblyContexts__ComposedStructure>\n";
    let at = text.find("  <assemblyContexts__ComposedStructure").unwrap();
    std::fs::write(&system, format!("{}{second}{}", &text[..at], &text[at..])).unwrap();
    let allocation = dir.path().join("MediaStore-Cacheless.allocation");
    let text = std::fs::read_to_string(&allocation).unwrap();
    let context = "  <allocationContexts_Allocation id=\"_alloc_second\" entityName=\"FileStorage2\">\n    \
        <resourceContainer_AllocationContext href=\"MediaStore.resourceenvironment#_t8rcYHlPEeSGtbTG2d9Ipg\"/>\n    \
        <assemblyContext_AllocationContext href=\"MediaStore-Cacheless.system#_fs_second\"/>\n  \
        </allocationContexts_Allocation>\n";
    let at = text.find("</allocation:Allocation>").unwrap();
    std::fs::write(&allocation, format!("{}{context}{}", &text[..at], &text[at..])).unwrap();

    let (file, units, written) = write(&ws, &[(GET_FILES, CPU, "2"), (GET_FILES, HDD, "4")]);
    assert!(within(demand(&file, GET_FILES, CPU, &[]) / 1e9, 2e-3));
    let DemandUnit::WorkUnits(cpu) = units.of(FILE_STORAGE, CPU) else {
        panic!("the same CPU rate on both")
    };
    assert_eq!(cpu.container, "ApplicationServer and DatabaseServer"); // in the system's order
                                                                       // The HDD demand keeps the model's value; the reason names both containers and the key.
    assert_eq!(written.unconverted.len(), 1, "{:?}", written.unconverted);
    let (element, why) = &written.unconverted[0];
    assert_eq!(element, &format!("{GET_FILES}/{HDD}"));
    for part in [
        "`DatabaseServer` at 6E8/s",
        "`ApplicationServer` at 5E7/s",
        "measured_on",
    ] {
        assert!(why.contains(part), "{why}");
    }
    let original = ModelFile::read(&ws.repositories[0]).unwrap();
    let hdd = |f: &ModelFile| {
        let a = f.repository.as_ref().unwrap().action(GET_FILES).unwrap();
        f.specifications[a.resource_demands[1].specification.unwrap()]
            .text
            .clone()
    };
    assert_eq!(hdd(&file), hdd(&original));
    // `measured_on` settles it.
    std::fs::write(
        dir.path().join("beagle.toml"),
        "[model]\nrepository = \"MediaStore.repository\"\nmeasured_on = \"DatabaseServer\"\n",
    )
    .unwrap();
    let ws = beagle_job::resolve(dir.path()).unwrap();
    let (file, _, written) = write(&ws, &[(GET_FILES, HDD, "4")]);
    assert!(written.unconverted.is_empty());
    assert!(within(demand(&file, GET_FILES, HDD, &[]) / 6e8, 4e-3));
}
