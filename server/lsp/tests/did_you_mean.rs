//! Issue 38: the analysis's "did you mean ...?" as the editor's quick fix. On a copy of
//! `fixtures/fileshare` whose `Compression.compress` was renamed `compressBytes(String input)` (a
//! name like the signature's, its parameter of another kind: confidence 0.38, below the 0.8
//! of use) and whose link file no longer links that SEFF, the cursor in that SEFF is offered an edit
//! that writes the candidate into the link file; applied, the link file links the SEFF and the
//! action is offered no more. A linked SEFF is offered nothing.

mod support;

use beagle_job::Source;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use support::{apply_edits, find, fixture_copy, uri, Client};

const SEFF: &str = "_fs_compress_seff";
const TITLE: &str = "Beagle: Link Compression.compress to Compression.compressBytes (confidence 0.38: method compressBytes(input) has a name like signature compress's, and 0 of its 1 parameters by name; kinds contradict: data is a collection, and no parameter of the method is; the signature lacks parameter input)";

/// The fileshare copy with the compression method renamed and the links of its SEFF (and of
/// the SEFF's action) gone from `model/links.toml`.
fn renamed_fileshare() -> tempfile::TempDir {
    let ws = fixture_copy("fileshare");
    let java = ws.path().join("src/fileshare/Compression.java");
    let text = std::fs::read_to_string(&java).unwrap();
    let renamed = text.replace(
        "public byte[] compress(byte[] data)",
        "public byte[] compressBytes(String input)",
    );
    assert_ne!(renamed, text);
    std::fs::write(&java, renamed).unwrap();
    let links = ws.path().join("model/links.toml");
    let text = std::fs::read_to_string(&links).unwrap();
    let kept: Vec<&str> = text
        .split("\n\n")
        .filter(|entry| {
            !entry.contains("element = \"_fs_compress_seff\"") && !entry.contains("element = \"_fs_compress\"")
        })
        .collect();
    std::fs::write(&links, kept.join("\n\n")).unwrap();
    ws
}

/// The repository open in a server on `ws`, with the client's `capabilities`.
async fn open_repository(ws: &Path, capabilities: Value) -> (Client, PathBuf, String) {
    let mut c = Client::new();
    c.request(
        "initialize",
        json!({ "processId": null, "rootUri": uri(ws), "capabilities": capabilities }),
    )
    .await
    .unwrap();
    c.notify("initialized", json!({})).await;
    let path = ws.join("model/fileshare.repository");
    let text = std::fs::read_to_string(&path).unwrap();
    c.open(&path, &text).await;
    (c, path, text)
}

fn document_changes() -> Value {
    json!({ "workspace": { "workspaceEdit": { "documentChanges": true, "resourceOperations": ["create"] } } })
}

/// The "did you mean" fixes offered with the cursor at `needle` in the repository.
async fn fixes_at(c: &mut Client, path: &Path, text: &str, needle: &str) -> Vec<Value> {
    let (line, character) = find(text, needle);
    let at = json!({ "line": line, "character": character + 2 });
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri(path) },
                "range": { "start": at, "end": at },
                "context": { "diagnostics": [] }
            }),
        )
        .await
        .unwrap();
    let all = actions.as_array().cloned().unwrap_or_default();
    all.into_iter()
        .filter(|a| a["title"].as_str().is_some_and(|t| t.contains(" to Compression.")))
        .collect()
}

fn path_of(file_uri: &Value) -> PathBuf {
    PathBuf::from(file_uri.as_str().unwrap().strip_prefix("file://").unwrap())
}

/// Applies a workspace edit to the files on disk, as an editor would: `documentChanges` in
/// order (a file created, then text edits), or `changes`.
fn apply_to_disk(edit: &Value) {
    let edit_file = |file: &Value, edits: &[Value]| {
        let path = path_of(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, apply_edits(&text, edits)).unwrap();
    };
    if let Some(operations) = edit["documentChanges"].as_array() {
        for op in operations {
            match op["kind"].as_str() {
                Some("create") => {
                    let path = path_of(&op["uri"]);
                    assert!(!path.exists(), "created where a file is");
                    std::fs::write(path, "").unwrap();
                }
                Some(other) => panic!("unexpected operation {other}"),
                None => edit_file(&op["textDocument"]["uri"], op["edits"].as_array().unwrap()),
            }
        }
    } else {
        for (file, edits) in edit["changes"].as_object().unwrap() {
            edit_file(&json!(file), edits.as_array().unwrap());
        }
    }
}

/// Whether the workspace's link file, as the analysis reads it, links the SEFF to the renamed
/// method.
fn links_the_seff(ws: &Path) -> bool {
    let resolved = beagle_job::resolve(ws).unwrap();
    let Some(Source::Java {
        config,
        links: Some(links),
    }) = &resolved.source
    else {
        return false;
    };
    let read = beagle_java::links::read_links(links, &config.root, &config.sources).unwrap();
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    read.links.iter().any(|l| {
        let java = std::fs::read_to_string(config.root.join(&l.file)).unwrap();
        l.element == SEFF && java[l.range.clone()].contains("public byte[] compressBytes(String input)")
    })
}

