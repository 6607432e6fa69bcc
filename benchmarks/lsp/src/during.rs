//! Hover latency and memory of a language server while a long analysis runs, either inside the
//! server (Beagle's `beagle.analyseRepository`, the command the editor's "Analyse" sends) or
//! beside it as a separate process (for the peer, which has no analyses of its own). The client
//! opens every input, hovers on each (one request in flight, a pause between requests as a
//! user's hovers have), and a sampler thread reads the server's (and the process beside's)
//! resident memory from `/proc` every 100 ms. One JSON line per input and phase ("before": the
//! server idle with the documents open; "during": until the analysis ends) and one for the run.

use crate::client::Client;
use crate::measure::{cpu_ticks, hover_positions, percentile, uri_of, Lines};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Options {
    pub server: String,
    pub server_version: String,
    /// "in-server" (the server analyses `analyse`) or "beside" (`beside` runs as a process).
    pub mode: String,
    pub folders: Vec<PathBuf>,
    /// (label, file) of the documents to open and hover on.
    pub inputs: Vec<(String, PathBuf)>,
    pub language_id: String,
    pub init_options: Value,
    pub env: Vec<(String, String)>,
    pub stderr: PathBuf,
    pub analyse: Option<PathBuf>,
    pub beside: Vec<String>,
    pub beside_log: PathBuf,
    /// Hovers per input before the analysis starts.
    pub before_hovers: usize,
    /// Pause after each hover.
    pub gap: Duration,
    /// The server is killed when its resident memory passes this (an unbounded server would
    /// take the machine with it).
    pub rss_limit_mb: u64,
    /// The analysis is given up after this long.
    pub max: Duration,
    pub cmd: Vec<String>,
}

const TIMEOUT: Duration = Duration::from_secs(60);
const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// `(VmRSS, VmHWM)` of a process in kB, `None` once it is gone.
fn memory_kb(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:").unwrap_or(0)))
}

#[derive(Default)]
struct Memory {
    /// (seconds since the sampler started, server RSS kB, process beside RSS kB).
    samples: Vec<(f64, u64, u64)>,
    server_hwm_kb: u64,
    beside_hwm_kb: u64,
    killed_at: Option<f64>,
}

struct Sampler {
    stop: Arc<AtomicBool>,
    beside_pid: Arc<AtomicU32>,
    memory: Arc<Mutex<Memory>>,
    thread: std::thread::JoinHandle<()>,
}

impl Sampler {
    fn start(server_pid: u32, limit_kb: u64) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let beside_pid = Arc::new(AtomicU32::new(0));
        let memory = Arc::new(Mutex::new(Memory::default()));
        let (s, b, m) = (stop.clone(), beside_pid.clone(), memory.clone());
        let thread = std::thread::spawn(move || {
            let t0 = Instant::now();
            while !s.load(Ordering::Relaxed) {
                let server = memory_kb(server_pid);
                let beside = match b.load(Ordering::Relaxed) {
                    0 => None,
                    pid => memory_kb(pid),
                };
                let at = t0.elapsed().as_secs_f64();
                let mut m = m.lock().unwrap();
                if let Some((rss, hwm)) = server {
                    m.server_hwm_kb = m.server_hwm_kb.max(hwm).max(rss);
                    if rss > limit_kb && m.killed_at.is_none() {
                        m.killed_at = Some(at);
                        let _ = Command::new("kill").args(["-9", &server_pid.to_string()]).status();
                    }
                }
                if let Some((rss, hwm)) = beside {
                    m.beside_hwm_kb = m.beside_hwm_kb.max(hwm).max(rss);
                }
                m.samples
                    .push((at, server.map_or(0, |s| s.0), beside.map_or(0, |s| s.0)));
                drop(m);
                std::thread::sleep(SAMPLE_EVERY);
            }
        });
        Sampler {
            stop,
            beside_pid,
            memory,
            thread,
        }
    }

    fn finish(self) -> Memory {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap();
        Arc::try_unwrap(self.memory).ok().unwrap().into_inner().unwrap()
    }
}

/// One document the client hovers on.
struct Doc {
    label: String,
    uri: String,
    positions: Vec<Value>,
    next: usize,
}

fn doc(label: &str, path: &std::path::Path) -> (Doc, String) {
    let text = std::fs::read_to_string(path).expect("input");
    let positions = hover_positions(&text, &Lines::new(&text), 500);
    (
        Doc {
            label: label.to_string(),
            uri: uri_of(path),
            positions,
            next: 0,
        },
        text,
    )
}

#[derive(Default)]
struct Hovers {
    samples: Vec<f64>,
    answered: usize,
    preliminary: usize,
    final_: usize,
    failed: usize,
}

