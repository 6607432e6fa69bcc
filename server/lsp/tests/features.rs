//! Every read feature of the server, in process, on copies of the real fixtures: diagnostics,
//! symbols, definition, references, hover, code lenses, code actions. Paths in snapshots are
//! redacted to `$WS`.

mod support;

use serde_json::{json, Value};
use support::{find, fixture_copy, uri, Client};

fn redact(v: &Value, ws: &std::path::Path) -> String {
    let text = serde_json::to_string_pretty(v).unwrap();
    let real = ws.canonicalize().unwrap();
    text.replace(&real.display().to_string(), "$WS")
        .replace(&ws.display().to_string(), "$WS")
}

/// Diagnostics as `line: [code] message` lines.
fn lines(diagnostics: &[Value]) -> String {
    let lines: Vec<String> = diagnostics
        .iter()
        .map(|d| {
            format!(
                "{}: [{}] {}",
                d["range"]["start"]["line"],
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    lines.join("\n")
}

/// A symbol tree as indented lines: name, kind, range.
fn outline(symbols: &Value, depth: usize, out: &mut String) {
    for s in symbols.as_array().unwrap() {
        let r = &s["range"];
        out.push_str(&format!(
            "{}{} [kind {}] {}:{}-{}:{}\n",
            "  ".repeat(depth),
            s["name"].as_str().unwrap(),
            s["kind"],
            r["start"]["line"],
            r["start"]["character"],
            r["end"]["line"],
            r["end"]["character"]
        ));
        outline(&s["children"], depth + 1, out);
    }
}

#[tokio::test]
async fn initialize_announces_every_feature_and_command() {
    let ws = fixture_copy("events-example");
    let mut c = Client::new();
    let init = c.initialize(ws.path(), json!({})).await;
    insta::assert_snapshot!(serde_json::to_string_pretty(&init["capabilities"]).unwrap());
}

#[tokio::test]
async fn a_repository_in_the_editor() {
    let ws = fixture_copy("events-example");
    let path = ws.path().join("FileShare.repository");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    c.open(&path, &text).await;
    assert_eq!(c.diagnostics(&path).await, Vec::<Value>::new(), "the fixture is valid");

    let symbols = c
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri(&path) } }),
        )
        .await
        .unwrap();
    let mut tree = String::new();
    outline(&symbols, 0, &mut tree);
    insta::assert_snapshot!("document_symbols", tree);

    let found = c
        .request("workspace/symbol", json!({ "query": "store" }))
        .await
        .unwrap();
    let names: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.contains("store")), "{names:?}");
    assert!(found
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["location"]["uri"] == uri(&path)));

    // Definition: from the successor reference of the start action to the next action.
    let (line, col) = find(&text, "successor_AbstractAction=\"_fs_prepare\"");
    let def = c
        .position_request(
            "textDocument/definition",
            &path,
            line,
            col + "successor_AbstractAction=\"".len() as u32 + 2,
        )
        .await;
    let (tl, _) = find(&text, "id=\"_fs_prepare\"");
    assert_eq!(def["uri"], uri(&path));
    assert_eq!(def["range"]["start"]["line"], tl, "{def}");

    // References of the prepare action: the start action's successor, the loop's predecessor.
    let refs = c.position_request("textDocument/references", &path, tl, col + 4).await;
    insta::assert_snapshot!("references_of_prepare", redact(&refs, ws.path()));

    // Hover before any analysis: the specification as written, and "not analysed yet".
    let hover = c.position_request("textDocument/hover", &path, tl, 10).await;
    insta::assert_snapshot!("hover_before_analysis", hover["contents"]["value"].as_str().unwrap());

    let lenses = c
        .request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri(&path) } }),
        )
        .await
        .unwrap();
    insta::assert_snapshot!("code_lenses", redact(&lenses, ws.path()));

    let actions = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri(&path) },
                "range": { "start": { "line": tl, "character": 10 }, "end": { "line": tl, "character": 10 } },
                "context": { "diagnostics": [] }
            }),
        )
        .await
        .unwrap();
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Beagle: Analyse internal action prepare",
            "Beagle: Analyse component FileShare",
            "Beagle: Analyse repository",
            "Beagle: Link prepare to code"
        ]
    );
    assert_eq!(actions[0]["command"]["command"], "beagle.analyseAction");
    assert_eq!(actions[0]["command"]["arguments"], json!([uri(&path), "_fs_prepare"]));
}

