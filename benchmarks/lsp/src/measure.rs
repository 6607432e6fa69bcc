//! One server on one input in one phase: the requests, timed from the client's side (the time
//! just before the request's first byte is written to the time just after the response's last
//! byte is read), written as JSON lines.

use crate::client::Client;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct Options {
    pub server: String,
    pub server_version: String,
    pub phase: String,
    pub input: PathBuf,
    pub label: String,
    pub root: PathBuf,
    pub language_id: String,
    pub init_options: Value,
    pub open_delay_ms: f64,
    pub change_delay_ms: f64,
    pub hovers: usize,
    pub symbols: usize,
    pub changes: usize,
    pub edit_hovers: usize,
    pub opens: usize,
    pub cmd: Vec<String>,
    pub env: Vec<(String, String)>,
    pub stderr: PathBuf,
}

const TIMEOUT: Duration = Duration::from_secs(120);

pub fn uri_of(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// Byte offset to an LSP position (UTF-16 columns).
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines { starts }
    }
    pub(crate) fn position(&self, text: &str, offset: usize) -> Value {
        let line = self.starts.partition_point(|s| *s <= offset) - 1;
        let col = text[self.starts[line]..offset].encode_utf16().count();
        json!({"line": line, "character": col})
    }
}

/// Byte offsets of every occurrence of `needle`.
pub(crate) fn find_all(text: &str, needle: &str) -> Vec<usize> {
    text.match_indices(needle).map(|(i, _)| i).collect()
}

/// `n` items spread evenly over `all` (repeating when there are fewer).
pub(crate) fn spread<T: Copy>(all: &[T], n: usize) -> Vec<T> {
    if all.is_empty() {
        return Vec::new();
    }
    (0..n)
        .map(|i| all[(i * all.len() / n.max(1) + i / all.len().max(1)) % all.len()])
        .collect()
}

/// `n` hover positions: inside the tag names of element starts (components, SEFFs, actions,
/// branch transitions), spread over the whole file.
pub(crate) fn hover_positions(text: &str, lines: &Lines, n: usize) -> Vec<Value> {
    let mut starts: Vec<usize> = [
        "<components__Repository",
        "<serviceEffectSpecifications__BasicComponent",
        "<steps_Behaviour",
        "<branches_Branch",
    ]
    .iter()
    .flat_map(|tag| find_all(text, tag))
    .collect();
    starts.sort_unstable();
    spread(&starts, n)
        .iter()
        .enumerate()
        .map(|(i, s)| lines.position(text, s + 1 + i % 5))
        .collect()
}

pub(crate) fn cpu_ticks() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let Some(line) = stat.lines().next() else { return (0, 0) };
    let v: Vec<u64> = line.split_whitespace().skip(1).filter_map(|x| x.parse().ok()).collect();
    let total: u64 = v.iter().sum();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    (total - idle, total)
}

fn count_symbols(v: &Value) -> usize {
    match v {
        Value::Array(items) => items.iter().map(count_symbols).sum(),
        Value::Object(o) => 1 + o.get("children").map_or(0, count_symbols),
        _ => 0,
    }
}

