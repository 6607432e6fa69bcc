mod common;

use beagle_ide::{hover, ElementResult, PointRow, ResultStatus};
use common::*;
use std::collections::BTreeMap;

fn hover_on(path: &str, needle: &str, results: &[ElementResult]) -> String {
    let file = read(path);
    let offset = offset_of(file.text(), needle, 0, needle.len() / 2);
    let h = hover(&file, offset, results).expect("a hover");
    // The span is the start tag of the element the hover is about, which holds the offset.
    assert!(h.span.start as usize <= offset);
    assert!(file.text()[h.span.range()].starts_with('<'));
    h.markdown
}

/// Results built by hand, as the language server would from its blackboard: a CPU demand with
/// more parameter points than a hover shows, and a preliminary loop count without points.
fn results() -> Vec<ElementResult> {
    let points = (1..=15)
        .map(|i| {
            let n = f64::from(i);
            PointRow {
                parameters: vec![
                    ("files.NUMBER_OF_ELEMENTS".into(), n),
                    ("alreadyCompressed.VALUE".into(), 0.0),
                ],
                n: 5,
                executions: 5,
                median: 1.234_567 * n,
                q1: 1.2 * n,
                q3: 1.3 * n,
            }
        })
        .collect();
    vec![
        ElementResult {
            element: "_fs_partition/_oro4gG3fEdy4YaaT-RYrLQ".into(),
            action: "_fs_partition".into(),
            what: "CPU demand".into(),
            expression: "1.2345 * files.NUMBER_OF_ELEMENTS".into(),
            guard: None,
            status: ResultStatus::Final,
            r2: Some(0.998_765),
            relative_error: Some(0.0123),
            samples: 75,
            parameter_ranges: vec![
                ("alreadyCompressed.VALUE".into(), 0.0, 0.0),
                ("files.NUMBER_OF_ELEMENTS".into(), 1.0, 15.0),
            ],
            points,
            reasons: Vec::new(),
            evidence: Some(beagle_analysis::ProposalEvidence {
                points: 15,
                observations: 75,
                repetitions: (5, 5),
                runs: None,
                max_constants: 7,
                constants: 1,
                relative: true,
                noise: Some(0.031),
                holdout_error: Some(0.0212),
                constant_holdout_error: Some(0.61),
                better_than_constant_p: Some(3e-5),
                band: Some(0.0424),
                intervals: vec![beagle_analysis::Interval {
                    value: 1.2345,
                    low: 1.2101,
                    high: 1.2589,
                }],
                equivalent: vec![("files.NUMBER_OF_ELEMENTS".into(), "ids.NUMBER_OF_ELEMENTS".into())],
                is_final: true,
                reasons: Vec::new(),
                notes: vec!["ids.NUMBER_OF_ELEMENTS always equals files.NUMBER_OF_ELEMENTS: the law uses files.NUMBER_OF_ELEMENTS".into()],
                ..Default::default()
            }),
        },
        ElementResult {
            element: "_fs_compress_loop".into(),
            action: "_fs_compress_loop".into(),
            what: "loop iterations".into(),
            expression: "files.NUMBER_OF_ELEMENTS".into(),
            guard: None,
            status: ResultStatus::Preliminary,
            r2: None,
            relative_error: None,
            samples: 3,
            parameter_ranges: Vec::new(),
            points: Vec::new(),
            reasons: vec!["2 distinct parameter points: at least 3 are needed to tell a law".into()],
            evidence: None,
        },
    ]
}

#[test]
fn action_without_results() {
    let markdown = hover_on(FILESHARE, "entityName=\"partition files\"", &[]);
    assert!(markdown.ends_with("Not analysed yet"));
    insta::assert_snapshot!(markdown);
}

#[test]
fn action_with_results() {
    let markdown = hover_on(FILESHARE, "entityName=\"partition files\"", &results());
    assert!(!markdown.contains("Not analysed yet"));
    assert!(markdown.contains("12 of 15 parameter points shown"));
    // The evidence: points, held-out error and band, the constant's interval, equivalent inputs.
    assert!(markdown.contains("15 distinct points (5–5 repetitions)"), "{markdown}");
    assert!(markdown.contains("95 % band ±4.24 %"), "{markdown}");
    assert!(markdown.contains("1.2345 [1.21, 1.259]"), "{markdown}");
    assert!(
        markdown.contains("always equals files.NUMBER_OF_ELEMENTS"),
        "{markdown}"
    );
    insta::assert_snapshot!(markdown);
}

#[test]
fn a_table_over_samples_says_how_many_runs_stand_behind_each_point() {
    let mut results = results();
    let plain = hover_on(FILESHARE, "entityName=\"partition files\"", &results);
    assert!(!plain.contains("executions"), "every observation is one run: {plain}");
    // A point in a hot loop: 64 observations kept of 100,000 runs.
    for (i, p) in results[0].points.iter_mut().enumerate() {
        p.n = 64;
        p.executions = 100_000 + i as u64;
    }
    let sampled = hover_on(FILESHARE, "entityName=\"partition files\"", &results);
    assert!(sampled.contains("| n | executions | median |"), "{sampled}");
    assert!(sampled.contains("| 64 | 100000 |"), "{sampled}");
    assert!(sampled.contains("| 64 | 100014 |"), "the last point: {sampled}");
    assert!(sampled.contains("executions: the element's measured runs"), "{sampled}");
}

