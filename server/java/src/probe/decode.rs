//! The probe's binary events (format: `server/java/README.md`) become [`MeasurementEvent`]s.
//!
//! A `ServiceCall` must precede the events of its execution and carry its parameters, but the
//! probe writes the parameters as PARAM records after the ENTER, and threads interleave by buffer,
//! so a thread's PARAMs may be separated from their ENTER by other threads' records. So an entered
//! execution stays pending until the first record of it that is not a PARAM (one inside it, a
//! nested ENTER it calls, its EXIT), or the end of the file, and is emitted then. Its EXIT, later,
//! sets the duration of the already emitted event.
//!
//! Execution ids are unique within one process only: they become `"{run}:{n}"`, so the files of
//! several processes can be analysed together. Nothing here panics on any input: what does not fit
//! the format is counted in the [`DecodeSummary`] and skipped.

use crate::sections::{Section, SectionTable};
use beagle_analysis::events::{MeasurementEvent, Parameters};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// Bytes per record: `i32 type, i32 section, i64 execution, i64 a, i64 b`, little-endian.
pub const RECORD: usize = 32;

const ENTER: i32 = 1;
const PARAM: i32 = 2;
const EXIT: i32 = 3;
const DEMAND: i32 = 4;
const LOOP: i32 = 5;
const BRANCH: i32 = 6;
const DEMAND_TOTAL: i32 = 7;

/// The PCM characterisation of a PARAM record's `a`.
fn characterisation(code: i64) -> Option<&'static str> {
    match code {
        1 => Some("VALUE"),
        2 => Some("BYTESIZE"),
        3 => Some("NUMBER_OF_ELEMENTS"),
        4 => Some("INNER.BYTESIZE"),
        _ => None,
    }
}

/// How to decode one process's file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Tags this process's executions (`"{run}:{n}"`): unique among the files analysed together.
    pub run: String,
    /// Executions entered in launcher iterations `0..warmup` are dropped, with everything recorded
    /// inside them (nested executions included): the JIT was still compiling.
    pub warmup: u32,
}

/// What a file held, and what was dropped and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecodeSummary {
    /// Whole records read.
    pub records: u64,
    /// Service executions kept (one `ServiceCall` each).
    pub executions: u64,
    /// Executions dropped as warm-up (their own iteration, or nested in a dropped one).
    pub warmup_executions: u64,
    /// Records dropped with the warm-up executions (their ENTER, PARAMs and EXIT included).
    pub warmup_records: u64,
    /// Records made outside any service execution (execution 0).
    pub outside: u64,
    /// Records whose section or slot id is not in the table, or not of the kind the record needs.
    pub unknown_sections: u64,
    /// Records of a type the format does not define.
    pub unknown_types: u64,
    /// Records of an execution that was never entered, or has exited. (Execution ids are unique in
    /// a process; one entered again after its exit is not detected: that would take a set of
    /// every id.)
    pub orphans: u64,
    /// Records that contradict the format: a second ENTER of an execution, a negative count or
    /// time, a non-finite parameter or unknown characterisation, a PARAM after its execution's
    /// other records began.
    pub invalid: u64,
    /// Bytes at the end that do not make a whole record (a process killed mid-write).
    pub truncated_bytes: u64,
    /// Per kept execution (its event id), its thread CPU time from entry to exit in ns, when the
    /// probe measured it (`-Dbeagle.serviceCpu=true`: validation runs).
    pub service_cpu_ns: std::collections::BTreeMap<String, u64>,
}

/// An execution between its ENTER and its EXIT.
enum Live {
    /// Entered during warm-up: it and everything inside it is dropped.
    Warmup,
    /// Collecting its PARAMs; not emitted yet.
    Pending(Box<Pending>),
    /// Emitted at this index of the output (its EXIT sets the duration there).
    Emitted(usize),
}

/// A `ServiceCall` still collecting its parameters.
struct Pending {
    execution: String,
    service: String,
    caller_execution: Option<String>,
    call: Option<String>,
    parameters: Parameters,
}

