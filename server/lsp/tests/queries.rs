//! The commands a client's own UI asks (the VS Code extension): the element at a position, the
//! results about an element with their points, an expression over a grid; `beagle/status`
//! notifications during a job; and the launch policy an untrusted workspace sends.

mod support;

use serde_json::{json, Value};
use support::{command, find, fixture_open, fixture_open_answering, uri, Client};

async fn example_open(options: Value) -> (tempfile::TempDir, std::path::PathBuf, String, Client) {
    fixture_open("events-example", "FileShare.repository", options).await
}

async fn element_at(c: &mut Client, path: &std::path::Path, line: u32, character: u32) -> Value {
    command(
        c,
        "beagle.elementAt",
        json!([uri(path), { "line": line, "character": character }]),
    )
    .await
    .unwrap()
}

#[tokio::test]
async fn element_at_names_the_action_its_kind_and_its_component() {
    let (_ws, path, text, mut c) = example_open(json!({})).await;
    let (line, ch) = find(&text, "entityName=\"hash\"");
    let at = element_at(&mut c, &path, line, ch).await;
    assert_eq!(at["kind"], "action", "{at}");
    assert_eq!(at["actionKind"], "InternalAction");
    assert_eq!(at["id"], "_fs_hash");
    assert_eq!(at["name"], "hash");
    assert_eq!(at["component"], "_fs_FileShare");
    assert_eq!(at["componentName"], "FileShare");
    assert_eq!(at["seff"], "_fs_upload_seff", "{at}");

    let (line, ch) = find(&text, "id=\"_fs_Storage\"");
    let at = element_at(&mut c, &path, line, ch).await;
    assert_eq!(at["kind"], "component", "{at}");
    assert_eq!(at["id"], "_fs_Storage");
    assert_eq!(at["actionKind"], Value::Null);
    assert_eq!(at["seff"], Value::Null);

    let (line, ch) = find(&text, "entityName=\"for each file\"");
    let at = element_at(&mut c, &path, line, ch).await;
    assert_eq!(at["actionKind"], "LoopAction", "{at}");

    // Before the root element: nothing; a document that is not open: an error.
    assert_eq!(element_at(&mut c, &path, 0, 0).await, Value::Null);
    let closed = path.with_file_name("other.repository");
    std::fs::write(&closed, &text).unwrap();
    let e = command(
        &mut c,
        "beagle.elementAt",
        json!([uri(&closed), { "line": 3, "character": 4 }]),
    )
    .await
    .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("not open"), "{e}");
    let e = command(&mut c, "beagle.elementAt", json!([uri(&path)]))
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("position"), "{e}");
}

#[tokio::test]
async fn evaluate_gives_one_value_per_binding() {
    let mut c = Client::new();
    let ws = tempfile::tempdir().unwrap();
    c.initialize(ws.path(), json!({})).await;
    let v = command(
        &mut c,
        "beagle.evaluate",
        json!([{
            "expression": "files.NUMBER_OF_ELEMENTS * 2 + (data.BYTESIZE > 100 ? 10 : 0)",
            "bindings": [
                { "files.NUMBER_OF_ELEMENTS": 1, "data.BYTESIZE": 50 },
                { "files.NUMBER_OF_ELEMENTS": 3, "data.BYTESIZE": 500 },
                { "files.NUMBER_OF_ELEMENTS": 3 },
            ],
        }]),
    )
    .await
    .unwrap();
    assert_eq!(v["values"], json!([2.0, 16.0, null]), "{v}");

    let e = command(
        &mut c,
        "beagle.evaluate",
        json!([{ "expression": "1 +", "bindings": [] }]),
    )
    .await
    .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("`1 +`"), "{e}");
    let e = command(&mut c, "beagle.evaluate", json!(["1 + 2"])).await.unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("expression"), "{e}");
    let many: Vec<Value> = (0..10_001).map(|_| json!({})).collect();
    let e = command(
        &mut c,
        "beagle.evaluate",
        json!([{ "expression": "1", "bindings": many }]),
    )
    .await
    .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("at most"), "{e}");
}

