//! Finding a model's other files beside it: the `.system` that assembles a repository's
//! components, the `.allocation` that deploys a system. EMF links them one way only (an
//! allocation names its system, a system its repositories), so the way back is a look at the
//! files in the same folders for a reference to the file's name.

use std::path::{Path, PathBuf};

/// The files with extension `ext` directly in `dirs` whose text refers into one of the files
/// named `names` (an `href="NAME#..."`), sorted. Unreadable folders and files are passed over.
pub fn files_referring(dirs: &[&Path], ext: &str, names: &[String]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = with_extension(dirs, ext)
        .into_iter()
        .filter(|path| {
            std::fs::read_to_string(path).is_ok_and(|text| names.iter().any(|n| text.contains(&format!("{n}#"))))
        })
        .collect();
    found.dedup();
    found
}

/// The files with extension `ext` directly in `dirs`, sorted.
pub fn with_extension(dirs: &[&Path], ext: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<&Path> = dirs
        .iter()
        .map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d })
        .collect();
    dirs.sort();
    dirs.dedup();
    let mut found = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) == Some(ext) && path.is_file() {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The file name of `path`, as another file's `href` names it.
pub fn file_name(path: &Path) -> Option<String> {
    path.file_name().map(|n| n.to_string_lossy().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mediastore_allocation_is_found_from_its_system() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore");
        let found = files_referring(&[&dir], "allocation", &["MediaStore-Cacheless.system".into()]);
        assert_eq!(found, vec![dir.join("MediaStore-Cacheless.allocation")]);
        assert!(files_referring(&[&dir], "allocation", &["Other.system".into()]).is_empty());
        assert_eq!(
            with_extension(&[&dir, &dir], "resourceenvironment"),
            vec![dir.join("MediaStore.resourceenvironment")]
        );
    }
}
