//! Seeded, realistic inputs for the import benchmarks, written to a temporary directory.
//!
//! - A MediaStore-like workload of requests: a top-level service call with two characterised
//!   parameters, CPU and HDD demands of two internal actions, a loop with one CPU demand per
//!   iteration, a branch, and an external call to a second service with its own CPU demand. It is
//!   written twice, as the Beagle events format (`events.jsonl`) and as the CIPM Kieker record
//!   family (`kieker-cipm/`), so both imports read the same measurements.
//! - Standard Kieker `OperationExecutionRecord` traces (`kieker-oer/`): nested Java operations, some
//!   mapped to SEFFs, some to internal actions, some unmapped helpers ([`oer_mapping`]).
//!
//! Kieker logs are split into `.dat` files of 25,000 records (Kieker's default `maxEntriesInFile`),
//! the first one starting with a `KiekerMetadataRecord`, like the fixtures in `fixtures/kieker`.

use beagle_measure::events_format::write_events;
use beagle_measure::{MappedOperation, MeasurementEvent, OperationMapping};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

pub const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";
pub const HDD: &str = "_BIjHoQ3KEdyouMqirZIhzQ";
const CIPM: &str = "tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records";
const RECORDS_PER_FILE: usize = 25_000;
/// 2026-11-21 09:00 UTC in nanoseconds.
const EPOCH_NS: u64 = 1_763_715_600_000_000_000;

/// What was generated.
pub struct Generated {
    pub events: usize,
    pub cipm_records: usize,
    pub oer_records: usize,
}

/// Writes `events.jsonl`, `kieker-cipm/` and `kieker-oer/` into `dir`.
pub fn generate(dir: &Path, events: usize, oer_records: usize, seed: u64) -> std::io::Result<Generated> {
    std::fs::create_dir_all(dir)?;
    let (events, cipm_records) = workload(dir, events, seed)?;
    let oer_records = oer_log(&dir.join("kieker-oer"), oer_records, seed + 1)?;
    Ok(Generated {
        events,
        cipm_records,
        oer_records,
    })
}

/// An EMF-style id: `_` and 22 characters of the URL-safe base64 alphabet.
fn emf_id(rng: &mut ChaCha8Rng) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut s = String::with_capacity(23);
    s.push('_');
    for _ in 0..22 {
        s.push(ALPHABET[rng.random_range(0..64)] as char);
    }
    s
}

