//! `fixtures/fileshare` analysed through the runners of `[runner]` (issue 40): over a real sshd
//! on loopback and as job arrays on a real single-node Slurm cluster (`tests/services/runners.sh`,
//! started by `.ci/run`), against the same analysis run locally (the one `java.rs`'s tests of
//! this test run share, `common::shared`). The JVMs run on the same machine
//! all three times: what differs is only how they get there and back, so the laws must agree in
//! what their evidence carries (issue 48: no flaky test):
//!
//! - the exact laws (what the code loops, decides and passes on, `fixtures/fileshare/README.md`)
//!   are the same law, character for character: counts do not depend on the window they were
//!   counted in (the three-seed test in `java.rs` holds them equal over seeds);
//! - the sizes hashed and stored (a mixture: they carry the measured compression ratio) agree
//!   within 10 %, their constants within each other's intervals (widened to twice: the spread
//!   between runs) where the forms are the same;
//! - a timing is compared by its values at points across the inputs' range, never by its form:
//!   two windows of JVMs pick different forms from the same evidence (a CI run had `partition`
//!   as `… ? 1.2E-9 * files.INNER.BYTESIZE * files.NUMBER_OF_ELEMENTS + 0.0156 : 0.0064` over ssh
//!   against a ratio term here). Final in both runs, its level lies within the window level of
//!   `java.rs`'s fresh-point test, and once that level is taken out, at least [`WITHIN_BAND`] of
//!   the points lie within the two laws' own 95 % bands; final in one run only, it agrees in
//!   order of magnitude (the other's is preliminary: not carried by its evidence). Where no
//!   timing is final in either run (beside a CPU hog), every timing both have agrees in order of
//!   magnitude, and there is at least one.
//!
//! Without the services these tests skip, unless `BEAGLE_E2E_REQUIRE_RUNNERS=1` (CI).

mod common;

use common::shared::analysed_fileshare;
use common::{beagle_in, copy_dir, json, root, window_level_for, WITHIN_BAND};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// How far a timing final in one run only may lie from the other run's, either way: an order of
/// magnitude (a runner that lost the units or the probe's correction is off by a thousand times).
const ONE_FINAL_LEVEL: f64 = 10.0;

/// The exact laws of `fixtures/fileshare` (its README), as `java.rs`'s three-seed test names
/// them: element ids, or their beginnings.
const EXACT: [&str; 5] = [
    "_fs_compress_loop",
    "_fs_file_loop",
    "_fs_file_size/",
    "_fs_compress_call/",
    "_fs_write_",
];

fn required() -> bool {
    std::env::var("BEAGLE_E2E_REQUIRE_RUNNERS").as_deref() == Ok("1")
}