#[tokio::test]
async fn element_results_and_status_notifications_follow_an_analysis() {
    let (_ws, path, _text, mut c) = example_open(json!({ "statusNotifications": true })).await;
    let before = command(&mut c, "beagle.elementResults", json!([uri(&path), "_fs_hash"]))
        .await
        .unwrap();
    assert_eq!(before["results"], json!([]), "{before}");
    assert_eq!(before["name"], "hash");
    assert_eq!(before["stage"], Value::Null);

    command(&mut c, "beagle.analyseComponent", json!([uri(&path), "_fs_FileShare"]))
        .await
        .unwrap();
    c.wait_for(300, "the analysis's end", |r| {
        r.iter()
            .any(|(m, p)| m == "beagle/status" && p["running"].is_null() && p["last"].is_string())
    })
    .await;

    // Queued, running with growing percentages, then idle with how it ended.
    let statuses = c.messages("beagle/status");
    assert_eq!(
        statuses[0]["queued"][0]["label"], "component FileShare in FileShare.repository",
        "{statuses:?}"
    );
    let running: Vec<&Value> = statuses.iter().filter(|s| !s["running"].is_null()).collect();
    assert!(running.len() >= 2, "{statuses:?}");
    let pcts: Vec<u64> = running
        .iter()
        .map(|s| s["running"]["percentage"].as_u64().unwrap())
        .collect();
    assert!(pcts.windows(2).all(|w| w[0] <= w[1]), "{pcts:?}");
    let last = statuses.last().unwrap();
    assert!(last["last"].as_str().unwrap().contains("done"), "{last}");
    // Code lenses show the percentage too: they are refreshed while the job runs, not only at its end.
    let log = c.received();
    let end = log
        .iter()
        .position(|(m, p)| m == "$/progress" && p["value"]["kind"] == "end")
        .unwrap();
    assert!(
        log[..end].iter().any(|(m, _)| m == "workspace/codeLens/refresh"),
        "no lens refresh before the end"
    );

    // The hash action: its CPU demand over the file size, with points and quartiles.
    let hash = command(&mut c, "beagle.elementResults", json!([uri(&path), "_fs_hash"]))
        .await
        .unwrap();
    assert_eq!(hash["stage"], "final", "{hash}");
    let results = hash["results"].as_array().unwrap();
    assert!(!results.is_empty(), "{hash}");
    for r in results {
        assert_eq!(r["action"], "_fs_hash");
        assert_eq!(r["actionName"], "hash");
        assert!(r["expression"].as_str().unwrap().contains("size.VALUE"), "{r}");
        let points = r["points"].as_array().unwrap();
        assert!(points.len() >= 3, "{r}");
        for p in points {
            let (q1, median, q3) = (
                p["q1"].as_f64().unwrap(),
                p["median"].as_f64().unwrap(),
                p["q3"].as_f64().unwrap(),
            );
            assert!(q1 <= median && median <= q3, "{p}");
            let names: Vec<&str> = p["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x[0].as_str().unwrap())
                .collect();
            assert_eq!(names, ["files.NUMBER_OF_ELEMENTS", "size.VALUE"], "{p}");
        }
        assert_eq!(r["parameterRanges"][1], json!(["size.VALUE", 19000.0, 498000.0]));
    }

    // A component's results hold those of every action inside it, nested ones included.
    let component = command(&mut c, "beagle.elementResults", json!([uri(&path), "_fs_FileShare"]))
        .await
        .unwrap();
    let actions: std::collections::BTreeSet<&str> = component["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["action"].as_str().unwrap())
        .collect();
    for a in ["_fs_hash", "_fs_compress", "_fs_per_file"] {
        assert!(actions.contains(a), "{a} in {actions:?}");
    }
    assert!(!actions.contains("_fs_write"), "Storage's action is not FileShare's");
}

#[tokio::test]
async fn an_untrusted_workspace_runs_no_launch_and_asks_nothing() {
    let state = tempfile::tempdir().unwrap();
    std::env::set_var("BEAGLE_STATE_DIR", state.path());
    // Even with an "allow" answer at hand, a denying policy asks nothing and runs nothing.
    let (ws, path, _text, mut c) = fixture_open_answering(
        "fileshare",
        "model/fileshare.repository",
        json!({ "launchPolicy": "deny", "trustedWorkspace": true }),
        Some("Allow and remember"),
    )
    .await;
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    c.wait_for(30, "the refusal", |r| {
        r.iter()
            .any(|(m, p)| m == "window/showMessage" && p["message"].as_str().unwrap().contains("not trusted"))
    })
    .await;
    assert!(c.messages("window/showMessageRequest").is_empty());
    assert!(c.messages("$/progress").is_empty(), "nothing ran");
    assert!(!ws.path().join(".beagle").join("java").exists(), "nothing was compiled");
}
