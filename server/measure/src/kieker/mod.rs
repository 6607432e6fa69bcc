//! Reader of Kieker text logs: a directory with `kieker.map` (`$<n>=<record class name>`) and
//! `*.dat` files (`$<n>;<loggingTimestamp>;<field>;...`), read in file-name order, which is Kieker's
//! writing order.
//!
//! Records of classes Beagle does not know are counted in [`KiekerLog::unknown_classes`], not
//! fatal: Kieker logs often carry records of other probes. A damaged line (a truncated last line,
//! a field that is not a number) is skipped and kept in [`KiekerLog::skipped`] with its file,
//! 1-based line and field; the rest is read. Only a log with nothing usable is an error (its
//! first problem). A record class written in more than one layout (the CIPM `ServiceCallRecord`
//! with and without its return value) is read in the layout its field count says, and
//! [`KiekerLog::layouts`] names each one found.

mod compressed;
mod error;
mod fields;
mod params;
mod records;
pub mod stream;

pub use compressed::is_record_file;
pub use error::{KiekerError, LineError};
pub use fields::NOT_SET;
pub use params::{characterised_name, parse_parameters};
pub use records::*;

use beagle_analysis::inputs::InputFile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The record classes of a `kieker.map`, by `$n`.
pub type RecordMap = BTreeMap<u32, String>;

/// A whole log, records in reading order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KiekerLog {
    pub records: Vec<Record>,
    /// Lines skipped because their record class is not one Beagle reads: count by class name.
    pub unknown_classes: BTreeMap<String, usize>,
    /// The `.dat` files read, in order.
    pub files: Vec<PathBuf>,
    /// Damaged lines, skipped: each names the file, the line and what is wrong.
    pub skipped: Vec<SkippedLine>,
    /// Record files that could not be read at all (bzip2, broken compression), with why.
    pub unreadable: Vec<(PathBuf, String)>,
    /// The layouts read, by record class: how many records of each.
    pub layouts: BTreeMap<String, usize>,
    /// What each record file gave, in [`KiekerLog::files`] order (executions and unmapped
    /// operations are filled in by [`crate::convert::convert`]).
    pub inputs: Vec<InputFile>,
    /// Where each file's records start in [`KiekerLog::records`] (with [`beagle_analysis::inputs::file_of`]).
    pub starts: Vec<usize>,
}

/// Reads the Kieker text log in `dir`: a folder with `kieker.map` and its record files, plain or
/// compressed ([`compressed`]), or such a folder packed into one zip archive.
pub fn read_log(dir: &Path) -> Result<KiekerLog, KiekerError> {
    if dir.is_file() {
        let (map_text, files) = compressed::archive(dir)?;
        let map = parse_map(&map_text).map_err(|(line, problem)| KiekerError::Line {
            file: dir.join("kieker.map"),
            line,
            problem,
        })?;
        let mut log = KiekerLog {
            files: files.iter().map(|(p, _)| p.clone()).collect(),
            ..KiekerLog::default()
        };
        for (file, text) in &files {
            read_records(file, text, &map, &mut log);
        }
        return finish(log);
    }
    let map_path = dir.join("kieker.map");
    if !map_path.is_file() {
        return Err(KiekerError::MissingMap { dir: dir.to_path_buf() });
    }
    let map_text = read(&map_path)?;
    let map = parse_map(&map_text).map_err(|(line, problem)| KiekerError::Line {
        file: map_path.clone(),
        line,
        problem,
    })?;
    let files = record_files(dir)?;
    let mut log = KiekerLog {
        files: files.clone(),
        ..KiekerLog::default()
    };
    for file in &files {
        // One file that cannot be read costs only its records.
        match record_text(file) {
            Ok(text) => read_records(file, &text, &map, &mut log),
            Err(e) => {
                log.starts.push(log.records.len());
                log.inputs.push(InputFile::unreadable(file, e.to_string()));
                log.unreadable.push((file.clone(), e.to_string()));
            }
        }
    }
    if log.records.is_empty() && log.skipped.is_empty() {
        if let Some((file, why)) = log.unreadable.first() {
            return Err(KiekerError::Io {
                path: file.clone(),
                source: std::io::Error::other(why.clone()),
            });
        }
    }
    finish(log)
}

