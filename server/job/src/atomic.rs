//! Writing a repository file back: all or nothing, and never over someone else's change.

use std::io::Write;
use std::path::Path;

/// Replaces `path` with `text` if it still holds `original`: a temporary file in the same folder,
/// synced, then renamed over it (atomic on one file system), keeping the file's permissions.
pub fn replace_if_unchanged(path: &Path, original: &[u8], text: &str) -> Result<(), String> {
    let now = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if now != original {
        return Err(format!(
            "{}: the file changed while Beagle analysed it; results not written (analyse again)",
            path.display()
        ));
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
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{}: cannot write: {e}", path.display()));
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
        assert!(e.contains("changed while Beagle analysed it"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