impl Pending {
    fn event(self) -> MeasurementEvent {
        MeasurementEvent::ServiceCall {
            execution: self.execution,
            service: self.service,
            caller_execution: self.caller_execution,
            call: self.call,
            parameters: self.parameters,
            entry_ns: 0,
            exit_ns: 0,
        }
    }
}

/// Decodes records one at a time (see the module documentation).
pub struct Decoder<'a> {
    table: &'a SectionTable,
    options: &'a DecodeOptions,
    live: HashMap<i64, Live>,
    /// Emitted events not drained yet: those from absolute position `drained` on.
    events: Vec<MeasurementEvent>,
    drained: usize,
    /// Executions that exited, with the absolute position of the next event then.
    ended: Vec<(usize, String)>,
    summary: DecodeSummary,
}

/// What [`Decoder::drain`] delivers, in stream order.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    Event(MeasurementEvent),
    /// The execution exited: no more events of it follow.
    Ended(String),
}

/// One record's fields.
struct Record {
    kind: i32,
    section: i32,
    execution: i64,
    a: i64,
    b: i64,
}

impl Record {
    fn parse(bytes: &[u8; RECORD]) -> Record {
        let i32_at = |i: usize| i32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let i64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            i64::from_le_bytes(b)
        };
        Record {
            kind: i32_at(0),
            section: i32_at(4),
            execution: i64_at(8),
            a: i64_at(16),
            b: i64_at(24),
        }
    }
}

impl<'a> Decoder<'a> {
    pub fn new(table: &'a SectionTable, options: &'a DecodeOptions) -> Self {
        Decoder {
            table,
            options,
            live: HashMap::new(),
            events: Vec::new(),
            drained: 0,
            ended: Vec::new(),
            summary: DecodeSummary::default(),
        }
    }

    /// Events decoded and not drained yet.
    pub fn buffered(&self) -> usize {
        self.events.len()
    }

    /// Hands every event decoded so far to `sink`, with the ends of executions between them.
    /// Memory then stays bounded however long the file; the price: an execution drained before
    /// its EXIT keeps `exit_ns` 0 (nothing in the analysis reads it for Java).
    pub fn drain(&mut self, sink: &mut impl FnMut(Decoded)) {
        let start = self.drained;
        let events = std::mem::take(&mut self.events);
        self.drained += events.len();
        let mut ended = std::mem::take(&mut self.ended).into_iter().peekable();
        for (i, e) in events.into_iter().enumerate() {
            while let Some((_, execution)) = ended.next_if(|(at, _)| *at <= start + i) {
                sink(Decoded::Ended(execution));
            }
            sink(Decoded::Event(e));
        }
        for (_, execution) in ended {
            sink(Decoded::Ended(execution));
        }
    }

    fn id(&self, execution: i64) -> String {
        format!("{}:{}", self.options.run, execution)
    }

    /// Emits a pending execution's `ServiceCall` (no-op once emitted).
    fn emit(&mut self, execution: i64) {
        let index = self.drained + self.events.len();
        if let Some(live @ Live::Pending(_)) = self.live.get_mut(&execution) {
            if let Live::Pending(pending) = std::mem::replace(live, Live::Emitted(index)) {
                self.events.push(pending.event());
            }
        }
    }

    /// Decodes one record.
    pub fn record(&mut self, bytes: &[u8; RECORD]) {
        self.summary.records += 1;
        let r = Record::parse(bytes);
        match r.kind {
            ENTER => self.enter(&r),
            PARAM => self.param(&r),
            EXIT => self.exit(&r),
            DEMAND | LOOP | BRANCH | DEMAND_TOTAL => self.inside(&r),
            _ => self.summary.unknown_types += 1,
        }
    }

