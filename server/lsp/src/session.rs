//! The one owner of the server's state (rust-analyzer's main loop, ruff's session, texlab's
//! internal channel). Document changes, job events, diagnostics results and the worker's
//! requests reach one task as [`Message`]s and are applied there in order, synchronously: no
//! lock, no `.await` while the state changes. Read requests ask it for a [`World`] and compute
//! on that. What goes back to the client leaves through one outbox task, in order.
//!
//! Handlers, the job worker and the commands hold a [`Handle`]; nothing here calls them back.

use crate::diagnostics;
use crate::documents::{DocKind, Document};
use crate::protocol::shapes::{ControlAnswer, RepositoryStatus, Status};
use crate::queue::{JobControl, JobSpec};
use crate::reads;
use crate::results::{RepositoryResults, Results};
use crate::state::{build_model_set, root_of, ClientFacts, State, World};
use beagle_analysis::{Control, Scope};
use beagle_job::Workspace;
use beagle_pcm::ModelSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;
use tower_lsp_server::ls_types::{
    notification, Diagnostic, MessageType, NumberOrString, TextDocumentContentChangeEvent, Uri,
};
use tower_lsp_server::Client;

/// Diagnostics wait this long after the last change before they are computed.
const DEBOUNCE: Duration = Duration::from_millis(200);

/// Everything that changes the state, and the questions only the owner can answer.
pub enum Message {
    Initialize {
        client: ClientFacts,
        roots: Vec<PathBuf>,
    },
    Opened {
        uri: Uri,
        path: PathBuf,
        version: i32,
        text: String,
    },
    Changed {
        uri: Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    },
    Saved {
        uri: Uri,
    },
    Closed {
        uri: Uri,
    },
    /// Files changed on disk (the client's file watcher).
    FilesChanged,
    /// A snapshot for a read request.
    World(oneshot::Sender<World>),
    /// A read built the model set of generation `generation`: keep it if still current.
    ModelSetBuilt {
        generation: u64,
        set: Arc<ModelSet>,
    },
    /// The debounce after a change is over: compute the document's diagnostics if it is still at
    /// `version`.
    DiagnosticsDue {
        uri: Uri,
        version: i32,
    },
    /// Diagnostics computed for `version`: published if the document is still there.
    Diagnostics {
        uri: Uri,
        version: i32,
        list: Vec<Diagnostic>,
    },
    /// Results of earlier sessions, read from the stores at start-up.
    StoredResults {
        results: Results,
        problems: Vec<String>,
    },
    /// An analysis's results for one repository (preliminary or final).
    Results {
        repository: PathBuf,
        results: RepositoryResults,
    },
    DiscardResults {
        path: PathBuf,
        reply: oneshot::Sender<bool>,
    },
    /// Results or an analysis changed what the lenses say.
    RefreshLenses,
    Queue {
        label: String,
        root: PathBuf,
        /// Boxed: a workspace is several times the size of the other messages.
        workspace: Box<Workspace>,
        scope: Scope,
        reply: oneshot::Sender<(u64, usize)>,
    },
    /// The worker is free: the answer is the next job, when there is one.
    NextJob(oneshot::Sender<(JobSpec, Control)>),
    JobToken {
        id: u64,
        token: Option<NumberOrString>,
    },
    JobProgress {
        id: u64,
        percentage: u32,
        message: String,
    },
    JobInputs {
        inputs: beagle_job::InputsReport,
    },
    JobEnded {
        id: u64,
        label: String,
        outcome: String,
    },
    Control {
        what: JobControl,
        reply: oneshot::Sender<ControlAnswer>,
    },
    /// `window/workDoneProgress/cancel` on an analysis's progress.
    CancelProgress {
        token: NumberOrString,
    },
    /// The client asked to shut down: abort the running analysis (it checkpoints, so the next
    /// session resumes it).
    Shutdown,
    /// `beagle.status`: the queue and the results held.
    Status(oneshot::Sender<Status>),
}

/// What the loop sends the client, in order.
enum Outgoing {
    Diagnostics {
        uri: Uri,
        list: Vec<Diagnostic>,
        version: Option<i32>,
    },
    Status(Status),
    Log(MessageType, String),
}

/// `beagle/status`: the job queue's state, pushed to clients that asked for it.
enum StatusNotification {}

impl notification::Notification for StatusNotification {
    type Params = Status;
    const METHOD: &'static str = "beagle/status";
}

/// How to reach the session: send it messages, ask it for snapshots.
#[derive(Clone)]
pub struct Handle {
    tx: UnboundedSender<Message>,
    pub client: Client,
}

impl Handle {
    /// Starts the session's loop and its outbox on the current runtime.
    pub fn start(client: Client) -> Handle {
        let (tx, rx) = unbounded_channel();
        let (outbox, outgoing) = unbounded_channel();
        tokio::spawn(send_out(client.clone(), outgoing));
        let session = Session {
            state: State::default(),
            client: client.clone(),
            tx: tx.clone(),
            outbox,
            worker: None,
            last_status: None,
            last_lens_refresh: None,
        };
        tokio::spawn(session.run(rx));
        Handle { tx, client }
    }

