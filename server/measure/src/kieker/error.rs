//! Errors of the Kieker reader. Every error names the file and, for content errors, the 1-based line
//! and the field, so that a user can open the log at the right place.

use std::path::PathBuf;

/// Why a Kieker log could not be read. Nothing half-read is returned alongside it.
#[derive(Debug, thiserror::Error)]
pub enum KiekerError {
    #[error("{}: cannot read: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: no kieker.map (not a Kieker text log directory)", dir.display())]
    MissingMap { dir: PathBuf },
    #[error("{}:{line}: {problem}", file.display())]
    Line {
        file: PathBuf,
        line: usize,
        problem: LineError,
    },
}

/// What is wrong with one line of `kieker.map` or of a `.dat` file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    #[error("expected `$<n>=<record class name>`, found {0:?}")]
    BadMapLine(String),
    #[error("expected a record `$<n>;<loggingTimestamp>;...`, found {0:?}")]
    NoRecordId(String),
    #[error("record id ${0} is not in kieker.map")]
    UnknownId(u32),
    #[error("{record}: expected {expected} fields after `$n`, found {found} (truncated line?)")]
    FieldCount {
        record: &'static str,
        expected: usize,
        found: usize,
    },
    /// `index` counts the line's `;`-separated fields from `$n` = 0, so the logging timestamp is
    /// field 1 and the record's own fields start at 2.
    #[error("field {index} ({name}) of {record}: {problem}: {value:?}")]
    Field {
        index: usize,
        name: &'static str,
        record: &'static str,
        problem: &'static str,
        value: String,
    },
}
