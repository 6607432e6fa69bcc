//! Beagle's language server, the only crate that knows LSP and JSON-RPC (tower-lsp-server).
//! PCM files in the editor: diagnostics, symbols, navigation, hovers with measured results, code
//! lenses and code actions; analyses run in the background and come back as workspace edits.
//!
//! - [`server`]: the LSP handlers. They send document changes to the [`session`], the one
//!   owner of the [`state`], and compute read requests on its snapshots ([`reads`]).
//! - [`documents`] and [`position`]: the editor's text and its UTF-16 positions.
//! - [`features`], [`diagnostics`], [`queries`]: read requests, over `beagle_ide` and the PCM crate;
//!   the quick fixes [`unmodelled_fix`], [`links_fix`], [`did_you_mean_fix`], [`vocabulary_fix`] and
//!   [`undeclared_fix`] among them.
//! - [`commands`] ([`protocol`]: their names), [`queue`], [`jobs`], [`progress`], [`apply`],
//!   [`edits`], [`trust`], [`link`]: analyses in the background and their results in the model.
//!
//! Modules depend one way: `server` → `commands`/`jobs` → `session` → `state` and the read
//! functions; nothing calls back up (`tests/architecture/module_cycles.py` checks it).

pub mod apply;
pub mod commands;
pub mod diagnostics;
pub mod did_you_mean_fix;
pub mod documents;
pub mod edits;
pub mod error;
pub mod features;
pub mod graphs;
pub mod jobs;
pub mod link;
pub mod links_fix;
pub mod position;
pub mod progress;
pub mod protocol;
pub mod queries;
pub mod queue;
pub mod reads;
pub mod results;
pub mod server;
pub mod session;
pub mod state;
pub mod trust;
pub mod undeclared_fix;
pub mod units;
pub mod unmodelled_fix;
pub mod vocabulary_fix;

use tower_lsp_server::{ClientSocket, LspService, Server};

/// The service with Beagle's handlers (in-process tests drive it directly).
pub fn service() -> (LspService<server::Beagle>, ClientSocket) {
    LspService::build(server::Beagle::new)
        .custom_method("window/workDoneProgress/cancel", server::Beagle::cancel_progress)
        .finish()
}

/// Serves LSP on stdin/stdout until the client sends `exit` (or closes stdin). True when the
/// client shut the server down first (the protocol's exit status 0; 1 otherwise).
pub async fn serve_stdio() -> bool {
    let (service, socket) = service();
    Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
        .serve(service)
        .await;
    server::SHUTDOWN_REQUESTED.load(std::sync::atomic::Ordering::SeqCst)
}