/// One hover on `d`'s next position; `Err` when the server is gone.
fn hover(c: &mut Client, d: &mut Doc, into: &mut Hovers) -> Result<(), String> {
    let pos = d.positions[d.next % d.positions.len()].clone();
    d.next += 1;
    let (took, answer) = c.try_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": d.uri}, "position": pos}),
        TIMEOUT,
    )?;
    into.samples.push(took.as_secs_f64() * 1000.0);
    if !answer.is_null() {
        into.answered += 1;
        let text = answer.to_string();
        into.preliminary += usize::from(text.contains("(preliminary)"));
        into.final_ += usize::from(text.contains("(final)"));
    }
    Ok(())
}

/// Whether the server's analysis queue is empty after a job ran (`beagle.status`), and what the
/// last job said.
fn analysis_done(status: &Value) -> Option<String> {
    let idle = status["running"].is_null() && status["queued"].as_array().is_none_or(Vec::is_empty);
    match (idle, status["last"].as_str()) {
        (true, Some(last)) => Some(last.to_string()),
        _ => None,
    }
}

pub fn run(o: &Options) -> Vec<Value> {
    let stderr = std::fs::File::create(&o.stderr).expect("stderr file");
    let mut c = Client::start(&o.cmd, stderr, &o.env).expect("start the server");
    let server_pid = c.pid();
    let folders: Vec<Value> = o
        .folders
        .iter()
        .enumerate()
        .map(|(i, f)| json!({"uri": uri_of(f), "name": format!("folder{i}")}))
        .collect();
    c.request(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": folders[0]["uri"],
            "workspaceFolders": folders,
            "capabilities": {
                "textDocument": {
                    "synchronization": {"dynamicRegistration": false, "didSave": true},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "publishDiagnostics": {"versionSupport": true}
                },
                "workspace": {"configuration": true, "workspaceFolders": true, "applyEdit": true},
                "general": {"positionEncodings": ["utf-16"]}
            },
            "initializationOptions": o.init_options
        }),
        TIMEOUT,
    );
    c.notify("initialized", json!({}));
    let mut docs = Vec::new();
    for (label, path) in &o.inputs {
        let (d, text) = doc(label, path);
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": d.uri, "languageId": o.language_id, "version": 1, "text": text}}),
        );
        docs.push(d);
    }
    let sampler = Sampler::start(server_pid, o.rss_limit_mb * 1024);

    // Before: the documents open, nothing running.
    let mut before: Vec<Hovers> = docs.iter().map(|_| Hovers::default()).collect();
    for _ in 0..20 {
        for d in docs.iter_mut() {
            hover(&mut c, d, &mut Hovers::default()).expect("warm-up hover");
        }
    }
    for _ in 0..o.before_hovers {
        for (d, h) in docs.iter_mut().zip(before.iter_mut()) {
            hover(&mut c, d, h).expect("hover before the analysis");
            std::thread::sleep(o.gap);
        }
    }
    let rss_before_kb = memory_kb(server_pid).map_or(0, |m| m.0);

    // During: start the analysis, hover until it ends.
    let cpu0 = cpu_ticks();
    let started = Instant::now();
    let mut beside: Option<Child> = None;
    let mut status_ms = Vec::new();
    if let Some(model) = &o.analyse {
        c.request(
            "workspace/executeCommand",
            json!({"command": "beagle.analyseRepository", "arguments": [uri_of(model)]}),
            TIMEOUT,
        );
    }
    if !o.beside.is_empty() {
        let log = std::fs::File::create(&o.beside_log).expect("log of the process beside");
        let child = Command::new(&o.beside[0])
            .args(&o.beside[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start the process beside");
        sampler.beside_pid.store(child.id(), Ordering::Relaxed);
        beside = Some(child);
    }
    let mut during: Vec<Hovers> = docs.iter().map(|_| Hovers::default()).collect();
    let mut outcome = String::from("gave up waiting");
    let mut server_error = None;
    let mut last_check = Instant::now();
    'run: while started.elapsed() < o.max {
        for (d, h) in docs.iter_mut().zip(during.iter_mut()) {
            if let Err(e) = hover(&mut c, d, h) {
                h.failed += 1;
                server_error = Some(e);
                break 'run;
            }
            std::thread::sleep(o.gap);
        }
        c.backlog.clear(); // diagnostics nobody waits for
        if last_check.elapsed() < Duration::from_secs(1) {
            continue;
        }
        last_check = Instant::now();
        if let Some(child) = beside.as_mut() {
            if let Ok(Some(exit)) = child.try_wait() {
                outcome = format!("the process beside exited: {exit}");
                break;
            }
        } else {
            match c.try_request(
                "workspace/executeCommand",
                json!({"command": "beagle.status", "arguments": []}),
                TIMEOUT,
            ) {
                Ok((took, status)) => {
                    status_ms.push(took.as_secs_f64() * 1000.0);
                    if let Some(last) = analysis_done(&status) {
                        outcome = last;
                        break;
                    }
                }
                Err(e) => {
                    server_error = Some(e);
                    break;
                }
            }
        }
    }
    let analysis_s = started.elapsed().as_secs_f64();
    let cpu1 = cpu_ticks();
    if let Some(mut child) = beside.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
    std::thread::sleep(Duration::from_secs(2)); // the results settle, the sampler sees the end
    let rss_after_kb = memory_kb(server_pid).map_or(0, |m| m.0);
    let memory = sampler.finish();
    if let Some(at) = memory.killed_at {
        outcome = format!(
            "the server was killed at {:.0} s: its resident memory passed {} MB",
            at, o.rss_limit_mb
        );
    } else if let Some(e) = &server_error {
        outcome = format!("the server failed: {e}");
    }
    if server_error.is_none() {
        c.stop();
    }

    let busy = if cpu1.1 > cpu0.1 {
        100.0 * (cpu1.0 - cpu0.0) as f64 / (cpu1.1 - cpu0.1) as f64
    } else {
        0.0
    };
    let mut lines = Vec::new();
    for (phase, hovers) in [("before", &before), ("during", &during)] {
        for (d, h) in docs.iter().zip(hovers.iter()) {
            let mut line = stats(&h.samples);
            line["kind"] = json!("hover");
            line["server"] = json!(o.server);
            line["mode"] = json!(o.mode);
            line["input"] = json!(d.label);
            line["phase"] = json!(phase);
            line["answered"] = json!(h.answered);
            line["with_preliminary_results"] = json!(h.preliminary);
            line["with_final_results"] = json!(h.final_);
            line["failed"] = json!(h.failed);
            lines.push(line);
        }
    }
    let mb = |kb: u64| (kb as f64 / 1024.0 * 10.0).round() / 10.0;
    // Every 2 s of the analysis, for the memory curve.
    let timeline: Vec<Value> = memory
        .samples
        .iter()
        .step_by(20)
        .map(|(t, s, b)| json!([(t * 10.0).round() / 10.0, mb(*s), mb(*b)]))
        .collect();
    lines.push(json!({
        "kind": "run",
        "server": o.server,
        "server_version": o.server_version,
        "mode": o.mode,
        "analysis_s": (analysis_s * 10.0).round() / 10.0,
        "outcome": outcome,
        "rss_before_mb": mb(rss_before_kb),
        "rss_peak_mb": mb(memory.server_hwm_kb),
        "rss_after_mb": mb(rss_after_kb),
        "beside_peak_mb": mb(memory.beside_hwm_kb),
        "killed": memory.killed_at.is_some(),
        "status": stats(&status_ms),
        "machine_cpu_busy_pct": (busy * 10.0).round() / 10.0,
        "timeline": timeline,
    }));
    lines
}

