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
use beagle_analysis::ProbeCost;
use std::collections::{BTreeMap, HashMap};
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
const CALIBRATION: i32 = 8;
const OVERHEAD: i32 = 9;
/// A counting run's counts (`Counts.java`): a = key id << 32 | runs, b = count.
const COUNT: i32 = 10;
/// What the launcher's windows met in this file (`Windows.java`): section = the reference's
/// worst slowdown in percent, a = windows measured again, b = windows kept although disturbed.
const DISTURBED: i32 = 11;

/// Calibration kinds (`Calibration.java`) whose noise says how short a net time can be told.
const WALL_BIAS: i32 = 3;
const SERVICE_BIAS: i32 = 4;
const SHORT_BIAS: i32 = 5;
const CPU_FRESH_BIAS: i32 = 1;

/// A collection's BYTESIZE, the sum over its elements: the model's `x.BYTESIZE` where it reads
/// one ([`SectionTable::elements_bytesize`]), else not kept.
const ELEMENTS_BYTESIZE: &str = "ELEMENTS.BYTESIZE";

/// The PCM characterisation of a PARAM record's `a`.
fn characterisation(code: i64) -> Option<&'static str> {
    match code {
        1 => Some("VALUE"),
        2 => Some("BYTESIZE"),
        3 => Some("NUMBER_OF_ELEMENTS"),
        4 => Some("INNER.BYTESIZE"),
        5 => Some(ELEMENTS_BYTESIZE),
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
    /// Keep each execution's time ([`DecodeSummary::service_cpu_ns`]): `beagle validate` wants
    /// them; an analysis does not (a nested service may run millions of times).
    pub service_times: bool,
    /// A counting run's key names by id (the file `-Dbeagle.countKeys` names); a COUNT record of
    /// another key is named `key <id>`.
    pub count_keys: BTreeMap<i64, String>,
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
    /// Per kept execution (its event id), its time from entry to exit in ns net of the probes
    /// (thread CPU time when outermost on its thread, else by the wall clock), when asked for
    /// ([`DecodeOptions::service_times`]).
    pub service_cpu_ns: std::collections::BTreeMap<String, u64>,
    /// Calibrations of the probes' cost the process made (CALIBRATION records of one kind).
    pub calibrations: u64,
    /// Per element (action, or SEFF for its executions' CPU time): the probes' cost subtracted,
    /// with the calibration's noise (the process's last calibration).
    pub probe_costs: BTreeMap<String, ProbeCost>,
    /// Executions of an inherited body by an object of no measured component's class (entry
    /// section -1, [`crate::sections::Dispatch`]): dropped with everything inside them, their
    /// records counted as warm-up's.
    pub other_receivers: u64,
    /// Windows of runs the launcher measured again because a reference timing said another
    /// process slowed the machine then (their records were dropped before this file was read).
    pub disturbed_again: u64,
    /// Windows kept although disturbed: measuring again ran out.
    pub disturbed_kept: u64,
    /// The reference's worst slowdown in a disturbed window, in percent of its usual time.
    pub disturbed_worst_percent: u64,
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
    /// The service section of each live execution (its OVERHEAD and EXIT name no service).
    services: HashMap<i64, i32>,
    /// The last OVERHEAD record: (execution, section, ns subtracted); its total follows it.
    overhead: Option<(i64, i32, u64)>,
    /// Per calibration kind, the last calibration's noise (ps).
    noise_ps: HashMap<i32, i64>,
    /// The calibration kind whose noise applies to each element of `summary.probe_costs`.
    cost_kind: HashMap<String, i32>,
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
            services: HashMap::new(),
            overhead: None,
            noise_ps: HashMap::new(),
            cost_kind: HashMap::new(),
        }
    }

    /// Adds what the probe subtracted from one total (or run) of `element`.
    fn probe_cost(&mut self, element: &str, kind: i32, execution: i64, section: i32, runs: u64, net_ns: u64) {
        let subtracted = match self.overhead.take() {
            Some((e, s, ns)) if e == execution && s == section => ns,
            // A probe that does not calibrate (or an older one): nothing was subtracted.
            _ => return,
        };
        let cost = self.summary.probe_costs.entry(element.to_string()).or_default();
        cost.add(&ProbeCost {
            runs,
            net_ns,
            subtracted_ns: subtracted,
            noise_ns: 0,
        });
        self.cost_kind.entry(element.to_string()).or_insert(kind);
    }

    /// A CALIBRATION record: remembers the noise of each kind.
    fn calibration(&mut self, r: &Record) {
        if r.a < 0 || r.b < 0 {
            self.summary.invalid += 1;
            return;
        }
        if r.section == CPU_FRESH_BIAS {
            self.summary.calibrations += 1;
        }
        // The last calibration's: the one in force while the runs that count were measured (the
        // launcher calibrates again after its warm-up).
        self.noise_ps.insert(r.section, r.b);
    }

    /// A DISTURBED record: what the launcher measured again.
    fn disturbed(&mut self, r: &Record) {
        if r.a < 0 || r.b < 0 || r.section < 0 {
            self.summary.invalid += 1;
            return;
        }
        self.summary.disturbed_again += r.a as u64;
        self.summary.disturbed_kept += r.b as u64;
        let worst = r.section as u64;
        self.summary.disturbed_worst_percent = self.summary.disturbed_worst_percent.max(worst);
    }

    /// Sets each element's noise from the calibrations (at the end: a launcher calibrates again
    /// after its warm-up, after records of the warm-up).
    fn settle_noise(&mut self) {
        for (element, cost) in self.summary.probe_costs.iter_mut() {
            let kind = self.cost_kind.get(element).copied().unwrap_or(SHORT_BIAS);
            let ps = self.noise_ps.get(&kind).copied().unwrap_or(0);
            // The noise of a mean of many runs is never finer than the clock's nanosecond.
            cost.noise_ns = ((ps + 999) / 1000).max(1) as u64;
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
        let mut r = Record::parse(bytes);
        self.resolve_shared(&mut r);
        match r.kind {
            ENTER => self.enter(&r),
            PARAM => self.param(&r),
            EXIT => self.exit(&r),
            DEMAND | LOOP | BRANCH | DEMAND_TOTAL => self.inside(&r),
            CALIBRATION => self.calibration(&r),
            OVERHEAD => self.overhead(&r),
            COUNT => self.count(&r),
            DISTURBED => self.disturbed(&r),
            _ => self.summary.unknown_types += 1,
        }
    }

    /// A record made in code that several components share stands for the section of the SEFF
    /// whose execution it was made in ([`crate::sections::Dispatch`]); a call's section, carried
    /// by the callee's ENTER, for its caller's.
    fn resolve_shared(&self, r: &mut Record) {
        if self.table.dispatch.shared.is_empty() {
            return;
        }
        match r.kind {
            DEMAND | LOOP | BRANCH | DEMAND_TOTAL | OVERHEAD | COUNT => {
                r.section = self.table.dispatch.resolve(r.section, self.service_of(r.execution));
            }
            ENTER => {
                let call = self.table.dispatch.resolve((r.b >> 32) as i32, self.service_of(r.a));
                r.b = ((call as i64) << 32) | (r.b & 0xffff_ffff);
            }
            _ => {}
        }
    }

    /// The SEFF of a live execution.
    fn service_of(&self, execution: i64) -> Option<&str> {
        match self.table.section(*self.services.get(&execution)?)? {
            Section::Service { service } => Some(service),
            _ => None,
        }
    }

    fn enter(&mut self, r: &Record) {
        if r.execution <= 0 || self.live.contains_key(&r.execution) {
            self.summary.invalid += 1;
            return;
        }
        if r.section == -1 && !self.table.dispatch.tables.is_empty() {
            // Shared code run by an object of no component's class: nothing of it is recorded.
            self.summary.other_receivers += 1;
            self.summary.warmup_records += 1;
            self.live.insert(r.execution, Live::Warmup);
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
        self.services.insert(r.execution, r.section);
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
                // A collection the model abstracts to a number: its size is the model's VALUE,
                // and its elements' sizes are no input of the model.
                // A characterisation the link file gives as a Java expression: its value.
                if let Some(given) = self.table.given_as.get(&r.section) {
                    match characterisation(r.a) {
                        Some("VALUE") if value.is_finite() => {
                            pending.parameters.insert(format!("{slot}.{given}"), value);
                        }
                        _ => self.summary.invalid += 1,
                    }
                    return;
                }
                let as_value = self.table.sizes_as_value.contains(&r.section);
                match characterisation(r.a) {
                    Some(ELEMENTS_BYTESIZE) if !value.is_finite() => self.summary.invalid += 1,
                    Some(ELEMENTS_BYTESIZE) => {
                        if self.table.elements_bytesize.contains(&r.section) {
                            pending.parameters.insert(format!("{slot}.BYTESIZE"), value);
                        }
                    }
                    Some("NUMBER_OF_ELEMENTS") if as_value && value.is_finite() => {
                        pending.parameters.insert(format!("{slot}.VALUE"), value);
                    }
                    // A VALUE is the model's VALUE whatever held it (a member read as a number).
                    Some(c) if as_value && c != "VALUE" => {}
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
        let service = self.services.remove(&r.execution);
        if r.b > 0 {
            if let Some(Section::Service { service }) = service.and_then(|s| self.table.section(s)) {
                let service = service.clone();
                self.probe_cost(&service, SERVICE_BIAS, r.execution, -1, 1, r.b as u64);
            }
        }
        let here = self.drained + self.events.len();
        self.ended.push((here, self.id(r.execution)));
        let buffered = index.checked_sub(self.drained).and_then(|i| self.events.get_mut(i));
        if r.a < 0 {
            self.summary.invalid += 1;
        } else if let Some(MeasurementEvent::ServiceCall { exit_ns, .. }) = buffered {
            *exit_ns = r.a as u64;
        }
        if r.b > 0 && self.options.service_times {
            let id = self.id(r.execution);
            self.summary.service_cpu_ns.insert(id, r.b as u64);
        }
    }

    /// OVERHEAD: what the probe subtracted from the total (or execution) whose record follows.
    fn overhead(&mut self, r: &Record) {
        if r.execution == 0 {
            return; // a section outside any execution: its DEMAND is counted as outside
        }
        if !self.is_kept(r.execution) {
            return;
        }
        if r.a < 0 || r.b < 0 {
            self.summary.invalid += 1;
            return;
        }
        self.overhead = Some((r.execution, r.section, r.a as u64));
    }

    /// Whether a record of `execution` is kept: the execution is live and not warm-up (else the
    /// record is counted as outside, orphan or warm-up).
    fn is_kept(&mut self, execution: i64) -> bool {
        match self.live.get(&execution) {
            None => {
                self.not_live(execution);
                false
            }
            Some(Live::Warmup) => {
                self.summary.warmup_records += 1;
                false
            }
            Some(_) => true,
        }
    }

    /// DEMAND, DEMAND_TOTAL, LOOP, BRANCH: an event of the execution the record names.
    fn inside(&mut self, r: &Record) {
        if !self.is_kept(r.execution) {
            return;
        }
        let section = self.table.section(r.section);
        if let (DEMAND | DEMAND_TOTAL, Some(Section::Demand { action, cpu, .. })) = (r.kind, section) {
            if r.a >= 0 {
                let runs = if r.kind == DEMAND { 1 } else { r.b.max(0) as u64 };
                let kind = if *cpu { SHORT_BIAS } else { WALL_BIAS };
                self.probe_cost(&action.clone(), kind, r.execution, r.section, runs, r.a as u64);
            }
        }
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

    /// COUNT: one key's count of a demand section in one execution (a counting run).
    fn count(&mut self, r: &Record) {
        if !self.is_kept(r.execution) {
            return;
        }
        let Some(Section::Demand { action, .. }) = self.table.section(r.section) else {
            self.summary.unknown_sections += 1;
            return;
        };
        let (id, runs) = (r.a >> 32, r.a & 0xffff_ffff);
        if r.b < 0 || runs == 0 {
            self.summary.invalid += 1;
            return;
        }
        let key = (self.options.count_keys.get(&id).cloned()).unwrap_or_else(|| format!("key {id}"));
        let event = MeasurementEvent::Count {
            execution: self.id(r.execution),
            action: action.clone(),
            key,
            runs: runs as u64,
            count: r.b as u64,
        };
        self.emit(r.execution);
        self.events.push(event);
    }

    /// The events and the summary. Executions still pending (their thread never recorded past
    /// their PARAMs) are emitted last, in execution id order; an execution without an EXIT (the
    /// process ended inside it) keeps duration 0.
    pub fn finish(mut self, truncated_bytes: usize) -> (Vec<MeasurementEvent>, DecodeSummary) {
        self.emit_pending();
        self.settle_noise();
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
