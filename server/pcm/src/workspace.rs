//! A set of model files that refer to each other: loads what references name, resolves them
//! across files, and serves Palladio's default models (`pathmap://PCM_MODELS/...`) from copies
//! bundled into Beagle, so checking needs no Eclipse installation.

use crate::file::ModelFile;
use crate::reference::{Reference, Target};
use crate::xml::NodeId;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

pub type FileId = usize;

/// Palladio's default models, as shipped in `org.palladiosimulator.pcm.resources/defaultModels`.
pub const DEFAULT_MODELS: [(&str, &str); 2] = [
    (
        "Palladio.resourcetype",
        include_str!("../default-models/Palladio.resourcetype"),
    ),
    (
        "PrimitiveTypes.repository",
        include_str!("../default-models/PrimitiveTypes.repository"),
    ),
];

const PATHMAP: &str = "pathmap://PCM_MODELS/";
const DEFAULT_MODELS_DIR: &str = "org.palladiosimulator.pcm.resources/defaultModels/";

/// Where a reference's URI leads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    File(PathBuf),
    /// One of [`DEFAULT_MODELS`], by file name.
    Bundled(&'static str),
}

impl Location {
    /// The path a loaded file is known by (bundled models get a `pathmap://` path).
    pub fn path(&self) -> PathBuf {
        match self {
            Location::File(p) => p.clone(),
            Location::Bundled(name) => PathBuf::from(format!("{PATHMAP}{name}")),
        }
    }
}

/// Why a file that a reference names could not be loaded (kept per file: each is tried once).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("`{name}` is not one of Palladio's default models bundled with Beagle")]
    NotBundled { name: String },
    /// Reading failed (the I/O error's text: kept, so the error stays cloneable).
    #[error("{message} ({})", path.display())]
    Unreadable { path: PathBuf, message: String },
    #[error("{} is not a regular file", path.display())]
    NotAFile { path: PathBuf },
    #[error("{} is larger than {} MiB", path.display(), MAX_REFERENCED_FILE >> 20)]
    TooLarge { path: PathBuf },
    /// Not tried: [`ModelSet::load_referenced`] was not called for the referring file.
    #[error("not loaded")]
    NotLoaded,
}

/// Why a reference does not resolve.
#[derive(Clone, Debug, PartialEq)]
pub enum Unresolved {
    /// The URI names a file that could not be read (or a default model that is not bundled).
    File { uri: String, reason: LoadError },
    /// The file was read, but holds nothing at that fragment.
    Fragment { file: PathBuf, fragment: String },
}

impl std::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unresolved::File { uri, reason } => write!(f, "cannot read `{uri}`: {reason}"),
            Unresolved::Fragment { file, fragment } => {
                write!(f, "`{fragment}` is not in {}", file.display())
            }
        }
    }
}

#[derive(Default)]
pub struct ModelSet {
    /// Shared, so that a language server can build sets over the files it already parsed
    /// without copying them.
    files: Vec<Arc<ModelFile>>,
    by_path: HashMap<PathBuf, FileId>,
    /// Files that could not be read, with the reason, so that each is tried once.
    failed: HashMap<Location, LoadError>,
}

impl ModelSet {
    pub fn new() -> ModelSet {
        ModelSet::default()
    }

    pub fn file(&self, id: FileId) -> &ModelFile {
        &self.files[id]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &ModelFile)> {
        self.files.iter().map(|f| &**f).enumerate()
    }

    pub fn id_of(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(&normalise(path)).copied()
    }

    /// Reads a file from disk (once; later calls return the same id).
    pub fn load(&mut self, path: &Path) -> std::io::Result<FileId> {
        let path = normalise(path);
        if let Some(&id) = self.by_path.get(&path) {
            return Ok(id);
        }
        let file = ModelFile::read(&path)?;
        Ok(self.insert(file))
    }

    /// Adds or replaces a file (an editor's unsaved text, say); its id stays the same on replace.
    pub fn insert(&mut self, mut file: ModelFile) -> FileId {
        file.path = normalise(&file.path);
        self.insert_shared(Arc::new(file))
    }

    /// [`ModelSet::insert`] for a file shared with others (its path should be normalised, see
    /// [`normalise`], or lookups by path miss it).
    pub fn insert_shared(&mut self, file: Arc<ModelFile>) -> FileId {
        let path = file.path.clone();
        match self.by_path.get(&path) {
            Some(&id) => {
                self.files[id] = file;
                id
            }
            None => {
                self.files.push(file);
                self.by_path.insert(path, self.files.len() - 1);
                self.files.len() - 1
            }
        }
    }

    /// Loads every file that `id` refers to, and what those refer to, transitively.
    pub fn load_referenced(&mut self, id: FileId) {
        let mut queue = vec![id];
        let mut done = vec![];
        while let Some(id) = queue.pop() {
            if done.contains(&id) {
                continue;
            }
            done.push(id);
            let from = self.files[id].path.clone();
            let mut uris: Vec<String> = self.files[id]
                .index
                .references()
                .iter()
                .filter_map(|r| match &r.target {
                    Target::External { uri, .. } => Some(uri.clone()),
                    _ => None,
                })
                .collect();
            uris.sort();
            uris.dedup();
            for uri in uris {
                if let Ok(next) = self.load_uri(&from, &uri) {
                    queue.push(next);
                }
            }
        }
    }

