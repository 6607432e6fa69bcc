//! The server's state: open documents, workspace folders, the results it shows, and what the
//! client can do. Guarded by one std mutex that is never held across an `.await`; read requests
//! take snapshots (`Arc`s) and work without it.

use crate::documents::{Document, Snapshot};
use crate::results::Results;
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
    /// Model files of the workspace plus the open documents, rebuilt after a change.
    model_set: Option<Arc<ModelSet>>,
}

impl State {
    pub fn snapshot(&self, uri: &Uri) -> Option<Arc<Snapshot>> {
        self.documents.get(uri).map(Document::snapshot)
    }

    pub fn open_snapshots(&self) -> Vec<Arc<Snapshot>> {
        self.documents.values().map(Document::snapshot).collect()
    }

    /// Forget the cached model set (a document or a file on disk changed).
    pub fn models_changed(&mut self) {
        self.model_set = None;
    }

    pub fn cached_model_set(&self) -> Option<Arc<ModelSet>> {
        self.model_set.clone()
    }

    pub fn cache_model_set(&mut self, set: Arc<ModelSet>) {
        self.model_set = Some(set);
    }

    /// The workspace folder holding `path`, if any.
    pub fn root_of(&self, path: &Path) -> Option<PathBuf> {
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.roots
            .iter()
            .filter(|r| real.starts_with(r) || path.starts_with(r))
            .max_by_key(|r| r.components().count())
            .cloned()
    }
}

/// A model set over the open documents (their current text) and every model file under the
/// workspace folders (from disk), with what they reference. Built without the state's lock.
pub fn build_model_set(open: &[Arc<Snapshot>], roots: &[PathBuf]) -> ModelSet {
    let mut set = ModelSet::new();
    let mut ids = Vec::new();
    for s in open.iter().filter(|s| s.kind == crate::documents::DocKind::Model) {
        ids.push(set.insert_shared(s.model()));
    }
    for root in roots {
        for path in beagle_pcm::workspace::find_model_files(root).unwrap_or_default() {
            if set.id_of(&path).is_none() {
                if let Ok(id) = set.load(&path) {
                    ids.push(id);
                }
            }
        }
    }
    for id in ids {
        set.load_referenced(id);
    }
    set
}