fn services_up() -> bool {
    let key = std::env::var("BEAGLE_TEST_SSH_KEY").unwrap_or_else(|_| "/tmp/beagle-ssh-key".into());
    let ssh = Command::new("ssh")
        .args([
            "-p",
            "2222",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=accept-new",
            "-i",
            &key,
        ])
        .args(["beagletest@127.0.0.1", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    let slurm = Command::new("sinfo")
        .args(["-h"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        (ssh && slurm) || !required(),
        "the test sshd and Slurm (tests/services/runners.sh) are not up"
    );
    if !(ssh && slurm) {
        eprintln!("skipped: the test sshd or Slurm is not up (run tests/services/runners.sh as root)");
    }
    ssh && slurm
}

/// A result of `--json`: kind, expression, final, band.
#[derive(Clone, Debug)]
struct Law {
    kind: String,
    expression: String,
    is_final: bool,
    /// Half-width of the 95 % band of a point's relative prediction error, if the evidence has one
    /// (and its errors are relative).
    band: Option<f64>,
    /// Each constant's interval: (low, value, high).
    intervals: Vec<(f64, f64, f64)>,
}

/// `beagle analyse --json --seed SEED` on a copy of fileshare with `runner` appended to its
/// beagle.toml; the report is offered to the run's other tests as that seed's analysis
/// (`java.rs`'s three-seed test).
fn analyse(runner: &str, dir: &Path, seed: u64) -> (BTreeMap<String, Law>, String) {
    copy_dir(&root().join("fixtures/fileshare"), dir);
    let toml = dir.join("beagle.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}\n{runner}")).unwrap();
    let out = beagle_in(dir, &["analyse", "--json", "-v", "--seed", &seed.to_string(), "."]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let report = json(&out);
    common::shared::offer_report(&format!("fileshare-seed-{seed}"), &report);
    (laws(&report), stderr)
}

/// The laws of a `--json` report, by element.
fn laws(report: &serde_json::Value) -> BTreeMap<String, Law> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["element"].as_str().unwrap().to_string(),
                Law {
                    kind: r["kind"].as_str().unwrap().to_string(),
                    expression: r["expression"].as_str().unwrap().to_string(),
                    is_final: r["evidence"]["is_final"].as_bool().unwrap_or(false),
                    band: (r["evidence"]["relative"] == true)
                        .then(|| r["evidence"]["band"].as_f64())
                        .flatten(),
                    intervals: r["evidence"]["intervals"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .map(|i| {
                                    let f = |k: &str| i[k].as_f64().unwrap();
                                    (f("low"), f("value"), f("high"))
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                },
            )
        })
        .collect()
}

/// The expression with its numbers taken out: its form.
fn form(expression: &str) -> String {
    let mut out = String::new();
    let mut number = false;
    for c in expression.chars() {
        let digit = c.is_ascii_digit() || (number && matches!(c, '.' | 'E' | '-'));
        if digit && !number {
            out.push('c');
        }
        if !digit {
            out.push(c);
        }
        number = digit;
    }
    out
}

/// The law at fileshare's inputs across their ranges (one upload's file of each size class).
/// The sizes a timing is compared at: the fileshare's, within the element's own domain. A large
/// write runs only for records above 200000 bytes and a small one below: a law of one evaluated
/// at the other's sizes extrapolates, where a constant and a line of the same points may differ
/// tenfold (a constant 0.026 ms against `9E-8 * record.BYTESIZE` at 2000 bytes).
fn sizes_for(element: &str) -> &'static [f64] {
    if element.starts_with("_fs_large_write") {
        &[250_000.0, 300_000.0, 350_000.0, 400_000.0]
    } else if element.starts_with("_fs_small_write") {
        &[2_000.0, 20_000.0, 100_000.0, 150_000.0]
    } else {
        &[2_000.0, 20_000.0, 150_000.0, 350_000.0]
    }
}

fn predictions(expression: &str) -> Vec<f64> {
    predictions_at(expression, sizes_for(""))
}

fn predictions_at(expression: &str, sizes: &[f64]) -> Vec<f64> {
    let e = beagle_stoex::parse(expression).unwrap();
    let mut out = Vec::new();
    for &size in sizes {
        for (files, compressed) in [(2.0, 0.0), (20.0, 10.0), (40.0, 40.0)] {
            let env = |name: &str| match name {
                "data.BYTESIZE" | "record.BYTESIZE" | "files.INNER.BYTESIZE" => Some(size),
                "files.NUMBER_OF_ELEMENTS" => Some(files),
                "alreadyCompressed.NUMBER_OF_ELEMENTS" => Some(compressed),
                "digest.BYTESIZE" => Some(32.0),
                _ => None,
            };
            out.push(beagle_stoex::eval_number(&e, &env).unwrap_or_else(|err| panic!("{expression}: {err:?}")));
        }
    }
    out
}

/// The median of `v` (the upper one of an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Whether timing `theirs` (another run's) agrees with `here` by what their evidence carries:
/// `Ok` with what was compared, or `Err` with why not. Only the values at fileshare's points are
/// compared, never the forms. `WITHIN_BAND` and the window levels are those of `java.rs`'s
/// fresh-point test, which holds one run's laws to another window's JVMs by the same rules.
fn timing_agrees(here: &Law, theirs: &Law) -> Result<String, String> {
    timing_agrees_at(here, theirs, sizes_for(""))
}

/// [`timing_agrees`] at `sizes` ([`sizes_for`] the element).
fn timing_agrees_at(here: &Law, theirs: &Law, sizes: &[f64]) -> Result<String, String> {
    let (h, t) = (
        predictions_at(&here.expression, sizes),
        predictions_at(&theirs.expression, sizes),
    );
    let ratios: Vec<f64> = t.iter().zip(&h).map(|(t, h)| t / h).collect();
    let usable: Vec<f64> = ratios.iter().copied().filter(|r| r.is_finite() && *r > 0.0).collect();
    if usable.is_empty() {
        return Err(format!(
            "no point where both predict a positive time: ratios {ratios:?}"
        ));
    }
    // The other window's level: the median ratio, so that the points the laws differ at do not set it.
    let level = median(usable);
    let both_final = here.is_final && theirs.is_final;
    if !both_final {
        return match (1.0 / ONE_FINAL_LEVEL..=ONE_FINAL_LEVEL).contains(&level) {
            true => Ok(format!(
                "{}: {level:.2} times, within an order of magnitude",
                if here.is_final || theirs.is_final {
                    "one final"
                } else {
                    "neither final"
                }
            )),
            false => Err(format!("{level:.2} times: not within an order of magnitude")),
        };
    }
    // Two windows of JVMs move a timing as a whole: a few-microsecond one more than the others.
    let window = window_level_for(median(h.clone()));
    if !(1.0 / window..=window).contains(&level) {
        return Err(format!("{level:.2} times: beyond the window level {window}"));
    }
    // Once the level is out, each law is within its own band of what its window measured (95 % of
    // a point's prediction errors): two laws apart by more than both bands together at a point
    // means one of them misses its band there. A final law's band is at most ±100 %.
    let band = |l: &Law| l.band.unwrap_or(1.0).clamp(0.0, 1.0);
    let factor = (1.0 + band(here)) * (1.0 + band(theirs));
    let within = ratios
        .iter()
        .filter(|r| r.is_finite() && **r > 0.0 && (1.0 / factor..=factor).contains(&(**r / level)))
        .count();
    let shown = format!(
        "{level:.2} times (window level {window}); {within} of {} points within the bands' factor {factor:.2} once scaled: {ratios:?}",
        ratios.len()
    );
    match within as f64 >= WITHIN_BAND * ratios.len() as f64 {
        true => Ok(shown),
        false => Err(shown),
    }
}

/// The laws of `other` against those of `here`.
fn same_laws(name: &str, here: &BTreeMap<String, Law>, other: &BTreeMap<String, Law>) {
    let timing = |l: &Law| l.kind == "resource_demand";
    let exact = |id: &str| EXACT.iter().any(|e| id.starts_with(e));
    for (id, law) in here.iter().filter(|(_, l)| l.is_final && !timing(l)) {
        let theirs = other.get(id).unwrap_or_else(|| panic!("{name}: no result for {id}"));
        // Counts are the same in any window: the same law.
        if exact(id) {
            assert_eq!(theirs.expression, law.expression, "{name}: {id}");
            continue;
        }
        // The sizes hashed and stored carry the measured compression ratio. The points a run adds
        // where its timings err most differ between runs, and with them the mixes a passed size
        // averages over (how much a random file compresses): a correction of some hundred bytes
        // (an intercept, a logarithm) is within the noise of one run and not of another. The laws
        // agree within 10 % from 20 KB, and where their forms are the same, each constant lies
        // within the other's interval.
        let large = |e: &str| predictions(e).into_iter().skip(3).collect::<Vec<_>>();
        for (t, h) in large(&theirs.expression).into_iter().zip(large(&law.expression)) {
            assert!(
                (t - h).abs() <= 0.1 * h.abs().max(1e-9),
                "{name}: {id}: {} against {} here: {t} against {h}",
                theirs.expression,
                law.expression
            );
        }
        // An interval is one run's uncertainty given its points; which points a run measured
        // (and so which random files it compressed) moves a ratio by more between runs: a CI run
        // had the hashed share 0.2886 ± 0.0004 over Slurm against 0.2896 ± 0.0005 here, 0.35 %
        // apart, and a session's the bytes' correction 300 ± 70 over ssh against 500 ± 108 here.
        // So a constant agrees within its interval widened to twice its half-width (the spread
        // between runs) or within 1 % (a ratio off by a probe's bytes or a wrong mixture is off by
        // several per cent, many times its interval; the values above by 10 %).
        if form(&theirs.expression) == form(&law.expression) {
            let widened = |i: &(f64, f64, f64)| (i.1 - 2.0 * (i.1 - i.0), i.1, i.1 + 2.0 * (i.2 - i.1));
            for (t, h) in theirs.intervals.iter().zip(&law.intervals) {
                let (t, h) = (widened(t), widened(h));
                let overlap = t.0 <= h.2 + 1e-9 * h.2.abs() && h.0 <= t.2 + 1e-9 * t.2.abs();
                let near = (t.1 - h.1).abs() <= 0.01 * h.1.abs();
                assert!(
                    overlap || near,
                    "{name}: {id}: {} against {} here: constant {t:?} outside {h:?}",
                    theirs.expression,
                    law.expression
                );
            }
        }
    }
    // Timings final in either run, by their values (`timing_agrees`). Beside a CPU hog every
    // timing of both runs may end preliminary (an under-load run of issue 48 had none final over
    // Slurm nor here): that is the judge's call on its evidence, not the runner's doing, and then
    // every timing both runs have is held to the order of magnitude of a preliminary one, so that
    // a runner that lost the units or the probes' correction still fails.
    let both: Vec<(&String, &Law, &Law)> = here
        .iter()
        .filter(|(_, l)| timing(l))
        .filter_map(|(id, h)| other.get(id).map(|t| (id, h, t)))
        .collect();
    let any_final = both.iter().any(|(_, h, t)| h.is_final || t.is_final);
    let compared: Vec<(&String, &Law, &Law)> = (both.into_iter())
        .filter(|(_, h, t)| !any_final || h.is_final || t.is_final)
        .collect();
    let mut disagree = Vec::new();
    for (id, law, theirs) in &compared {
        let status = |l: &Law| if l.is_final { "final" } else { "preliminary" };
        let verdict = timing_agrees_at(law, theirs, sizes_for(id));
        let shown = format!(
            "{name}: {id}: {} ({}, band {:?}) against {} ({}, band {:?}) here: {}",
            theirs.expression,
            status(theirs),
            theirs.band,
            law.expression,
            status(law),
            law.band,
            verdict.as_ref().unwrap_or_else(|e| e)
        );
        eprintln!("{shown}");
        if verdict.is_err() {
            disagree.push(shown);
        }
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
    assert!(!compared.is_empty(), "{name}: no timing in both runs");
}

#[test]
fn fileshare_through_ssh_and_slurm_has_the_laws_of_a_local_run() {
    if !services_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let key = std::env::var("BEAGLE_TEST_SSH_KEY").unwrap_or_else(|_| "/tmp/beagle-ssh-key".into());
    // The local run: the bundled example's own analysis (seed 1), which `java.rs`'s tests of this
    // run share (a minute of JVMs measured once).
    let here = laws(&analysed_fileshare().1);
    let ssh = format!(
        "[runner]\nkind = \"ssh\"\nhost = \"127.0.0.1\"\nport = 2222\nuser = \"beagletest\"\nidentity = \"{key}\"\nwork_dir = \"beagle-test-work/fileshare-{}\"\n",
        std::process::id()
    );
    let (over_ssh, log) = analyse(&ssh, &d.path().join("ssh"), 2);
    assert!(log.contains("ssh 127.0.0.1: 2 class path entries copied"), "{log}");
    same_laws("ssh", &here, &over_ssh);
    let slurm_work = d.path().join("slurm-work");
    let slurm = format!(
        "[runner]\nkind = \"slurm\"\nwork_dir = \"{}\"\nmax_parallel = 2\n",
        slurm_work.display()
    );
    let (on_slurm, log) = analyse(&slurm, &d.path().join("slurm"), 3);
    assert!(log.contains("slurm: 2 class path entries copied"), "{log}");
    same_laws("slurm", &here, &on_slurm);
    // The JVM folders on the cluster's shared folder are gone with the analysis.
    let left: Vec<_> = std::fs::read_dir(slurm_work.join("runs")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn forms_take_the_numbers_out() {
    assert_eq!(form("9.0E-6 * data.BYTESIZE + 0.011"), "c * data.BYTESIZE + c");
    assert_eq!(
        form("5.0E-8 * data.BYTESIZE * Log(2, data.BYTESIZE)"),
        "c * data.BYTESIZE * Log(c, data.BYTESIZE)"
    );
}

fn timing(expression: &str, is_final: bool, band: f64) -> Law {
    Law {
        kind: "resource_demand".into(),
        expression: expression.into(),
        is_final,
        band: Some(band),
        intervals: vec![],
    }
}

/// What `timing_agrees` lets through and what not, without the services.
#[test]
fn timings_agree_by_their_values_within_the_window_and_their_bands_not_by_their_forms() {
    let sn = "files.INNER.BYTESIZE * files.NUMBER_OF_ELEMENTS";
    // A compress-like law and the same scaled by another window: within the window level.
    let here = timing("1.0E-5 * data.BYTESIZE", true, 0.2);
    assert!(timing_agrees(&here, &timing("1.6E-5 * data.BYTESIZE", true, 0.2)).is_ok());
    // Another form of the same cost (n·log n against n): as close as the bands say.
    let n_log_n = "5.5E-7 * data.BYTESIZE * Log(2, data.BYTESIZE) + 0.002";
    assert!(timing_agrees(&here, &timing(n_log_n, true, 0.2)).is_ok());
    // Off by a unit, or by a level no window explains: caught.
    assert!(timing_agrees(&here, &timing("1.0E-2 * data.BYTESIZE", true, 0.2)).is_err());
    assert!(timing_agrees(&here, &timing("2.5E-5 * data.BYTESIZE", true, 0.2)).is_err());
    // A flat law at the same level where the other grows with the bytes: outside both bands.
    assert!(timing_agrees(&here, &timing("0.35", true, 0.2)).is_err());
    // A few microseconds of bookkeeping in two forms, the other window 2.2 times higher: a
    // switch on the product of size and count against a ratio term, as in the CI run.
    let switch = format!("{sn} > 100000 ? 1.2E-9 * {sn} + 0.0156 : 0.0064");
    let ratio = format!("3.5E-9 * {sn} / (1 + 0.05 * files.NUMBER_OF_ELEMENTS) + 0.0035");
    let verdict = timing_agrees(&timing(&ratio, true, 0.6), &timing(&switch, true, 0.6));
    assert!(verdict.is_ok(), "{verdict:?}");
    // Final in one run only: an order of magnitude.
    assert!(timing_agrees(&here, &timing("8.0E-5 * data.BYTESIZE", false, 0.0)).is_ok());
    assert!(timing_agrees(&here, &timing("2.0E-4 * data.BYTESIZE", false, 0.0)).is_err());
}