    fn load_uri(&mut self, from: &Path, uri: &str) -> Result<FileId, LoadError> {
        let location = locate(from, uri);
        if let Some(&id) = self.by_path.get(&location.path()) {
            return Ok(id);
        }
        if let Some(reason) = self.failed.get(&location) {
            return Err(reason.clone());
        }
        let loaded = match &location {
            Location::File(path) => read_model_file(path),
            Location::Bundled(name) => bundled(name)
                .map(|text| ModelFile::parse(location.path(), text.to_string()))
                .ok_or_else(|| LoadError::NotBundled { name: name.to_string() }),
        };
        match loaded {
            Ok(file) => Ok(self.insert(file)),
            Err(reason) => {
                self.failed.insert(location, reason.clone());
                Err(reason)
            }
        }
    }

    /// Resolves a reference made in file `from` to the file and element it names.
    /// Files not loaded yet are not read here: call [`ModelSet::load_referenced`] first.
    pub fn resolve(&self, from: FileId, r: &Reference) -> Result<(FileId, NodeId), Unresolved> {
        let file = &self.files[from];
        match &r.target {
            Target::External { uri, fragment } => {
                let location = locate(&file.path, uri);
                let Some(&target) = self.by_path.get(&location.path()) else {
                    let reason = self.failed.get(&location).cloned().unwrap_or(LoadError::NotLoaded);
                    return Err(Unresolved::File {
                        uri: uri.clone(),
                        reason,
                    });
                };
                let t = &self.files[target];
                t.resolve_fragment(fragment)
                    .map(|n| (target, n))
                    .ok_or_else(|| Unresolved::Fragment {
                        file: t.path.clone(),
                        fragment: fragment.clone(),
                    })
            }
            local => file
                .resolve_local(local)
                .map(|n| (from, n))
                .ok_or_else(|| Unresolved::Fragment {
                    file: file.path.clone(),
                    fragment: local.fragment().to_string(),
                }),
        }
    }
}

/// Referenced files larger than this are not read (a model names files; it must not make Beagle
/// read a device or a huge file).
pub const MAX_REFERENCED_FILE: u64 = 512 * 1024 * 1024;

/// Reads a file a reference names: only regular files, and only up to [`MAX_REFERENCED_FILE`].
fn read_model_file(path: &Path) -> Result<ModelFile, LoadError> {
    let unreadable = |e: std::io::Error| LoadError::Unreadable {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    if meta.len() > MAX_REFERENCED_FILE {
        return Err(LoadError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    ModelFile::read(path).map_err(unreadable)
}

pub fn bundled(name: &str) -> Option<&'static str> {
    DEFAULT_MODELS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Where a URI written in the file at `from` points.
pub fn locate(from: &Path, uri: &str) -> Location {
    if let Some(name) = uri.strip_prefix(PATHMAP) {
        if let Some((n, _)) = DEFAULT_MODELS.iter().find(|(n, _)| *n == name) {
            return Location::Bundled(n);
        }
        return Location::File(PathBuf::from(uri));
    }
    let dir = from.parent().unwrap_or(Path::new(""));
    let decoded = percent_decode(uri);
    let path = if let Some(rest) = decoded.strip_prefix("file://") {
        PathBuf::from(rest)
    } else if let Some(rest) = decoded.strip_prefix("platform:/resource/") {
        platform_resource(dir, rest)
    } else if let Some(rest) = decoded.strip_prefix("platform:/plugin/") {
        PathBuf::from(rest)
    } else {
        dir.join(&decoded)
    };
    let path = normalise(&path);
    // Models made in Eclipse point at the default models inside the Palladio plug-in, by a relative
    // or platform path that exists only there: use the bundled copy when the file is not present.
    if !path.exists() {
        if let Some(i) = decoded.find(DEFAULT_MODELS_DIR) {
            let name = &decoded[i + DEFAULT_MODELS_DIR.len()..];
            if let Some((n, _)) = DEFAULT_MODELS.iter().find(|(n, _)| *n == name) {
                return Location::Bundled(n);
            }
        }
    }
    Location::File(path)
}

/// `platform:/resource/<project>/<path>`: the project is the nearest enclosing folder of that name.
fn platform_resource(dir: &Path, rest: &str) -> PathBuf {
    let (project, path) = rest.split_once('/').unwrap_or((rest, ""));
    dir.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == project))
        .map_or_else(|| PathBuf::from(rest), |root| root.join(path))
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Removes `.` and resolves `..` lexically, so that one file has one key however it was reached.
pub fn normalise(path: &Path) -> PathBuf {
    if path.to_str().is_some_and(|p| p.starts_with(PATHMAP)) {
        return path.to_path_buf(); // Not a file path: `//` is part of the scheme.
    }
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The extensions of PCM model files.
pub const PCM_EXTENSIONS: [&str; 6] = [
    "repository",
    "system",
    "allocation",
    "usagemodel",
    "resourceenvironment",
    "resourcetype",
];

pub fn is_model_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| PCM_EXTENSIONS.contains(&e))
}

/// Every PCM model file under a folder, sorted so that output built from it is stable.
pub fn find_model_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if is_model_file(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}
