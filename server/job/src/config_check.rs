//! `beagle.toml` checked as the configuration it is, with a line for every problem: what the
//! language server shows as diagnostics and `beagle check beagle.toml` prints, and the warnings
//! every command that reads a workspace gives first (issue 41).
//!
//! Keys inside the known tables are checked by their readers (serde's `deny_unknown_fields`, an
//! error naming the key and its line). A table or top-level key Beagle does not know is not read
//! by anyone, so without this check a misspelt `[runer]` would be dropped without a word: it is a
//! warning (the rest of the file is still analysed), with the nearest known name when there is one.

use crate::workspace::{self, Source, Workspace};
use beagle_pcm::Severity;
use std::path::{Path, PathBuf};

/// The tables of `beagle.toml` (`[[launch]]` is an array of tables).
pub const TABLES: [&str; 6] = ["model", "measurements", "analysis", "java", "launch", "runner"];

/// One problem of a `beagle.toml`: its 1-based line, how bad, a stable code, what to do.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigProblem {
    pub line: usize,
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
}

/// Top-level tables and keys Beagle does not know, as warnings. Empty when the file is not TOML
/// (the readers report that error).
pub fn unknown_tables(text: &str) -> Vec<ConfigProblem> {
    let Ok(table) = toml::de::DeTable::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in table.get_ref() {
        let name: &str = key.get_ref();
        if TABLES.contains(&name) {
            continue;
        }
        let what = match value.get_ref() {
            toml::de::DeValue::Table(_) => format!("table `[{name}]`"),
            toml::de::DeValue::Array(_) => format!("table or key `{name}`"),
            _ => format!("key `{name}` outside any table"),
        };
        let hint = match nearest(name) {
            Some(t) => format!("; did you mean `[{t}]`?"),
            None => String::new(),
        };
        out.push(ConfigProblem {
            line: line_of(text, key.span().start),
            severity: Severity::Warning,
            code: "unknown-table",
            message: format!(
                "unknown {what}: ignored (beagle.toml has the tables {}){hint}",
                TABLES.map(|t| format!("[{t}]")).join(", ")
            ),
        });
    }
    out.sort_by_key(|p| p.line);
    out
}

/// Everything wrong with the `beagle.toml` at `toml_path` (text `text`): a reader's error (then
/// nothing else can be said), unknown tables, paths outside `root` (the workspace; default: the
/// file's folder), files it names that do not exist, a `measured_on` that names no container.
pub fn check(toml_path: &Path, text: &str, root: Option<&Path>) -> Vec<ConfigProblem> {
    // Absolute first: the Java tables keep their paths joined to the folder, and a relative
    // folder joined again would name `fixtures/x/fixtures/x/src` (`beagle check fixtures/x/beagle.toml`).
    let toml_path = &std::path::absolute(toml_path).unwrap_or_else(|_| toml_path.to_path_buf());
    let dir = toml_path.parent().unwrap_or(Path::new("/")).to_path_buf();
    let mut out = unknown_tables(text);
    let ws = match workspace::from_toml(&dir, toml_path, text) {
        Ok(ws) => ws,
        Err(e) => {
            out.push(ConfigProblem {
                line: e.line.unwrap_or(1),
                severity: Severity::Error,
                code: "beagle-toml",
                message: e.message,
            });
            out.sort_by_key(|p| p.line);
            return out;
        }
    };
    let at = |p: &Path| {
        let rel = p.strip_prefix(&dir).unwrap_or(p);
        line_mentioning(text, &rel.display().to_string()).unwrap_or(1)
    };
    let root = root.map(Path::to_path_buf).unwrap_or_else(|| dir.clone());
    for p in ws.paths_outside(&root) {
        out.push(ConfigProblem {
            line: at(&p),
            severity: Severity::Error,
            code: "outside-workspace",
            message: format!(
                "`{}` is outside the workspace ({}): Beagle reads and runs only what is inside it",
                p.display(),
                root.display()
            ),
        });
    }
    for p in named_inputs(&ws) {
        if !p.exists() {
            out.push(ConfigProblem {
                line: at(&p),
                severity: Severity::Error,
                code: "missing-file",
                message: format!("`{}` does not exist", p.strip_prefix(&dir).unwrap_or(&p).display()),
            });
        }
    }
    // A `measured_on` that names no container would stop every analysis: said where it is written.
    if ws.deployment.measured_on.is_some() {
        if let Err(e @ crate::error::JobError::MeasuredOn { .. }) = crate::writing::units::Rates::load(&ws) {
            out.push(ConfigProblem {
                line: line_mentioning(text, "measured_on").unwrap_or(1),
                severity: Severity::Error,
                code: "measured-on",
                message: e.to_string(),
            });
        }
    }
    out.sort_by_key(|p| p.line);
    out
}