    /// Sends a message (dropped if the session has ended: the server is going away).
    pub fn send(&self, message: Message) {
        let _ = self.tx.send(message);
    }

    /// Sends a message that carries a reply channel and waits for the reply.
    pub async fn ask<T>(&self, message: impl FnOnce(oneshot::Sender<T>) -> Message) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.send(message(reply));
        answer.await.ok()
    }

    /// The state as it is after every message sent before this one.
    pub async fn world(&self) -> World {
        self.ask(Message::World).await.unwrap_or_default()
    }

    /// The world's model set, built on a blocking thread if nobody has since the last change;
    /// `None` when the request was cancelled meanwhile (a part-built set is never kept).
    pub async fn model_set(&self, world: &World) -> Option<Arc<ModelSet>> {
        if let Some(set) = &world.model_set {
            return Some(set.clone());
        }
        let (open, roots) = (world.open_snapshots(), world.roots.clone());
        let set = Arc::new(reads::run(move |c| build_model_set(&open, &roots, c)).await.flatten()?);
        self.send(Message::ModelSetBuilt {
            generation: world.models_generation,
            set: set.clone(),
        });
        Some(set)
    }
}

struct Session {
    state: State,
    client: Client,
    /// For tasks the session starts (debounces, diagnostics) to report back.
    tx: UnboundedSender<Message>,
    outbox: UnboundedSender<Outgoing>,
    /// The worker waiting for a job.
    worker: Option<oneshot::Sender<(JobSpec, Control)>>,
    /// Progress sends `beagle/status` at most 4 a second,
    last_status: Option<Instant>,
    /// and asks for code lenses (which show the percentage) at most every 2 seconds.
    last_lens_refresh: Option<Instant>,
}

/// Whether `period` has passed since `last` (then it starts again now), or `force`.
fn due(last: &mut Option<Instant>, period: Duration, force: bool) -> bool {
    if !force && last.is_some_and(|t| t.elapsed() < period) {
        return false;
    }
    *last = Some(Instant::now());
    true
}

impl Session {
    async fn run(mut self, mut rx: UnboundedReceiver<Message>) {
        while let Some(message) = rx.recv().await {
            self.apply(message);
        }
    }

    fn apply(&mut self, message: Message) {
        let s = &mut self.state;
        match message {
            Message::Initialize { client, roots } => {
                s.client = client;
                s.roots = roots;
            }
            Message::Opened {
                uri,
                path,
                version,
                text,
            } => {
                s.documents
                    .insert(uri.clone(), Document::open(uri.clone(), path, version, &text));
                s.models_changed();
                self.diagnostics_after(uri, version, Duration::ZERO);
            }
            Message::Changed { uri, version, changes } => {
                let Some(doc) = s.documents.get_mut(&uri) else { return };
                doc.change(version, changes);
                s.models_changed();
                self.diagnostics_after(uri, version, DEBOUNCE);
            }
            Message::Saved { uri } => {
                s.models_changed();
                // A saved beagle.toml or link file changes what the other files mean.
                if let Some(DocKind::Config | DocKind::Links) = s.snapshot(&uri).map(|d| d.kind) {
                    let open: Vec<(Uri, i32)> = s.documents.iter().map(|(u, d)| (u.clone(), d.version())).collect();
                    for (uri, version) in open {
                        self.diagnostics_after(uri, version, Duration::ZERO);
                    }
                }
            }
            Message::Closed { uri } => {
                s.documents.remove(&uri);
                s.models_changed();
                self.out(Outgoing::Diagnostics {
                    uri,
                    list: Vec::new(),
                    version: None,
                });
            }
            Message::FilesChanged => s.models_changed(),
            Message::World(reply) => {
                let _ = reply.send(s.world());
            }
            Message::ModelSetBuilt { generation, set } => s.cache_model_set(generation, set),
            Message::DiagnosticsDue { uri, version } => self.compute_diagnostics(uri, version),
            Message::Diagnostics { uri, version, list } => {
                if s.snapshot(&uri).is_some_and(|d| d.version == version) {
                    self.out(Outgoing::Diagnostics {
                        uri,
                        list,
                        version: Some(version),
                    });
                }
            }
            Message::StoredResults { results, problems } => {
                for (path, r) in results.all() {
                    if s.results.get(path).is_none() {
                        s.results.merge(path, (**r).clone());
                    }
                }
                for p in problems {
                    self.out(Outgoing::Log(MessageType::WARNING, p));
                }
                self.refresh_lenses(true);
            }
            Message::Results { repository, results } => s.results.merge(&repository, results),
            Message::DiscardResults { path, reply } => {
                let _ = reply.send(s.results.discard(&path));
                self.refresh_lenses(true);
            }
            Message::RefreshLenses => self.refresh_lenses(true),
            Message::Queue {
                label,
                root,
                workspace,
                scope,
                reply,
            } => {
                let _ = reply.send(s.queue.push(label, root, *workspace, scope));
                self.publish_status(true); // Queued,
                self.start_next_job(); // then running, if the worker is free.
            }
            Message::NextJob(reply) => {
                self.worker = Some(reply);
                self.start_next_job();
            }
            Message::JobToken { id, token } => {
                if let Some(r) = s.queue.running_job(id) {
                    r.token = token;
                }
            }
            Message::JobProgress {
                id,
                percentage,
                message,
            } => {
                if let Some(r) = s.queue.running_job(id) {
                    r.percentage = percentage;
                    r.message = message;
                    self.publish_status(false);
                    self.refresh_lenses(false);
                }
            }
            Message::JobInputs { inputs } => s.queue.last_inputs = Some(inputs),
            Message::JobEnded { id, label, outcome } => {
                s.queue.ended(id, &label, &outcome);
                self.publish_status(true);
                self.refresh_lenses(true);
            }
            Message::Control { what, reply } => {
                let _ = reply.send(s.queue.control(what));
                self.publish_status(true);
            }
            Message::CancelProgress { token } => {
                let cancelled = s.queue.cancel_token(&token);
                tracing::info!(
                    "progress cancel {token:?}: {}",
                    if cancelled { "aborting" } else { "unknown" }
                );
                self.publish_status(true);
            }
            Message::Shutdown => {
                if let Some(r) = &s.queue.running {
                    r.control.abort();
                }
            }
            Message::Status(reply) => {
                let results = s
                    .results
                    .all()
                    .map(|(p, r)| RepositoryStatus {
                        repository: p.display().to_string(),
                        stage: r.stage.label().to_string(),
                        results: r.results.len(),
                        headline: r.headline.clone(),
                    })
                    .collect();
                let _ = reply.send(Status {
                    results: Some(results),
                    ..s.queue.status()
                });
            }
        }
    }

