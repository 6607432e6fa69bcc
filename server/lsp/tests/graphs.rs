//! `beagle.seffGraph` and `beagle.repositoryGraph` through a real LSP session: the file-share
//! upload SEFF as a diagram with ranges that select each action's name, each action's share of
//! the service's predicted demand at the inputs given, the graph following unsaved edits, the
//! "◇ Diagram" lens for a client that has the command, and the repository's overview.

mod support;

use serde_json::{json, Value};
use support::{command, find, fixture_copy, uri, Client};

const UPLOAD: &str = "_fs_upload_seff";

/// The file-share model with demands to predict, in work units of its `FileShareServer` (CPU at
/// 1E9 per second, `model/fileshare.resourceenvironment`): `partition files` costs 2 ms per file,
/// each compression 3 ms, and the compress loop runs once per file.
fn with_demands(text: &str) -> String {
    let partition = text.find("id=\"_fs_partition\"").unwrap();
    let compress = text.find("id=\"_fs_compress\"").unwrap();
    let spec = "specification_ParametericResourceDemand specification=\"0\"";
    let at = |from: usize| from + text[from..].find(spec).unwrap();
    let (p, c) = (at(partition), at(compress));
    let mut out = text.to_string();
    // The later one first, so the earlier offset holds.
    out.replace_range(
        c..c + spec.len(),
        "specification_ParametericResourceDemand specification=\"3000000\"",
    );
    out.replace_range(
        p..p + spec.len(),
        "specification_ParametericResourceDemand specification=\"files.NUMBER_OF_ELEMENTS * 2000000\"",
    );
    let loop_count = out.find("<iterationCount_LoopAction specification=\"1\"/>").unwrap();
    out.replace_range(
        loop_count..loop_count + "<iterationCount_LoopAction specification=\"1\"/>".len(),
        "<iterationCount_LoopAction specification=\"files.NUMBER_OF_ELEMENTS\"/>",
    );
    out
}

async fn open_fileshare(options: Value) -> (tempfile::TempDir, std::path::PathBuf, String, Client) {
    let ws = fixture_copy("fileshare");
    let path = ws.path().join("model/fileshare.repository");
    let text = with_demands(&std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, &text).unwrap();
    let mut c = Client::new();
    c.initialize(ws.path(), options).await;
    c.open(&path, &text).await;
    (ws, path, text, c)
}

fn node<'a>(flow: &'a Value, id: &str) -> &'a Value {
    fn find<'a>(flow: &'a Value, id: &str) -> Option<&'a Value> {
        for n in flow["nodes"].as_array()? {
            if n["id"] == id {
                return Some(n);
            }
            for b in n["bodies"].as_array()? {
                if let Some(found) = find(&b["flow"], id) {
                    return Some(found);
                }
            }
        }
        None
    }
    find(flow, id).unwrap_or_else(|| panic!("no node {id}"))
}

/// The text a range selects (LSP positions; the fixture is ASCII).
fn selected<'a>(text: &'a str, range: &Value) -> &'a str {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().unwrap() as usize
    };
    &text[offset(&range["start"])..offset(&range["end"])]
}

#[tokio::test]
async fn the_upload_seff_is_a_graph_with_each_actions_share_of_the_prediction() {
    let (_ws, path, text, mut c) = open_fileshare(json!({})).await;
    let g = command(
        &mut c,
        "beagle.seffGraph",
        json!([uri(&path), UPLOAD, { "files.NUMBER_OF_ELEMENTS": 10 }]),
    )
    .await
    .unwrap();
    assert_eq!(g["service"], "IUpload.upload", "{g}");
    assert_eq!(g["component"], "BusinessCore");
    let kinds: Vec<&str> = g["flow"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "StartAction",
            "InternalAction",
            "LoopAction",
            "LoopAction",
            "StopAction"
        ]
    );
    assert_eq!(g["flow"]["edges"], json!([[0, 1], [1, 2], [2, 3], [3, 4]]));
    // Ranges select the action's name; the extent is the whole element.
    let partition = node(&g["flow"], "_fs_partition");
    assert_eq!(selected(&text, &partition["range"]), "partition files");
    assert!(selected(&text, &partition["extent"])
        .starts_with("<steps_Behaviour xsi:type=\"seff:InternalAction\" id=\"_fs_partition\""));
    assert_eq!(selected(&text, &g["range"]), UPLOAD);
    // The call inside the compress loop leads to the SEFF that provides it.
    let call = node(&g["flow"], "_fs_compress_call");
    assert_eq!(call["call"]["signature"], "ICompression.compress");
    let provider = &call["call"]["providers"][0];
    assert_eq!(provider["seff"], "_fs_compress_seff");
    assert_eq!(selected(&text, &provider["range"]), "_fs_compress_seff");
    // At 10 files: partition 20 ms, the compress loop 10 calls of 3 ms: 40 % and 60 %.
    let total = g["prediction"]["totalMs"].as_f64().unwrap();
    assert!((total - 50.0).abs() < 1e-9, "{}", g["prediction"]);
    assert!((partition["demandMs"].as_f64().unwrap() - 20.0).abs() < 1e-9);
    assert!((partition["share"].as_f64().unwrap() - 0.4).abs() < 1e-9);
    let compress_loop = node(&g["flow"], "_fs_compress_loop");
    assert!(
        (compress_loop["share"].as_f64().unwrap() - 0.6).abs() < 1e-9,
        "{compress_loop}"
    );
    assert!((call["share"].as_f64().unwrap() - 0.6).abs() < 1e-9);
    assert_eq!(node(&g["flow"], "_fs_file_loop")["share"], 0.0);
    // The input the prediction depends on, at the value given.
    let files = g["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "files.NUMBER_OF_ELEMENTS")
        .unwrap_or_else(|| panic!("{}", g["inputs"]));
    assert_eq!(files["value"], 10.0);
    // What a callee returns is no input of the service (the hash call's `RETURN.BYTESIZE`).
    assert!(
        g["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| !i["name"].as_str().unwrap().starts_with("RETURN.")),
        "{}",
        g["inputs"]
    );
    // The model's own specification is on the node.
    assert_eq!(
        partition["specifications"][0]["text"],
        "files.NUMBER_OF_ELEMENTS * 2000000"
    );
}

#[tokio::test]
async fn the_graph_follows_unsaved_edits() {
    let (_ws, path, text, mut c) = open_fileshare(json!({})).await;
    let (line, ch) = find(&text, "files.NUMBER_OF_ELEMENTS * 2000000");
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri(&path), "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": line, "character": ch }, "end": { "line": line, "character": ch + 34 } },
                "text": "5000000"
            }]
        }),
    )
    .await;
    let g = command(
        &mut c,
        "beagle.seffGraph",
        json!([uri(&path), UPLOAD, { "files.NUMBER_OF_ELEMENTS": 10 }]),
    )
    .await
    .unwrap();
    let partition = node(&g["flow"], "_fs_partition");
    assert_eq!(partition["specifications"][0]["text"], "5000000");
    assert!((partition["demandMs"].as_f64().unwrap() - 5.0).abs() < 1e-9);
    assert!((g["prediction"]["totalMs"].as_f64().unwrap() - 35.0).abs() < 1e-9);
}