pub struct Row {
    pub request: &'static str,
    pub samples: Vec<f64>,
    pub answered: usize,
    pub extra: Value,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Waits for the publishDiagnostics of `uri` that answers a change sent at `sent`: for servers
/// that send versions, the one for `version`; for the others, the first published after `sent`.
fn wait_diagnostics(c: &mut Client, uri: &str, version: i64, sent: Instant) -> (Duration, usize) {
    loop {
        let m = c.wait(TIMEOUT, |v| {
            v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == json!(uri)
        });
        if m.at < sent {
            continue; // an earlier one
        }
        match m.value["params"]["version"].as_i64() {
            Some(v) if v != version => continue,
            _ => {}
        }
        let n = m.value["params"]["diagnostics"].as_array().map_or(0, Vec::len);
        return (m.at - sent, n);
    }
}

pub fn run(o: &Options) -> Vec<Row> {
    let text = std::fs::read_to_string(&o.input).expect("input");
    let lines = Lines::new(&text);
    let uri = uri_of(&o.input);
    let stderr = std::fs::File::create(&o.stderr).expect("stderr file");
    let cpu0 = cpu_ticks();
    let mut c = Client::start(&o.cmd, stderr, &o.env).expect("start the server");
    let root_uri = uri_of(&o.root);
    let (init_time, init) = c.request(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": "bench"}],
            "capabilities": {
                "textDocument": {
                    "synchronization": {"dynamicRegistration": false, "didSave": true},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "documentSymbol": {"hierarchicalDocumentSymbolSupport": true},
                    "publishDiagnostics": {"versionSupport": true}
                },
                "workspace": {"configuration": true, "workspaceFolders": true},
                "general": {"positionEncodings": ["utf-16"]}
            },
            "initializationOptions": o.init_options
        }),
        TIMEOUT,
    );
    let reported_name = init["serverInfo"]["name"].as_str().unwrap_or("").to_string();
    c.notify("initialized", json!({}));

    let mut rows = Vec::new();
    let mut version: i64 = 1;
    let open = |c: &mut Client, version: i64| -> Instant {
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": o.language_id, "version": version, "text": text}}),
        )
    };

    // didOpen -> first diagnostics, `opens` times (closing in between and waiting for the
    // empty diagnostics that closing publishes).
    let mut open_samples = Vec::new();
    let mut open_diags = 0;
    for i in 0..o.opens.max(1) {
        if i > 0 {
            let sent = c.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
            wait_diagnostics(&mut c, &uri, -1, sent);
            version += 1;
        }
        let sent = open(&mut c, version);
        let (d, n) = wait_diagnostics(&mut c, &uri, version, sent);
        open_samples.push(ms(d));
        open_diags = n;
    }
    rows.push(Row {
        request: "diagnostics after didOpen",
        answered: open_samples.len(),
        samples: open_samples,
        extra: json!({"diagnostics": open_diags, "server_delay_ms": o.open_delay_ms}),
    });

    // didOpen -> both the diagnostics and the code lenses (a codeLens request sent right after
    // the open, as an editor sends it): what a user sees of a model they just opened (issue 49:
    // "shows its diagnostics and lenses in under 1 s"). Only for a server that offers lenses.
    if init["capabilities"]
        .get("codeLensProvider")
        .is_some_and(|p| !p.is_null())
    {
        let mut samples = Vec::new();
        let mut lens_samples = Vec::new();
        let (mut lenses, mut found) = (0, 0);
        for _ in 0..o.opens.max(1) {
            let closed = c.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
            wait_diagnostics(&mut c, &uri, -1, closed);
            version += 1;
            let sent = open(&mut c, version);
            let (_, r) = c.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}), TIMEOUT);
            let lens = sent.elapsed();
            lenses = r.as_array().map_or(0, Vec::len);
            let (diags, n) = wait_diagnostics(&mut c, &uri, version, sent);
            found = n;
            lens_samples.push(ms(lens));
            samples.push(ms(lens.max(diags)));
        }
        rows.push(Row {
            request: "diagnostics and lenses after didOpen",
            answered: samples.len(),
            samples,
            extra: json!({"diagnostics": found, "lenses": lenses, "lenses_alone_median_ms": median(&lens_samples), "server_delay_ms": o.open_delay_ms}),
        });
    }

    let positions = hover_positions(&text, &lines, o.hovers);
    let hover = |c: &mut Client, pos: &Value| {
        c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": pos}),
            TIMEOUT,
        )
    };
    for pos in positions.iter().take(20) {
        hover(&mut c, pos); // warm-up
    }
    let mut samples = Vec::new();
    let mut answered = 0;
    let mut bytes = 0;
    for pos in &positions {
        let (d, r) = hover(&mut c, pos);
        samples.push(ms(d));
        if !r.is_null() {
            answered += 1;
            bytes += r.to_string().len();
        }
    }
    rows.push(Row {
        request: "hover",
        samples,
        answered,
        extra: json!({"mean_answer_bytes": bytes / answered.max(1)}),
    });

    // documentSymbol.
    let mut samples = Vec::new();
    let mut symbols = 0;
    let mut answered = 0;
    for i in 0..o.symbols + 2 {
        let (d, r) = c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
            TIMEOUT,
        );
        if i >= 2 {
            samples.push(ms(d)); // the first two are warm-up
            if !r.is_null() {
                answered += 1;
            }
        }
        symbols = count_symbols(&r);
    }
    rows.push(Row {
        request: "documentSymbol",
        samples,
        answered,
        extra: json!({"symbols": symbols}),
    });

    // Edits: one character of an entityName value changes case (the length stays, so the
    // offsets found above stay valid); the edits walk through the file.
    let names: Vec<usize> = find_all(&text, "entityName=\"").iter().map(|i| i + 12).collect();
    let mut current: Vec<u8> = text.clone().into_bytes();
    let mut edit_at = spread(&names, o.changes + o.edit_hovers).into_iter();
    let mut edit = |c: &mut Client, version: i64| -> Instant {
        let at = edit_at.next().unwrap();
        let ch = current[at];
        let new = if ch.is_ascii_uppercase() {
            ch.to_ascii_lowercase()
        } else {
            ch.to_ascii_uppercase()
        };
        current[at] = new;
        let from = lines.position(&text, at);
        let to = lines.position(&text, at + 1);
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": from, "end": to}, "text": (new as char).to_string()}]
            }),
        )
    };

    // didChange -> publishDiagnostics of that version.
    let mut samples = Vec::new();
    let mut diags = 0;
    for _ in 0..o.changes {
        version += 1;
        let sent = edit(&mut c, version);
        let (d, n) = wait_diagnostics(&mut c, &uri, version, sent);
        samples.push(ms(d));
        diags = n;
    }
    rows.push(Row {
        request: "diagnostics after didChange",
        answered: samples.len(),
        samples,
        extra: json!({"diagnostics": diags, "server_delay_ms": o.change_delay_ms}),
    });

    // The first hover right after an edit (the new version is not parsed yet), then wait for
    // that version's diagnostics before the next edit.
    let mut samples = Vec::new();
    let mut answered = 0;
    for i in 0..o.edit_hovers {
        version += 1;
        let sent = edit(&mut c, version);
        let (d, r) = hover(&mut c, &positions[(i * 37) % positions.len()]);
        samples.push(ms(d));
        if !r.is_null() {
            answered += 1;
        }
        wait_diagnostics(&mut c, &uri, version, sent);
    }
    rows.push(Row {
        request: "hover right after didChange",
        samples,
        answered,
        extra: json!({}),
    });

    let cpu1 = cpu_ticks();
    let busy = if cpu1.1 > cpu0.1 {
        100.0 * (cpu1.0 - cpu0.0) as f64 / (cpu1.1 - cpu0.1) as f64
    } else {
        0.0
    };
    let pid = c.pid();
    c.stop();
    eprintln!(
        "{} ({reported_name}, pid {pid}) on {}: initialize {:.1} ms, machine CPU {:.0} %",
        o.server,
        o.label,
        ms(init_time),
        busy
    );
    for r in &mut rows {
        if let Value::Object(m) = &mut r.extra {
            m.insert("machine_cpu_busy_pct".into(), json!((busy * 10.0).round() / 10.0));
        }
    }
    rows
}

