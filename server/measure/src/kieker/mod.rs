//! Reader of Kieker text logs: a directory with `kieker.map` (`$<n>=<record class name>`) and
//! `*.dat` files (`$<n>;<loggingTimestamp>;<field>;...`), read in file-name order, which is Kieker's
//! writing order.
//!
//! Records of classes Beagle does not know are counted in [`KiekerLog::unknown_classes`], not
//! fatal: Kieker logs often carry records of other probes. Malformed content is fatal, with the
//! file, the 1-based line and the field named; no partial log is returned.

mod error;
mod fields;
mod params;
mod records;

pub use error::{KiekerError, LineError};
pub use fields::NOT_SET;
pub use params::{characterised_name, parse_parameters};
pub use records::*;

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
}

/// Reads the Kieker text log in `dir`.
pub fn read_log(dir: &Path) -> Result<KiekerLog, KiekerError> {
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
    let entries = std::fs::read_dir(dir).map_err(|source| KiekerError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| KiekerError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "dat") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    let mut log = KiekerLog {
        files: files.clone(),
        ..KiekerLog::default()
    };
    for file in &files {
        let text = read(file)?;
        for (i, line) in text.lines().enumerate() {
            let parsed = parse_dat_line(line, &map).map_err(|problem| KiekerError::Line {
                file: file.clone(),
                line: i + 1,
                problem,
            })?;
            match parsed {
                DatLine::Empty => {}
                DatLine::Record(r) => log.records.push(r),
                DatLine::Unknown(class) => *log.unknown_classes.entry(class).or_default() += 1,
            }
        }
    }
    Ok(log)
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
    let Some((record, names)) = records::layout(class) else {
        return Ok(DatLine::Unknown(class.clone()));
    };
    records::parse_record(record, names, parts.collect()).map(DatLine::Record)
}

/// Keeps error messages readable for very long garbage lines.
fn shorten(line: &str) -> String {
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}
