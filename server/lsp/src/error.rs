//! What can go wrong in the language server's own steps (a command, writing results, reading the
//! stores, remembering trust), as data: the file and line when it is about a file, the core's
//! own error when it comes from there. Rendered as text only at the edge: a command's JSON-RPC
//! error, a message to the user, a log line.

use beagle_measure::FileError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A command's arguments are not what it takes.
    #[error("{0}")]
    Arguments(String),
    /// A path the request names lies outside the workspace folders.
    #[error("{} is outside the workspace folders", .0.display())]
    OutsideWorkspace(PathBuf),
    /// An input file Beagle reads (`beagle.toml`, a model, a link file), at its line when known.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file the server could not read or write.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// What the workspace's `beagle.toml` says does not allow the request.
    #[error("{}: {message}", config.display())]
    Workspace { config: PathBuf, message: String },
    #[error(transparent)]
    Job(#[from] beagle_job::JobError),
    #[error(transparent)]
    Store(#[from] beagle_analysis::StoreError),
    #[error(transparent)]
    Service(#[from] beagle_analysis::predict::ServiceError),
    #[error(transparent)]
    LinkWrite(#[from] beagle_java::links::own::WriteError),
    /// The editor did not do what was asked (`workspace/applyEdit`).
    #[error("{0}")]
    Editor(String),
    /// A background step ended unexpectedly (a panic on its thread).
    #[error("{0}")]
    Internal(String),
}

impl ServerError {
    /// A problem with `file` as a whole.
    pub fn file(file: impl Into<PathBuf>, message: impl Into<String>) -> ServerError {
        ServerError::File(FileError::new(&file.into(), message))
    }

    /// The file and line it is about, when it is about one (for diagnostics and logs).
    pub fn location(&self) -> Option<(&std::path::Path, Option<usize>)> {
        match self {
            ServerError::File(f) => Some((&f.file, f.line)),
            ServerError::Io { path, .. } => Some((path, None)),
            ServerError::Workspace { config, .. } => Some((config, None)),
            _ => None,
        }
    }
}
