//! Each SEFF's unmodelled time in the data of the extension's views, from validations saved in
//! and read back from a workspace's store (as a restarted server reads them): a row per SEFF in
//! `beagle.elementResults`, the SEFF's in `beagle.seffGraph` with its law at the diagram's
//! inputs, and each SEFF's in `beagle.repositoryGraph`'s overview, all in the wire's camelCase.

mod support;

use beagle_analysis::unmodelled::Unmodelled;
use beagle_analysis::validation::{Row, ServiceValidation};
use beagle_analysis::Store;
use beagle_lsp::graphs::{repository_graph, seff_graph, GraphRequest};
use beagle_lsp::queries::element_results;
use beagle_lsp::reads::Cancelled;
use beagle_lsp::results::{RepositoryResults, Stage};
use beagle_pcm::ModelFile;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use support::fixture_copy;

fn validation(seff: &str, service: &str, unmodelled: Option<Unmodelled>) -> ServiceValidation {
    let rows: Vec<Row> = [4.0, 20.0, 38.0]
        .iter()
        .map(|&files| Row {
            inputs: [("files.NUMBER_OF_ELEMENTS".to_string(), files)].into(),
            predicted_ms: files,
            measured_ms: 1.3 * files,
            executions: 30,
        })
        .collect();
    ServiceValidation {
        repository: String::new(),
        service: service.into(),
        seff: seff.into(),
        points: rows.len(),
        median_relative_error: 0.23,
        max_relative_error: 0.25,
        rows,
        problems: Vec::new(),
        notes: Vec::new(),
        unmodelled,
        calibration: None,
    }
}

/// The fileshare copy with a store holding three validations: the upload misses 23 % of its
/// time (0.05 ms per file), the model predicts 6 % more than the compression measured, the
/// hashing has no law. Read back as the server keeps them.
fn workspace() -> (tempfile::TempDir, PathBuf, RepositoryResults) {
    let ws = fixture_copy("fileshare");
    let path = std::fs::canonicalize(ws.path().join("model/fileshare.repository")).unwrap();
    let repository = path.display().to_string();
    let mut store = Store::open(ws.path()).unwrap();
    let law = |share: f64, stoex: &str, status: &str| Unmodelled {
        median_share: share,
        share_spread: 0.0,
        stoex: stoex.into(),
        status: status.into(),
        points: 3,
    };
    for v in [
        validation(
            "_fs_upload_seff",
            "BusinessCore.upload",
            Some(law(0.23, "0.05 * files.NUMBER_OF_ELEMENTS", "final")),
        ),
        validation(
            "_fs_compress_seff",
            "Compression.compress",
            Some(law(-0.06, "-0.1", "preliminary: 3 points")),
        ),
        validation("_fs_hash_seff", "Hashing.hash", None),
    ] {
        store.save_validation(&repository, &v).unwrap();
    }
    let validations = Store::open(ws.path())
        .unwrap()
        .latest_validations(&repository)
        .unwrap()
        .into_iter()
        .map(|(seff, (v, _))| (seff, v))
        .collect();
    let results = RepositoryResults {
        stage: Stage::Stored,
        results: Vec::new(),
        finals: BTreeMap::new(),
        headline: "last analysis".into(),
        validations,
    };
    (ws, path, results)
}

fn request<'a>(path: &'a Path, root: &'a Path, results: Option<&'a RepositoryResults>) -> GraphRequest<'a> {
    GraphRequest {
        path,
        root,
        open: &[],
        results,
    }
}

