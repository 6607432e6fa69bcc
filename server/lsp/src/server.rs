//! The language server: LSP requests in, the handlers of the other modules called. Document
//! changes are applied synchronously at the start of their handlers, with no `.await` while the
//! state is locked; read requests take snapshots and compute on blocking threads, so a long
//! parse never stalls the protocol; analyses run in the job worker.

use crate::documents::{DocKind, Document};
use crate::jobs::Queue;
use crate::state::{build_model_set, ClientFacts, LaunchPolicy, State};
use crate::{commands, diagnostics, features, jobs};
use beagle_pcm::ModelSet;
use serde_json::Value;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

/// Whether the client asked to shut down before `exit` (the exit status says so: 0, else 1).
pub static SHUTDOWN_REQUESTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Diagnostics wait this long after the last change before they are computed.
const DEBOUNCE: Duration = Duration::from_millis(200);

/// What the handlers, the diagnostics tasks and the job worker share.
pub struct Shared {
    pub client: Client,
    state: Mutex<State>,
    jobs: Mutex<Queue>,
    pub wake: Notify,
    /// Progress sends `beagle/status` at most 4 a second.
    status_throttle: Throttle,
    /// and asks for code lenses (which show the percentage) at most every 2 seconds.
    lens_throttle: Throttle,
}

/// Lets something through at most once per period.
#[derive(Default)]
struct Throttle(Mutex<Option<Instant>>);

impl Throttle {
    /// Whether the period since the last pass is over (or `force`); if so, a pass starts now.
    fn pass(&self, period: Duration, force: bool) -> bool {
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !force && last.is_some_and(|t| t.elapsed() < period) {
            return false;
        }
        *last = Some(Instant::now());
        true
    }
}

/// `beagle/status`: the job queue's state, pushed to clients that asked for it.
enum StatusNotification {}

impl notification::Notification for StatusNotification {
    type Params = Value;
    const METHOD: &'static str = "beagle/status";
}

impl Shared {
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The job queue (a poisoned lock still holds a usable queue: take it).
    pub fn jobs(&self) -> MutexGuard<'_, Queue> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn facts(&self) -> ClientFacts {
        self.state().client.clone()
    }

    /// Asks the client to fetch code lenses again (results or an analysis changed).
    pub async fn refresh_lenses(&self) {
        if self.facts().code_lens_refresh {
            let _ = self.client.code_lens_refresh().await;
        }
    }

    /// Sends `beagle/status` if the client asked for it; unless `force`d (a job queued, started,
    /// paused, ended), at most 4 a second.
    pub async fn publish_status(&self, force: bool) {
        if !self.facts().status_notifications || !self.status_throttle.pass(Duration::from_millis(250), force) {
            return;
        }
        let status = self.jobs().status();
        self.client.send_notification::<StatusNotification>(status).await;
    }

    /// A job's percentage moved: status notifications, and the lenses' "analysing… N %".
    pub async fn progress_changed(&self) {
        self.publish_status(false).await;
        if self.lens_throttle.pass(Duration::from_secs(2), false) {
            self.refresh_lenses().await;
        }
    }

    /// The model set (cached until a model changes), built on a blocking thread.
    pub async fn model_set(&self) -> Arc<ModelSet> {
        let (cached, open, roots) = {
            let s = self.state();
            (s.cached_model_set(), s.open_snapshots(), s.roots.clone())
        };
        if let Some(set) = cached {
            return set;
        }
        let set = tokio::task::spawn_blocking(move || Arc::new(build_model_set(&open, &roots)))
            .await
            .unwrap_or_default();
        self.state().cache_model_set(set.clone());
        set
    }
}

pub struct Beagle {
    shared: Arc<Shared>,
}

impl Beagle {
    pub fn new(client: Client) -> Beagle {
        Beagle {
            shared: Arc::new(Shared {
                client,
                state: Mutex::new(State::default()),
                jobs: Mutex::new(Queue::default()),
                wake: Notify::new(),
                status_throttle: Throttle::default(),
                lens_throttle: Throttle::default(),
            }),
        }
    }

    /// `window/workDoneProgress/cancel`: the user pressed cancel on an analysis's progress.
    pub async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        let cancelled = self.shared.jobs().cancel_token(&params.token);
        tracing::info!(
            "progress cancel {:?}: {}",
            params.token,
            if cancelled { "aborting" } else { "unknown" }
        );
    }

    /// Computes and publishes a document's diagnostics after the debounce, unless it changed again.
    fn schedule_diagnostics(&self, uri: Uri, version: i32, delay: Duration) {
        let shared = self.shared.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let (doc, open, root) = {
                let s = shared.state();
                let Some(doc) = s.snapshot(&uri) else { return };
                if doc.version != version {
                    return; // A newer change scheduled its own.
                }
                let root = s.root_of(&doc.path);
                (doc, s.open_snapshots(), root)
            };
            let computed =
                tokio::task::spawn_blocking(move || diagnostics::of_document(&doc, &open, root.as_deref())).await;
            let Ok(list) = computed else { return };
            let current = shared.state().snapshot(&uri).map(|d| d.version);
            if current == Some(version) {
                shared.client.publish_diagnostics(uri, list, Some(version)).await;
            }
        });
    }

    /// Runs `f` on a snapshot of `uri` on a blocking thread; `None` for unknown documents.
    async fn with_doc<T: Send + 'static>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&crate::documents::Snapshot) -> T + Send + 'static,
    ) -> Option<T> {
        let doc = self.shared.state().snapshot(uri)?;
        tokio::task::spawn_blocking(move || f(&doc)).await.ok()
    }
}

