//! Analyses from the editor, in process: a command queues a job, progress runs begin → reports
//! → end, the results arrive as a versioned workspace edit computed against the current text,
//! hovers show them, a restarted server shows them from the store; trust and workspace bounds.

mod support;

use serde_json::json;
use support::{apply_edits, command, find, fixture_copy, fixture_open, fixture_open_answering, uri, Client};

fn progress_kinds(c: &Client) -> Vec<String> {
    c.messages("$/progress")
        .iter()
        .map(|p| p["value"]["kind"].as_str().unwrap().to_string())
        .collect()
}

/// A server on a copy of the events example, its repository open: (folder, repository, text, client).
async fn example_open() -> (tempfile::TempDir, std::path::PathBuf, String, Client) {
    fixture_open("events-example", "FileShare.repository", json!({})).await
}

async fn wait_for_end(c: &Client, secs: u64) {
    wait_for_ends(c, secs, 1).await;
}

/// Waits until `n` analyses have ended their progress.
async fn wait_for_ends(c: &Client, secs: u64, n: usize) {
    c.wait_for(secs, "the end of the analyses' progress", |r| {
        r.iter()
            .filter(|(m, p)| m == "$/progress" && p["value"]["kind"] == "end")
            .count()
            >= n
    })
    .await;
}

#[tokio::test]
async fn analyse_from_the_editor_then_hover_and_restart() {
    let state = tempfile::tempdir().unwrap();
    std::env::set_var("BEAGLE_STATE_DIR", state.path());
    let (ws, path, text, mut c) = example_open().await;
    let queued = command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    assert_eq!(queued["queued"], true);
    assert_eq!(queued["ahead"], 0);
    // A second request queues behind the first instead of colliding with it.
    let second = command(&mut c, "beagle.analyseComponent", json!([uri(&path), "_fs_FileShare"]))
        .await
        .unwrap();
    assert_eq!(second["ahead"], 1, "{second}");
    wait_for_ends(&c, 300, 2).await;

    let kinds = progress_kinds(&c);
    assert_eq!(kinds.first().map(String::as_str), Some("begin"));
    assert!(kinds.iter().filter(|k| *k == "report").count() >= 2, "{kinds:?}");
    let progress = c.messages("$/progress");
    let begin = &progress[0]["value"];
    assert_eq!(begin["cancellable"], true);
    assert!(
        begin["title"].as_str().unwrap().contains("FileShare.repository"),
        "{begin}"
    );
    // Percentages grow within one analysis.
    let first_token = &progress[0]["token"];
    let pcts: Vec<u64> = progress
        .iter()
        .filter(|p| &p["token"] == first_token)
        .filter_map(|p| p["value"]["percentage"].as_u64())
        .collect();
    assert!(pcts.windows(2).all(|w| w[0] <= w[1]), "{pcts:?}");
    let end = progress.iter().find(|p| p["value"]["kind"] == "end").unwrap();
    assert!(end["value"]["message"].as_str().unwrap().starts_with("done"), "{end}");
    assert_eq!(c.messages("window/workDoneProgress/create").len(), 2);

    // The first analysis's results as a versioned edit; applying them gives the laws, and only
    // specifications and branch probabilities change.
    let edits = c.messages("workspace/applyEdit");
    assert!(!edits.is_empty());
    let change = &edits[0]["edit"]["documentChanges"][0];
    assert_eq!(change["textDocument"]["uri"], uri(&path));
    assert_eq!(change["textDocument"]["version"], 1);
    let edited = apply_edits(&text, change["edits"].as_array().unwrap());
    for law in [
        "specification=\"files.NUMBER_OF_ELEMENTS\"",
        "0.05 * files.NUMBER_OF_ELEMENTS + 0.8",
        "4.0E-6 * bytes.VALUE + 0.05",
    ] {
        assert!(edited.contains(law), "`{law}` in\n{edited}");
    }
    let changed: Vec<(&str, &str)> = text.lines().zip(edited.lines()).filter(|(a, b)| a != b).collect();
    assert!(!changed.is_empty());
    assert_eq!(text.lines().count(), edited.lines().count());
    assert!(
        changed
            .iter()
            .all(|(a, _)| a.contains("specification=") || a.contains("branchProbability=")),
        "{changed:#?}"
    );
    let shown = c.messages("window/showMessage");
    assert!(
        shown
            .iter()
            .any(|m| m["message"].as_str().unwrap().contains("results written")),
        "{shown:?}"
    );

    // Hover on the loop shows the expression, its quality and the table of points.
    let (line, _) = find(&text, "entityName=\"for each file\"");
    let hover = c.position_request("textDocument/hover", &path, line, 10).await;
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("files.NUMBER_OF_ELEMENTS"), "{md}");
    assert!(
        md.contains("R² 1") && md.contains("| median |") || md.contains("median"),
        "{md}"
    );
    let status = command(&mut c, "beagle.status", json!([])).await.unwrap();
    assert_eq!(status["results"][0]["stage"], "final", "{status}");

    // A new server on the same workspace shows the last results from the store, once it has read
    // them (at start-up, off the protocol's tasks): asked until then, for as long as a machine busy
    // with other tests may take, not for a guessed number of tries.
    let mut again = Client::new();
    again.initialize(ws.path(), json!({})).await;
    again.open(&path, &text).await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    let md = loop {
        let hover = again.position_request("textDocument/hover", &path, line, 10).await;
        let md = hover["contents"]["value"].as_str().unwrap().to_string();
        if md.contains("files.NUMBER_OF_ELEMENTS") || tokio::time::Instant::now() > deadline {
            break md;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert!(md.contains("from the last session"), "{md}");

    // Discarding forgets them; applying without results is an error.
    let d = command(&mut again, "beagle.discardResults", json!([uri(&path)]))
        .await
        .unwrap();
    assert_eq!(d["discarded"], true);
    let e = command(&mut again, "beagle.applyResults", json!([uri(&path)]))
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("no results"), "{e}");
}