#[tokio::test]
async fn broken_models_and_configs_get_diagnostics_at_their_lines() {
    let ws = fixture_copy("events-example");
    let path = ws.path().join("FileShare.repository");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen(
            "successor_AbstractAction=\"_fs_per_file\"",
            "successor_AbstractAction=\"_nowhere\"",
            1,
        )
        .replacen(
            "specification=\"1\"",
            "specification=\"files.NUMBER_OF_ELEMENTS * (\"",
            1,
        );
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    c.open(&path, &text).await;
    insta::assert_snapshot!("broken_model", lines(&c.diagnostics(&path).await));

    let config = ws.path().join("beagle.toml");
    let toml = "[model]\nrepository = [\"FileShare.repository\", \"../elsewhere.repository\", \"missing.repository\"]\n\n[measurements]\nevents = \"upload.events\"\n";
    c.open(&config, toml).await;
    let diags = lines(&c.diagnostics(&config).await)
        .replace(&ws.path().canonicalize().unwrap().display().to_string(), "$WS")
        .replace(&ws.path().display().to_string(), "$WS");
    insta::assert_snapshot!("config_paths", diags);

    let bad_key = ws.path().join("sub").join("beagle.toml");
    std::fs::create_dir_all(bad_key.parent().unwrap()).unwrap();
    c.open(
        &bad_key,
        "[model]\nrepository = \"x.repository\"\n[measurements]\nevent = \"x\"\n",
    )
    .await;
    let d = c.diagnostics(&bad_key).await;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["range"]["start"]["line"], 3);
    assert!(d[0]["message"].as_str().unwrap().contains("event"), "{d:?}");

    // Issue 41: a table Beagle does not know is a warning on its line (the CLI says the same).
    let unknown = ws.path().join("other").join("beagle.toml");
    std::fs::create_dir_all(unknown.parent().unwrap()).unwrap();
    std::fs::write(unknown.parent().unwrap().join("x.repository"), "").unwrap();
    c.open(
        &unknown,
        "[model]\nrepository = \"x.repository\"\n\n[runer]\nkind = \"ssh\"\n",
    )
    .await;
    let d = c.diagnostics(&unknown).await;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (d[0]["range"]["start"]["line"].as_u64(), d[0]["severity"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(d[0]["code"], "unknown-table");
    assert!(
        d[0]["message"].as_str().unwrap().ends_with("did you mean `[runner]`?"),
        "{d:?}"
    );
}

#[tokio::test]
async fn the_deployment_gets_diagnostics_in_the_unsaved_files() {
    let ws = fixture_copy("pcm/mediastore");
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    let env = ws.path().join("MediaStore.resourceenvironment");
    let text = std::fs::read_to_string(&env).unwrap();
    c.open(&env, &text.replacen("\"50 * 1000 * 1000\"", "\"0\"", 1)).await;
    assert_eq!(
        lines(&c.diagnostics(&env).await),
        "18: [processing-rate] HDD of `ApplicationServer`: processing rate `0` is 0, not a positive number; \
         the simulators divide each demand by it, so it must be a positive number (_TVMn0Hy8EeaPy6UnbN4v1Q)"
    );
    // FileStorage's allocation context removed, not saved: the editor's text is what is checked.
    let allocation = ws.path().join("MediaStore-Cacheless.allocation");
    let text = std::fs::read_to_string(&allocation).unwrap();
    let start = text
        .find("  <allocationContexts_Allocation id=\"_0nXWILYiEeaM")
        .unwrap();
    let end = text.rfind("</allocation:Allocation>").unwrap();
    c.open(&allocation, &format!("{}{}", &text[..start], &text[end..]))
        .await;
    let d = lines(&c.diagnostics(&allocation).await);
    assert!(
        d.starts_with("3: [not-allocated] assembly context `FileStorage`"),
        "{d}"
    );
    // Issue 36: `measured_on` must name a container of the resource environment.
    let config = ws.path().join("beagle.toml");
    let toml = "[model]\nrepository = \"MediaStore.repository\"\nmeasured_on = \"AppServer\"\n";
    std::fs::write(&config, toml).unwrap();
    c.open(&config, toml).await;
    let d = lines(&c.diagnostics(&config).await);
    assert!(
        d.starts_with("2: [measured-on] beagle.toml: [model] measured_on = \"AppServer\" names no resource container")
            && d.contains("ApplicationServer, DatabaseServer"),
        "{d}"
    );
}

#[tokio::test]
async fn link_files_get_diagnostics() {
    let ws = fixture_copy("fileshare");
    let links = ws.path().join("model").join("links.toml");
    let text = std::fs::read_to_string(&links).unwrap().replacen(
        "element = \"_fs_partition\"",
        "element = \"_fs_no_such_action\"",
        1,
    );
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    c.open(&links, &text).await;
    let d = c.diagnostics(&links).await;
    let (line, _) = find(&text, "_fs_no_such_action");
    assert!(
        d.iter()
            .any(|d| d["message"].as_str().unwrap().contains("_fs_no_such_action")
                && d["range"]["start"]["line"].as_u64().unwrap() + 1 >= line as u64
                && d["range"]["start"]["line"].as_u64().unwrap() <= line as u64),
        "{d:#?}"
    );
}

#[tokio::test]
async fn incremental_changes_are_applied_in_order_and_diagnostics_debounced() {
    let ws = fixture_copy("events-example");
    let path = ws.path().join("FileShare.repository");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    c.open(&path, &text).await;
    assert!(c.diagnostics(&path).await.is_empty());
    // Three quick edits: break the prepare demand's StoEx, then change it twice more.
    let (line, col) = find(&text, "specification=\"1\"");
    let at = col + "specification=\"".len() as u32;
    let sent = std::time::Instant::now();
    for (version, new_text) in [(2, "1 +"), (3, "1 + * 2"), (4, "4 + 2")] {
        let before = if version == 2 {
            1
        } else {
            [0, 0, 0, 3, 7][version as usize]
        };
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri(&path), "version": version },
                "contentChanges": [{
                    "range": { "start": { "line": line, "character": at }, "end": { "line": line, "character": at + before } },
                    "text": new_text
                }]
            }),
        )
        .await;
    }
    // The changes are quick if all three reached the server within its debounce (200 ms,
    // `session.rs`): then version 2's timer fires after version 4 is in, and only 4 is diagnosed.
    // A machine that stalled this thread longer between two of them made them slow changes: then
    // each may be diagnosed, but in order, and the last is 4.
    let quick = sent.elapsed() < std::time::Duration::from_millis(200);
    c.wait_for(90, "diagnostics of version 4", |r| {
        r.iter()
            .any(|(m, p)| m == "textDocument/publishDiagnostics" && p["version"] == 4)
    })
    .await;
    let versions: Vec<i64> = c
        .messages("textDocument/publishDiagnostics")
        .iter()
        .map(|p| p["version"].as_i64().unwrap_or(-1))
        .collect();
    if quick {
        assert_eq!(versions, [1, 4], "only the last of quick changes is diagnosed");
    } else {
        assert!(
            versions.first() == Some(&1) && versions.last() == Some(&4) && versions.windows(2).all(|w| w[0] < w[1]),
            "slow changes ({:?}): diagnosed in order, the last one last: {versions:?}",
            sent.elapsed()
        );
    }
    let hover = c.position_request("textDocument/hover", &path, line, 10).await;
    assert!(
        hover["contents"]["value"].as_str().unwrap().contains("4 + 2"),
        "{hover}"
    );
}

