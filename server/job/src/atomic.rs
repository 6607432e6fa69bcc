//! Writing a repository file back: all or nothing, and never over someone else's change.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a file was not replaced; it is as it was then.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    #[error("{}: cannot read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: the file changed while Beagle analysed it; results not written (analyse again)", path.display())]
    Changed { path: PathBuf },
    #[error("{}: cannot write: {source}", path.display())]
    Unwritable { path: PathBuf, source: std::io::Error },
}

/// Replaces `path` with `text` if it still holds `original`: a temporary file in the same folder,
/// synced, then renamed over it (atomic on one file system), keeping the file's permissions.
pub fn replace_if_unchanged(path: &Path, original: &[u8], text: &str) -> Result<(), ReplaceError> {
    let now = std::fs::read(path).map_err(|source| ReplaceError::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
    if now != original {
        return Err(ReplaceError::Changed {
            path: path.to_path_buf(),
        });
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.beagle-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        let permissions = std::fs::metadata(path)?.permissions();
        std::fs::set_permissions(&tmp, permissions)?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(source) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(ReplaceError::Unwritable {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_over_the_original() {
        let dir = std::env::temp_dir().join(format!("beagle-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.repository");
        std::fs::write(&path, "old").unwrap();
        replace_if_unchanged(&path, b"old", "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let e = replace_if_unchanged(&path, b"old", "newer").unwrap_err();
        assert!(matches!(&e, ReplaceError::Changed { path: p } if *p == path), "{e}");
        assert!(e.to_string().contains("changed while Beagle analysed it"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