#[tokio::test]
async fn the_candidate_is_offered_in_its_seff_and_its_edit_links_it() {
    let ws = renamed_fileshare();
    let (mut c, path, text) = open_repository(ws.path(), document_changes()).await;
    assert!(!links_the_seff(ws.path()));

    // Not on a SEFF the link file links.
    assert!(fixes_at(&mut c, &path, &text, "id=\"_fs_upload_seff\"")
        .await
        .is_empty());
    // On the SEFF's element, and inside it (on its action).
    let inside = fixes_at(&mut c, &path, &text, "id=\"_fs_compress\"").await;
    assert_eq!(inside.len(), 1);
    let fixes = fixes_at(&mut c, &path, &text, "id=\"_fs_compress_seff\"").await;
    assert_eq!(fixes.len(), 1, "{fixes:#?}");
    let fix = &fixes[0];
    assert_eq!(fix["title"], TITLE);
    assert_eq!(fix["kind"], "quickfix");
    // One edit: the entries appended at the end of the existing link file.
    let operations = fix["edit"]["documentChanges"].as_array().unwrap();
    assert_eq!(operations.len(), 1, "{operations:#?}");
    let links = ws.path().join("model/links.toml");
    assert_eq!(path_of(&operations[0]["textDocument"]["uri"]), links);
    let before = std::fs::read_to_string(&links).unwrap();
    let end = before.lines().count();
    assert_eq!(operations[0]["edits"][0]["range"]["start"]["line"], json!(end));

    apply_to_disk(&fix["edit"]);
    let after = std::fs::read_to_string(&links).unwrap();
    assert!(after.starts_with(&before), "appended, nothing else changed");
    assert!(
        after.contains("element = \"_fs_compress\""),
        "the SEFF's action comes with it"
    );
    assert!(links_the_seff(ws.path()));
    // Linked now: nothing more to offer.
    assert!(fixes_at(&mut c, &path, &text, "id=\"_fs_compress_seff\"")
        .await
        .is_empty());
}

#[tokio::test]
async fn without_a_link_file_the_fix_creates_one_and_names_it_in_beagle_toml() {
    let ws = renamed_fileshare();
    std::fs::remove_file(ws.path().join("model/links.toml")).unwrap();
    let toml = ws.path().join("beagle.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("links = \"model/links.toml\"\n", "")).unwrap();
    let (mut c, path, text) = open_repository(ws.path(), document_changes()).await;

    // The other SEFFs are linked automatically, with confidence.
    assert!(fixes_at(&mut c, &path, &text, "id=\"_fs_upload_seff\"")
        .await
        .is_empty());
    let fixes = fixes_at(&mut c, &path, &text, "id=\"_fs_compress_seff\"").await;
    assert_eq!(fixes.len(), 1, "{fixes:#?}");
    let operations = fixes[0]["edit"]["documentChanges"].as_array().unwrap();
    let kinds: Vec<(&str, PathBuf)> = operations
        .iter()
        .map(|op| match op["kind"].as_str() {
            Some(kind) => (kind, path_of(&op["uri"])),
            None => ("edit", path_of(&op["textDocument"]["uri"])),
        })
        .collect();
    let created = ws.path().join("links.toml");
    assert_eq!(
        kinds,
        [
            ("create", created.clone()),
            ("edit", created.clone()),
            ("edit", toml.clone())
        ]
    );

    apply_to_disk(&fixes[0]["edit"]);
    assert!(std::fs::read_to_string(&created)
        .unwrap()
        .starts_with("# PCM element -> code."));
    assert!(links_the_seff(ws.path()));
    assert!(fixes_at(&mut c, &path, &text, "id=\"_fs_compress_seff\"")
        .await
        .is_empty());
}

#[tokio::test]
async fn a_client_without_document_changes_gets_changes_and_no_file_to_create() {
    let ws = renamed_fileshare();
    let (mut c, path, text) = open_repository(ws.path(), json!({})).await;
    let fixes = fixes_at(&mut c, &path, &text, "id=\"_fs_compress_seff\"").await;
    assert_eq!(fixes.len(), 1, "{fixes:#?}");
    assert!(fixes[0]["edit"]["documentChanges"].is_null());
    apply_to_disk(&fixes[0]["edit"]);
    assert!(links_the_seff(ws.path()));

    // A link file to create is beyond such a client: not offered.
    let ws = renamed_fileshare();
    std::fs::remove_file(ws.path().join("model/links.toml")).unwrap();
    let (mut c, path, text) = open_repository(ws.path(), json!({})).await;
    assert!(fixes_at(&mut c, &path, &text, "id=\"_fs_compress_seff\"")
        .await
        .is_empty());
}