#[tokio::test]
async fn garbage_huge_and_unknown_documents_get_answers_not_crashes() {
    let ws = fixture_copy("events-example");
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    let fixture = std::fs::read_to_string(ws.path().join("FileShare.repository")).unwrap();
    let garbage: String = (0..20_000u32)
        .map(|i| char::from_u32((i * 7919) % 0xD7FF).unwrap_or('x'))
        .collect();
    let huge = format!(
        "<?xml version=\"1.0\"?>\n<repository:Repository xmlns:repository=\"http://palladiosimulator.org/PalladioComponentModel/Repository/5.2\">\n{}",
        "<components__Repository entityName=\"c\" id=\"_c\">\n".repeat(400_000)
    );
    let docs = [
        ("garbage.repository", garbage),
        ("truncated.repository", fixture[..fixture.len() / 2].to_string()),
        ("empty.repository", String::new()),
        ("huge.repository", huge),
    ];
    for (name, text) in &docs {
        let path = ws.path().join(name);
        c.open(&path, text).await;
        for method in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/references",
        ] {
            for (line, character) in [(0, 0), (1, 5), (3, 2), (10_000_000, 3)] {
                c.position_request(method, &path, line, character).await;
            }
        }
        for method in ["textDocument/documentSymbol", "textDocument/codeLens"] {
            c.request(method, json!({ "textDocument": { "uri": uri(&path) } }))
                .await
                .unwrap();
        }
        c.diagnostics(&path).await;
    }
    // Unknown documents: empty answers.
    let unknown = ws.path().join("nope.repository");
    assert_eq!(
        c.position_request("textDocument/hover", &unknown, 0, 0).await,
        Value::Null
    );
    assert_eq!(
        c.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri(&unknown) } })
        )
        .await
        .unwrap(),
        Value::Null
    );
    // Unknown methods and commands: errors.
    let e = c.request("beagle/nothing", json!({})).await.unwrap_err();
    assert_eq!(e["code"], -32601, "{e}");
    let e = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "beagle.nothing", "arguments": [] }),
        )
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("unknown command"), "{e}");
    let e = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "beagle.analyseComponent", "arguments": [42] }),
        )
        .await
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("URI"), "{e}");
    // Still answering.
    let status = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "beagle.status", "arguments": [] }),
        )
        .await
        .unwrap();
    assert_eq!(status["running"], Value::Null);
}

