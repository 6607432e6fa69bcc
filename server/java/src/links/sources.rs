//! Java files of a workspace, parsed once each, and the rule that links stay inside the workspace.

use crate::encoding::DecodeError;
use crate::syntax::JavaFile;
use beagle_measure::FileError;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Why a Java file (or a source root) that a link or `beagle.toml` names cannot be had. `path`
/// is as it was named: relative to the workspace.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("`{}` is absolute: paths are relative to the workspace", path.display())]
    Absolute { path: PathBuf },
    #[error("`{}` leaves the workspace", path.display())]
    LeavesWorkspace { path: PathBuf },
    /// A symlink inside the workspace that leads to `target` outside it.
    #[error("`{}` leads out of the workspace (to {})", path.display(), target.display())]
    LeadsOut { path: PathBuf, target: PathBuf },
    #[error("cannot read `{}`: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("`{}`: {source}", path.display())]
    Undecodable { path: PathBuf, source: DecodeError },
    #[error("cannot parse `{}`", path.display())]
    Unparsable { path: PathBuf },
    #[error("source root `{}` is outside the workspace", path.display())]
    RootOutside { path: PathBuf },
}

impl SourceError {
    /// The file or source root concerned, as it was named.
    pub fn path(&self) -> &Path {
        match self {
            SourceError::Absolute { path }
            | SourceError::LeavesWorkspace { path }
            | SourceError::LeadsOut { path, .. }
            | SourceError::Unreadable { path, .. }
            | SourceError::Undecodable { path, .. }
            | SourceError::Unparsable { path }
            | SourceError::RootOutside { path } => path,
        }
    }
}