#[tokio::test]
async fn results_are_written_against_the_current_text_and_a_refused_edit_is_retried() {
    let (_ws, path, text, mut c) = example_open().await;
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    wait_for_end(&c, 300).await;
    // The user edits (unsaved) elsewhere in the file, then applies the results again.
    let (line, _) = find(&text, "entityName=\"Storage\"");
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri(&path), "version": 7 },
            "contentChanges": [{ "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } }, "text": "  <!-- mine -->\n" }]
        }),
    )
    .await;
    // Undo the first edit in our copy of the text: the server must recompute on version 7.
    let before = c.messages("workspace/applyEdit").len();
    let applied = command(&mut c, "beagle.applyResults", json!([uri(&path)]))
        .await
        .unwrap();
    assert_eq!(applied["applied"], true);
    let edits = c.messages("workspace/applyEdit");
    assert_eq!(edits.len(), before + 1);
    let change = &edits[before]["edit"]["documentChanges"][0];
    assert_eq!(change["textDocument"]["version"], 7);
    let mut current = text.clone();
    let at = current
        .find("    <components__Repository xsi:type=\"repository:BasicComponent\" id=\"_fs_Storage\"")
        .unwrap_or_else(|| {
            let (l, _) = find(&text, "entityName=\"Storage\"");
            text.split_inclusive('\n').take(l as usize).map(str::len).sum()
        });
    current.insert_str(at, "  <!-- mine -->\n");
    let edited = apply_edits(&current, change["edits"].as_array().unwrap());
    assert!(edited.contains("<!-- mine -->"), "the user's edit stays");
    assert!(edited.contains("4.0E-6 * bytes.VALUE + 0.05"));

    // A client that refuses the edit without a newer version: an error, nothing half-applied.
    c.answers.lock().unwrap().apply_edit = false;
    let e = command(&mut c, "beagle.applyResults", json!([uri(&path)]))
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("refused"), "{e}");
}

