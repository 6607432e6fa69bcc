//! Whether Beagle may run a workspace's launch configurations (they run the user's code).
//! Nothing runs until the user allows it for the workspace, or the client declares the workspace
//! trusted. The answer is remembered outside the workspace, in the user's state folder, keyed by
//! the workspace's path and its `beagle.toml`'s content: a repository cannot ship its own
//! permission, and changed launch commands are asked about again.

use crate::error::ServerError;
use std::path::{Path, PathBuf};

/// Where answers are kept: `$BEAGLE_STATE_DIR`, else `$XDG_STATE_HOME/beagle`, else
/// `~/.local/state/beagle`.
pub fn state_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("BEAGLE_STATE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_STATE_HOME") {
        return Some(PathBuf::from(d).join("beagle"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state/beagle"))
}

/// The key of a workspace's current launch configuration.
pub fn key(root: &Path) -> String {
    let toml = std::fs::read(root.join("beagle.toml")).unwrap_or_default();
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    blake3::Hasher::new()
        .update(root.as_os_str().as_encoded_bytes())
        .update(b"\0")
        .update(&toml)
        .finalize()
        .to_hex()
        .to_string()
}

fn file(dir: &Path) -> PathBuf {
    dir.join("trusted-workspaces")
}

/// Whether the user allowed this workspace (as it is now).
pub fn is_trusted(dir: Option<&Path>, root: &Path) -> bool {
    let Some(dir) = dir else { return false };
    let key = key(root);
    std::fs::read_to_string(file(dir)).is_ok_and(|t| t.lines().any(|l| l.split_whitespace().next() == Some(&key)))
}

/// Remembers that the user allowed this workspace.
pub fn remember(dir: Option<&Path>, root: &Path) -> Result<(), ServerError> {
    let dir =
        dir.ok_or_else(|| ServerError::Internal("no folder to remember the answer in (HOME is not set)".into()))?;
    let io = |path: PathBuf| move |source| ServerError::Io { path, source };
    std::fs::create_dir_all(dir).map_err(io(dir.to_path_buf()))?;
    let mut text = std::fs::read_to_string(file(dir)).unwrap_or_default();
    text.push_str(&format!("{} {}\n", key(root), root.display()));
    std::fs::write(file(dir), text).map_err(io(file(dir)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_holds_until_the_launches_change() {
        let state = tempfile::tempdir().unwrap();
        let ws = tempfile::tempdir().unwrap();
        std::fs::write(ws.path().join("beagle.toml"), "[java]\n").unwrap();
        assert!(!is_trusted(Some(state.path()), ws.path()));
        remember(Some(state.path()), ws.path()).unwrap();
        assert!(is_trusted(Some(state.path()), ws.path()));
        assert!(!is_trusted(None, ws.path()));
        std::fs::write(ws.path().join("beagle.toml"), "[java]\n[[launch]]\ncommand = \"rm\"\n").unwrap();
        assert!(!is_trusted(Some(state.path()), ws.path()));
    }
}
