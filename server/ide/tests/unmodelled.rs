//! Each SEFF's unmodelled time, from validations as the store keeps them: per SEFF, per
//! component, per repository, with a negative share said as the model predicting more; and the
//! SEFF's hover saying the same.

mod common;

use beagle_analysis::unmodelled::Unmodelled;
use beagle_analysis::validation::{Row, ServiceValidation};
use beagle_analysis::Store;
use beagle_ide::{hover_with, unmodelled_within, ResultStatus, UnmodelledTime};
use common::{read, FILESHARE};
use std::collections::BTreeMap;
use std::fmt::Write;

fn validation(seff: &str, service: &str, unmodelled: Option<Unmodelled>) -> ServiceValidation {
    let rows: Vec<Row> = (1..=4)
        .map(|i| Row {
            inputs: [("files.NUMBER_OF_ELEMENTS".to_string(), 10.0 * i as f64)].into(),
            predicted_ms: i as f64,
            measured_ms: 1.2 * i as f64,
            executions: 30,
        })
        .collect();
    ServiceValidation {
        repository: String::new(),
        service: service.into(),
        seff: seff.into(),
        points: rows.len(),
        median_relative_error: 0.17,
        max_relative_error: 0.2,
        rows,
        problems: Vec::new(),
        notes: Vec::new(),
        unmodelled,
        calibration: None,
    }
}

/// The fileshare repository's validations, saved and read back through the store: the upload
/// misses 23 % of its time, the model predicts 6.1 % more than the compression measured, the
/// hashing was validated without an unmodelled law.
fn stored() -> BTreeMap<String, ServiceValidation> {
    let mut store = Store::open_in_memory().unwrap();
    let repo = "/w/model/fileshare.repository";
    let upload = Unmodelled {
        median_share: 0.234,
        share_spread: 0.0,
        stoex: "0.05 * files.NUMBER_OF_ELEMENTS".into(),
        status: "final".into(),
        points: 10,
    };
    let compress = Unmodelled {
        median_share: -0.061,
        share_spread: 0.0,
        stoex: "-0.2".into(),
        status: "preliminary: 4 points; a constant predicts held-out points as well".into(),
        points: 4,
    };
    for v in [
        validation("_fs_upload_seff", "BusinessCore.upload", Some(upload)),
        validation("_fs_compress_seff", "Compression.compress", Some(compress)),
        validation("_fs_hash_seff", "Hashing.hash", None),
    ] {
        store.save_validation(repo, &v).unwrap();
    }
    store
        .latest_validations(repo)
        .unwrap()
        .into_iter()
        .map(|(seff, (v, _))| (seff, v))
        .collect()
}

fn render(list: &[UnmodelledTime]) -> String {
    let mut out = String::new();
    for u in list {
        let _ = writeln!(
            out,
            "{} {}: {} (overpredicted: {}) | share {} of {} points | {} ms {:?} {:?}\n  {}",
            u.seff, u.service, u.label, u.overpredicted, u.share, u.points, u.law, u.status, u.reasons, u.detail
        );
    }
    out
}

#[test]
fn each_seff_with_a_validation_has_its_unmodelled_time() {
    let file = read(FILESHARE);
    let validations = stored();
    let within = |id: &str| unmodelled_within(&file, &validations, id);

    let upload = within("_fs_upload_seff");
    assert_eq!(upload.len(), 1);
    assert_eq!(upload[0].label, "unmodelled 23 %");
    assert_eq!(upload[0].status, ResultStatus::Final);
    assert!(upload[0].reasons.is_empty());
    let at = BTreeMap::from([("files.NUMBER_OF_ELEMENTS".to_string(), 20.0)]);
    assert_eq!(upload[0].at(&at), Some(1.0));
    assert_eq!(
        upload[0].at(&BTreeMap::new()),
        None,
        "an input the law names is missing"
    );

    let compress = within("_fs_compress_seff");
    assert_eq!(compress[0].label, "the model predicts 6.1 % more than measured");
    assert_eq!(compress[0].status, ResultStatus::Preliminary);
    assert_eq!(
        compress[0].reasons,
        ["4 points", "a constant predicts held-out points as well"]
    );

    // A component has its SEFFs' rows, the repository every SEFF's in the file's order; the
    // hashing has a validation but no law, an action no row of its own.
    assert_eq!(within("_fs_BusinessCore"), upload);
    let all: Vec<String> = within("_fs_repository").into_iter().map(|u| u.seff).collect();
    assert_eq!(all, ["_fs_upload_seff", "_fs_compress_seff"]);
    assert!(within("_fs_hash_seff").is_empty());
    assert!(within("_fs_partition").is_empty());
    assert!(within("_nothing").is_empty());

    insta::assert_snapshot!(render(&within("_fs_repository")));
}

/// The SEFF's hover says the same: a share, or the model predicting more, never "-6 %".
#[test]
fn the_seff_hover_says_a_negative_share_plainly() {
    let file = read(FILESHARE);
    let validations = stored();
    let hover = |seff: &str| {
        let offset = file.text().find(&format!("id=\"{seff}\"")).unwrap();
        hover_with(&file, offset, &[], &validations, None, None, None)
            .unwrap()
            .markdown
    };
    let upload = hover("_fs_upload_seff");
    assert!(
        upload.contains(
            "**Unmodelled time** (no action carries it): 23 % of the measured time (median of 10 points); \
             per call `0.05 * files.NUMBER_OF_ELEMENTS` ms (final)"
        ),
        "{upload}"
    );
    let compress = hover("_fs_compress_seff");
    assert!(
        compress.contains("none, the model predicts 6.1 % more than measured (median of 4 points); measured less predicted per call `-0.2` ms"),
        "{compress}"
    );
    assert!(!compress.contains("-6"), "{compress}");
}
