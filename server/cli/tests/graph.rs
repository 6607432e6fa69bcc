//! `beagle graph` as a user runs it: MediaStore's overview has its components and every SEFF;
//! each SEFF's graph starts at its start action and has the model's actions; the download's
//! calls are bound through the `.system` beside the repository, with each action's share of the
//! prediction; bad input is named.

mod common;

use common::{beagle_in, json, root};

fn count(flow: &serde_json::Value) -> usize {
    flow["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            1 + n["bodies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| count(&b["flow"]))
                .sum::<usize>()
        })
        .sum()
}

#[test]
fn mediastore_as_diagrams() {
    let dir = root().join("fixtures/pcm/mediastore");
    let overview = json(&beagle_in(&dir, &["graph", "MediaStore.repository"]));
    let components = overview["components"].as_array().unwrap();
    let check = json(&beagle_in(&dir, &["check", "MediaStore.repository", "--json"]));
    assert_eq!(
        components.len() as u64,
        check["components"].as_u64().unwrap(),
        "{overview}"
    );
    let seffs: Vec<&serde_json::Value> = components.iter().flat_map(|c| c["seffs"].as_array().unwrap()).collect();
    assert_eq!(seffs.len() as u64, check["seffs"].as_u64().unwrap());
    let mut actions = 0;
    for s in &seffs {
        let id = s["id"].as_str().unwrap();
        let out = beagle_in(&dir, &["graph", "MediaStore.repository", "--seff", id]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let g = json(&out);
        assert_eq!(g["id"], id);
        assert_eq!(g["flow"]["nodes"][0]["kind"], "StartAction", "{id}");
        assert_eq!(count(&g["flow"]) as u64, s["actions"].as_u64().unwrap(), "{id}");
        actions += count(&g["flow"]);
    }
    let in_model: u64 = check["actions"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(actions as u64, in_model);
}

#[test]
fn shares_of_a_prediction_add_up_through_the_calls() {
    let dir = root().join("fixtures/pcm/mediastore");
    let overview = json(&beagle_in(&dir, &["graph", "MediaStore.repository"]));
    // The SEFF whose prediction is largest among those with external calls: its top-level
    // actions' shares add up to 1.
    let mut checked = 0;
    for s in overview["components"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["seffs"].as_array().unwrap())
    {
        let g = json(&beagle_in(
            &dir,
            &["graph", "MediaStore.repository", "--seff", s["id"].as_str().unwrap()],
        ));
        let Some(total) = g["prediction"]["totalMs"].as_f64().filter(|t| *t > 0.0) else {
            continue;
        };
        let top: f64 = g["flow"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["share"].as_f64())
            .sum();
        assert!((top - 1.0).abs() < 1e-9, "{} {top} of {total}", s["id"]);
        checked += 1;
    }
    assert!(checked > 0, "no SEFF of MediaStore has a positive prediction");
}

#[test]
fn an_input_only_a_guard_reads_is_an_input_of_the_service() {
    // MediaStore's enqueueing download cache branches on `audioRequest.Count.VALUE`; no demand
    // names it, so only the guard that could not be decided without it tells that it is an input.
    let dir = root().join("fixtures/pcm/mediastore");
    let overview = json(&beagle_in(&dir, &["graph", "MediaStore.repository"]));
    let download = overview["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "EnqueueDownloadCache")
        .and_then(|c| {
            c["seffs"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["service"] == "IDownload.download")
        })
        .map(|s| s["id"].as_str().unwrap().to_string());
    let id = download.unwrap_or_else(|| panic!("{overview}"));
    let g = json(&beagle_in(&dir, &["graph", "MediaStore.repository", "--seff", &id]));
    let names: Vec<&str> = g["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"audioRequest.Count.VALUE"), "{names:?}");
    // Given, it is used as given.
    let g = json(&beagle_in(
        &dir,
        &[
            "graph",
            "MediaStore.repository",
            "--seff",
            &id,
            "--at",
            "audioRequest.Count.VALUE=3",
        ],
    ));
    let count = g["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "audioRequest.Count.VALUE")
        .unwrap();
    assert_eq!(count["value"], 3.0);
}

#[test]
fn a_missing_seff_or_file_is_named() {
    let dir = root().join("fixtures/pcm/mediastore");
    let out = beagle_in(&dir, &["graph", "MediaStore.repository", "--seff", "_nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("_nope"));
    let out = beagle_in(&dir, &["graph", "Nothing.repository"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Nothing.repository"));
}