/// A version-4 UUID, as CIPM monitoring writes execution and session ids.
fn uuid(rng: &mut ChaCha8Rng) -> String {
    let a: u64 = rng.random();
    let b: u64 = rng.random();
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// The PCM ids of one top-level SEFF and what it contains.
struct Service {
    seff: String,
    cpu_action: String,
    hdd_action: String,
    loop_id: String,
    loop_action: String,
    branch: String,
    transitions: [String; 2],
    call: String,
    callee_seff: String,
    callee_action: String,
}

impl Service {
    fn new(rng: &mut ChaCha8Rng) -> Self {
        Service {
            seff: emf_id(rng),
            cpu_action: emf_id(rng),
            hdd_action: emf_id(rng),
            loop_id: emf_id(rng),
            loop_action: emf_id(rng),
            branch: emf_id(rng),
            transitions: [emf_id(rng), emf_id(rng)],
            call: emf_id(rng),
            callee_seff: emf_id(rng),
            callee_action: emf_id(rng),
        }
    }
}

/// A Kieker `.dat` writer that rolls over every [`RECORDS_PER_FILE`] records.
struct DatWriter {
    dir: std::path::PathBuf,
    file: Option<BufWriter<File>>,
    in_file: usize,
    files: usize,
    records: usize,
}

impl DatWriter {
    fn new(dir: &Path, map: &[&str]) -> std::io::Result<Self> {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir)?;
        let mut text = String::new();
        for (i, class) in map.iter().enumerate() {
            text.push_str(&format!("${i}={class}\n"));
        }
        std::fs::write(dir.join("kieker.map"), text)?;
        let mut w = DatWriter {
            dir: dir.to_path_buf(),
            file: None,
            in_file: 0,
            files: 0,
            records: 0,
        };
        w.line(&format!(
            "$0;{EPOCH_NS};1.15;KIEKER-SINGLETON;srv-1;1;false;0;NANOSECONDS;0"
        ))?;
        Ok(w)
    }

    fn line(&mut self, line: &str) -> std::io::Result<()> {
        if self.file.is_none() || self.in_file == RECORDS_PER_FILE {
            if let Some(mut f) = self.file.take() {
                f.flush()?;
            }
            let name = format!("kieker-20261121-090000000-UTC-{:03}-Thread-1.dat", self.files);
            self.file = Some(BufWriter::with_capacity(1 << 20, File::create(self.dir.join(name))?));
            self.files += 1;
            self.in_file = 0;
        }
        let f = self.file.as_mut().expect("opened above");
        f.write_all(line.as_bytes())?;
        f.write_all(b"\n")?;
        self.in_file += 1;
        self.records += 1;
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<usize> {
        if let Some(mut f) = self.file.take() {
            f.flush()?;
        }
        Ok(self.records)
    }
}

/// The request workload as events (`events.jsonl`) and CIPM records (`kieker-cipm/`), until at
/// least `target` events. Returns (events, records incl. the metadata record).
fn workload(dir: &Path, target: usize, seed: u64) -> std::io::Result<(usize, usize)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let services: Vec<Service> = (0..4).map(|_| Service::new(&mut rng)).collect();
    let sessions: Vec<String> = (0..64).map(|_| uuid(&mut rng)).collect();
    let mut events_out = BufWriter::with_capacity(1 << 20, File::create(dir.join("events.jsonl"))?);
    let class = |simple: &str| format!("{CIPM}.{simple}");
    let map = [
        "kieker.common.record.misc.KiekerMetadataRecord".to_string(),
        class("ServiceCallRecord"),
        class("ResponseTimeRecord"),
        class("LoopRecord"),
        class("BranchRecord"),
    ];
    let map: Vec<&str> = map.iter().map(String::as_str).collect();
    let mut dat = DatWriter::new(&dir.join("kieker-cipm"), &map)?;
    let mut clock = EPOCH_NS + 1_000_000;
    let mut written = 0;
    let mut request = 0usize;
    while written < target {
        let s = &services[request % services.len()];
        let session = &sessions[(request / 20) % sessions.len()];
        request += 1;
        let files: u64 = rng.random_range(1..=50);
        let size: u64 = rng.random_range(1_000..=10_000_000);
        let exec = uuid(&mut rng);
        let jitter = |rng: &mut ChaCha8Rng, ns: f64| (ns * rng.random_range(0.9..1.1)) as u64 + 1_000;
        // (logging timestamp, event, CIPM record line without `$n;timestamp;`)
        let mut timed: Vec<(u64, MeasurementEvent, String)> = Vec::new();
        let entry = clock;
        let mut t = entry + rng.random_range(5_000..20_000);
        let demand = |rng: &mut ChaCha8Rng, t: &mut u64, exec: &str, action: &str, resource: &str, ns: f64| {
            let start = *t;
            let stop = start + jitter(rng, ns);
            *t = stop + rng.random_range(1_000..5_000);
            let line = format!("$2;{stop};{session};{exec};{action};{resource};{start};{stop}");
            let e = MeasurementEvent::ResourceDemand {
                execution: exec.to_string(),
                action: action.to_string(),
                resource: resource.to_string(),
                start_ns: start,
                stop_ns: stop,
            };
            (start, e, line)
        };
        let d = demand(
            &mut rng,
            &mut t,
            &exec,
            &s.cpu_action,
            CPU,
            20_000.0 * files as f64 + 50_000.0,
        );
        timed.push(d);
        let d = demand(&mut rng, &mut t, &exec, &s.hdd_action, HDD, 0.1 * size as f64);
        timed.push(d);
        let iterations = 1 + files / 10;
        for _ in 0..iterations {
            let d = demand(&mut rng, &mut t, &exec, &s.loop_action, CPU, 100_000.0);
            timed.push(d);
        }
        timed.push((
            t,
            MeasurementEvent::Loop {
                execution: exec.clone(),
                loop_id: s.loop_id.clone(),
                count: iterations,
            },
            format!("$3;{t};{session};{exec};{};{iterations}", s.loop_id),
        ));
        let transition = &s.transitions[usize::from(size > 1_000_000)];
        timed.push((
            t,
            MeasurementEvent::Branch {
                execution: exec.clone(),
                branch: s.branch.clone(),
                transition: Some(transition.clone()),
            },
            format!("$4;{t};{session};{exec};{};{transition}", s.branch),
        ));
        // The external call: the callee's execution with the size of one file.
        let callee = uuid(&mut rng);
        let per_file = size / files;
        let call_entry = t + 2_000;
        let mut ct = call_entry + 3_000;
        let d = demand(
            &mut rng,
            &mut ct,
            &callee,
            &s.callee_action,
            CPU,
            0.05 * per_file as f64,
        );
        let call_exit = ct + 2_000;
        timed.push((
            call_entry,
            MeasurementEvent::ServiceCall {
                execution: callee.clone(),
                service: s.callee_seff.clone(),
                caller_execution: Some(exec.clone()),
                call: Some(s.call.clone()),
                parameters: [("size.BYTESIZE".to_string(), per_file as f64)].into(),
                entry_ns: call_entry,
                exit_ns: call_exit,
            },
            format!(
                "$1;{call_exit};{session};{callee};{};{{\"size_BYTESIZE\":{per_file},}};{exec};{};{call_entry};{call_exit};<not set>",
                s.callee_seff, s.call
            ),
        ));
        timed.push(d);
        let exit = call_exit + rng.random_range(5_000..20_000);
        timed.push((
            entry,
            MeasurementEvent::ServiceCall {
                execution: exec.clone(),
                service: s.seff.clone(),
                caller_execution: None,
                call: None,
                parameters: [
                    ("files.NUMBER_OF_ELEMENTS".to_string(), files as f64),
                    ("size.BYTESIZE".to_string(), size as f64),
                ]
                .into(),
                entry_ns: entry,
                exit_ns: exit,
            },
            format!(
                "$1;{exit};{session};{exec};{};{{\"files_NUMBER_OF_ELEMENTS\":{files},\"size_BYTESIZE\":{size},}};<not set>;<not set>;{entry};{exit};<not set>",
                s.seff
            ),
        ));
        // Events in time order (their start); records in writing order (their logging timestamp).
        timed.sort_by_key(|(start, _, _)| *start);
        let events: Vec<MeasurementEvent> = timed.iter().map(|(_, e, _)| e.clone()).collect();
        write_events(&mut events_out, &events)?;
        written += events.len();
        let mut lines: Vec<&String> = timed.iter().map(|(_, _, l)| l).collect();
        lines.sort_by_key(|l| logging_timestamp(l));
        for l in lines {
            dat.line(l)?;
        }
        clock = exit + rng.random_range(10_000..200_000);
    }
    events_out.flush()?;
    Ok((written, dat.finish()?))
}

