//! RESULTS.md from the JSON lines of one run.

use serde_json::Value;
use std::fmt::Write;

fn fmt_ms(x: f64) -> String {
    if !x.is_finite() {
        "-".into()
    } else if x < 1.0 {
        format!("{x:.3} ms")
    } else if x < 100.0 {
        format!("{x:.2} ms")
    } else {
        format!("{x:.0} ms")
    }
}

fn ratio(a: f64, b: f64) -> String {
    if a.is_finite() && b.is_finite() && b > 0.0 {
        format!("{:.2}x", a / b)
    } else {
        "-".into()
    }
}

const REQUESTS: [(&str, &str); 6] = [
    ("hover", "Hover at element starts (components, SEFFs, actions, branch transitions) spread over the file, one request in flight, the document parsed (20 warm-up hovers first)."),
    ("documentSymbol", "The document's whole symbol tree (hierarchical), one request in flight (2 warm-up requests first)."),
    ("diagnostics after didChange", "From a one-character `didChange` (a new version) to the `publishDiagnostics` for that version (for a server that sends no version: the first one after the change). Includes each server's own debounce; \"work\" is the latency minus that debounce."),
    ("diagnostics after didOpen", "From `didOpen` to the first `publishDiagnostics` of the document (closed and opened again between samples). Includes each server's own delay; \"work\" subtracts it."),
    ("diagnostics and lenses after didOpen", "From `didOpen` to the later of the document's first `publishDiagnostics` and the answer to a `codeLens` request sent right after the open, as an editor sends it: what a user sees of a model just opened (closed and opened again between samples). Only for a server that offers code lenses (the peer offers none)."),
    ("hover right after didChange", "A hover sent right after a one-character `didChange`, before the server has seen the new version's diagnostics: for Beagle this hover parses the new version (the parse is cached per version and shared with the diagnostics that follow)."),
];