/// `rel` inside `root`, checked: relative, no `..` that leaves the root, and (when it exists) no
/// symlink that leads out of it. A link file is input from anyone; instrumentation later writes
/// copies of what links name, so a link must never reach outside the workspace.
pub fn resolve_in_root(root: &Path, rel: &Path) -> Result<PathBuf, SourceError> {
    if rel.is_absolute() || rel.has_root() {
        return Err(SourceError::Absolute {
            path: rel.to_path_buf(),
        });
    }
    let mut depth = 0usize;
    for c in rel.components() {
        match c {
            Component::ParentDir if depth == 0 => {
                return Err(SourceError::LeavesWorkspace {
                    path: rel.to_path_buf(),
                });
            }
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    let path = root.join(rel);
    if let (Ok(real), Ok(real_root)) = (path.canonicalize(), root.canonicalize()) {
        if !real.starts_with(&real_root) {
            return Err(SourceError::LeadsOut {
                path: rel.to_path_buf(),
                target: real,
            });
        }
    }
    Ok(path)
}

/// Parsed Java files by workspace-relative path.
pub struct Sources {
    pub root: PathBuf,
    files: HashMap<PathBuf, JavaFile>,
    /// `[java] encoding`, when set ([`crate::encoding`]).
    encoding: Option<&'static encoding_rs::Encoding>,
}

impl Sources {
    pub fn new(root: &Path) -> Sources {
        Sources {
            root: root.to_path_buf(),
            files: HashMap::new(),
            encoding: None,
        }
    }

    /// Sources read in `encoding` (`None`: UTF-8 with the windows-1252 fallback).
    pub fn with_encoding(root: &Path, encoding: Option<&'static encoding_rs::Encoding>) -> Sources {
        Sources {
            encoding,
            ..Sources::new(root)
        }
    }

    /// The MD5 of a file's bytes, in lower-case hex (the original Beagle's link files keep one
    /// per linked class, to tell whether the code changed since the links were made).
    pub fn md5(&self, rel: &Path) -> Result<String, SourceError> {
        use md5::Digest;
        let path = resolve_in_root(&self.root, rel)?;
        let bytes = std::fs::read(&path).map_err(|source| SourceError::Unreadable {
            path: rel.to_path_buf(),
            source,
        })?;
        Ok(md5::Md5::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Whether `rel` is a file inside the workspace.
    pub fn exists(&self, rel: &Path) -> bool {
        resolve_in_root(&self.root, rel).is_ok_and(|p| p.is_file())
    }

    /// The parsed file at workspace-relative `rel`; errors say why it cannot be had.
    pub fn load(&mut self, rel: &Path) -> Result<&JavaFile, SourceError> {
        if !self.files.contains_key(rel) {
            let path = resolve_in_root(&self.root, rel)?;
            let bytes = std::fs::read(&path).map_err(|source| SourceError::Unreadable {
                path: rel.to_path_buf(),
                source,
            })?;
            // Files read in the fallback encoding are reported by the instrumentation (`prepare`).
            let text = crate::encoding::decode(&bytes, self.encoding)
                .map_err(|source| SourceError::Undecodable {
                    path: rel.to_path_buf(),
                    source,
                })?
                .text;
            let file = JavaFile::parse(text).ok_or_else(|| SourceError::Unparsable {
                path: rel.to_path_buf(),
            })?;
            self.files.insert(rel.to_path_buf(), file);
        }
        Ok(&self.files[rel])
    }

    /// Adds a file from memory (tests, unsaved editor buffers).
    pub fn insert(&mut self, rel: &Path, file: JavaFile) {
        self.files.insert(rel.to_path_buf(), file);
    }

    /// A source root made workspace-relative. Accepted as given by a caller: relative to the root
    /// (`src`), already joined with the root (`fixtures/x/src` for root `fixtures/x`, as
    /// `beagle.toml`'s reader passes them), or absolute inside the root.
    pub fn relative_root(&self, source_root: &Path) -> Result<PathBuf, SourceError> {
        if let Ok(rel) = source_root.strip_prefix(&self.root) {
            if !self.root.as_os_str().is_empty() {
                return Ok(rel.to_path_buf());
            }
        }
        if source_root.is_absolute() {
            let real_root = self.root.canonicalize().unwrap_or_else(|_| self.root.clone());
            let real = source_root.canonicalize().unwrap_or_else(|_| source_root.to_path_buf());
            real.strip_prefix(&real_root)
                .map(Path::to_path_buf)
                .map_err(|_| SourceError::RootOutside {
                    path: source_root.to_path_buf(),
                })
        } else {
            Ok(source_root.to_path_buf())
        }
    }
}

/// Every `.java` file under a folder, relative to it, in name order (the source roots the
/// automatic mapping reads and the instrumentation copies).
pub fn java_files(root: &Path) -> Result<Vec<PathBuf>, FileError> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        let entries = std::fs::read_dir(&dir).map_err(|e| FileError::new(&dir, format!("cannot read: {e}")))?;
        for entry in entries {
            let entry = entry.map_err(|e| FileError::new(&dir, e.to_string()))?;
            let path = rel.join(entry.file_name());
            let kind = entry.file_type().map_err(|e| FileError::new(&dir, e.to_string()))?;
            if kind.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "java") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_file_as_the_link_named_it() {
        let e = resolve_in_root(Path::new("/w"), Path::new("../x.java")).unwrap_err();
        assert!(matches!(&e, SourceError::LeavesWorkspace { .. }), "{e}");
        assert_eq!(
            (e.path(), e.to_string().as_str()),
            (Path::new("../x.java"), "`../x.java` leaves the workspace")
        );
        let dir = std::env::temp_dir().join(format!("beagle-sources-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut sources = Sources::new(&dir);
        let Err(SourceError::Unreadable { path, .. }) = sources.load(Path::new("a/Gone.java")) else {
            panic!("a missing file is unreadable")
        };
        assert_eq!(path, Path::new("a/Gone.java"));
        std::fs::write(dir.join("L.java"), b"class L { /* \xE9 */ }").unwrap();
        let utf8 = crate::encoding::by_label("utf-8");
        let e = Sources::with_encoding(&dir, utf8)
            .load(Path::new("L.java"))
            .map(|_| ())
            .unwrap_err();
        let SourceError::Undecodable { path, source } = &e else {
            panic!("{e}")
        };
        assert_eq!((path.as_path(), source.byte), (Path::new("L.java"), 13));
        assert_eq!(e.to_string(), "`L.java`: not valid UTF-8 (byte 13)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