    fn out(&self, message: Outgoing) {
        let _ = self.outbox.send(message);
    }

    /// Gives the waiting worker the next job, if both are there.
    fn start_next_job(&mut self) {
        let Some(worker) = self.worker.take() else { return };
        match self.state.queue.start_next() {
            Some(job) => {
                if let Err((spec, _)) = worker.send(job) {
                    // The worker is gone (the server is shutting down): nothing runs it.
                    self.state.queue.ended(spec.id, &spec.label, "not started");
                }
                self.publish_status(true);
            }
            None => self.worker = Some(worker),
        }
    }

    /// `beagle/status` if the client asked for it; unless `force`d (a job queued, started,
    /// paused, ended), at most 4 a second.
    fn publish_status(&mut self, force: bool) {
        if self.state.client.status_notifications && due(&mut self.last_status, Duration::from_millis(250), force) {
            self.out(Outgoing::Status(self.state.queue.status()));
        }
    }

    /// Asks the client to fetch code lenses again; unless `force`d, at most every 2 seconds.
    fn refresh_lenses(&mut self, force: bool) {
        if self.state.client.code_lens_refresh && due(&mut self.last_lens_refresh, Duration::from_secs(2), force) {
            // A request: its answer is awaited off the loop and the outbox.
            let client = self.client.clone();
            tokio::spawn(async move {
                let _ = client.code_lens_refresh().await;
            });
        }
    }

    /// Computes the document's diagnostics after `delay`, unless it changes again meanwhile.
    fn diagnostics_after(&self, uri: Uri, version: i32, delay: Duration) {
        if delay.is_zero() {
            self.compute_diagnostics(uri, version);
            return;
        }
        let tx = self.tx.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = tx.send(Message::DiagnosticsDue { uri, version });
        });
    }

    fn compute_diagnostics(&self, uri: Uri, version: i32) {
        let s = &self.state;
        let Some(doc) = s.snapshot(&uri).filter(|d| d.version == version) else {
            return; // A newer change scheduled its own.
        };
        let open: Vec<_> = s.documents.values().map(Document::snapshot).collect();
        let root = root_of(&s.roots, &doc.path);
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let list = diagnostics::of_document(&doc, &open, root.as_deref());
            let _ = tx.send(Message::Diagnostics { uri, version, list });
        });
    }
}

/// The outbox: sends the loop's notifications to the client one after another.
async fn send_out(client: Client, mut outgoing: UnboundedReceiver<Outgoing>) {
    while let Some(message) = outgoing.recv().await {
        match message {
            Outgoing::Diagnostics { uri, list, version } => client.publish_diagnostics(uri, list, version).await,
            Outgoing::Status(status) => client.send_notification::<StatusNotification>(status).await,
            Outgoing::Log(kind, text) => client.log_message(kind, text).await,
        }
    }
}
