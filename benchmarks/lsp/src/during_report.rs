//! DURING-ANALYSIS.md from the JSON lines of `during` runs.

use serde_json::{json, Value};

/// The markdown of `during` runs: hovers per server, input and phase, with Beagle over the peer
/// (the first server whose mode is "beside"), and memory per run.
pub fn render(jsonl: &str, facts: &[String]) -> String {
    let lines: Vec<Value> = jsonl.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let hovers: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "hover").collect();
    let runs: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "run").collect();
    let peer = runs.iter().find(|r| r["mode"] == "beside").map(|r| r["server"].clone());
    let ms = |v: &Value| {
        v.as_f64().map_or("—".into(), |x| {
            if x >= 100.0 {
                format!("{x:.0} ms")
            } else if x >= 1.0 {
                format!("{x:.2} ms")
            } else {
                format!("{x:.3} ms")
            }
        })
    };
    let ratio = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) if b > 0.0 => format!("**{:.2}x**", a / b),
        _ => "—".into(),
    };
    let mut out = String::from("# Language server during an analysis: results\n\n");
    for f in facts {
        if let Some((k, v)) = f.split_once('=') {
            out.push_str(&format!("- {k}: {v}\n"));
        }
    }
    let ours = hovers
        .iter()
        .filter(|h| h["server"] == "beagle" && h["mode"] == "in-server" && h["phase"] == "during");
    let worst = ours.clone().filter_map(|h| h["p99_ms"].as_f64()).fold(0.0, f64::max);
    let ours_run = runs
        .iter()
        .find(|r| r["server"] == "beagle" && r["mode"] == "in-server");
    if let Some(r) = ours_run {
        out.push_str(&format!(
            "\n**Target: hover p99 under 10 ms while the server analyses: {}** (worst input: {}). **Memory: the server peaked at {} MB** ({} MB before the analysis, {} MB after it; the same analysis as a separate `beagle analyse` process, beside the peer: {} MB).\n",
            if worst < 10.0 && ours.clone().count() > 0 { "met" } else { "not met" },
            ms(&json!(worst)),
            r["rss_peak_mb"],
            r["rss_before_mb"],
            r["rss_after_mb"],
            runs.iter().find(|r| r["mode"] == "beside").map_or(json!("—"), |r| r["beside_peak_mb"].clone()),
        ));
    }
    out.push_str("\n## Hover\n\nOne hover in flight, a pause after each; \"before\": the documents open, nothing running; \"during\": from the start of the analysis to its end. Beagle / peer divides Beagle's time by the peer's in the same phase and input: **below 1.00x Beagle is faster**.\n\n");
    out.push_str("| server | analysis | input | phase | n | median | p90 | p99 | max | Beagle / peer median | Beagle / peer p99 | answered | with preliminary / final results |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for h in &hovers {
        let peer_line = peer.as_ref().and_then(|p| {
            hovers
                .iter()
                .find(|x| x["server"] == *p && x["input"] == h["input"] && x["phase"] == h["phase"])
        });
        let (rm, rp) = match peer_line {
            Some(p) if h["mode"] != "beside" => (
                ratio(&h["median_ms"], &p["median_ms"]),
                ratio(&h["p99_ms"], &p["p99_ms"]),
            ),
            _ => ("".into(), "".into()),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {rm} | {rp} | {} | {} / {} |\n",
            h["server"].as_str().unwrap_or(""),
            h["mode"].as_str().unwrap_or(""),
            h["input"].as_str().unwrap_or(""),
            h["phase"].as_str().unwrap_or(""),
            h["n"],
            ms(&h["median_ms"]),
            ms(&h["p90_ms"]),
            ms(&h["p99_ms"]),
            ms(&h["max_ms"]),
            h["answered"],
            h["with_preliminary_results"],
            h["with_final_results"],
        ));
    }
    out.push_str("\n## Memory and the analysis\n\nResident memory (VmRSS) of the server, sampled every 100 ms, and its high-water mark (VmHWM); \"beside\" is the separate `beagle analyse` process of the peer's run (its JVMs are children, counted in neither).\n\n");
    out.push_str("| server | analysis | took | how it ended | RSS before | RSS peak | RSS after | analysis process beside, peak | `beagle.status` median / p99 | machine CPU |\n|---|---|---:|---|---:|---:|---:|---:|---|---:|\n");
    for r in &runs {
        let status = if r["status"]["n"].as_u64().unwrap_or(0) > 0 {
            format!("{} / {}", ms(&r["status"]["median_ms"]), ms(&r["status"]["p99_ms"]))
        } else {
            "—".into()
        };
        out.push_str(&format!(
            "| {} | {} | {} s | {} | {} MB | {} MB | {} MB | {} | {status} | {} % |\n",
            r["server"].as_str().unwrap_or(""),
            r["mode"].as_str().unwrap_or(""),
            r["analysis_s"],
            r["outcome"].as_str().unwrap_or("").replace('|', "/"),
            r["rss_before_mb"],
            r["rss_peak_mb"],
            r["rss_after_mb"],
            if r["mode"] == "beside" {
                format!("{} MB", r["beside_peak_mb"])
            } else {
                "—".into()
            },
            r["machine_cpu_busy_pct"],
        ));
    }
    out.push_str("\nResident memory from the opening of the documents on (MB, every 10 s; for the peer's run: server / process beside):\n\n");
    for r in &runs {
        let points: Vec<String> = r["timeline"]
            .as_array()
            .map(|t| {
                t.iter()
                    .step_by(5)
                    .map(|p| {
                        if r["mode"] == "beside" {
                            format!(
                                "{:.0} s: {:.0} / {:.0}",
                                p[0].as_f64().unwrap_or(0.0),
                                p[1].as_f64().unwrap_or(0.0),
                                p[2].as_f64().unwrap_or(0.0)
                            )
                        } else {
                            format!(
                                "{:.0} s: {:.0}",
                                p[0].as_f64().unwrap_or(0.0),
                                p[1].as_f64().unwrap_or(0.0)
                            )
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "- {} ({}): {}\n",
            r["server"].as_str().unwrap_or(""),
            r["mode"].as_str().unwrap_or(""),
            points.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hover(server: &str, mode: &str, phase: &str, median: f64, p99: f64) -> String {
        json!({"kind": "hover", "server": server, "mode": mode, "input": "generated-10MB", "phase": phase,
               "n": 100, "median_ms": median, "p90_ms": p99, "p99_ms": p99, "max_ms": p99,
               "answered": 100, "with_preliminary_results": 3, "with_final_results": 0})
        .to_string()
    }

    fn run(server: &str, mode: &str, peak: f64) -> String {
        json!({"kind": "run", "server": server, "mode": mode, "analysis_s": 70.0, "outcome": "done",
               "rss_before_mb": 60.0, "rss_peak_mb": peak, "rss_after_mb": 80.0, "beside_peak_mb": 230.0,
               "status": {"n": 0}, "machine_cpu_busy_pct": 99.0, "timeline": [[0.0, 60.0, 0.0]]})
        .to_string()
    }

    #[test]
    fn the_target_and_the_ratios_come_from_the_runs() {
        let lines = [
            hover("beagle", "in-server", "during", 0.2, 4.0),
            hover("vscode-html-language-server", "beside", "during", 0.4, 8.0),
            run("beagle", "in-server", 250.0),
            run("vscode-html-language-server", "beside", 120.0),
        ]
        .join("\n");
        let md = render(&lines, &["Date=today".into()]);
        assert!(md.contains("- Date: today"));
        assert!(
            md.contains("while the server analyses: met** (worst input: 4.00 ms)"),
            "{md}"
        );
        assert!(md.contains("the server peaked at 250.0 MB"), "{md}");
        assert!(md.contains("| **0.50x** | **0.50x** |"), "{md}");
        let slow = lines.replace("\"p99_ms\":4.0", "\"p99_ms\":12.0");
        assert!(render(&slow, &[]).contains("not met** (worst input: 12.00 ms)"));
    }
}
