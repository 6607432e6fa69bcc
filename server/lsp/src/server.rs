//! The language server: LSP requests in, the session and the read functions called. Document
//! changes go to the session ([`crate::session`]) as messages, sent at the very start of their
//! handlers (tower-lsp-server starts handlers in arrival order), so they apply in order; read
//! requests take the session's [`World`] and compute on blocking threads, so a long parse never
//! stalls the protocol, and stop when the client cancels them; analyses run in the job worker.

use crate::protocol::Command;
use crate::session::{Handle, Message};
use crate::state::{ClientFacts, LaunchPolicy, World};
use crate::{commands, features, jobs, reads};
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

/// Whether the client asked to shut down before `exit` (the exit status says so: 0, else 1).
pub static SHUTDOWN_REQUESTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub struct Beagle {
    session: Handle,
}

impl Beagle {
    /// A server with its session; needs a tokio runtime (the session is a task).
    pub fn new(client: Client) -> Beagle {
        Beagle {
            session: Handle::start(client),
        }
    }

    /// `window/workDoneProgress/cancel`: the user pressed cancel on an analysis's progress.
    pub async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        self.session.send(Message::CancelProgress { token: params.token });
    }

    /// Runs `f` on a snapshot of `uri` (with the world it belongs to) on a blocking thread;
    /// `None` for unknown documents and cancelled requests.
    async fn with_doc<T: Send + 'static>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&World, &crate::documents::Snapshot) -> T + Send + 'static,
    ) -> Option<T> {
        let world = self.session.world().await;
        let doc = world.snapshot(uri)?;
        reads::run(move |_| f(&world, &doc)).await
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
        diagram_command: opt("diagramCommand")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(String::from),
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
        runner: opt("runner").filter(|r| !r.is_null()).cloned(),
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
        self.session.send(Message::Initialize {
            client: facts_of(&params),
            roots: roots_of(&params),
        });
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
                    commands: Command::ALL.iter().map(|c| c.to_string()).collect(),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        tokio::spawn(jobs::worker(self.session.clone()));
        // The last results of earlier sessions, from each workspace folder's store.
        let session = self.session.clone();
        tokio::spawn(async move {
            let roots = session.world().await.roots;
            let loaded = tokio::task::spawn_blocking(move || {
                let mut results = crate::results::Results::default();
                let mut problems = Vec::new();
                for root in roots {
                    if let Err(e) = results.load_from_store(&root) {
                        problems.push(format!("{}: cannot read the last results: {e}", root.display()));
                    }
                }
                (results, problems)
            })
            .await;
            if let Ok((results, problems)) = loaded {
                session.send(Message::StoredResults { results, problems });
            }
        });
    }

    async fn shutdown(&self) -> Result<()> {
        SHUTDOWN_REQUESTED.store(true, std::sync::atomic::Ordering::SeqCst);
        self.session.send(Message::Shutdown);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let d = params.text_document;
        let Some(path) = d.uri.to_file_path().map(|p| p.into_owned()) else {
            return;
        };
        self.session.send(Message::Opened {
            uri: d.uri,
            path,
            version: d.version,
            text: d.text,
        });
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.session.send(Message::Changed {
            uri: params.text_document.uri,
            version: params.text_document.version,
            changes: params.content_changes,
        });
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.session.send(Message::Saved {
            uri: params.text_document.uri,
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.session.send(Message::Closed {
            uri: params.text_document.uri,
        });
    }

    async fn did_change_watched_files(&self, _: DidChangeWatchedFilesParams) {
        self.session.send(Message::FilesChanged);
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        Ok(self
            .with_doc(&p.text_document.uri, move |world, doc| {
                let results = world.results.get(&doc.path);
                let root = world.root_of(&doc.path);
                features::hover(doc, p.position, results.as_deref(), root.as_deref())
            })
            .await
            .flatten())
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        Ok(self
            .with_doc(&params.text_document.uri, |_, doc| features::document_symbols(doc))
            .await
            .map(DocumentSymbolResponse::Nested))
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        let world = self.session.world().await;
        let Some(set) = self.session.model_set(&world).await else {
            return Err(Error::request_cancelled());
        };
        let open = world.open_snapshots();
        let found = reads::run(move |_| features::workspace_symbols(&set, &open, &params.query))
            .await
            .unwrap_or_default();
        Ok(Some(WorkspaceSymbolResponse::Nested(found)))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let world = self.session.world().await;
        let Some(doc) = world.snapshot(&p.text_document.uri) else {
            return Ok(None);
        };
        let Some(set) = self.session.model_set(&world).await else {
            return Err(Error::request_cancelled());
        };
        let open = world.open_snapshots();
        let found = reads::run(move |_| features::definition(&set, &open, &doc, p.position))
            .await
            .flatten();
        Ok(found.map(GotoDefinitionResponse::Scalar))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let world = self.session.world().await;
        let Some(doc) = world.snapshot(&p.text_document.uri) else {
            return Ok(None);
        };
        let Some(set) = self.session.model_set(&world).await else {
            return Err(Error::request_cancelled());
        };
        let open = world.open_snapshots();
        let declaration = params.context.include_declaration;
        let found = reads::run(move |_| features::references(&set, &open, &doc, p.position, declaration))
            .await
            .unwrap_or_default();
        Ok(Some(found))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        Ok(self
            .with_doc(&params.text_document.uri, |world, doc| {
                let results = world.results.get(&doc.path);
                features::code_lenses(
                    doc,
                    results.as_deref(),
                    world.activity.as_ref(),
                    world.client.diagram_command.as_deref(),
                )
            })
            .await)
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let pos = params.range.start;
        Ok(self
            .with_doc(&params.text_document.uri, move |world, doc| {
                let has_results = world.results.get(&doc.path).is_some();
                let root = world.root_of(&doc.path);
                let mut actions = features::code_actions(doc, pos, has_results);
                let results = world.results.get(&doc.path);
                actions.extend(crate::unmodelled_fix::unmodelled_actions(
                    doc,
                    pos,
                    results.as_deref(),
                    root.as_deref(),
                ));
                actions.extend(crate::links_fix::reanchor_actions(doc, root.as_deref()));
                actions.extend(crate::did_you_mean_fix::did_you_mean_actions(world, doc, pos));
                actions.extend(crate::vocabulary_fix::vocabulary_actions(doc, pos));
                actions.extend(crate::undeclared_fix::undeclared_actions(
                    doc,
                    pos,
                    results.as_deref(),
                    Some(world),
                ));
                actions
            })
            .await)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let command: Command = params
            .command
            .parse()
            .map_err(|e: crate::protocol::UnknownCommand| Error::invalid_params(e.to_string()))?;
        let result = commands::execute(&self.session, command, &params.arguments).await;
        match &result {
            Err(e) => {
                self.session
                    .client
                    .show_message(MessageType::ERROR, format!("Beagle: {}", e.message))
                    .await
            }
            Ok(_) => self.session.send(Message::RefreshLenses),
        }
        result
    }
}
