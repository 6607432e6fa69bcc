//! Java files of a workspace, parsed once each, and the rule that links stay inside the workspace.

use crate::syntax::JavaFile;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// `rel` inside `root`, checked: relative, no `..` that leaves the root, and (when it exists) no
/// symlink that leads out of it. A link file is input from anyone; instrumentation later writes
/// copies of what links name, so a link must never reach outside the workspace.
pub fn resolve_in_root(root: &Path, rel: &Path) -> Result<PathBuf, String> {
    if rel.is_absolute() || rel.has_root() {
        return Err(format!(
            "`{}` is absolute: paths are relative to the workspace",
            rel.display()
        ));
    }
    let mut depth = 0usize;
    for c in rel.components() {
        match c {
            Component::ParentDir if depth == 0 => {
                return Err(format!("`{}` leaves the workspace", rel.display()));
            }
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    let path = root.join(rel);
    if let (Ok(real), Ok(real_root)) = (path.canonicalize(), root.canonicalize()) {
        if !real.starts_with(&real_root) {
            return Err(format!(
                "`{}` leads out of the workspace (to {})",
                rel.display(),
                real.display()
            ));
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
    pub fn md5(&self, rel: &Path) -> Result<String, String> {
        use md5::Digest;
        let path = resolve_in_root(&self.root, rel)?;
        let bytes = std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", rel.display()))?;
        Ok(md5::Md5::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Whether `rel` is a file inside the workspace.
    pub fn exists(&self, rel: &Path) -> bool {
        resolve_in_root(&self.root, rel).is_ok_and(|p| p.is_file())
    }

    /// The parsed file at workspace-relative `rel`; errors say why it cannot be had.
    pub fn load(&mut self, rel: &Path) -> Result<&JavaFile, String> {
        if !self.files.contains_key(rel) {
            let path = resolve_in_root(&self.root, rel)?;
            let bytes = std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", rel.display()))?;
            // Files read in the fallback encoding are reported by the instrumentation (`prepare`).
            let text = crate::encoding::decode(&bytes, self.encoding)
                .map_err(|e| format!("`{}`: {e}", rel.display()))?
                .text;
            let file = JavaFile::parse(text).ok_or_else(|| format!("cannot parse `{}`", rel.display()))?;
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
    pub fn relative_root(&self, source_root: &Path) -> Result<PathBuf, String> {
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
                .map_err(|_| format!("source root `{}` is outside the workspace", source_root.display()))
        } else {
            Ok(source_root.to_path_buf())
        }
    }
}

/// Every `.java` file under a folder, relative to it, in name order (the source roots the
/// automatic mapping reads and the instrumentation copies).
pub fn java_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let path = rel.join(entry.file_name());
            let kind = entry.file_type().map_err(|e| format!("{}: {e}", dir.display()))?;
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
