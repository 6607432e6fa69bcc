//! `beagle analyse` writes demands in the work units Palladio's simulators read (issue 36): on a
//! copy of MediaStore's real model (Packaging on the ApplicationServer, FileStorage on the
//! DatabaseServer) with measurements in the Beagle events format, each written demand over its
//! container's rate is the measured time; `--json` keeps the law in milliseconds and adds it in
//! work units; without a resource environment demands stay in milliseconds and the output says so.

mod common;

use common::{beagle_in, json, root};
use std::fmt::Write;
use std::path::Path;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";
const HDD: &str = "_BIjHoQ3KEdyouMqirZIhzQ";
/// Packaging.zip and its "Zipping" (CPU), on the ApplicationServer.
const ZIP_SEFF: &str = "_MtVlgHDyEeSqnN80MQ2uGw";
const ZIPPING: &str = "_OC0O0HQgEeSabL89DKH5bQ";
/// FileStorage.getFiles and its "get files" (CPU and HDD), on the DatabaseServer.
const GET_FILES_SEFF: &str = "_sFS0gbg7EeSNPorBlo7x9g";
const GET_FILES: &str = "_vwTL0L0LEeSAHuL4ItXOLQ";

/// Measured: Zipping 75 ms of CPU, get files 2 ms of CPU and 4 ms of disk (±0.3 %, alternating,
/// so the means are exact).
fn events() -> String {
    let mut out = String::new();
    let mut t: u64 = 1_000_000_000;
    for i in 0..12u64 {
        let jitter = if i % 2 == 0 { 1.003 } else { 0.997 };
        for (seff, demands) in [
            (ZIP_SEFF, vec![(ZIPPING, CPU, 75.0)]),
            (GET_FILES_SEFF, vec![(GET_FILES, CPU, 2.0), (GET_FILES, HDD, 4.0)]),
        ] {
            let execution = format!("{seff}-{i}");
            let entry = t;
            let mut at = t + 1000;
            let mut lines = String::new();
            for (action, resource, ms) in demands {
                let ns = (ms * jitter * 1e6) as u64;
                let _ = writeln!(
                    lines,
                    r#"{{"event":"resource_demand","execution":"{execution}","action":"{action}","resource":"{resource}","start_ns":{at},"stop_ns":{}}}"#,
                    at + ns
                );
                at += ns + 1000;
            }
            let _ = writeln!(
                out,
                r#"{{"event":"service_call","execution":"{execution}","service":"{seff}","entry_ns":{entry},"exit_ns":{at}}}"#
            );
            out.push_str(&lines);
            t = at + 1_000_000;
        }
    }
    out
}

/// A copy of MediaStore with the events and a `beagle.toml`; `leave_out` files are not copied.
fn workspace(extra: &str, leave_out: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = root().join("fixtures/pcm/mediastore");
    for e in std::fs::read_dir(&from).unwrap() {
        let name = e.unwrap().file_name();
        if !leave_out.iter().any(|l| name == *l) {
            std::fs::copy(from.join(&name), dir.path().join(&name)).unwrap();
        }
    }
    std::fs::write(dir.path().join("measured.events"), events()).unwrap();
    std::fs::write(
        dir.path().join("beagle.toml"),
        format!(
            "[model]\nrepository = \"MediaStore.repository\"\n{extra}\n[measurements]\nevents = \"measured.events\"\n[analysis]\nseed = 1\nbudget = 60\n"
        ),
    )
    .unwrap();
    dir
}

/// `action`'s demand of `resource` in the repository as it is.
fn spec(dir: &Path, action: &str, resource: &str) -> String {
    let file = beagle_pcm::ModelFile::read(&dir.join("MediaStore.repository")).unwrap();
    let a = file.repository.as_ref().unwrap().action(action).unwrap();
    let d = (a.resource_demands.iter())
        .find(|d| {
            d.resource_type
                .as_ref()
                .is_some_and(|r| r.target.fragment() == resource)
        })
        .unwrap();
    file.specifications[d.specification.unwrap()].text.clone()
}

/// The value of `action`'s demand of `resource` as written.
fn written(dir: &Path, action: &str, resource: &str) -> f64 {
    let text = spec(dir, action, resource);
    text.parse().unwrap_or_else(|_| panic!("not a number: {text}"))
}

fn result<'a>(report: &'a serde_json::Value, element: &str) -> &'a serde_json::Value {
    (report["results"].as_array().unwrap().iter())
        .find(|r| r["element"] == element)
        .unwrap_or_else(|| panic!("no result for {element}: {report}"))
}

fn within(actual: f64, expected: f64) -> bool {
    ((actual - expected) / expected).abs() <= 1e-3
}

const NOTE: &str = "demands are in milliseconds";