fn stats(samples: &[f64]) -> Value {
    let mut s = samples.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "n": s.len(),
        "median_ms": round(percentile(&s, 50.0)),
        "p90_ms": round(percentile(&s, 90.0)),
        "p99_ms": round(percentile(&s, 99.0)),
        "max_ms": round(s.last().copied().unwrap_or(f64::NAN)),
        "mean_ms": round(s.iter().sum::<f64>() / s.len().max(1) as f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_analysis_is_done_when_nothing_runs_or_waits_and_a_job_ended() {
        let running = json!({"running": {"id": 1}, "queued": [], "last": null});
        assert_eq!(analysis_done(&running), None);
        let queued = json!({"running": null, "queued": [{"id": 2}], "last": "x: done"});
        assert_eq!(analysis_done(&queued), None);
        let not_started = json!({"running": null, "queued": [], "last": null});
        assert_eq!(analysis_done(&not_started), None);
        let done = json!({"running": null, "queued": [], "last": "hotloop: done: 3 results"});
        assert_eq!(analysis_done(&done).as_deref(), Some("hotloop: done: 3 results"));
    }

    #[test]
    fn memory_is_read_from_proc_and_a_gone_process_has_none() {
        let (rss, hwm) = memory_kb(std::process::id()).expect("this process");
        assert!(rss > 0 && hwm >= rss);
        assert_eq!(memory_kb(u32::MAX), None);
    }
}