    fn enter(&mut self, r: &Record) {
        if r.execution <= 0 || self.live.contains_key(&r.execution) {
            self.summary.invalid += 1;
            return;
        }
        let caller = match self.live.get(&r.a) {
            Some(Live::Warmup) => {
                self.summary.warmup_executions += 1;
                self.summary.warmup_records += 1;
                self.live.insert(r.execution, Live::Warmup);
                return;
            }
            Some(_) => Some(r.a),
            // 0: called from outside any execution; else a caller this file never entered.
            None => None,
        };
        let iteration = r.b as u32;
        if iteration < self.options.warmup {
            self.summary.warmup_executions += 1;
            self.summary.warmup_records += 1;
            self.live.insert(r.execution, Live::Warmup);
            return;
        }
        let Some(Section::Service { service }) = self.table.section(r.section) else {
            self.summary.unknown_sections += 1;
            return;
        };
        let call_section = (r.b >> 32) as i32;
        let call = match self.table.section(call_section) {
            Some(Section::Call { call }) => Some(call.clone()),
            _ if call_section == -1 => None,
            _ => {
                self.summary.unknown_sections += 1;
                None
            }
        };
        if let Some(c) = caller {
            self.emit(c);
        }
        let pending = Pending {
            execution: self.id(r.execution),
            service: service.clone(),
            caller_execution: caller.map(|c| self.id(c)),
            call,
            parameters: Parameters::new(),
        };
        self.summary.executions += 1;
        self.live.insert(r.execution, Live::Pending(Box::new(pending)));
    }

    /// Counts a record of an execution that is not live: outside any, or an orphan.
    fn not_live(&mut self, execution: i64) {
        if execution == 0 {
            self.summary.outside += 1;
        } else {
            self.summary.orphans += 1;
        }
    }

    fn param(&mut self, r: &Record) {
        let slot = self.table.slot(r.section);
        let value = f64::from_bits(r.b as u64);
        match self.live.get_mut(&r.execution) {
            None => self.not_live(r.execution),
            Some(Live::Warmup) => self.summary.warmup_records += 1,
            Some(Live::Emitted(_)) => self.summary.invalid += 1,
            Some(Live::Pending(pending)) => {
                let Some(slot) = slot else {
                    self.summary.unknown_sections += 1;
                    return;
                };
                match characterisation(r.a) {
                    Some(c) if value.is_finite() => {
                        pending.parameters.insert(format!("{slot}.{c}"), value);
                    }
                    _ => self.summary.invalid += 1,
                }
            }
        }
    }

    fn exit(&mut self, r: &Record) {
        let index = match self.live.get(&r.execution) {
            None => return self.not_live(r.execution),
            Some(Live::Warmup) => {
                self.live.remove(&r.execution);
                self.summary.warmup_records += 1;
                return;
            }
            Some(Live::Pending(_)) => {
                self.emit(r.execution);
                self.drained + self.events.len() - 1
            }
            Some(Live::Emitted(i)) => *i,
        };
        self.live.remove(&r.execution);
        let here = self.drained + self.events.len();
        self.ended.push((here, self.id(r.execution)));
        let buffered = index.checked_sub(self.drained).and_then(|i| self.events.get_mut(i));
        if r.a < 0 {
            self.summary.invalid += 1;
        } else if let Some(MeasurementEvent::ServiceCall { exit_ns, .. }) = buffered {
            *exit_ns = r.a as u64;
        }
        if r.b > 0 {
            let id = self.id(r.execution);
            self.summary.service_cpu_ns.insert(id, r.b as u64);
        }
    }