#[tokio::test]
async fn launches_run_only_in_a_trusted_workspace() {
    let state = tempfile::tempdir().unwrap();
    std::env::set_var("BEAGLE_STATE_DIR", state.path());
    let (ws, path, _text, mut c) =
        fixture_open_answering("fileshare", "model/fileshare.repository", json!({}), Some("Not now")).await;
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    c.wait_for(30, "the refusal", |r| {
        r.iter()
            .any(|(m, p)| m == "window/showMessage" && p["message"].as_str().unwrap().contains("not allowed"))
    })
    .await;
    let asked = c.messages("window/showMessageRequest");
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0]["message"]
            .as_str()
            .unwrap()
            .contains("run the launch configurations"),
        "{asked:?}"
    );
    assert!(c.messages("$/progress").is_empty(), "nothing ran");
    assert!(!ws.path().join(".beagle").join("java").exists(), "nothing was compiled");
    let status = command(&mut c, "beagle.status", json!([])).await.unwrap();
    assert!(status["last"].as_str().unwrap().contains("not allowed"), "{status}");
}

#[tokio::test]
async fn paths_outside_the_workspace_are_refused() {
    let outer = tempfile::tempdir().unwrap();
    let ws = outer.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/events-example");
    std::fs::copy(src.join("FileShare.repository"), ws.join("FileShare.repository")).unwrap();
    std::fs::copy(src.join("upload.events"), outer.path().join("secret.events")).unwrap();
    std::fs::write(
        ws.join("beagle.toml"),
        "[model]\nrepository = \"FileShare.repository\"\n[measurements]\nevents = \"../secret.events\"\n",
    )
    .unwrap();
    let path = ws.join("FileShare.repository");
    let mut c = Client::new();
    c.initialize(&ws, json!({})).await;
    let e = command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("outside the workspace"), "{e}");
    // A document outside the workspace folders cannot be analysed either.
    let e = command(
        &mut c,
        "beagle.analyseRepository",
        json!([uri(&outer.path().join("x.repository"))]),
    )
    .await
    .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("outside the workspace"), "{e}");
    // Nothing runs; pause and abort without a job say so.
    let p = command(&mut c, "beagle.pause", json!([])).await.unwrap();
    assert_eq!(p["running"], false);
}

#[tokio::test]
async fn progress_cancel_aborts_a_paused_analysis() {
    let (_ws, path, _text, mut c) = example_open().await;
    // Paused before anything runs: the job starts paused and waits at its first step.
    let paused = command(&mut c, "beagle.pause", json!([])).await.unwrap();
    assert_eq!(paused, json!({ "running": false, "paused": true }));
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    c.wait_for(60, "the paused analysis", |r| {
        r.iter()
            .any(|(m, p)| m == "$/progress" && p["value"]["message"] == "paused")
    })
    .await;
    let status = command(&mut c, "beagle.status", json!([])).await.unwrap();
    assert_eq!(status["running"]["paused"], true, "{status}");
    // Cancel on the progress (the client's cancel button) aborts it.
    let token = c.messages("$/progress")[0]["token"].clone();
    c.notify("window/workDoneProgress/cancel", json!({ "token": token }))
        .await;
    wait_for_end(&c, 120).await;
    let end = c
        .messages("$/progress")
        .into_iter()
        .find(|p| p["value"]["kind"] == "end")
        .unwrap();
    assert!(
        end["value"]["message"].as_str().unwrap().starts_with("aborted"),
        "{end}"
    );
    assert!(
        c.messages("workspace/applyEdit").is_empty(),
        "an aborted analysis writes nothing"
    );
    // Resume clears the pause for the next job, which then runs to the end.
    command(&mut c, "beagle.resume", json!([])).await.unwrap();
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    c.wait_for(300, "the second analysis", |r| {
        r.iter()
            .filter(|(m, p)| m == "$/progress" && p["value"]["kind"] == "end")
            .count()
            == 2
    })
    .await;
    assert_eq!(c.messages("workspace/applyEdit").len(), 1);
}