/// The record files of a log folder (plain or compressed), in name order: Kieker's writing order.
pub fn record_files(dir: &Path) -> Result<Vec<PathBuf>, KiekerError> {
    let io = |source| KiekerError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if compressed::is_record_file(&path) && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The text of one record file, decompressed.
fn record_text(file: &Path) -> Result<String, KiekerError> {
    let bytes = std::fs::read(file).map_err(|source| KiekerError::Io {
        path: file.to_path_buf(),
        source,
    })?;
    compressed::text_of(file, bytes)
}

/// The records of one file's text into `log`; damaged lines into its `skipped`.
fn read_records(file: &Path, text: &str, map: &RecordMap, log: &mut KiekerLog) {
    let mut input = InputFile::new(file);
    log.starts.push(log.records.len());
    for (i, line) in text.lines().enumerate() {
        match parse_dat_line(line, map) {
            Ok(DatLine::Empty) => {}
            Ok(DatLine::Record(r)) => {
                *log.layouts.entry(r.layout.to_string()).or_default() += 1;
                input.records += 1;
                log.records.push(r);
            }
            Ok(DatLine::Unknown(class)) => {
                *input.unknown.entry(class.clone()).or_default() += 1;
                *log.unknown_classes.entry(class).or_default() += 1
            }
            Err(problem) => {
                input.skip(i + 1, problem.to_string());
                log.skipped.push(SkippedLine {
                    file: file.to_path_buf(),
                    line: i + 1,
                    problem,
                })
            }
        }
    }
    log.inputs.push(input);
}

/// Nothing usable: the first problem says why (records of other probes only are no problem).
fn finish(mut log: KiekerLog) -> Result<KiekerLog, KiekerError> {
    if log.records.is_empty() && !log.skipped.is_empty() {
        let first = log.skipped.remove(0);
        return Err(KiekerError::Line {
            file: first.file,
            line: first.line,
            problem: first.problem,
        });
    }
    Ok(log)
}

/// A damaged line of a `.dat` file, skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct SkippedLine {
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    pub problem: LineError,
}

impl std::fmt::Display for SkippedLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.problem)
    }
}

fn read(path: &Path) -> Result<String, KiekerError> {
    std::fs::read_to_string(path).map_err(|source| KiekerError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses `kieker.map`; an error carries its 1-based line. Blank lines are allowed.
pub fn parse_map(text: &str) -> Result<RecordMap, (usize, LineError)> {
    let mut map = RecordMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let parsed = line
            .strip_prefix('$')
            .and_then(|rest| rest.split_once('='))
            .and_then(|(n, class)| Some((n.parse::<u32>().ok()?, class.trim())))
            .filter(|(_, class)| !class.is_empty());
        match parsed {
            Some((n, class)) => {
                map.insert(n, class.to_string());
            }
            None => return Err((i + 1, LineError::BadMapLine(line.to_string()))),
        }
    }
    Ok(map)
}

/// One parsed `.dat` line.
#[derive(Clone, Debug, PartialEq)]
pub enum DatLine {
    /// A blank line (Kieker writes none, but editors add them).
    Empty,
    Record(Record),
    /// A record of a class Beagle does not read (its class name).
    Unknown(String),
}

/// Parses one `.dat` line against the record map. Never panics, whatever the input.
pub fn parse_dat_line(line: &str, map: &RecordMap) -> Result<DatLine, LineError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() {
        return Ok(DatLine::Empty);
    }
    let mut parts = line.split(';');
    let head = parts.next().unwrap_or_default();
    let id: u32 = head
        .strip_prefix('$')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| LineError::NoRecordId(shorten(line)))?;
    let class = map.get(&id).ok_or(LineError::UnknownId(id))?;
    let values: Vec<&str> = parts.collect();
    let Some(layout) = records::layout(class, &values) else {
        return Ok(DatLine::Unknown(class.clone()));
    };
    records::parse_record(layout, values).map(DatLine::Record)
}

/// Keeps error messages readable for very long garbage lines.
fn shorten(line: &str) -> String {
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}