    /// DEMAND, DEMAND_TOTAL, LOOP, BRANCH: an event of the execution the record names.
    fn inside(&mut self, r: &Record) {
        match self.live.get(&r.execution) {
            None => return self.not_live(r.execution),
            Some(Live::Warmup) => {
                self.summary.warmup_records += 1;
                return;
            }
            Some(_) => {}
        }
        let section = self.table.section(r.section);
        let execution = self.id(r.execution);
        let event = match (r.kind, section) {
            (DEMAND, Some(Section::Demand { action, resource, .. })) if r.a >= 0 => MeasurementEvent::ResourceDemand {
                execution,
                action: action.clone(),
                resource: resource.clone(),
                start_ns: 0,
                stop_ns: r.a as u64,
            },
            (DEMAND_TOTAL, Some(Section::Demand { action, resource, .. })) if r.a >= 0 && r.b > 0 => {
                MeasurementEvent::ResourceDemandTotal {
                    execution,
                    action: action.clone(),
                    resource: resource.clone(),
                    count: r.b as u64,
                    total_ns: r.a as u64,
                }
            }
            (LOOP, Some(Section::Loop { loop_id })) if r.a >= 0 => MeasurementEvent::Loop {
                execution,
                loop_id: loop_id.clone(),
                count: r.a as u64,
            },
            (BRANCH, Some(Section::Transition { branch, transition })) => MeasurementEvent::Branch {
                execution,
                branch: branch.clone(),
                transition: Some(transition.clone()),
            },
            (DEMAND | DEMAND_TOTAL, Some(Section::Demand { .. })) | (LOOP, Some(Section::Loop { .. })) => {
                self.summary.invalid += 1;
                return;
            }
            _ => {
                self.summary.unknown_sections += 1;
                return;
            }
        };
        self.emit(r.execution);
        self.events.push(event);
    }

    /// The events and the summary. Executions still pending (their thread never recorded past
    /// their PARAMs) are emitted last, in execution id order; an execution without an EXIT (the
    /// process ended inside it) keeps duration 0.
    pub fn finish(mut self, truncated_bytes: usize) -> (Vec<MeasurementEvent>, DecodeSummary) {
        self.emit_pending();
        self.summary.truncated_bytes = truncated_bytes as u64;
        (self.events, self.summary)
    }

    /// Emits the executions still pending, in execution id order.
    fn emit_pending(&mut self) {
        let mut pending: Vec<i64> = (self.live.iter())
            .filter(|(_, l)| matches!(l, Live::Pending(_)))
            .map(|(e, _)| *e)
            .collect();
        pending.sort_unstable();
        for e in pending {
            self.emit(e);
        }
    }
}

/// Decodes a whole events file's bytes.
pub fn decode(bytes: &[u8], table: &SectionTable, options: &DecodeOptions) -> (Vec<MeasurementEvent>, DecodeSummary) {
    let mut decoder = Decoder::new(table, options);
    let mut chunks = bytes.chunks_exact(RECORD);
    for chunk in &mut chunks {
        if let Ok(record) = <&[u8; RECORD]>::try_from(chunk) {
            decoder.record(record);
        }
    }
    decoder.finish(chunks.remainder().len())
}

/// Events buffered before [`decode_file_into`] hands them on.
const DRAIN_AT: usize = 1 << 16;

/// Decodes an events file into `sink` as it reads (files of long runs are large: a service that
/// loops 100,000 times per call makes millions of records), with the ends of executions.
pub fn decode_file_into(
    path: &Path,
    table: &SectionTable,
    options: &DecodeOptions,
    mut sink: impl FnMut(Decoded),
) -> std::io::Result<DecodeSummary> {
    let mut reader = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut decoder = Decoder::new(table, options);
    let mut record = [0u8; RECORD];
    loop {
        let mut filled = 0;
        while filled < RECORD {
            match reader.read(&mut record[filled..]) {
                Ok(0) => {
                    decoder.emit_pending();
                    decoder.drain(&mut sink);
                    return Ok(decoder.finish(filled).1);
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        decoder.record(&record);
        if decoder.buffered() >= DRAIN_AT {
            decoder.drain(&mut sink);
        }
    }
}

/// Decodes an events file, streaming (files of long runs are large).
pub fn decode_file(
    path: &Path,
    table: &SectionTable,
    options: &DecodeOptions,
) -> std::io::Result<(Vec<MeasurementEvent>, DecodeSummary)> {
    let mut reader = std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut decoder = Decoder::new(table, options);
    let mut record = [0u8; RECORD];
    loop {
        let mut filled = 0;
        while filled < RECORD {
            match reader.read(&mut record[filled..]) {
                Ok(0) => return Ok(decoder.finish(filled)),
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        decoder.record(&record);
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
