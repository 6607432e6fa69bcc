//! The deployment's diagnostics on small changes to the real MediaStore model: each problem is
//! reported in the file to fix, on the line and element concerned, and the rest is still read.

mod common;

use beagle_pcm::model::resource_environment::RateError;
use beagle_pcm::{Deployment, Diagnostic, ModelSet, Severity};
use common::*;
use std::path::Path;

const MEDIASTORE: [&str; 5] = [
    "MediaStore.repository",
    "MediaStore-Cacheless.system",
    "MediaStore-Cacheless.allocation",
    "MediaStore.resourceenvironment",
    "MediaStore.usagemodel",
];
const ALLOCATION: &str = "MediaStore-Cacheless.allocation";
const ENVIRONMENT: &str = "MediaStore.resourceenvironment";
const SYSTEM: &str = "MediaStore-Cacheless.system";

/// A copy of MediaStore in a temporary folder, each file's text changed by `change(name, text)`
/// (`None`: the file is left out).
fn mediastore(change: impl Fn(&str, String) -> Option<String>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in MEDIASTORE {
        let text = std::fs::read_to_string(fixture(&format!("mediastore/{name}"))).unwrap();
        if let Some(text) = change(name, text) {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
    }
    dir
}

/// `text` with one replacement, which must apply.
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

/// `text` without the element that starts with `start` (up to its end tag `</tag>`).
fn without(text: &str, start: &str, tag: &str) -> String {
    let from = text.find(start).unwrap_or_else(|| panic!("{start}"));
    let end = from + text[from..].find(&format!("</{tag}>")).unwrap() + tag.len() + 3;
    // The line goes too, so that the file stays as a tool would write it.
    let line_start = text[..from].rfind('\n').unwrap();
    format!("{}{}", &text[..line_start], &text[end..])
}

/// The diagnostics of one file of the folder, as `line code severity element message`.
fn diagnostics(dir: &Path, name: &str) -> Vec<(u32, &'static str, Severity, Option<String>, String)> {
    let mut set = ModelSet::new();
    let id = set.load(&dir.join(name)).unwrap();
    let file_diagnostics: Vec<Diagnostic> = set.check(id);
    let file = set.file(id);
    file_diagnostics
        .into_iter()
        .map(|d| {
            let line = file.line_col(d.span.start as usize).line;
            (line, d.code, d.severity, d.element, d.message)
        })
        .collect()
}

fn deployment(dir: &Path) -> Deployment {
    let mut set = ModelSet::new();
    let id = set.load(&dir.join(ALLOCATION)).unwrap();
    Deployment::load(&mut set, id).unwrap()
}

#[test]
fn the_real_models_deploy_cleanly() {
    let dir = mediastore(|_, t| Some(t));
    for name in [SYSTEM, ALLOCATION, ENVIRONMENT] {
        assert_eq!(diagnostics(dir.path(), name), vec![], "{name}");
    }
    for name in ["default.system", "default.allocation", "My.resourceenvironment"] {
        assert_eq!(diagnostics(&fixture("minimum-example"), name), vec![], "{name}");
    }
}

#[test]
fn a_system_with_a_resource_environment_but_no_allocation_is_named() {
    let dir = mediastore(|name, t| (name != ALLOCATION).then_some(t));
    let d = diagnostics(dir.path(), SYSTEM);
    assert_eq!(d.len(), 1, "{d:?}");
    let (line, code, severity, element, message) = &d[0];
    assert_eq!((*line, *code, *severity), (2, "no-allocation", Severity::Warning));
    assert_eq!(element.as_deref(), Some("_oPwBYHDhEeSqnN80MQ2uGk"));
    assert!(message.contains("`MediaStore.resourceenvironment`"), "{message}");
    // A system alone (no hardware modelled yet, as in fixtures/fileshare) is not reported.
    let alone = mediastore(|name, t| (name != ALLOCATION && name != ENVIRONMENT).then_some(t));
    assert_eq!(diagnostics(alone.path(), SYSTEM), vec![]);
}

#[test]
fn a_rate_that_is_not_a_positive_number_is_an_error_on_its_line_and_the_rest_is_read() {
    for (rate, why) in [
        ("hdd.VALUE", "is not a number: unknown variable `hdd.VALUE`"),
        ("0", "is 0, not a positive number"),
        ("-50 * 1000", "is -50000, not a positive number"),
        ("&quot;fast&quot;", "is not a number"),
    ] {
        let dir = mediastore(|name, t| {
            Some(if name == ENVIRONMENT {
                replaced(
                    &t,
                    "specification=\"50 * 1000 * 1000\"",
                    &format!("specification=\"{rate}\""),
                )
            } else {
                t
            })
        });
        let d = diagnostics(dir.path(), ENVIRONMENT);
        assert_eq!(d.len(), 1, "{rate}: {d:?}");
        let (line, code, severity, element, message) = &d[0];
        assert_eq!(
            (*line, *code, *severity),
            (19, "processing-rate", Severity::Error),
            "{rate}"
        );
        assert_eq!(element.as_deref(), Some("_TVMn0Hy8EeaPy6UnbN4v1Q"));
        assert!(
            message.starts_with("HDD of `ApplicationServer`: processing rate"),
            "{message}"
        );
        assert!(message.contains(why), "{message}");
        // The other rates are still read, and the bad one is an error in the deployment too.
        let deployment = deployment(dir.path());
        let app = "_t8rcYHlPEeSGtbTG2d9Ipg";
        let cpu = deployment.processing_resource(app, "_oro4gG3fEdy4YaaT-RYrLQ").unwrap();
        assert_eq!(cpu.rate.as_ref().unwrap().value, 1e9);
        assert!(deployment
            .processing_resource(app, "_BIjHoQ3KEdyouMqirZIhzQ")
            .unwrap()
            .rate
            .is_err());
    }
    // An expression that does not parse is the `stoex-syntax` error, at the character.
    let dir = mediastore(|name, t| {
        Some(if name == ENVIRONMENT {
            replaced(&t, "\"50 * 1000 * 1000\"", "\"50 * 1000 *\"")
        } else {
            t
        })
    });
    let d = diagnostics(dir.path(), ENVIRONMENT);
    assert_eq!(
        d.iter().map(|d| (d.0, d.1)).collect::<Vec<_>>(),
        [(19, "stoex-syntax")],
        "{d:?}"
    );
    let hdd = deployment(dir.path());
    let hdd = hdd
        .processing_resource("_t8rcYHlPEeSGtbTG2d9Ipg", "_BIjHoQ3KEdyouMqirZIhzQ")
        .unwrap();
    assert!(matches!(hdd.rate, Err(RateError::Syntax { .. })), "{:?}", hdd.rate);
}

#[test]
fn a_component_not_allocated_is_an_error_naming_its_assembly_context() {
    let dir = mediastore(|name, t| {
        Some(if name == ALLOCATION {
            without(
                &t,
                "<allocationContexts_Allocation id=\"_0nXWILYiEeaM_9DBke4xEw\"",
                "allocationContexts_Allocation",
            )
        } else {
            t
        })
    });
    let d = diagnostics(dir.path(), ALLOCATION);
    assert_eq!(d.len(), 1, "{d:?}");
    let (line, code, severity, element, message) = &d[0];
    // On the allocation's reference to the system: that is where the context is missing.
    assert_eq!((*line, *code, *severity), (4, "not-allocated", Severity::Error));
    assert_eq!(element.as_deref(), Some("_1ek7QLg_EeSNPorBlo7x9z"));
    assert!(
        message.starts_with("assembly context `FileStorage` of system `MediaStoreSystem` is not allocated"),
        "{message}"
    );
    let deployment = deployment(dir.path());
    let unallocated: Vec<_> = deployment
        .unallocated()
        .iter()
        .map(|c| c.name.clone().unwrap())
        .collect();
    assert_eq!(unallocated, ["FileStorage"]);
    assert!(deployment.containers_of_component("_qxAiILg7EeSNPorBlo7x9g").is_empty());
    assert_eq!(deployment.containers_of_component("_p_EeYHDrEeSqnN80MQ2uGw").len(), 1);
}

#[test]
fn a_demand_on_a_resource_type_its_container_lacks_is_an_error_on_the_allocation_context() {
    let dir = mediastore(|name, t| {
        Some(if name == ENVIRONMENT {
            without(
                &t,
                "<activeResourceSpecifications_ResourceContainer id=\"_T3NBUHy_EeaHhOO9CmhLjQ\"",
                "activeResourceSpecifications_ResourceContainer",
            )
        } else {
            t
        })
    });
    assert_eq!(diagnostics(dir.path(), ENVIRONMENT), vec![]);
    let d = diagnostics(dir.path(), ALLOCATION);
    assert_eq!(d.len(), 1, "{d:?}");
    let (line, code, severity, element, message) = &d[0];
    assert_eq!((*line, *code, *severity), (17, "missing-resource", Severity::Error));
    assert_eq!(element.as_deref(), Some("_0nXWILYiEeaM_9DBke4xEw"));
    assert!(
        message.starts_with("`FileStorage` runs on `DatabaseServer`, which has no HDD processing resource, but component `FileStorage` demands HDD"),
        "{message}"
    );
}

#[test]
fn a_context_allocated_twice_is_an_error_on_the_second() {
    let dir = mediastore(|name, t| {
        Some(if name == ALLOCATION {
            // FileStorage's allocation context, copied with a new id onto the application server.
            let start = t.find("  <allocationContexts_Allocation id=\"_0nXWILYiEeaM").unwrap();
            let end = t.rfind("</allocation:Allocation>").unwrap();
            let copy = t[start..end]
                .replace("_0nXWILYiEeaM_9DBke4xEw", "_copy")
                .replace("#_dH4W0Lg3EeSNPorBlo7x9g", "#_t8rcYHlPEeSGtbTG2d9Ipg");
            format!("{}{copy}{}", &t[..end], &t[end..])
        } else {
            t
        })
    });
    let d = diagnostics(dir.path(), ALLOCATION);
    assert_eq!(
        d.iter().map(|d| (d.0, d.1, d.3.as_deref())).collect::<Vec<_>>(),
        [(21, "allocated-twice", Some("_copy"))],
        "{d:?}"
    );
    // The first placement is the one that counts.
    assert_eq!(
        deployment(dir.path())
            .container_of("_1ek7QLg_EeSNPorBlo7x9z")
            .unwrap()
            .name
            .as_deref(),
        Some("DatabaseServer")
    );
}