#[tokio::test]
async fn a_cancelled_read_is_answered_cancelled_and_leaves_no_half_built_model_behind() {
    // Enough model files that building the workspace's model set takes a while.
    let ws = tempfile::tempdir().unwrap();
    let original =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare/model/fileshare.repository");
    let text = std::fs::read_to_string(original).unwrap();
    const COPIES: usize = 250; // Under the 256 symbols a workspace search returns.
    for i in 0..COPIES {
        let dir = ws.path().join(format!("m{i:03}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("fileshare.repository"), &text).unwrap();
    }
    let query = json!({ "query": "upload" });
    // Cancelled while the model set is built: 20 ms in, on most machines. One that builds it
    // sooner answers instead (the build won the race, and its set is kept): then again on a fresh
    // server, cancelling sooner. At 0 ms the cancel comes before the build can end (the request
    // is registered before the cancel is sent), so a cancellation is seen whatever the machine.
    let mut answered_after = Vec::new();
    let mut cancelled_on = None;
    for after in [20, 5, 0] {
        let mut c = Client::new();
        c.initialize(ws.path(), json!({})).await;
        let answer = c
            .request_then_cancel(
                "workspace/symbol",
                query.clone(),
                std::time::Duration::from_millis(after),
            )
            .await;
        match answer {
            Err(cancelled) => {
                assert_eq!(cancelled["code"], -32800, "RequestCancelled: {cancelled}");
                cancelled_on = Some(c);
                break;
            }
            Ok(_) => answered_after.push(after),
        }
    }
    let mut c =
        cancelled_on.unwrap_or_else(|| panic!("never cancelled: answered when cancelled after {answered_after:?} ms"));
    // The server still answers, and with every file: the cancelled build kept nothing.
    let found = c.request("workspace/symbol", query).await.unwrap();
    let files: std::collections::HashSet<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), COPIES);
}

