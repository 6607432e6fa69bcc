//! An in-process LSP client for tests (typos-lsp and biome test tower-lsp servers this way):
//! requests go straight into the service, and a task answers what the server asks of the
//! client (progress tokens, workspace edits, questions) and records everything it sends.

#![allow(dead_code)]

use beagle_lsp::server::Beagle;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::LspService;

/// How the client answers the server's requests.
#[derive(Clone)]
pub struct Answers {
    pub apply_edit: bool,
    /// The title of the action chosen in `window/showMessageRequest` (None: dismissed).
    pub message_action: Option<String>,
}

impl Default for Answers {
    fn default() -> Self {
        Answers {
            apply_edit: true,
            message_action: None,
        }
    }
}

pub struct Client {
    service: LspService<Beagle>,
    next_id: i64,
    /// Every message the server sent: `(method, params)`.
    pub received: Arc<Mutex<Vec<(String, Value)>>>,
    pub answers: Arc<Mutex<Answers>>,
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    pub fn new() -> Client {
        let (service, socket) = beagle_lsp::service();
        let received: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
        let answers: Arc<Mutex<Answers>> = Arc::default();
        let (mut to_client, mut from_client) = {
            let (requests, responses) = socket.split();
            (requests, responses)
        };
        let log = received.clone();
        let how = answers.clone();
        tokio::spawn(async move {
            while let Some(req) = to_client.next().await {
                let method = req.method().to_string();
                let params = req.params().cloned().unwrap_or(Value::Null);
                log.lock().unwrap().push((method.clone(), params.clone()));
                let Some(id) = req.id().cloned() else { continue };
                let a = how.lock().unwrap().clone();
                let result = match method.as_str() {
                    "workspace/applyEdit" => json!({ "applied": a.apply_edit }),
                    "window/showMessageRequest" => match a.message_action {
                        Some(title) => json!({ "title": title }),
                        None => Value::Null,
                    },
                    _ => Value::Null,
                };
                let _ = from_client.send(Response::from_ok(id, result)).await;
            }
        });
        Client {
            service,
            next_id: 0,
            received,
            answers,
        }
    }

    pub async fn request(&mut self, method: &'static str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let req = Request::build(method).params(params).id(self.next_id).finish();
        let resp = self
            .service
            .ready()
            .await
            .unwrap()
            .call(req)
            .await
            .unwrap()
            .expect("a response");
        let (_, result) = resp.into_parts();
        result.map_err(|e| serde_json::to_value(e).unwrap())
    }

    /// Sends a request, and after `after` cancels it (`$/cancelRequest`); its response.
    pub async fn request_then_cancel(
        &mut self,
        method: &'static str,
        params: Value,
        after: Duration,
    ) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let req = Request::build(method).params(params).id(id).finish();
        let pending = tokio::spawn(self.service.ready().await.unwrap().call(req));
        tokio::time::sleep(after).await;
        self.notify("$/cancelRequest", json!({ "id": id })).await;
        let resp = pending.await.unwrap().unwrap().expect("a response");
        let (_, result) = resp.into_parts();
        result.map_err(|e| serde_json::to_value(e).unwrap())
    }

    pub async fn notify(&mut self, method: &'static str, params: Value) {
        let req = Request::build(method).params(params).finish();
        let resp = self.service.ready().await.unwrap().call(req).await.unwrap();
        assert!(resp.is_none());
    }

    /// initialize + initialized with a workspace folder and client capabilities like VS Code's.
    pub async fn initialize(&mut self, root: &Path, options: Value) -> Value {
        let result = self
            .request(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": uri(root),
                    "capabilities": {
                        "window": { "workDoneProgress": true, "showMessage": { "messageActionItem": { "additionalPropertiesSupport": false } } },
                        "workspace": { "workspaceEdit": { "documentChanges": true }, "codeLens": { "refreshSupport": true } }
                    },
                    "initializationOptions": options,
                }),
            )
            .await
            .unwrap();
        self.notify("initialized", json!({})).await;
        result
    }

    pub async fn open(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(path), "languageId": "xml", "version": 1, "text": text } }),
        )
        .await;
    }

    /// Everything the server sent, in order: (method, params).
    #[allow(dead_code)] // Not every test binary uses it.
    pub fn received(&self) -> Vec<(String, Value)> {
        self.received.lock().unwrap().clone()
    }

    pub fn messages(&self, method: &str) -> Vec<Value> {
        self.received
            .lock()
            .unwrap()
            .iter()
            .filter(|(m, _)| m == method)
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// Waits (up to `secs`) until `done` holds over everything received.
    pub async fn wait_for(&self, secs: u64, what: &str, done: impl Fn(&[(String, Value)]) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if done(&self.received.lock().unwrap()) {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                panic!(
                    "timed out waiting for {what}; received: {:#?}",
                    self.received.lock().unwrap()
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The diagnostics last published for `path`, once published.
    pub async fn diagnostics(&self, path: &Path) -> Vec<Value> {
        let u = uri(path);
        // Generous: a debug build checks the 20 MB document of the garbage test in seconds, but
        // a machine busy with other work (CI) can take many times that.
        self.wait_for(90, "diagnostics", |r| {
            r.iter()
                .any(|(m, p)| m == "textDocument/publishDiagnostics" && p["uri"] == u)
        })
        .await;
        let all = self.messages("textDocument/publishDiagnostics");
        let last = all.iter().rev().find(|p| p["uri"] == u).unwrap();
        last["diagnostics"].as_array().unwrap().clone()
    }

    pub async fn position_request(&mut self, method: &'static str, path: &Path, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({
                "textDocument": { "uri": uri(path) },
                "position": { "line": line, "character": character },
                "context": { "includeDeclaration": true }
            }),
        )
        .await
        .unwrap()
    }
}