fn logging_timestamp(line: &str) -> u64 {
    line.split(';').nth(1).and_then(|t| t.parse().ok()).unwrap_or(0)
}

/// Java operations of the OperationExecutionRecord traces and what they map to.
const TOP: [&str; 3] = [
    "public void org.mediastore.MediaStore.download(int[])",
    "public void org.mediastore.MediaStore.upload(org.mediastore.AudioFile)",
    "public java.util.List org.mediastore.MediaStore.search(java.lang.String)",
];
const READ: &str = "private byte[] org.mediastore.FileStorage.readFile(int)";
const ENCODE: &str = "private void org.mediastore.Encoder.encode(byte[])";
const CHECKSUM: &str = "private static int org.mediastore.util.Bytes.checksum(byte[])";
const WATERMARK: &str = "public byte[] org.mediastore.AudioWatermarking.watermark(byte[])";
const EMBED: &str = "private void org.mediastore.AudioWatermarking.embed(byte[], java.lang.String)";

/// The operation mapping for the `kieker-oer` log: top operations and the watermarking service
/// are SEFFs, file reading (HDD), encoding and embedding (CPU) are internal actions, the checksum
/// helper is unmapped.
pub fn oer_mapping() -> OperationMapping {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut m = OperationMapping::new();
    for op in TOP.iter().chain([&WATERMARK]) {
        m.insert(op.to_string(), MappedOperation::Seff(emf_id(&mut rng)));
    }
    for (op, resource) in [(READ, HDD), (ENCODE, CPU), (EMBED, CPU)] {
        let action = emf_id(&mut rng);
        m.insert(
            op.to_string(),
            MappedOperation::InternalAction {
                action,
                resource: resource.to_string(),
            },
        );
    }
    m
}

