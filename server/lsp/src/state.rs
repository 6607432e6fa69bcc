//! The server's state: open documents, workspace folders, the results it shows, and what the
//! client can do. Only the session's loop ([`crate::session`]) holds it; read requests get a
//! [`World`], an immutable snapshot, and work without it.

use crate::documents::{DocKind, Document, Snapshot};
use crate::queue::{Activity, Queue};
use crate::reads::Cancelled;
use crate::results::{RepositoryResults, Results};
use beagle_pcm::ModelSet;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::ls_types::Uri;

/// What the client said about itself in `initialize`.
#[derive(Clone, Debug, Default)]
pub struct ClientFacts {
    /// `window.workDoneProgress`: the server may create progress tokens.
    pub work_done_progress: bool,
    /// `workspace.workspaceEdit.documentChanges`: versioned edits.
    pub document_changes: bool,
    /// Whether the workspace's launch configurations may run: `initializationOptions.launchPolicy`
    /// (`trustedWorkspace: true` means `allow`: the client, VS Code's workspace trust say, vouches
    /// for the workspace).
    pub launch_policy: LaunchPolicy,
    /// `initializationOptions.statusNotifications`: the client wants `beagle/status`
    /// notifications (the VS Code extension's status bar).
    pub status_notifications: bool,
    /// `window.showMessage.messageActionItem` support, needed to ask about trust.
    pub can_ask: bool,
    /// `workspace.codeLens.refreshSupport`.
    pub code_lens_refresh: bool,
    /// Analysis settings from `initializationOptions` (`seed`, `budget` in seconds,
    /// `repetitions`, `geneticProgramming`); `beagle.toml`'s hold where these are absent.
    pub seed: Option<u64>,
    pub budget_s: Option<f64>,
    pub repetitions: Option<u32>,
    pub gp: bool,
    /// `validate` (default true): after an analysis, validate the analysed model on measurements
    /// it was not fitted to (hover and lens on each SEFF show how well it predicts).
    pub validate: bool,
    /// `initializationOptions.runner`: where the launches run, as `[runner]` of `beagle.toml`
    /// (it replaces that table: a user's own reference machine or cluster, not the repository's).
    pub runner: Option<serde_json::Value>,
    /// `initializationOptions.diagramCommand`: the client's own command that opens a SEFF's
    /// diagram from `[uri, seffId]` (the VS Code extension's); a "◇ Diagram" lens above each
    /// SEFF runs it. None: no such lens (a client without diagrams).
    pub diagram_command: Option<String>,
}

/// May Beagle compile and run the workspace's code?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LaunchPolicy {
    /// Ask the user, once per workspace and `beagle.toml` (the answer is remembered).
    #[default]
    Ask,
    Allow,
    /// Never: an untrusted workspace. Reading measurement files still works.
    Deny,
}

impl LaunchPolicy {
    pub fn parse(text: &str) -> Option<LaunchPolicy> {
        match text {
            "ask" => Some(LaunchPolicy::Ask),
            "allow" => Some(LaunchPolicy::Allow),
            "deny" => Some(LaunchPolicy::Deny),
            _ => None,
        }
    }
}

#[derive(Default)]
pub struct State {
    pub documents: HashMap<Uri, Document>,
    pub roots: Vec<PathBuf>,
    pub client: ClientFacts,
    pub results: Results,
    pub queue: Queue,
    /// Model files of the workspace plus the open documents, built by a read after a change.
    model_set: Option<Arc<ModelSet>>,
    /// Counts model changes, so a model set built from older files is not kept.
    models_generation: u64,
}

impl State {
    pub fn snapshot(&self, uri: &Uri) -> Option<Arc<Snapshot>> {
        self.documents.get(uri).map(Document::snapshot)
    }

    /// Forget the cached model set (a document or a file on disk changed).
    pub fn models_changed(&mut self) {
        self.model_set = None;
        self.models_generation += 1;
    }

    /// Keeps a model set built from generation `generation`, if nothing changed since.
    pub fn cache_model_set(&mut self, generation: u64, set: Arc<ModelSet>) {
        if generation == self.models_generation {
            self.model_set = Some(set);
        }
    }

    /// An immutable view for read requests and background work.
    pub fn world(&self) -> World {
        World {
            documents: self.documents.iter().map(|(u, d)| (u.clone(), d.snapshot())).collect(),
            roots: self.roots.clone(),
            client: self.client.clone(),
            results: self.results.clone(),
            model_set: self.model_set.clone(),
            models_generation: self.models_generation,
            activity: self.queue.activity(),
        }
    }
}

/// The server's state as it was when a request arrived: documents at their versions then, the
/// results then. Cheap to make (`Arc`s), never changed.
#[derive(Clone, Default)]
pub struct World {
    pub documents: HashMap<Uri, Arc<Snapshot>>,
    pub roots: Vec<PathBuf>,
    pub client: ClientFacts,
    pub results: Results,
    pub model_set: Option<Arc<ModelSet>>,
    pub models_generation: u64,
    pub activity: Option<Activity>,
}

impl World {
    pub fn snapshot(&self, uri: &Uri) -> Option<Arc<Snapshot>> {
        self.documents.get(uri).cloned()
    }

    pub fn open_snapshots(&self) -> Vec<Arc<Snapshot>> {
        self.documents.values().cloned().collect()
    }

    /// The results held for the document at `uri`.
    pub fn results_of(&self, uri: &Uri) -> Option<Arc<RepositoryResults>> {
        self.documents.get(uri).and_then(|d| self.results.get(&d.path))
    }

    /// The workspace folder holding `path`, if any.
    pub fn root_of(&self, path: &Path) -> Option<PathBuf> {
        root_of(&self.roots, path)
    }
}

/// The workspace folder of `roots` holding `path`, if any.
pub fn root_of(roots: &[PathBuf], path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    roots
        .iter()
        .filter(|r| real.starts_with(r) || path.starts_with(r))
        .max_by_key(|r| r.components().count())
        .cloned()
}

/// A model set over the open documents (their current text) and every model file under the
/// workspace folders (from disk), with what they reference. `None` when cancelled part way.
pub fn build_model_set(open: &[Arc<Snapshot>], roots: &[PathBuf], cancelled: &Cancelled) -> Option<ModelSet> {
    let mut set = ModelSet::new();
    let mut ids = Vec::new();
    for s in open.iter().filter(|s| s.kind == DocKind::Model) {
        ids.push(set.insert_shared(s.model()));
    }
    for root in roots {
        for path in beagle_pcm::workspace::find_model_files(root).unwrap_or_default() {
            if cancelled.is_set() {
                return None;
            }
            if set.id_of(&path).is_none() {
                if let Ok(id) = set.load(&path) {
                    ids.push(id);
                }
            }
        }
    }
    for id in ids {
        if cancelled.is_set() {
            return None;
        }
        set.load_referenced(id);
    }
    Some(set)
}