fn median(samples: &[f64]) -> f64 {
    let mut s = samples.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    percentile(&s, 50.0)
}

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn to_json(o: &Options, bytes: usize, r: &Row) -> Value {
    let mut s = r.samples.clone();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mean = s.iter().sum::<f64>() / s.len().max(1) as f64;
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "server": o.server,
        "server_version": o.server_version,
        "phase": o.phase,
        "input": o.label,
        "bytes": bytes,
        "request": r.request,
        "n": s.len(),
        "answered": r.answered,
        "median_ms": round(percentile(&s, 50.0)),
        "p90_ms": round(percentile(&s, 90.0)),
        "p99_ms": round(percentile(&s, 99.0)),
        "min_ms": round(s.first().copied().unwrap_or(f64::NAN)),
        "max_ms": round(s.last().copied().unwrap_or(f64::NAN)),
        "mean_ms": round(mean),
        "extra": r.extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_and_percentiles_are_nearest_rank() {
        let text = "ab\n𝄞x<y\n";
        let lines = Lines::new(text);
        assert_eq!(lines.position(text, 1), json!({"line": 0, "character": 1}));
        // 𝄞 is 4 bytes and 2 UTF-16 code units.
        assert_eq!(lines.position(text, 3 + 5), json!({"line": 1, "character": 3}));
        let s: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&s, 50.0), 100.0);
        assert_eq!(percentile(&s, 99.0), 198.0);
        assert_eq!(percentile(&s[..10], 99.0), 10.0);
        assert_eq!(
            uri_of(Path::new("/tmp/a b/x.repository")),
            "file:///tmp/a%20b/x.repository"
        );
    }

    #[test]
    fn the_generated_repository_is_deterministic_with_unique_ids() {
        let (a, stats) = crate::generate::repository(200_000, 1);
        let (b, _) = crate::generate::repository(200_000, 1);
        assert_eq!(a, b);
        assert!(stats.bytes >= 200_000 && stats.components > 1 && stats.actions > stats.seffs);
        let ids: Vec<&str> = a.split(" id=\"").skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
        let unique: std::collections::HashSet<&&str> = ids.iter().collect();
        assert_eq!(ids.len(), unique.len());
    }
}
