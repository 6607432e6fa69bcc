//! A section's demand is net of the probes (issue 35): `benchmarks/probe/NetCost.java` tunes busy
//! loops to 200 ns, 1 µs and 10 µs uninstrumented, times them in CPU sections as the instrumenter
//! writes them (flat, and an inner section inside an outer one holding as much work again), and
//! compares the probe's net totals with the loop timed uninstrumented in the same JVM.
//!
//! The benchmark (`benchmarks/probe/net.sh`, NET-RESULTS.md) shows the median within 1 % on this
//! machine and within 6 % under a load of 6 on its 2 cores. This test runs while other tests keep
//! the cores busy, so it holds the median of three JVMs to the band such a load left (6 %; 25 % at
//! 200 ns, a few probe costs long), and checks the contrast: a JVM that does not subtract
//! (`-Dbeagle.calibrate=false`) reports the nested 200 ns sections 15–37 % too high here, and the
//! subtraction takes most of that away.

mod probe_common;

use std::collections::BTreeMap;
use std::process::Command;

const NET_COST: &str = include_str!("../../../benchmarks/probe/NetCost.java");

#[test]
fn sections_report_their_code_net_of_the_probes() {
    if Command::new("javac").arg("-version").output().is_err() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let classpath = probe_common::compile_with_probe(dir.path(), "NetCost.java", NET_COST);
    // (target, section) -> relative error per JVM
    let mut errors: BTreeMap<(u32, String), Vec<f64>> = BTreeMap::new();
    let mut raw: BTreeMap<(u32, String), Vec<f64>> = BTreeMap::new();
    for jvm in 0..4 {
        let events = dir.path().join(format!("events-{jvm}"));
        // The last JVM subtracts nothing: what the probes' cost does to the same sections.
        let calibrate = if jvm < 3 { "true" } else { "false" };
        let out = Command::new("java")
            .args(["-Xms256m", "-Xmx256m"])
            .arg(format!("-Dbeagle.calibrate={calibrate}"))
            .arg(format!("-Dbeagle.events={}", events.display()))
            .arg("-cp")
            .arg(&classpath)
            .args(["NetCost", "11", "2000", "200", "1000", "10000"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 5, "{line}");
            let err: f64 = f[4].parse().unwrap();
            let into = if jvm < 3 { &mut errors } else { &mut raw };
            into.entry((f[0].parse().unwrap(), f[1].to_string()))
                .or_default()
                .push(err);
        }
    }
    assert_eq!(errors.len(), 9, "3 targets × flat, outer, inner: {errors:?}");
    let unsubtracted = raw[&(200, "outer".to_string())][0];
    let mut subtracted = errors[&(200, "outer".to_string())].clone();
    subtracted.sort_by(f64::total_cmp);
    // The subtraction takes away most of what the probes add: at least 40 % of it. (Half, before
    // issue 48: a CI run under nextest measured +36.7 % without it and +19.4 % with it, the nested
    // 200 ns section being a few probe costs long, where the cost calibrated at the JVM's start
    // and the cost paid in the loop differ by some nanoseconds.) Without the subtraction the two
    // kinds of JVM agree and this fails.
    assert!(
        unsubtracted > 0.1 && subtracted[1].abs() < 0.6 * unsubtracted,
        "the nested 200 ns section: {:+.1} % off without the subtraction, {:+.1} % with it",
        100.0 * unsubtracted,
        100.0 * subtracted[1]
    );
    for ((target, section), mut e) in errors {
        e.sort_by(f64::total_cmp);
        let median = e[1];
        // At 200 ns a section is a few probe costs long: what the calibration at the JVM's start
        // misses of the cost paid in the loop is a few nanoseconds, up to 20 % of it (the CI run
        // above: +19.4 %). At 1 µs it is still some 60 ns: a CI run with real-client tests beside
        // it measured +6.2 % (JVMs +2.9, +6.2, +6.7 %), so 10 %; from 10 µs up the benchmark's
        // band under load, 6 %, holds. (Whether the probes' cost is subtracted at all is the
        // 200 ns check's above: there it is most of the error, here a few per cent.)
        let band = match target {
            t if t < 1000 => 0.25,
            t if t < 10_000 => 0.10,
            _ => 0.06,
        };
        assert!(
            median.abs() <= band,
            "{section} section of {target} ns: net of the probe {:+.1} % off the uninstrumented loop (JVMs: {e:?})",
            100.0 * median
        );
    }
}