#[test]
fn loop_with_a_preliminary_result() {
    insta::assert_snapshot!(hover_on(FILESHARE, "entityName=\"compress loop\"", &results()));
}

#[test]
fn external_call_shows_its_signature_and_parameters() {
    insta::assert_snapshot!(hover_on(FILESHARE, "entityName=\"hash\" predecessor", &[]));
}

#[test]
fn guarded_branch_shows_its_conditions() {
    insta::assert_snapshot!(hover_on(MEDIASTORE, "entityName=\"RequestMultiplicityBranch\"", &[]));
}

#[test]
fn seff_lists_actions_in_execution_order() {
    insta::assert_snapshot!(hover_on(FILESHARE, "id=\"_fs_upload_seff\"", &[]));
}

#[test]
fn component_summarises_roles_and_results() {
    let without = hover_on(FILESHARE, "entityName=\"BusinessCore\"", &[]);
    assert!(without.ends_with("Not analysed yet"));
    insta::assert_snapshot!(hover_on(FILESHARE, "entityName=\"BusinessCore\"", &results()));
}

#[test]
fn signature_and_repository() {
    let signature = hover_on(FILESHARE, "id=\"_fs_IUpload_upload\"", &[]);
    let repository = hover_on(FILESHARE, "entityName=\"FileShare\"", &[]);
    insta::assert_snapshot!(format!("{signature}\n\n----\n\n{repository}"));
}

#[test]
fn no_hover_outside_the_root() {
    let file = read(FILESHARE);
    assert_eq!(hover(&file, 0, &results()), None);
    assert_eq!(hover(&file, file.text().len(), &results()), None);
}

/// Issue 36: where the workspace has processing rates, a demand shows its time beside its work
/// units (MediaStore's model and FileStorage's real rate on the DatabaseServer), Beagle's law
/// (in ms) the work units it is written in, and a demand the rates cannot convert says why.
#[test]
fn a_demand_shows_its_time_beside_its_work_units() {
    use beagle_analysis::{Conversion, DemandUnits};
    use beagle_pcm::TimeUnit;
    const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";
    const HDD: &str = "_BIjHoQ3KEdyouMqirZIhzQ";
    const FILE_STORAGE: &str = "_qxAiILg7EeSNPorBlo7x9g";
    let (mut set, id) = set_with("pcm/mediastore/MediaStore-Cacheless.allocation");
    let d = beagle_pcm::Deployment::load(&mut set, id).unwrap();
    let db = d.container("DatabaseServer").unwrap();
    let rate = (d.processing_resource(db.id.as_deref().unwrap(), CPU))
        .and_then(|r| r.rate.as_ref().ok())
        .unwrap()
        .value;
    let units = DemandUnits {
        environment: Some("MediaStore.resourceenvironment".into()),
        demands: [
            (
                (FILE_STORAGE.to_string(), CPU.to_string()),
                Ok(Conversion::new(rate, TimeUnit::Seconds, "DatabaseServer", "CPU")),
            ),
            (
                (FILE_STORAGE.to_string(), HDD.to_string()),
                Err("the rates disagree".to_string()),
            ),
        ]
        .into(),
    };
    let file = read(MEDIASTORE);
    let at = |needle: &str| offset_of(file.text(), needle, 0, needle.len() / 2);
    let mut result = results().remove(0);
    result.element = format!("_RXdHoL0XEeSAHuL4ItXOLQ/{CPU}");
    result.action = "_RXdHoL0XEeSAHuL4ItXOLQ".into();
    result.expression = "75".into();
    let hover = |needle: &str, units: Option<&DemandUnits>| {
        let validations = BTreeMap::new();
        let results = std::slice::from_ref(&result);
        beagle_ide::hover_with(&file, at(needle), results, &validations, None, units, None)
            .unwrap()
            .markdown
    };
    let store = hover("entityName=\"store file\"", Some(&units));
    assert!(
        store.contains("- CPU demand: `75182981.91` CPU units = `75.18` ms on DatabaseServer at 1E9/s"),
        "{store}"
    );
    assert!(
        store.contains("in ms; in work units: `7.5E7` CPU units on DatabaseServer at 1E9/s"),
        "{store}"
    );
    let get = hover("entityName=\"get files\"", Some(&units));
    assert!(
        get.contains("CPU units = `audioRequest.Count.VALUE * 75.18298191` ms on DatabaseServer"),
        "{get}"
    );
    assert!(get.contains("(work units; no time: the rates disagree)"), "{get}");
    // Without a resource environment: the results are in ms and written so; the model's demand
    // shows as written.
    let ms = hover("entityName=\"store file\"", Some(&DemandUnits::milliseconds()));
    assert!(ms.contains("- CPU demand: `75182981.91`\n"), "{ms}");
    assert!(ms.contains("in ms (no resource environment: written in ms)"), "{ms}");
    // Units not known (no workspace): as before.
    assert!(!hover("entityName=\"store file\"", None).contains("in ms"));
}

/// Issue 37: a result preliminary for good says why more measurements will not change it.
#[test]
fn a_settled_result_says_why_more_measuring_will_not_help() {
    let mut r = results();
    r[1].evidence = Some(beagle_analysis::ProposalEvidence {
        points: 1,
        settled: Some("more measurements will not settle it: 8 more launch points left it preliminary".into()),
        ..Default::default()
    });
    let markdown = hover_on(FILESHARE, "entityName=\"compress loop\"", &r);
    assert!(
        markdown.contains("settled: more measurements will not settle it: 8 more launch points"),
        "{markdown}"
    );
}