#[test]
fn element_results_have_a_row_per_seff_with_its_unmodelled_time() {
    let (_ws, path, results) = workspace();
    let model = ModelFile::read(&path).unwrap();
    let of = |id: &str| serde_json::to_value(element_results(&model, Some(&results), id, None, None)).unwrap();

    let upload = of("_fs_upload_seff");
    assert_eq!(
        upload["unmodelled"],
        json!([{
            "seff": "_fs_upload_seff",
            "service": "BusinessCore.upload",
            "share": 0.23,
            "points": 3,
            "law": "0.05 * files.NUMBER_OF_ELEMENTS",
            "status": "Final",
            "reasons": [],
            "overpredicted": false,
            "label": "unmodelled 23 %",
            "detail": "unmodelled: 23 % of the measured time (median of 3 points); per call 0.05 * files.NUMBER_OF_ELEMENTS ms (final)",
        }])
    );
    // The repository: every SEFF with a law, in the file's order; a negative share said plainly.
    let all = of("_fs_repository");
    let rows = all["unmodelled"].as_array().unwrap();
    let seffs: Vec<&str> = rows.iter().map(|u| u["seff"].as_str().unwrap()).collect();
    assert_eq!(seffs, ["_fs_upload_seff", "_fs_compress_seff"]);
    assert_eq!(rows[1]["label"], "the model predicts 6.0 % more than measured");
    assert_eq!(rows[1]["overpredicted"], true);
    assert_eq!(rows[1]["status"], "Preliminary");
    assert_eq!(rows[1]["reasons"], json!(["3 points"]));
    // A SEFF validated without a law, an action, no stored results: no rows.
    assert_eq!(of("_fs_hash_seff")["unmodelled"], json!([]));
    assert_eq!(of("_fs_partition")["unmodelled"], json!([]));
    let none = serde_json::to_value(element_results(&model, None, "_fs_upload_seff", None, None)).unwrap();
    assert_eq!(none["unmodelled"], json!([]));
}

#[test]
fn the_diagrams_carry_each_seffs_unmodelled_time() {
    let (ws, path, results) = workspace();
    let set = beagle_lsp::state::build_model_set(&[], &[ws.path().to_path_buf()], &Cancelled::default()).unwrap();
    let root = ws.path();
    let at = |files: f64| BTreeMap::from([("files.NUMBER_OF_ELEMENTS".to_string(), files)]);

    // The SEFF diagram: the law at the inputs the diagram shows, 0.05 ms per file.
    let graph = |seff: &str, files: f64, results: Option<&RepositoryResults>| -> Value {
        serde_json::to_value(seff_graph(&set, &request(&path, root, results), seff, &at(files)).unwrap()).unwrap()
    };
    let upload = graph("_fs_upload_seff", 20.0, Some(&results));
    assert_eq!(upload["unmodelled"]["label"], "unmodelled 23 %");
    assert_eq!(upload["unmodelled"]["atInputsMs"], json!(1.0));
    assert_eq!(
        graph("_fs_upload_seff", 40.0, Some(&results))["unmodelled"]["atInputsMs"],
        json!(2.0)
    );
    let compress = &graph("_fs_compress_seff", 20.0, Some(&results))["unmodelled"];
    assert_eq!(compress["label"], "the model predicts 6.0 % more than measured");
    assert_eq!(compress["atInputsMs"], json!(-0.1));
    assert_eq!(graph("_fs_hash_seff", 20.0, Some(&results))["unmodelled"], Value::Null);
    assert_eq!(graph("_fs_upload_seff", 20.0, None)["unmodelled"], Value::Null);

    // The overview: on each SEFF of each component, without a value at inputs.
    let overview =
        serde_json::to_value(repository_graph(&set, &request(&path, root, Some(&results))).unwrap()).unwrap();
    let mut badges = BTreeMap::new();
    for c in overview["components"].as_array().unwrap() {
        for s in c["seffs"].as_array().unwrap() {
            badges.insert(s["id"].as_str().unwrap().to_string(), s["unmodelled"]["label"].clone());
            assert!(s["unmodelled"].get("atInputsMs").is_none(), "{s}");
        }
    }
    assert_eq!(badges["_fs_upload_seff"], "unmodelled 23 %");
    assert_eq!(
        badges["_fs_compress_seff"],
        "the model predicts 6.0 % more than measured"
    );
    assert_eq!(badges["_fs_hash_seff"], Value::Null);
    assert_eq!(badges["_fs_is_listed_seff"], Value::Null);
}