#[tokio::test]
async fn a_missing_seff_is_an_error_that_names_it() {
    let (_ws, path, _text, mut c) = open_fileshare(json!({})).await;
    let e = command(&mut c, "beagle.seffGraph", json!([uri(&path), "_nope"]))
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("_nope"), "{e}");
    let e = command(&mut c, "beagle.seffGraph", json!([uri(&path)]))
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("SEFF id"), "{e}");
    let e = command(
        &mut c,
        "beagle.seffGraph",
        json!([uri(&path), UPLOAD, { "files": "ten" }]),
    )
    .await
    .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("numbers"), "{e}");
}

async fn diagram_lenses(c: &mut Client, path: &std::path::Path) -> Vec<Value> {
    let lenses = c
        .request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(path) } }))
        .await
        .unwrap();
    lenses
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["command"]["title"] == "◇ Diagram")
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_client_with_a_diagram_command_gets_a_lens_on_every_seff() {
    let (_ws, path, _text, mut c) = open_fileshare(json!({ "diagramCommand": "beagle.vscode.showSeffDiagram" })).await;
    let lenses = diagram_lenses(&mut c, &path).await;
    assert_eq!(lenses.len(), 7, "{lenses:?}");
    assert_eq!(lenses[0]["command"]["command"], "beagle.vscode.showSeffDiagram");
    assert_eq!(lenses[0]["command"]["arguments"], json!([uri(&path), UPLOAD]));
    let (_ws, path, _text, mut c) = open_fileshare(json!({})).await;
    assert!(diagram_lenses(&mut c, &path).await.is_empty());
}

#[tokio::test]
async fn the_repository_graph_has_the_components_their_roles_and_seffs() {
    let (_ws, path, text, mut c) = open_fileshare(json!({})).await;
    let g = command(&mut c, "beagle.repositoryGraph", json!([uri(&path)]))
        .await
        .unwrap();
    let components = g["components"].as_array().unwrap();
    let names: Vec<&str> = components.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "BusinessCore",
            "Compression",
            "Hashing",
            "CopyrightDatabase",
            "Storage",
            "LargeFileStorage",
            "SmallFileStorage"
        ]
    );
    let core = &components[0];
    assert_eq!(selected(&text, &core["range"]), "BusinessCore");
    let required: Vec<&str> = core["requires"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["interfaceId"].as_str().unwrap())
        .collect();
    assert_eq!(
        required,
        [
            "_fs_ICompression",
            "_fs_IHashing",
            "_fs_ICopyrightCheck",
            "_fs_IStorage"
        ]
    );
    // Every interface BusinessCore requires is provided by a component of the repository.
    for interface in &required {
        assert!(
            components.iter().any(|c| c["provides"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["interfaceId"] == *interface)),
            "{interface}"
        );
    }
    assert_eq!(core["seffs"][0]["id"], UPLOAD);
    assert_eq!(core["seffs"][0]["service"], "IUpload.upload");
    assert_eq!(selected(&text, &core["seffs"][0]["range"]), UPLOAD);
    let seffs: usize = components.iter().map(|c| c["seffs"].as_array().unwrap().len()).sum();
    assert_eq!(seffs, 7);
}