pub fn render(jsonl: &str, facts: &[String]) -> String {
    let rows: Vec<Value> = jsonl.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let get = |server_is_beagle: bool, input: &str, phase: &str, request: &str| -> Option<&Value> {
        rows.iter().find(|r| {
            (r["server"] == "beagle") == server_is_beagle
                && r["input"] == input
                && r["phase"] == phase
                && r["request"] == request
        })
    };
    let peer = rows
        .iter()
        .find(|r| r["server"] != "beagle")
        .map(|r| {
            format!(
                "{} {}",
                r["server"].as_str().unwrap_or(""),
                r["server_version"].as_str().unwrap_or("")
            )
        })
        .unwrap_or_else(|| "(none)".into());
    let mut inputs: Vec<(String, u64)> = Vec::new();
    for r in &rows {
        let name = r["input"].as_str().unwrap_or("").to_string();
        if !inputs.iter().any(|(n, _)| *n == name) {
            inputs.push((name, r["bytes"].as_u64().unwrap_or(0)));
        }
    }
    let mut out = String::new();
    out.push_str("# Language server latency: results\n\n");
    out.push_str("Produced by `bash benchmarks/lsp/run.sh` (see README.md for what is measured); the JSON lines are in `results/results.jsonl`. Beagle and the peer ran in the same run, one after the other, driven by the same client (`beagle-bench-lsp measure`) with the same documents and requests. Times are wall clock on the client's side: from just before a request's first byte is written to the server's stdin to just after the answer's last byte is read from its stdout.\n\n");
    for f in facts {
        let (k, v) = f.split_once('=').unwrap_or((f, ""));
        let _ = writeln!(out, "- {k}: {v}");
    }
    out.push_str("\nInputs:\n\n");
    for (name, bytes) in &inputs {
        let _ = writeln!(out, "- `{name}`: {bytes} bytes");
    }
    out.push_str(
        "\nPhases: **idle** (no analysis started by the benchmark) and **busy** (`beagle analyse` of a copy of `fixtures/fileshare`, `--threads 1`, pinned to CPU 1 with `taskset`, restarted on a fresh copy whenever it ends, for the whole measurement; the servers and the client are not pinned). \"machine CPU\" is the share of both cores busy during the measurement, from `/proc/stat` (about 50 % is one core: the server working flat out while the client waits, or the analysis alone).\n\n",
    );
    let _ = writeln!(
        out,
        "\"Beagle / peer\" divides Beagle's time by the peer's ({peer}): **below 1.00x Beagle is faster**. p99 is the nearest-rank 99th percentile (with fewer than 100 samples it is the maximum).\n"
    );

    // The target.
    let target = get(true, "generated-10MB", "busy", "hover");
    if let Some(t) = target {
        let p99 = t["p99_ms"].as_f64().unwrap_or(f64::NAN);
        let _ = writeln!(
            out,
            "**Target: hover p99 < 10 ms on the 10 MB file during an analysis: {}** (Beagle's hover p99 there: {}, median {}, {} hovers, {} answered). README.md says where the time goes.\n",
            if p99 < 10.0 { "met" } else { "missed" },
            fmt_ms(p99),
            fmt_ms(t["median_ms"].as_f64().unwrap_or(f64::NAN)),
            t["n"],
            t["answered"]
        );
    }

    // Issue 49: a repository laid out as extraction tools lay one out, with its code.
    if let Some(t) = get(true, "extracted-3MB", "idle", "diagnostics and lenses after didOpen") {
        let open = t["p99_ms"].as_f64().unwrap_or(f64::NAN);
        let hover = get(true, "extracted-3MB", "idle", "hover")
            .and_then(|h| h["p99_ms"].as_f64())
            .unwrap_or(f64::NAN);
        let _ = writeln!(
            out,
            "**Target: diagnostics and lenses of the 3 MB extracted-style repository under 1 s after it is opened, hover p99 under 10 ms: {}** (the slowest of {} opens: {}, {} lenses; hover p99 {}).\n",
            if open < 1000.0 && hover < 10.0 { "met" } else { "missed" },
            t["n"],
            fmt_ms(open),
            t["extra"]["lenses"],
            fmt_ms(hover)
        );
    }

    for (request, what) in REQUESTS {
        let is_diag = request.starts_with("diagnostics");
        let _ = writeln!(out, "## {request}\n\n{what}\n");
        if is_diag {
            out.push_str("| input | phase | n | Beagle median | Beagle p99 | Beagle work median | peer median | peer p99 | peer work median | **Beagle / peer median** | **Beagle / peer p99** | work / work (median) | diagnostics Beagle / peer | machine CPU |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        } else {
            out.push_str("| input | phase | n | Beagle median | Beagle p99 | peer median | peer p99 | **Beagle / peer median** | **Beagle / peer p99** | answered Beagle / peer | machine CPU |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        }
        for (input, _) in &inputs {
            for phase in ["idle", "busy"] {
                let b = get(true, input, phase, request);
                let p = get(false, input, phase, request);
                if b.is_none() && p.is_none() {
                    continue;
                }
                let f = |r: Option<&Value>, k: &str| r.and_then(|r| r[k].as_f64()).unwrap_or(f64::NAN);
                let delay = |r: Option<&Value>| r.and_then(|r| r["extra"]["server_delay_ms"].as_f64()).unwrap_or(0.0);
                let n = b.or(p).map(|r| r["n"].to_string()).unwrap_or_default();
                let cpu = b
                    .and_then(|r| r["extra"]["machine_cpu_busy_pct"].as_f64())
                    .map(|x| format!("{x:.0} %"))
                    .unwrap_or_default();
                let (bm, b99, pm, p99) = (f(b, "median_ms"), f(b, "p99_ms"), f(p, "median_ms"), f(p, "p99_ms"));
                if is_diag {
                    let (bw, pw) = (bm - delay(b), pm - delay(p));
                    let nd = |r: Option<&Value>| r.map(|r| r["extra"]["diagnostics"].to_string()).unwrap_or("-".into());
                    let _ = writeln!(
                        out,
                        "| {input} | {phase} | {n} | {} | {} | {} | {} | {} | {} | **{}** | **{}** | {} | {} / {} | {cpu} |",
                        fmt_ms(bm),
                        fmt_ms(b99),
                        fmt_ms(bw),
                        fmt_ms(pm),
                        fmt_ms(p99),
                        fmt_ms(pw),
                        ratio(bm, pm),
                        ratio(b99, p99),
                        ratio(bw, pw),
                        nd(b),
                        nd(p)
                    );
                } else {
                    let ans = |r: Option<&Value>| {
                        r.map(|r| {
                            let sym = r["extra"]["symbols"]
                                .as_u64()
                                .map(|s| format!(" ({s} symbols)"))
                                .unwrap_or_default();
                            format!("{}{sym}", r["answered"])
                        })
                        .unwrap_or("-".into())
                    };
                    let _ = writeln!(
                        out,
                        "| {input} | {phase} | {n} | {} | {} | {} | {} | **{}** | **{}** | {} / {} | {cpu} |",
                        fmt_ms(bm),
                        fmt_ms(b99),
                        fmt_ms(pm),
                        fmt_ms(p99),
                        ratio(bm, pm),
                        ratio(b99, p99),
                        ans(b),
                        ans(p)
                    );
                }
            }
        }
        out.push('\n');
    }
    out
}