fn facts_of(params: &InitializeParams) -> ClientFacts {
    let caps = &params.capabilities;
    let options = params.initialization_options.as_ref();
    let opt = |name: &str| options.and_then(|o| o.get(name));
    ClientFacts {
        work_done_progress: caps.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
        document_changes: caps
            .workspace
            .as_ref()
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes)
            .unwrap_or(false),
        code_lens_refresh: caps
            .workspace
            .as_ref()
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
        launch_policy: opt("launchPolicy")
            .and_then(Value::as_str)
            .and_then(LaunchPolicy::parse)
            .unwrap_or(if opt("trustedWorkspace").and_then(Value::as_bool) == Some(true) {
                LaunchPolicy::Allow
            } else {
                LaunchPolicy::Ask
            }),
        status_notifications: opt("statusNotifications").and_then(Value::as_bool).unwrap_or(false),
        can_ask: caps.window.as_ref().and_then(|w| w.show_message.as_ref()).is_some(),
        seed: opt("seed").and_then(Value::as_u64),
        budget_s: opt("budget")
            .and_then(Value::as_f64)
            .filter(|b| *b > 0.0 && b.is_finite()),
        repetitions: opt("repetitions")
            .and_then(Value::as_u64)
            .map(|r| r.clamp(1, 10_000) as u32),
        gp: opt("geneticProgramming").and_then(Value::as_bool).unwrap_or(true),
        validate: opt("validate").and_then(Value::as_bool).unwrap_or(true),
    }
}

fn roots_of(params: &InitializeParams) -> Vec<std::path::PathBuf> {
    let mut roots: Vec<std::path::PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
        .collect();
    #[allow(deprecated)] // Older clients send only rootUri.
    if roots.is_empty() {
        roots.extend(
            params
                .root_uri
                .as_ref()
                .and_then(|u| u.to_file_path())
                .map(|p| p.into_owned()),
        );
    }
    roots.into_iter().map(|r| r.canonicalize().unwrap_or(r)).collect()
}

