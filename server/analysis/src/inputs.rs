//! What each input file gave: records read, executions, lines skipped and why, records and
//! operations nothing reads or maps. The CLI and the language server show it per file, so a user
//! sees which part of a log counted and which did not. Plain data: the measurement readers fill it,
//! the store keeps it with the measurement, the job reports it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Lines skipped that an [`InputFile`] names, with why; the rest are counted.
pub const SKIPPED_NAMED: usize = 3;

/// One input file: a Kieker record file (plain, compressed, or in an archive) or an OTLP/JSON
/// file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InputFile {
    pub file: PathBuf,
    /// Records (Kieker) or spans (OpenTelemetry) read.
    pub records: usize,
    /// Service executions whose call the file records.
    pub executions: usize,
    /// Damaged lines skipped.
    pub skipped: usize,
    /// The first [`SKIPPED_NAMED`] of them: `(1-based line, why)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_lines: Vec<(usize, String)>,
    /// Records of classes Beagle does not read: count by class.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unknown: BTreeMap<String, usize>,
    /// Executions of operations (or spans) that no mapping names: count by operation.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unmapped: BTreeMap<String, usize>,
    /// Why nothing of the file could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
}

impl InputFile {
    pub fn new(file: &Path) -> InputFile {
        InputFile {
            file: file.to_path_buf(),
            ..InputFile::default()
        }
    }

    pub fn unreadable(file: &Path, why: String) -> InputFile {
        InputFile {
            unreadable: Some(why),
            ..InputFile::new(file)
        }
    }

    /// A damaged line, skipped.
    pub fn skip(&mut self, line: usize, why: String) {
        self.skipped += 1;
        if self.skipped_lines.len() < SKIPPED_NAMED {
            self.skipped_lines.push((line, why));
        }
    }

    /// Whether something of the file was not used.
    pub fn has_problems(&self) -> bool {
        self.skipped > 0 || !self.unknown.is_empty() || !self.unmapped.is_empty() || self.unreadable.is_some()
    }

    /// One line for people: `"f.dat: 25000 records, 3 executions; 2 lines skipped (line 7: ...)"`.
    pub fn describe(&self) -> String {
        let name = self.file.display();
        if let Some(why) = &self.unreadable {
            return format!("{name}: not read: {why}");
        }
        let mut text = format!("{name}: {} records, {} executions", self.records, self.executions);
        if self.skipped > 0 {
            let named: Vec<String> = self
                .skipped_lines
                .iter()
                .map(|(line, why)| format!("line {line}: {why}"))
                .collect();
            let more = self.skipped - self.skipped_lines.len();
            let more = if more > 0 {
                format!("; {more} more")
            } else {
                String::new()
            };
            text += &format!("; {} lines skipped ({}{more})", self.skipped, named.join("; "));
        }
        for (class, n) in &self.unknown {
            text += &format!("; {n} records of {class} not read");
        }
        for (operation, n) in &self.unmapped {
            text += &format!("; {n} executions of `{operation}` unmapped");
        }
        text
    }
}

/// The file that record `index` came from, given where each file's records start (ascending).
pub fn file_of(starts: &[usize], index: usize) -> Option<usize> {
    starts.partition_point(|s| *s <= index).checked_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_belongs_to_the_last_file_that_starts_at_or_before_it() {
        // Three files: records 0..4, none (an unreadable file), 4..9.
        let starts = [0, 4, 4];
        assert_eq!(file_of(&starts, 0), Some(0));
        assert_eq!(file_of(&starts, 3), Some(0));
        assert_eq!(file_of(&starts, 4), Some(2));
        assert_eq!(file_of(&starts, 8), Some(2));
        assert_eq!(file_of(&[], 0), None);
    }

    #[test]
    fn skipped_lines_are_counted_and_the_first_named() {
        let mut f = InputFile::new(Path::new("log/a.dat"));
        f.records = 10;
        for line in 1..=5 {
            f.skip(line, format!("bad {line}"));
        }
        assert_eq!(f.skipped, 5);
        assert_eq!(f.skipped_lines.len(), SKIPPED_NAMED);
        assert!(f.has_problems());
        assert_eq!(
            f.describe(),
            "log/a.dat: 10 records, 0 executions; 5 lines skipped (line 1: bad 1; line 2: bad 2; line 3: bad 3; 2 more)"
        );
    }
}
