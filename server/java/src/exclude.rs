//! `[java] exclude`: source files left out of the instrumented copy and the compilation (a
//! class that no longer compiles, a benchmark with dependencies nobody has), as globs over paths
//! relative to the folder of `beagle.toml` (`src/legacy/**`, `**/*Benchmarker.java`).

use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::Path;

/// The compiled globs, compared by their text.
#[derive(Clone, Debug, Default)]
pub struct Exclude {
    patterns: Vec<String>,
    set: GlobSet,
}

impl PartialEq for Exclude {
    fn eq(&self, other: &Exclude) -> bool {
        self.patterns == other.patterns
    }
}

/// A glob of `[java] exclude` that does not compile.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ExcludeError {
    #[error("exclude = \"{pattern}\": {source}")]
    Pattern { pattern: String, source: globset::Error },
    /// The globs together (each compiled alone).
    #[error(transparent)]
    Set(globset::Error),
}

impl Exclude {
    /// Compiles the patterns; a bad one is named.
    pub fn new(patterns: &[String]) -> Result<Exclude, ExcludeError> {
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            // `literal_separator`: `*` stays inside one folder, `**` crosses folders, as in .gitignore.
            let glob = globset::GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map_err(|source| ExcludeError::Pattern {
                    pattern: p.clone(),
                    source,
                })?;
            builder.add(glob);
        }
        let set = builder.build().map_err(ExcludeError::Set)?;
        Ok(Exclude {
            patterns: patterns.to_vec(),
            set,
        })
    }

    /// Whether the file at `rel` (relative to the folder of `beagle.toml`) is left out.
    pub fn excludes(&self, rel: &Path) -> bool {
        !self.patterns.is_empty() && self.set.is_match(rel)
    }

    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// A glob that names exactly one file, for suggestions.
    pub fn suggest(rel: &Path) -> String {
        let text = rel.to_string_lossy().replace('\\', "/");
        Glob::new(&globset::escape(&text)).map_or(text.clone(), |g| g.glob().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_over_workspace_paths() {
        let e = Exclude::new(&["src/legacy/**".into(), "**/*Benchmarker.java".into()]).unwrap();
        assert!(e.excludes(Path::new("src/legacy/a/B.java")));
        assert!(e.excludes(Path::new("src/x/CopyrightedDatabaseBenchmarker.java")));
        assert!(!e.excludes(Path::new("src/x/BusinessCore.java")));
        // `*` does not cross folders.
        let one = Exclude::new(&["src/*.java".into()]).unwrap();
        assert!(one.excludes(Path::new("src/A.java")) && !one.excludes(Path::new("src/a/A.java")));
        assert!(!Exclude::default().excludes(Path::new("src/A.java")));
        let e = Exclude::new(&["src/[".into()]).unwrap_err();
        assert!(
            matches!(&e, ExcludeError::Pattern { pattern, .. } if pattern == "src/["),
            "{e}"
        );
        assert!(e.to_string().starts_with("exclude = \"src/[\": "), "{e}");
        assert_eq!(Exclude::suggest(Path::new("src/a/B[1].java")), "src/a/B[[]1[]].java");
    }
}