/// Issue 36: a demand's hover shows its time beside its work units, at the rate of the container
/// its component is allocated to, read from the workspace's allocation and resource environment
/// (MediaStore: FileStorage on the DatabaseServer, Packaging on the ApplicationServer).
#[tokio::test]
async fn a_demands_hover_shows_its_time_on_its_container() {
    let ws = fixture_copy("pcm/mediastore");
    let path = ws.path().join("MediaStore.repository");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    c.open(&path, &text).await;
    let hover = |needle: &'static str| {
        let (line, col) = find(&text, needle);
        (line, col + 10)
    };
    let (line, col) = hover("entityName=\"store file\"");
    let store = c.position_request("textDocument/hover", &path, line, col).await;
    let store = store["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        store.contains("- CPU demand: `75182981.91` CPU units = `75.18` ms on DatabaseServer at 1E9/s"),
        "{store}"
    );
    let (line, col) = hover("entityName=\"Zipping\"");
    let zipping = c.position_request("textDocument/hover", &path, line, col).await;
    let zipping = zipping["contents"]["value"].as_str().unwrap().to_string();
    assert!(zipping.contains("ms on ApplicationServer at 1E9/s"), "{zipping}");
    // Told that the measurements ran elsewhere, the time is the one there.
    std::fs::write(
        ws.path().join("beagle.toml"),
        "[model]\nrepository = \"MediaStore.repository\"\nmeasured_on = \"ApplicationServer\"\n",
    )
    .unwrap();
    let (line, col) = hover("entityName=\"get files\"");
    let get = c.position_request("textDocument/hover", &path, line, col).await;
    let get = get["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        get.contains("- HDD demand: `audioRequest.Size.VALUE * audioRequest.Count.VALUE` HDD units = `2.0E-5 * (audioRequest.Size.VALUE * audioRequest.Count.VALUE)` ms on ApplicationServer at 5E7/s"),
        "{get}"
    );
}

/// Issue 39: an internal action's hover shows the work a counting run found (its count laws and
/// R), read from the workspace's store as `beagle analyse --count` left it.
#[tokio::test]
async fn an_actions_hover_shows_its_counted_work() {
    use beagle_analysis::section_counts::{CountLaw, Factor, SectionCounts};
    let ws = fixture_copy("fileshare");
    let path = ws.path().join("model/fileshare.repository");
    let text = std::fs::read_to_string(&path).unwrap();
    let law = |s: &str| CountLaw {
        stoex: s.into(),
        is_final: true,
        r2: 1.0,
    };
    let hash = SectionCounts {
        action: "_fs_hash".into(),
        name: "hash".into(),
        laws: [
            ("java/security/MessageDigest.digest([B)[B".to_string(), law("1")),
            (
                "java/security/MessageDigest.digest([B)[B elements".to_string(),
                law("data.BYTESIZE"),
            ),
        ]
        .into(),
        points: 12,
        factor: Some(Factor {
            r: 0.97,
            spread: 0.03,
            platform: "default".into(),
            ..Factor::default()
        }),
    };
    let mut store = beagle_analysis::Store::open(ws.path()).unwrap();
    store
        .save_section_counts("model/fileshare.repository", &[hash])
        .unwrap();
    let mut c = Client::new();
    c.initialize(ws.path(), json!({})).await;
    c.open(&path, &text).await;
    let (line, col) = find(&text, "id=\"_fs_hash\"");
    let hover = c.position_request("textDocument/hover", &path, line, col + 5).await;
    let hover = hover["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        hover.contains("**Counted work** (per run, 12 points; 2 of 2 laws final)"),
        "{hover}"
    );
    assert!(
        hover.contains("MessageDigest.digest elements: `data.BYTESIZE`"),
        "{hover}"
    );
    assert!(hover.contains("R = 0.970 on default"), "{hover}");
    // Another action has no counts: no section.
    let (line, col) = find(&text, "id=\"_fs_compress\"");
    let other = c.position_request("textDocument/hover", &path, line, col + 5).await;
    assert!(!other["contents"]["value"].as_str().unwrap().contains("Counted work"));
}