#[test]
fn measured_times_are_written_as_work_units_of_each_containers_rate() {
    let dir = workspace("", &[]);
    let out = beagle_in(dir.path(), &["analyse", "--write", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    // Written value / rate = the measured time, in seconds (the default time unit).
    assert!(within(written(dir.path(), ZIPPING, CPU) / 1e9, 0.075));
    assert!(within(written(dir.path(), GET_FILES, CPU) / 1e9, 0.002));
    assert!(within(written(dir.path(), GET_FILES, HDD) / 6e8, 0.004));

    // `--json`: the law in milliseconds where it always was, and in work units beside it.
    let zipping = result(&report, &format!("{ZIPPING}/{CPU}"));
    let ms: f64 = zipping["expression"].as_str().unwrap().parse().unwrap();
    assert!(within(ms, 75.0), "{zipping}");
    let w = &zipping["work_units"];
    assert_eq!(w["container"], "ApplicationServer", "{zipping}");
    assert_eq!((w["rate"].as_f64(), w["time_unit"].as_str()), (Some(1e9), Some("s")));
    assert_eq!(w["per_ms"].as_f64(), Some(1e6));
    let units: f64 = w["expression"].as_str().unwrap().parse().unwrap();
    assert!(within(units, 7.5e7), "{w}");
    let disk = &result(&report, &format!("{GET_FILES}/{HDD}"))["work_units"];
    assert_eq!(
        (disk["container"].as_str(), disk["rate"].as_f64()),
        (Some("DatabaseServer"), Some(6e8))
    );
    let messages: Vec<&str> = (report["diagnostics"].as_array().unwrap().iter())
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(!messages.iter().any(|m| m.contains(NOTE)), "{messages:?}");

    // The text report (from the store now) shows both.
    let out = beagle_in(dir.path(), &["analyse"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("in work units: 75000000.0 CPU units on ApplicationServer at 1E9/s"),
        "{text}"
    );
    assert!(text.contains("HDD units on DatabaseServer at 6E8/s"), "{text}");
}

#[test]
fn rates_per_millisecond_and_measured_on_change_the_factor() {
    let dir = workspace("time_unit = \"ms\"\nmeasured_on = \"ApplicationServer\"", &[]);
    let out = beagle_in(dir.path(), &["analyse", "--write", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Rates per ms: written value / rate is milliseconds. FileStorage's disk was measured on the
    // application server's (5E7), not the database server's it runs on.
    assert!(within(written(dir.path(), ZIPPING, CPU) / 1e9, 75.0));
    assert!(within(written(dir.path(), GET_FILES, HDD) / 5e7, 4.0));
    let report = json(&out);
    let disk = &result(&report, &format!("{GET_FILES}/{HDD}"))["work_units"];
    assert_eq!(
        (disk["container"].as_str(), disk["time_unit"].as_str()),
        (Some("ApplicationServer"), Some("ms"))
    );
}

#[test]
fn a_measured_on_naming_no_container_stops_the_job_before_it_measures() {
    let dir = workspace("measured_on = \"AppServer\"", &[]);
    let out = beagle_in(dir.path(), &["analyse", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("measured_on = \"AppServer\" names no resource container"),
        "{err}"
    );
    assert!(err.contains("ApplicationServer, DatabaseServer"), "{err}");
}

#[test]
fn without_a_resource_environment_demands_stay_in_milliseconds_with_one_note() {
    let dir = workspace(
        "",
        &["MediaStore.resourceenvironment", "MediaStore-Cacheless.allocation"],
    );
    let out = beagle_in(dir.path(), &["analyse", "--write", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(within(written(dir.path(), ZIPPING, CPU), 75.0));
    let report = json(&out);
    assert!(result(&report, &format!("{ZIPPING}/{CPU}")).get("work_units").is_none());
    let notes: Vec<&serde_json::Value> = (report["diagnostics"].as_array().unwrap().iter())
        .filter(|d| d["message"].as_str().unwrap().contains(NOTE))
        .collect();
    assert_eq!(notes.len(), 1, "{report}");
    assert_eq!(notes[0]["severity"], "info");
}

/// FileStorage also placed on the ApplicationServer: its disk runs at 6E8 on one and 5E7 on the
/// other, so which machine was measured decides the number. Without `measured_on` its HDD demand
/// is not written, and one warning names both containers; its CPU (1E9 on both) is written.
#[test]
fn a_component_on_containers_whose_rates_differ_is_warned_about_and_not_written() {
    let dir = workspace("", &[]);
    let edit = |file: &str, before: &str, insert: &str| {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let at = text.find(before).unwrap();
        std::fs::write(&path, format!("{}{insert}{}", &text[..at], &text[at..])).unwrap();
    };
    edit(
        "MediaStore-Cacheless.system",
        "  <assemblyContexts__ComposedStructure",
        "  <assemblyContexts__ComposedStructure id=\"_second\" entityName=\"FileStorage2\">\n    \
         <encapsulatedComponent__AssemblyContext xsi:type=\"repository:BasicComponent\" \
         href=\"MediaStore.repository#_qxAiILg7EeSNPorBlo7x9g\"/>\n  </assemblyContexts__ComposedStructure>\n",
    );
    edit(
        "MediaStore-Cacheless.allocation",
        "</allocation:Allocation>",
        "  <allocationContexts_Allocation id=\"_alloc_second\" entityName=\"FileStorage2\">\n    \
         <resourceContainer_AllocationContext href=\"MediaStore.resourceenvironment#_t8rcYHlPEeSGtbTG2d9Ipg\"/>\n    \
         <assemblyContext_AllocationContext href=\"MediaStore-Cacheless.system#_second\"/>\n  \
         </allocationContexts_Allocation>\n",
    );
    let before = spec(dir.path(), GET_FILES, HDD);
    let out = beagle_in(dir.path(), &["analyse", "--write", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let warnings: Vec<&str> = (report["diagnostics"].as_array().unwrap().iter())
        .filter(|d| d["severity"] == "warning")
        .filter_map(|d| d["message"].as_str())
        .filter(|m| m.contains("without work units"))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    for part in [
        "`ApplicationServer` at 5E7/s",
        "`DatabaseServer` at 6E8/s",
        "measured_on",
        GET_FILES,
    ] {
        assert!(warnings[0].contains(part), "{}", warnings[0]);
    }
    assert_eq!(spec(dir.path(), GET_FILES, HDD), before, "the model keeps its value");
    assert!(within(written(dir.path(), GET_FILES, CPU) / 1e9, 0.002));
    assert!(result(&report, &format!("{GET_FILES}/{HDD}"))
        .get("work_units")
        .is_none());
}