/// The (0-based) line and column of the first occurrence of `needle` in `text`.
pub fn find(text: &str, needle: &str) -> (u32, u32) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line as u32, col as u32)
}

/// A copy of a fixture folder in a temp dir (tests never write into fixtures/).
pub fn fixture_copy(name: &str) -> tempfile::TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(name);
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&src, dir.path());
    let _ = std::fs::remove_dir_all(dir.path().join(".beagle"));
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if name == ".beagle" {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(&name));
        } else {
            std::fs::copy(e.path(), to.join(&name)).unwrap();
        }
    }
}

/// Applies LSP text edits (non-overlapping) to a text.
pub fn apply_edits(text: &str, edits: &[Value]) -> String {
    let offset = |line: u64, character: u64| -> usize {
        let start: usize = text.split_inclusive('\n').take(line as usize).map(str::len).sum();
        let line_text = &text[start..];
        let mut units = 0u64;
        for (i, c) in line_text.char_indices() {
            if units >= character || c == '\n' {
                return start + i;
            }
            units += c.len_utf16() as u64;
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let a = offset(
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
            );
            let b = offset(
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            );
            (a, b, e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort_by_key(|s| s.0);
    let mut out = String::new();
    let mut at = 0;
    for (a, b, t) in spans {
        out.push_str(&text[at..a]);
        out.push_str(&t);
        at = b;
    }
    out.push_str(&text[at..]);
    out
}

/// `workspace/executeCommand` with `name` and `args`.
#[allow(dead_code)] // Not every test binary uses it.
pub async fn command(c: &mut Client, name: &str, args: Value) -> Result<Value, Value> {
    c.request(
        "workspace/executeCommand",
        json!({ "command": name, "arguments": args }),
    )
    .await
}

/// A server on a copy of `fixture` with `options`, the file at `relative` open:
/// (folder, file, its text, client).
#[allow(dead_code)]
pub async fn fixture_open(
    fixture: &str,
    relative: &str,
    options: Value,
) -> (tempfile::TempDir, PathBuf, String, Client) {
    fixture_open_answering(fixture, relative, options, None).await
}

/// [`fixture_open`], with the client answering `window/showMessageRequest` with `answer`.
#[allow(dead_code)]
pub async fn fixture_open_answering(
    fixture: &str,
    relative: &str,
    options: Value,
    answer: Option<&str>,
) -> (tempfile::TempDir, PathBuf, String, Client) {
    let ws = fixture_copy(fixture);
    let path = ws.path().join(relative);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::new();
    c.answers.lock().unwrap().message_action = answer.map(String::from);
    c.initialize(ws.path(), options).await;
    c.open(&path, &text).await;
    (ws, path, text, c)
}