/// An analysis that reuses another's final results (same measurements) shows them in hovers too,
/// not only in what "apply results" writes.
#[tokio::test]
async fn reused_results_are_shown_in_hovers() {
    let (_ws, path, text, mut c) = example_open().await;
    command(&mut c, "beagle.analyseComponent", json!([uri(&path), "_fs_Storage"]))
        .await
        .unwrap();
    wait_for_end(&c, 300).await;
    let d = command(&mut c, "beagle.discardResults", json!([uri(&path)]))
        .await
        .unwrap();
    assert_eq!(d["discarded"], true);
    let (line, _) = find(&text, "entityName=\"write\"");
    let hover = c.position_request("textDocument/hover", &path, line, 10).await;
    let md = hover["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(!md.contains("bytes.VALUE"), "discarded: {md}");
    // The repository's analysis takes Storage's results from the first one.
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    wait_for_ends(&c, 300, 2).await;
    let logs: Vec<String> = c
        .messages("window/logMessage")
        .iter()
        .map(|m| m["message"].as_str().unwrap_or_default().to_string())
        .collect();
    let hover = c.position_request("textDocument/hover", &path, line, 10).await;
    let md = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("bytes.VALUE"), "{md}\n{logs:#?}");
}

/// Issue 18, point 5: the language server reports what each input file gave, as the command
/// line does: a log line per file, the skipped lines in the end message, and `beagle.status`.
#[tokio::test]
async fn an_analysis_of_a_kieker_log_reports_each_file() {
    let state = tempfile::tempdir().unwrap();
    std::env::set_var("BEAGLE_STATE_DIR", state.path());
    let ws = fixture_copy("events-example");
    let log = ws.path().join("log");
    std::fs::create_dir(&log).unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kieker-cipm/cipm-2018");
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), log.join(entry.file_name())).unwrap();
    }
    let damaged = log.join("kieker-20181016-120000000-UTC-003.dat");
    let mut text = std::fs::read_to_string(&damaged).unwrap();
    text.push_str("$1;12;truncated\n");
    std::fs::write(&damaged, text).unwrap();
    std::fs::write(
        ws.path().join("beagle.toml"),
        "[model]\nrepository = \"FileShare.repository\"\n[measurements]\nkieker = \"log\"\n[analysis]\nseed = 1\n",
    )
    .unwrap();
    let path = ws.path().join("FileShare.repository");
    let mut c = Client::new();
    c.initialize(ws.path(), json!({"geneticProgramming": false})).await;
    c.open(&path, &std::fs::read_to_string(&path).unwrap()).await;
    command(&mut c, "beagle.analyseRepository", json!([uri(&path)]))
        .await
        .unwrap();
    wait_for_end(&c, 300).await;
    let logs: Vec<String> = c
        .messages("window/logMessage")
        .iter()
        .map(|m| m["message"].as_str().unwrap().to_string())
        .collect();
    let per_file: Vec<&String> = logs.iter().filter(|m| m.starts_with("inputs: ")).collect();
    assert_eq!(per_file.len(), 5, "{logs:#?}");
    assert!(
        per_file
            .iter()
            .any(|m| m.contains("UTC-003.dat") && m.contains("1 lines skipped") && m.contains("ServiceCallRecord")),
        "{per_file:#?}"
    );
    let progress = c.messages("$/progress");
    let end = progress.iter().find(|p| p["value"]["kind"] == "end").unwrap();
    let message = end["value"]["message"].as_str().unwrap();
    assert!(message.contains("1 damaged lines skipped (see the log)"), "{message}");
    let status = command(&mut c, "beagle.status", json!([])).await.unwrap();
    let files = status["inputs"]["files"].as_array().unwrap();
    assert_eq!(files.len(), 5, "{status:#}");
    let executions: u64 = files.iter().map(|f| f["executions"].as_u64().unwrap()).sum();
    assert_eq!(executions, 444, "{status:#}");
}