/// One operation execution of a trace.
struct Oer {
    op: &'static str,
    eoi: usize,
    ess: usize,
    tin: u64,
    tout: u64,
}

/// Traces of OperationExecutionRecords until at least `target` records (metadata included).
fn oer_log(dir: &Path, target: usize, seed: u64) -> std::io::Result<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let map = [
        "kieker.common.record.misc.KiekerMetadataRecord",
        "kieker.common.record.controlflow.OperationExecutionRecord",
    ];
    let mut dat = DatWriter::new(dir, &map)?;
    let mut clock = EPOCH_NS + 1_000_000;
    let mut trace_id: i64 = 3_881_283_897_249_497_088;
    while dat.records < target {
        trace_id += 1;
        let mut execs: Vec<Oer> = Vec::new();
        let mut t = clock;
        // A tiny recursive-descent "run" of the trace, recording enter/exit times.
        let enter = |execs: &mut Vec<Oer>, op: &'static str, ess: usize, t: &mut u64| {
            *t += 1_000;
            execs.push(Oer {
                op,
                eoi: execs.len(),
                ess,
                tin: *t,
                tout: 0,
            });
            execs.len() - 1
        };
        let top = enter(&mut execs, TOP[rng.random_range(0..TOP.len())], 0, &mut t);
        for _ in 0..rng.random_range(1..=5) {
            let r = enter(&mut execs, READ, 1, &mut t);
            t += rng.random_range(50_000..500_000);
            execs[r].tout = t;
        }
        let e = enter(&mut execs, ENCODE, 1, &mut t);
        let c = enter(&mut execs, CHECKSUM, 2, &mut t);
        t += rng.random_range(5_000..20_000);
        execs[c].tout = t;
        t += rng.random_range(100_000..1_000_000);
        execs[e].tout = t;
        let w = enter(&mut execs, WATERMARK, 1, &mut t);
        let em = enter(&mut execs, EMBED, 2, &mut t);
        t += rng.random_range(100_000..300_000);
        execs[em].tout = t;
        t += 2_000;
        execs[w].tout = t;
        t += 5_000;
        execs[top].tout = t;
        // Kieker writes a record when its operation returns.
        execs.sort_by_key(|x| x.tout);
        for x in &execs {
            let logged = x.tout + 500;
            dat.line(&format!(
                "$1;{logged};{};<no-session-id>;{trace_id};{};{};srv-1;{};{}",
                x.op, x.tin, x.tout, x.eoi, x.ess
            ))?;
        }
        clock = t + rng.random_range(10_000..200_000);
    }
    dat.finish()
}