/// The files and folders a workspace reads.
fn named_inputs(ws: &Workspace) -> Vec<PathBuf> {
    let mut out = ws.repositories.clone();
    out.extend(ws.deployment.allocation.clone());
    out.extend(ws.deployment.resource_environment.clone());
    match &ws.source {
        Some(Source::Events(p)) => out.push(p.clone()),
        Some(Source::Kieker { dir: file, mapping }) | Some(Source::Otel { file, mapping }) => {
            out.push(file.clone());
            out.extend(mapping.clone());
        }
        Some(Source::Java { config, links }) => {
            out.extend(links.clone());
            out.extend(config.sources.iter().map(|s| config.root.join(s)));
        }
        None => {}
    }
    out
}

/// The known table a misspelt name most likely meant: one edit away, or the same letters in
/// another case (`[Java]`, `[runer]`, `[lauch]`).
fn nearest(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    TABLES
        .iter()
        .find(|t| **t == lower || edits(t, &lower) <= 1 + usize::from(t.len() > 6))
        .copied()
}

/// Levenshtein distance (names here are a few letters: the quadratic table is nothing).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The 1-based line of the first mention of `needle`.
fn line_mentioning(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_tables_and_top_level_keys_are_warnings_with_their_lines() {
        let text = "[model]\nrepository = \"a.repository\"\n\n[runer]\nkind = \"ssh\"\n\n[Java]\nsources = []\n\
                    [[lunch]]\nname = \"x\"\n[weather]\nsunny = true\n";
        let problems = unknown_tables(text);
        let got: Vec<(usize, &str)> = problems.iter().map(|p| (p.line, p.message.as_str())).collect();
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0].0, 4);
        assert!(got[0].1.contains("`[runer]`") && got[0].1.ends_with("did you mean `[runner]`?"));
        assert_eq!(got[1].0, 7);
        assert!(got[1].1.ends_with("did you mean `[java]`?"), "{}", got[1].1);
        assert_eq!(got[2].0, 9);
        assert!(got[2].1.contains("`lunch`") && got[2].1.ends_with("did you mean `[launch]`?"));
        assert_eq!(got[3].0, 11);
        assert!(!got[3].1.contains("did you mean"), "{}", got[3].1);
        assert!(problems.iter().all(|p| p.severity == Severity::Warning));
    }

    #[test]
    fn a_key_outside_any_table_is_named_as_such() {
        let p = unknown_tables("seed = 3\n[model]\nrepository = \"a.repository\"\n");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].line, 1);
        assert!(
            p[0].message.starts_with("unknown key `seed` outside any table"),
            "{}",
            p[0].message
        );
    }

    #[test]
    fn known_tables_and_broken_toml_give_no_unknown_table_warning() {
        assert!(unknown_tables("[model]\n[measurements]\n[analysis]\n[java]\n[[launch]]\n[runner]\n").is_empty());
        assert!(unknown_tables("[model\n").is_empty());
    }

    #[test]
    fn check_says_a_readers_error_with_its_line_besides_unknown_tables() {
        let dir = tempfile::tempdir().unwrap();
        let toml = dir.path().join("beagle.toml");
        let text = "[model]\nrepository = \"a.repository\"\n[analysis]\nseeed = 1\n[extra]\n";
        let problems = check(&toml, text, None);
        let got: Vec<(usize, Severity, &str)> = problems.iter().map(|p| (p.line, p.severity, p.code)).collect();
        assert_eq!(
            got,
            vec![
                (4, Severity::Error, "beagle-toml"),
                (5, Severity::Warning, "unknown-table")
            ],
            "{problems:?}"
        );
        assert!(problems[0].message.contains("seeed"), "{}", problems[0].message);
    }

    #[test]
    fn check_names_a_missing_file_on_the_line_that_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let toml = dir.path().join("beagle.toml");
        let problems = check(&toml, "\n[model]\nrepository = \"gone.repository\"\n", None);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!((problems[0].line, problems[0].code), (3, "missing-file"));
        assert!(problems[0].message.contains("gone.repository"));
    }

    #[test]
    fn edits_count_insertions_deletions_and_substitutions() {
        assert_eq!(edits("runner", "runer"), 1);
        assert_eq!(edits("launch", "lunch"), 1);
        assert_eq!(edits("model", "modle"), 2);
        assert_eq!(edits("java", "java"), 0);
        assert_eq!(edits("", "abc"), 3);
    }
}