impl LanguageServer for Beagle {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        {
            let mut s = self.shared.state();
            s.client = facts_of(&params);
            s.roots = roots_of(&params);
        }
        let sync = TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        };
        Ok(InitializeResult {
            server_info: Some(ServerInfo {
                name: "beagle".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            capabilities: ServerCapabilities {
                position_encoding: Some(PositionEncodingKind::UTF16),
                text_document_sync: Some(TextDocumentSyncCapability::Options(sync)),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                code_lens_provider: Some(CodeLensOptions {
                    resolve_provider: Some(false),
                }),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: commands::ALL.iter().map(|c| c.to_string()).collect(),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        tokio::spawn(jobs::worker(self.shared.clone()));
        // The last results of earlier sessions, from each workspace folder's store.
        let shared = self.shared.clone();
        tokio::spawn(async move {
            let roots = shared.state().roots.clone();
            let loaded = tokio::task::spawn_blocking(move || {
                let mut results = crate::results::Results::default();
                let mut messages = Vec::new();
                for root in roots {
                    if let Err(e) = results.load_from_store(&root) {
                        messages.push(format!("{}: cannot read the last results: {e}", root.display()));
                    }
                }
                (results, messages)
            })
            .await;
            if let Ok((results, messages)) = loaded {
                {
                    let mut s = shared.state();
                    for (path, r) in results.all() {
                        if s.results.get(path).is_none() {
                            s.results.merge(path, (**r).clone());
                        }
                    }
                }
                for m in messages {
                    shared.client.log_message(MessageType::WARNING, m).await;
                }
                shared.refresh_lenses().await;
            }
        });
    }

    async fn shutdown(&self) -> Result<()> {
        SHUTDOWN_REQUESTED.store(true, std::sync::atomic::Ordering::SeqCst);
        // Abort a running analysis: it checkpoints, so the next session resumes it.
        let q = self.shared.jobs();
        if let Some(r) = &q.running {
            r.control.abort();
        }
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let d = params.text_document;
        let Some(path) = d.uri.to_file_path().map(|p| p.into_owned()) else {
            return;
        };
        {
            let mut s = self.shared.state();
            s.documents
                .insert(d.uri.clone(), Document::open(d.uri.clone(), path, d.version, &d.text));
            s.models_changed();
        }
        self.schedule_diagnostics(d.uri, d.version, Duration::ZERO);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        {
            let mut s = self.shared.state();
            let Some(doc) = s.documents.get_mut(&uri) else { return };
            doc.change(version, params.content_changes);
            s.models_changed();
        }
        self.schedule_diagnostics(uri, version, DEBOUNCE);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let version = {
            let mut s = self.shared.state();
            s.models_changed();
            s.snapshot(&params.text_document.uri).map(|d| (d.version, d.kind))
        };
        // A saved beagle.toml or link file changes what the other files mean: check them again.
        if let Some((_, DocKind::Config | DocKind::Links)) = version {
            let open: Vec<(Uri, i32)> = self
                .shared
                .state()
                .open_snapshots()
                .iter()
                .map(|d| (d.uri.clone(), d.version))
                .collect();
            for (uri, v) in open {
                self.schedule_diagnostics(uri, v, Duration::ZERO);
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        {
            let mut s = self.shared.state();
            s.documents.remove(&params.text_document.uri);
            s.models_changed();
        }
        self.shared
            .client
            .publish_diagnostics(params.text_document.uri, Vec::new(), None)
            .await;
    }

    async fn did_change_watched_files(&self, _: DidChangeWatchedFilesParams) {
        self.shared.state().models_changed();
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        let (results, root) = {
            let s = self.shared.state();
            let doc = s.snapshot(&p.text_document.uri);
            let root = doc.as_ref().and_then(|d| s.root_of(&d.path));
            (doc.and_then(|d| s.results.get(&d.path)), root)
        };
        Ok(self
            .with_doc(&p.text_document.uri, move |doc| {
                features::hover(doc, p.position, results.as_deref(), root.as_deref())
            })
            .await
            .flatten())
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        Ok(self
            .with_doc(&params.text_document.uri, features::document_symbols)
            .await
            .map(DocumentSymbolResponse::Nested))
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        let set = self.shared.model_set().await;
        let open = self.shared.state().open_snapshots();
        let found = tokio::task::spawn_blocking(move || features::workspace_symbols(&set, &open, &params.query))
            .await
            .unwrap_or_default();
        Ok(Some(WorkspaceSymbolResponse::Nested(found)))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let Some(doc) = self.shared.state().snapshot(&p.text_document.uri) else {
            return Ok(None);
        };
        let set = self.shared.model_set().await;
        let open = self.shared.state().open_snapshots();
        let found = tokio::task::spawn_blocking(move || features::definition(&set, &open, &doc, p.position))
            .await
            .ok()
            .flatten();
        Ok(found.map(GotoDefinitionResponse::Scalar))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let Some(doc) = self.shared.state().snapshot(&p.text_document.uri) else {
            return Ok(None);
        };
        let set = self.shared.model_set().await;
        let open = self.shared.state().open_snapshots();
        let declaration = params.context.include_declaration;
        let found =
            tokio::task::spawn_blocking(move || features::references(&set, &open, &doc, p.position, declaration))
                .await
                .unwrap_or_default();
        Ok(Some(found))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let (results, activity) = {
            let s = self.shared.state();
            let results = s
                .snapshot(&params.text_document.uri)
                .and_then(|d| s.results.get(&d.path));
            let q = self.shared.jobs();
            let activity = q.running.as_ref().map(|r| features::Activity {
                repositories: r.repositories.clone(),
                percentage: r.percentage,
                message: r.message.clone(),
            });
            (results, activity)
        };
        Ok(self
            .with_doc(&params.text_document.uri, move |doc| {
                features::code_lenses(doc, results.as_deref(), activity.as_ref())
            })
            .await)
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let has_results = {
            let s = self.shared.state();
            s.snapshot(&params.text_document.uri)
                .is_some_and(|d| s.results.get(&d.path).is_some())
        };
        let pos = params.range.start;
        let root = {
            let s = self.shared.state();
            s.snapshot(&params.text_document.uri).and_then(|d| s.root_of(&d.path))
        };
        Ok(self
            .with_doc(&params.text_document.uri, move |doc| {
                let mut actions = features::code_actions(doc, pos, has_results);
                actions.extend(crate::links_fix::reanchor_actions(doc, root.as_deref()));
                actions
            })
            .await)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        if !commands::ALL.contains(&params.command.as_str()) {
            return Err(Error::invalid_params(format!("unknown command `{}`", params.command)));
        }
        let result = commands::execute(&self.shared, &params.command, &params.arguments).await;
        if let Err(e) = &result {
            self.shared
                .client
                .show_message(MessageType::ERROR, format!("Beagle: {}", e.message))
                .await;
        }
        if result.is_ok() {
            self.shared.refresh_lenses().await;
        }
        result
    }
}
