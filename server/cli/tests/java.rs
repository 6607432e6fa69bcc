//! `beagle analyse` on a real Java system: the bundled file-sharing example is instrumented, run
//! under its workloads and its laws recovered (checked on fresh parameter points where they are
//! measured laws, not exact ones); failing launches are named and lose no measurements.

use beagle_analysis::{medians, scope_elements, MeasurementResult, Scope};
use beagle_java::launch::{read_java_config, JavaConfig, Point, PointValue};
use beagle_java::measure::{measure_batch, measure_point, PointMeasurement};
use beagle_java::prepare::{prepare, Prepared};
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::eval_law;
use common::shared::analysed_fileshare;
use common::{copy_dir, window_level_for, WITHIN_BAND};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A private copy of `fixtures/fileshare` (the store lives in the folder).
fn fileshare_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/fileshare"), dir.path());
    dir
}

/// The bundled example analysed while another process keeps a core busy, shared as above.
fn analysed_fileshare_while_a_core_is_busy() -> serde_json::Value {
    common::shared::shared_report("fileshare-a-core-busy", |dir| {
        copy_dir(&root().join("fixtures/fileshare"), dir);
        analyse_while_a_core_is_busy(dir)
    })
    .1
}

fn beagle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(args)
        .output()
        .expect("beagle runs")
}

fn json(o: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&o.stderr)))
}

/// element id -> expression.
fn expressions(report: &serde_json::Value) -> BTreeMap<String, String> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["element"].as_str().unwrap().to_string(),
                r["expression"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

fn config(dir: &Path) -> JavaConfig {
    let toml_path = dir.join("beagle.toml");
    let text = std::fs::read_to_string(&toml_path).unwrap();
    read_java_config(&toml_path, &text).unwrap().unwrap()
}

fn point(files: f64, size: f64, compressed: f64) -> Point {
    [
        ("files".to_string(), PointValue::Number(files)),
        ("size".to_string(), PointValue::Number(size)),
        ("compressed".to_string(), PointValue::Number(compressed)),
    ]
    .into()
}

/// Rounds of fresh measurements. A machine shared with other work disturbs timings for seconds at
/// a time: measured once, one disturbed point spoils a law check. Interleaved rounds spread such a
/// disturbance over all points, and the per-point median over the pooled rounds outvotes it.
const FRESH_ROUNDS: usize = 3;

/// Measures `points` afresh (not through the analysis), in `FRESH_ROUNDS` interleaved rounds, and
/// returns each element's observations.
fn measure_fresh(dir: &Path, name: &str, points: &[Point]) -> BTreeMap<String, MeasurementResult> {
    let (config, prepared, work) = prepared_fileshare(dir, name);
    let mut out: BTreeMap<String, MeasurementResult> = BTreeMap::new();
    // As the analysis measures: `points_per_jvm` points share a JVM (the fixture's five), so the
    // laws are checked against JVMs that compiled the code for a mix of points, as theirs did.
    let per_jvm = config.workload.points_per_jvm.max(1);
    for round in 0..FRESH_ROUNDS {
        for (b, chunk) in points.chunks(per_jvm).enumerate() {
            let first = b * per_jvm;
            let dirs: Vec<PathBuf> = (first..first + chunk.len())
                .map(|i| work.join(format!("{round}-{i}")))
                .collect();
            let tags: Vec<String> = (first..first + chunk.len()).map(|i| format!("f{round}-{i}")).collect();
            let measured = match chunk {
                [p] => vec![measure_point(&config, &prepared, &config.launches[0], p, &dirs[0], &tags[0]).unwrap()],
                _ => measure_batch(
                    &config,
                    &prepared,
                    &config.launches[0],
                    chunk,
                    &dirs,
                    &work.join(format!("{round}-jvm-{b}")),
                    &tags,
                )
                .unwrap(),
            };
            for m in measured {
                for (e, r) in m.results {
                    out.entry(e.id.clone())
                        .or_insert_with(|| MeasurementResult::new(e.id.clone(), Vec::new()))
                        .merge(r);
                }
            }
        }
    }
    out
}

/// The file-share copy at `dir` instrumented and compiled under `.beagle/<name>` (that folder returned).
fn prepared_fileshare(dir: &Path, name: &str) -> (JavaConfig, Prepared, PathBuf) {
    let config = config(dir);
    let repo_path = dir.join("model/fileshare.repository");
    let file = ModelFile::from_bytes(repo_path.clone(), std::fs::read(&repo_path).unwrap());
    let repo = file.repository.as_ref().unwrap();
    let scope = scope_elements(repo, &Scope::Repository).unwrap();
    let links = beagle_java::links::read_links(&dir.join("model/links.toml"), &config.root, &config.sources)
        .unwrap()
        .links;
    let services = scope.services.keys().cloned().collect();
    let work = dir.join(".beagle").join(name);
    let prepared = prepare(&config, &[repo], &scope.elements, &services, &links, &[], &work).unwrap();
    (config, prepared, work)
}

/// How a law predicts the per-point means of fresh measurements (outliers beyond the far-out
/// fences left out, as the published level leaves them out; `beagle_fit::level`): `(level, R²)`.
/// A law's level is the mean a simulator adds, so the means are what it must predict. `level` is
/// the common factor `k` that brings the law closest to them (least squares), R² that of `k·law`.
/// The two are apart because fresh JVMs run as a whole a few per cent faster or slower than the
/// analysis's (their spread is the 7 % the analysis measures between JVMs): in one CI run every
/// fresh hash took 10 % less than a law that fitted its own JVMs, and the R² of the law as it is
/// fell to 0.936 though its form was right (0.99 at its level).
fn fit_on(stoex: &str, result: &MeasurementResult, variable: &str) -> (f64, f64) {
    let m = medians(result);
    let ys: Vec<f64> = m.observations.iter().map(|o| o.mean.unwrap_or(o.value)).collect();
    let fs: Vec<f64> = m
        .observations
        .iter()
        .map(|o| eval_law(stoex, &[(variable, o.parameters[variable])]))
        .collect();
    let k = ys.iter().zip(&fs).map(|(y, f)| y * f).sum::<f64>() / fs.iter().map(|f| f * f).sum::<f64>();
    let mean = ys.iter().sum::<f64>() / ys.len() as f64;
    let ss_tot: f64 = ys.iter().map(|y| (y - mean).powi(2)).sum();
    let ss_res: f64 = ys.iter().zip(&fs).map(|(y, f)| (y - k * f).powi(2)).sum();
    let r2 = 1.0 - ss_res / ss_tot;
    // Shown when a check fails (and with --nocapture): the margin, point by point.
    eprintln!("{stoex}: level {k}, R² {r2} at that level on fresh points");
    for ((o, y), f) in m.observations.iter().zip(&ys).zip(&fs) {
        eprintln!(
            "  {variable} = {}: mean {y} (median {}) predicted {f}",
            o.parameters[variable], o.value
        );
    }
    (k, r2)
}

/// The tests here run real JVMs on a small machine. Run one at a time, they never disturb each
/// other's timings (the law checks measure CPU demands).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    // A failed test poisons the lock; the others still run, one at a time.
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn the_fileshare_system_is_measured_and_its_laws_recovered() {
    let _alone = one_at_a_time();
    let (analysed, report) = analysed_fileshare();
    let x = expressions(&report);
    let source = "src/fileshare/BusinessCore.java";
    assert_eq!(
        std::fs::read(analysed.join(source)).unwrap(),
        std::fs::read(root().join("fixtures/fileshare").join(source)).unwrap(),
        "the user's sources are never written"
    );
    // Fresh measurements in a copy of their own (the shared workspace is only read).
    let dir = fileshare_copy();
    // Compress calls: one per file not yet compressed.
    let compress_loop = &x["_fs_compress_loop"];
    let n = "files.NUMBER_OF_ELEMENTS";
    let c = "alreadyCompressed.NUMBER_OF_ELEMENTS";
    for (files, compressed) in [(1.0, 0.0), (7.0, 3.0), (40.0, 40.0), (33.0, 12.0)] {
        assert_eq!(
            eval_law(compress_loop, &[(n, files), (c, compressed)]),
            files - compressed,
            "{compress_loop}"
        );
    }
    // Every file goes round the file loop.
    assert_eq!(x["_fs_file_loop"], n);
    // Large files (more than 200,000 bytes) go to the large-file storage: a guard, not a guess.
    let large = &x["_fs_file_size/_fs_large"];
    assert!(large.contains("data.BYTESIZE > 200000"), "{large}");
    assert_eq!(eval_law(large, &[("data.BYTESIZE", 200000.0)]), 0.0);
    assert_eq!(eval_law(large, &[("data.BYTESIZE", 200001.0)]), 1.0);
    // The size passed on: to compression the input size, to the file stores the record's.
    assert_eq!(x["_fs_compress_call/data.BYTESIZE"], "files.INNER.BYTESIZE");
    assert_eq!(x["_fs_write_large_call/record.BYTESIZE"], "data.BYTESIZE + 16");
    assert_eq!(x["_fs_write_small_call/record.BYTESIZE"], "data.BYTESIZE + 16");
    // The size hashed is what one call passes on average: a compressed file its size, another
    // what compression made of it, and an upload of some of each their mix by count. (Fitted to
    // each point's median call, it was one of the two sizes, and the law a switch.)
    let hashed = &x["_fs_hash_call/data.BYTESIZE"];
    let size = "files.INNER.BYTESIZE";
    let at = |s: f64, files: f64, compressed: f64| eval_law(hashed, &[(size, s), (n, files), (c, compressed)]);
    for s in [40_000.0, 120_000.0, 250_000.0, 390_000.0] {
        for (files, compressed) in [(7.0, 3.0), (15.0, 7.0), (23.0, 12.0), (38.0, 19.0)] {
            let (raw, packed) = (at(s, files, 0.0), at(s, files, files));
            // The law's offset (fitted on absolute errors over sizes with a hole below 30 KB:
            // 115 to 1765 bytes in this session's runs) is a few per cent of 40 KB; the mix below
            // holds at every size, as it compares the law with itself.
            if s >= 100_000.0 {
                assert!((packed - s).abs() <= 0.05 * s, "{hashed}: {packed} for {s}");
            }
            assert!(raw > 0.1 * s && raw < 0.6 * s, "{hashed}: {raw} for {s} compressed");
            let mix = (compressed * packed + (files - compressed) * raw) / files;
            let got = at(s, files, compressed);
            assert!(
                (got - mix).abs() <= 0.05 * mix,
                "{hashed}: {got} for {compressed} of {files} files of {s} bytes compressed, not {mix}"
            );
        }
    }
    // Hash and compress CPU demands as functions of the byte size, on fresh points (sizes the
    // analysis never saw): the form right (R² >= 0.95 at the fresh JVMs' level) and the level
    // within a third (see `fit_on`). Compression gets the uploaded
    // size when no file is compressed yet. Hashing is one law for two kinds of call: a file
    // uploaded compressed, hashed with warm caches, and one compressed right before, hashed
    // colder and 10-20 % slower per byte. Its level is the mean over the analysis's uploads, a
    // third of them half compressed, so the fresh uploads are half compressed too. The band is
    // what CI runs on a busy 2-core machine showed, the law being right in form each time: hash's
    // fresh JVMs at 0.82 of the law in one run (warm calls only) and at 1.18 in another (the law's
    // slope 7E-7, the fresh JVMs' 8.6E-7). A third catches what
    // matters to a simulation: probe cost left in (2-3 times), a unit or a level from medians of a
    // skewed spread (1.5-2 times).
    let compress = x[&format!("_fs_compress/{CPU}")].clone();
    let hash = x[&format!("_fs_hash/{CPU}")].clone();
    let sizes = [7_777.0, 64_000.0, 123_457.0, 188_000.0, 251_111.0, 333_333.0];
    let raw: Vec<Point> = sizes.iter().map(|s| point(4.0, *s, 0.0)).collect();
    let mixed: Vec<Point> = sizes.iter().map(|s| point(4.0, *s, 0.5)).collect();
    let fresh_compress = &measure_fresh(dir.path(), "fresh-raw", &raw)[&format!("_fs_compress/{CPU}")];
    let fresh_hash = &measure_fresh(dir.path(), "fresh-mixed", &mixed)[&format!("_fs_hash/{CPU}")];
    for (name, law, fresh) in [("compress", &compress, fresh_compress), ("hash", &hash, fresh_hash)] {
        let (level, r2) = fit_on(law, fresh, "data.BYTESIZE");
        assert!(r2 >= 0.95, "{name}: {law}: R² {r2} on fresh points (at level {level})");
        assert!(
            (0.75..=1.33).contains(&level),
            "{name}: {law}: fresh points at {level} times the law"
        );
    }
    simple_laws(&report);
    branch_probabilities_sum_to_one(&report);
}

/// Issue 37: the README's main job ends with every timing final, or preliminary with a
/// `settled` reason (more measurements would not change it: what was asked for was measured, or
/// cannot be reached), over three seeds (the seed picks the launch points and the genetic
/// search). The exact laws (loops, the branch's guard, the sizes passed on) are the same for
/// every seed, and so, within the level two windows of JVMs on a shared machine lie apart
/// ([`common::WINDOW_LEVEL`]), is what compress, hash and frame cost at 100 KB: the three
/// analyses run minutes apart, and `frame` (memory-bound) moves as a whole between such windows
/// (30 % above every fresh point in one CI run; 1.28 times from the lowest to the highest of the
/// README's three runs), which left the earlier bound of 1.5 a few per cent of margin.
#[test]
fn over_three_seeds_the_main_job_ends_final_or_settled() {
    let _alone = one_at_a_time();
    let mut exact: Vec<BTreeMap<String, String>> = Vec::new();
    let mut at_100k: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for seed in ["1", "2", "3"] {
        // Seed 1 is the fixture's own: the analysis the other tests of this run share.
        // Seeds 2 and 3: the runner test's analyses over ssh and Slurm where it ran first (the
        // JVMs on this machine all the same), else analysed here (`common::shared`).
        let report = match seed {
            "1" => analysed_fileshare().1,
            _ => common::shared::analysed_fileshare_with_seed(seed.parse().unwrap()),
        };
        final_or_settled(&report, &format!("fileshare, seed {seed}"));
        let x = expressions(&report);
        for id in ["_fs_compress", "_fs_hash", "_fs_frame"] {
            let law = &x[&format!("{id}/{CPU}")];
            at_100k
                .entry(id)
                .or_default()
                .push(eval_law(law, &[("data.BYTESIZE", 100_000.0)]));
        }
        // The hashed and stored sizes' laws carry the measured compression ratio: not exact.
        let exact_ids = [
            "_fs_compress_loop",
            "_fs_file_loop",
            "_fs_file_size/",
            "_fs_compress_call/",
            "_fs_write_",
        ];
        exact.push(
            x.into_iter()
                .filter(|(id, _)| exact_ids.iter().any(|e| id.starts_with(e)))
                .collect(),
        );
    }
    assert!(
        exact[0].len() >= 6 && exact.iter().all(|e| e == &exact[0]),
        "{exact:#?}"
    );
    for (id, values) in &at_100k {
        let (lo, hi) = values
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), v| (l.min(*v), h.max(*v)));
        // Still off by more: a law that a seed bends away (a hole, a wrong form) or a unit.
        assert!(
            lo > 0.0 && hi / lo <= common::WINDOW_LEVEL,
            "{id}: {values:?} ms at 100 KB over the seeds"
        );
    }
}

/// Issue 15's fresh-point check on every final timing of the bundled example. It holds because
/// a law's band is measured on whole launch points held out (runs, `server/fit/README.md`): the
/// fresh workload (4 files of one size) is a run the law has not seen, as a held-out one is.
/// Counted by element point, 40 files of one upload made the held-out checks see their
/// neighbours, and frame, hash and small write came out final with bands that fresh uploads
/// missed by 80 % to 30 times. A law is not final either where its input leaves a hole of more
/// than a decade unmeasured: hash measured at 659 B and then from 9.4 KB up was final with a
/// band of ±28 % that fresh compressed files of 2.7 KB missed by 80 %.
/// Issue 19: after `beagle analyse --write`, the model as a whole predicts the upload service's
/// thread CPU time at fresh points (`beagle validate`): median relative error at most 20 % here
/// (10 % in `benchmarks/validate`, on a quiet machine), every call bound through the fixture's
/// `.system`, nothing left out of the prediction.
#[test]
fn the_analysed_model_predicts_uploads_at_fresh_points() {
    let _alone = one_at_a_time();
    // The run's shared analysis wrote its laws into its copy's model (`--write`); validated in
    // a copy of that workspace of its own (the shared one is only read).
    let (analysed, _) = analysed_fileshare();
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&analysed, dir.path());
    let repository = "model/fileshare.repository";
    assert_ne!(
        std::fs::read(dir.path().join(repository)).unwrap(),
        std::fs::read(root().join("fixtures/fileshare").join(repository)).unwrap(),
        "the analysis wrote its laws into the model"
    );
    let path = dir.path().to_str().unwrap();
    let out = beagle(&["validate", path, "--points", "8", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let upload = report["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seff"] == "_fs_upload_seff")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert!(upload["points"].as_u64().unwrap() >= 6, "{upload:#}");
    assert!(upload.get("problems").is_none(), "{upload:#}");
    let median = upload["median_relative_error"].as_f64().unwrap();
    assert!(median <= 0.20, "median {median}: {upload:#}");
    // The points are fresh: none is a point of the analysis's first pass.
    let rows = upload["rows"].as_array().unwrap();
    assert!(
        rows.iter().all(|r| r["measured_ms"].as_f64().unwrap() > 0.0),
        "{upload:#}"
    );
}

#[test]
fn every_final_timing_predicts_fresh_points_within_its_band() {
    let _alone = one_at_a_time();
    let report = analysed_fileshare().1;
    let dir = fileshare_copy();
    let sizes = [7_777.0, 64_000.0, 123_457.0, 188_000.0, 251_111.0, 333_333.0];
    // Raw and packed uploads by turns, of few and many files: the JVMs they share see the mix the
    // analysis's JVMs saw. Bookkeeping such as partitioning costs what the JVM's state makes it
    // (its heap after large uploads): a CI run whose fresh JVMs all uploaded 4 files measured the
    // partition of large files at a fifth of what the analysis's mixed JVMs had.
    let files = [2.0, 31.0, 4.0, 17.0, 9.0, 40.0];
    let points: Vec<Point> = sizes
        .iter()
        .zip(files)
        .flat_map(|(s, f)| [point(f, *s, 0.0), point(f, *s, 1.0)])
        .collect();
    let fresh = measure_fresh(dir.path(), "fresh", &points);
    let checked = finals_predict_fresh_points_within_their_band(&report, &fresh);
    // On a run whose JVMs disagree more than usual, every timing may be preliminary: then each
    // says why (the check above had nothing to hold to its band).
    if checked == 0 {
        for r in report["results"].as_array().unwrap() {
            if r["kind"] == "resource_demand" && r["status"] != "final" {
                let reasons = r["evidence"]["reasons"].as_array().map_or(0, Vec::len);
                assert!(reasons > 0, "{}: preliminary without a reason", r["element"]);
            }
        }
    }
}

/// The final timings of `report` checked against `fresh` measurements. The band is that of a
/// point's prediction error at 95 % among the analysis's own JVMs: what it promises is the law's
/// shape, so at least [`WITHIN_BAND`] of the fresh points' medians must lie within it once the
/// fresh window's level is taken out. That level is held to the window level only
/// ([`common::WINDOW_LEVEL`]): the fresh JVMs run minutes later on a shared machine, and
/// memory-bound or bookkeeping actions shift as a whole between such windows (a CI run measured
/// the analysis's `frame` 30 % above every one of 104 fresh points, all within ±3 % of each other
/// once scaled; `partition` 1.5× above), which no evidence of one window can carry. Returns how
/// many results were checked.
fn finals_predict_fresh_points_within_their_band(
    report: &serde_json::Value,
    fresh: &BTreeMap<String, MeasurementResult>,
) -> usize {
    let mut checked = 0;
    let mut misses = Vec::new();
    for r in report["results"].as_array().unwrap() {
        let ev = &r["evidence"];
        let (Some(band), Some(measured)) = (ev["band"].as_f64(), fresh.get(r["element"].as_str().unwrap())) else {
            continue;
        };
        if r["status"] != "final" || r["kind"] != "resource_demand" || ev["relative"] != true {
            continue;
        }
        let stoex = r["expression"].as_str().unwrap();
        let m = medians(measured);
        let pairs: Vec<(String, f64, f64)> = m
            .observations
            .iter()
            .map(|o| {
                let vars: Vec<(&str, f64)> = o.parameters.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                (format!("{vars:?}"), eval_law(stoex, &vars), o.value)
            })
            .collect();
        let level = window_level(&pairs);
        let errors: Vec<(String, f64)> = pairs
            .iter()
            .map(|(at, predicted, measured)| (at.clone(), (predicted / level - measured) / measured))
            .collect();
        let within = errors.iter().filter(|(_, e)| e.abs() <= band).count();
        let shown = format!(
            "{}: {stoex}: the law at {level:.3}x the fresh window; {within} of {} fresh points within the band ±{band:.3} once scaled: {errors:?}",
            r["element"],
            errors.len()
        );
        eprintln!("{shown}");
        let mut predicted: Vec<f64> = pairs.iter().map(|(_, p, _)| *p).collect();
        predicted.sort_by(f64::total_cmp);
        let typical = predicted.get(predicted.len() / 2).copied().unwrap_or(0.0);
        let bound = window_level_for(typical);
        let level_holds = (1.0 / bound..=bound).contains(&level);
        if !level_holds || (within as f64) < WITHIN_BAND * errors.len() as f64 {
            misses.push(shown);
        }
        checked += 1;
    }
    assert!(misses.is_empty(), "{misses:#?}");
    checked
}

/// The law's level in the fresh window: the median ratio of prediction to measurement (a
/// median, so that the points the law misses do not set it).
fn window_level(pairs: &[(String, f64, f64)]) -> f64 {
    let mut logs: Vec<f64> = pairs
        .iter()
        .filter(|(_, p, m)| *p > 0.0 && *m > 0.0)
        .map(|(_, p, m)| (p / m).ln())
        .collect();
    if logs.is_empty() {
        return 1.0;
    }
    logs.sort_by(f64::total_cmp);
    let n = logs.len();
    let mid = if n % 2 == 1 {
        logs[n / 2]
    } else {
        (logs[n / 2 - 1] + logs[n / 2]) / 2.0
    };
    mid.exp()
}

/// Issue 17: the probabilities a report publishes for the transitions of each branch sum to 1,
/// wherever they are evaluated (guards included): at a few values of every input they use.
fn branch_probabilities_sum_to_one(report: &serde_json::Value) {
    let mut branches: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in report["results"].as_array().unwrap() {
        if r["kind"].as_str().is_some_and(|k| k.contains("branch")) {
            let element = r["element"].as_str().unwrap();
            let branch = element.split('/').next().unwrap().to_string();
            branches
                .entry(branch)
                .or_default()
                .push(r["expression"].as_str().unwrap().to_string());
        }
    }
    assert!(!branches.is_empty(), "the system has branches");
    for (branch, transitions) in &branches {
        let names: std::collections::BTreeSet<String> = transitions
            .iter()
            .flat_map(|t| {
                t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .filter(|w| w.contains('.') && w.chars().next().is_some_and(char::is_alphabetic))
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .collect();
        for v in [0.0, 1.0, 3.0, 1000.0, 200_000.0, 200_001.0, 400_000.0] {
            let vars: Vec<(&str, f64)> = names.iter().map(|n| (n.as_str(), v)).collect();
            let sum: f64 = transitions.iter().map(|t| eval_law(t, &vars)).sum();
            assert!(
                (sum - 1.0).abs() < 1e-9,
                "{branch} at {v}: {transitions:?} sum to {sum}"
            );
        }
    }
}

/// Whether `stoex` is affine in `variable` (and uses nothing else): no condition, function or
/// power, checked by its second differences over the sizes the example measures.
fn affine_in(stoex: &str, variable: &str) -> bool {
    let f = |x: f64| eval_law(stoex, &[(variable, x)]);
    let (a, b, c) = (f(1000.0), f(200_500.0), f(400_000.0));
    stoex.contains(variable) && !stoex.contains('?') && ((a + c) / 2.0 - b).abs() <= 1e-9 * b.abs().max(1e-12)
}

/// What the issue of trustworthy results asks of the bundled example's answers and holds on
/// every run: no answer has more than two conditions or hinges unless its note says the held-out
/// points need them; a demand with no dependency shown is a constant.
fn simple_laws(report: &serde_json::Value) {
    for r in report["results"].as_array().unwrap() {
        let stoex = r["expression"].as_str().unwrap();
        let conditions = stoex.matches(" ? ").count();
        let shown = r["evidence"]["notes"].as_array().is_some_and(|n| {
            n.iter()
                .any(|n| n.as_str().unwrap_or("").contains("show they are needed"))
        });
        assert!(conditions <= 2 || shown, "{}: {stoex}", r["element"]);
    }
    // A demand whose points differ no more than their (JVM) repetitions is a constant.
    for r in report["results"].as_array().unwrap() {
        let no_dependency = r["evidence"]["dependency_p"].as_f64().is_some_and(|p| p >= 0.01);
        if r["kind"] == "resource_demand" && no_dependency {
            let stoex = r["expression"].as_str().unwrap();
            assert!(
                !stoex.chars().any(|c| c.is_ascii_lowercase()),
                "{}: {stoex}",
                r["element"]
            );
        }
    }
}

/// `beagle analyse DIR --json` while a busy loop keeps one core busy (a process of its own, as a
/// compiler would be), and its report.
fn analyse_while_a_core_is_busy(dir: &Path) -> serde_json::Value {
    let mut hog = Command::new("sh")
        .args(["-c", "while :; do :; done"])
        .spawn()
        .expect("sh runs");
    let out = beagle(&["analyse", dir.to_str().unwrap(), "--json"]);
    hog.kill().ok();
    hog.wait().ok();
    json(&out)
}

#[test]
fn the_main_job_keeps_simple_laws_while_another_process_keeps_a_core_busy() {
    let _alone = one_at_a_time();
    simple_laws(&analysed_fileshare_while_a_core_is_busy());
}

/// Whether `stoex` grows with `variable` over the example's sizes (at least 5x from 1000 to
/// 400000 bytes), nearly straight (see `bend`), and departs from its closest affine law (least
/// relative squares) by at most `band` (relative) anywhere there: a law the evidence cannot
/// tell from an affine one.
fn affine_within(stoex: &str, variable: &str, band: f64) -> bool {
    let xs: Vec<f64> = (0..40).map(|i| 1000.0 * 400f64.powf(i as f64 / 39.0)).collect();
    let ys: Vec<f64> = xs.iter().map(|&x| eval_law(stoex, &[(variable, x)])).collect();
    // Weighted normal equations of y ~ a*x + c with weights 1/y^2.
    let (mut sxx, mut sx, mut s1, mut sxy, mut sy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (&x, &y) in xs.iter().zip(&ys) {
        let w = 1.0 / (y * y);
        sxx += w * x * x;
        sx += w * x;
        s1 += w;
        sxy += w * x * y;
        sy += w * y;
    }
    let det = sxx * s1 - sx * sx;
    let a = (sxy * s1 - sx * sy) / det;
    let c = (sxx * sy - sx * sxy) / det;
    let worst = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| ((a * x + c - y) / y).abs())
        .fold(0.0, f64::max);
    // Its increments over the two halves of the range agree within a quarter (an affine law's
    // are equal; a root's or a square's are not).
    let f = |x: f64| eval_law(stoex, &[(variable, x)]);
    let (low, mid, high) = (f(1000.0), f(200_500.0), f(400_000.0));
    let bend = ((high - mid) / (mid - low) - 1.0).abs();
    ys[39] >= 5.0 * ys[0] && bend <= 0.25 && worst <= band
}

/// Compression (LZW over a bounded dictionary) and SHA-256 take time linear in the bytes. Under
/// the load of a busy core, with one repetition per point, a law such as
/// `7.2E-7 * data.BYTESIZE * Log(2, data.BYTESIZE) + 0.21` sometimes fits the measured points
/// better: it departs from an affine law by about 20 % over the sizes measured. That is accepted
/// only where the law's own 95 % band is wider than that departure (the evidence says it cannot
/// tell them apart): preliminary, or final with such a band (a local run under load had
/// `data.BYTESIZE > 9000 ? 5.7E-7 * data.BYTESIZE + 0.001 : 5.0E-7 * data.BYTESIZE + 7.0E-5`
/// final, 14.7 % from affine at most, band 16 %). A constant or a steeper law fails.
#[test]
fn compress_and_hash_are_linear_in_the_bytes_while_a_core_is_busy() {
    let _alone = one_at_a_time();
    let report = analysed_fileshare_while_a_core_is_busy();
    for element in ["_fs_compress", "_fs_hash"] {
        let key = format!("{element}/{CPU}");
        let r = report["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["element"] == key.as_str())
            .unwrap_or_else(|| panic!("no result for {key}"));
        let law = r["expression"].as_str().unwrap();
        let preliminary = r["evidence"]["is_final"] == false;
        let band = r["evidence"]["band"].as_f64().unwrap_or(0.0);
        assert!(
            affine_in(law, "data.BYTESIZE") || affine_within(law, "data.BYTESIZE", band),
            "{element}: {law} (band {band}, preliminary {preliminary})"
        );
    }
}

#[test]
fn a_law_the_band_cannot_tell_from_affine_is_accepted_only_within_it() {
    let n_log_n = "7.2E-7 * data.BYTESIZE * Log(2, data.BYTESIZE) + 0.21";
    assert!(!affine_in(n_log_n, "data.BYTESIZE"));
    assert!(affine_within(n_log_n, "data.BYTESIZE", 0.75));
    assert!(!affine_within(n_log_n, "data.BYTESIZE", 0.05));
    // A constant does not grow with the bytes; a square or a root departs too far.
    assert!(!affine_within("0.061", "data.BYTESIZE", 0.75));
    assert!(!affine_within(
        "1.0E-9 * data.BYTESIZE ^ 2 + 0.1",
        "data.BYTESIZE",
        0.75
    ));
    assert!(!affine_within("0.01 * data.BYTESIZE ^ 0.5", "data.BYTESIZE", 0.75));
    assert!(affine_within("1.3E-5 * data.BYTESIZE", "data.BYTESIZE", 0.0 + 1e-9));
}

/// Issue 16: a service that loops up to 100,000 times per call, one internal action and one
/// external call per iteration (`fixtures/hotloop`). The probe adds up the action's runs per
/// call, the decoder streams, each point keeps a bounded sample: the analysis holds memory and
/// time to a few minutes (the figures are in `benchmarks/analysis/scale/RESULTS.md`), and finds
/// the loop law and the per-iteration demand's law in `rounds`.
#[test]
fn a_service_looping_100000_times_per_call_keeps_its_laws() {
    let _alone = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/hotloop"), dir.path());
    // Five points per JVM, as the bundled example measures (one start and one warm-up for them):
    // what is tested is the looping service's laws, memory and time, not a JVM per point (a JVM
    // each made this test 135 s instead of 83 s on a quiet 2-core machine, issue 48).
    common::add_java_keys(dir.path(), "points_per_jvm = 5\n");
    let report = json(&beagle(&["analyse", dir.path().to_str().unwrap(), "--json"]));
    let x = expressions(&report);
    assert_eq!(x["_hl_item_loop"], "items.NUMBER_OF_ELEMENTS");
    // Per iteration: a base cost plus about a nanosecond per mixing round (100 to 2000 rounds).
    // The law may also see the number of items (a CI run gave `... + 1.4E-5 * Log(e, items)`:
    // larger item arrays, more cache misses), so it is read at the middle of their range.
    let mix = &x[&format!("_hl_mix/{CPU}")];
    let at = |rounds: f64| eval_law(mix, &[("rounds.VALUE", rounds), ("items.NUMBER_OF_ELEMENTS", 10_000.0)]);
    let (low, high) = (at(100.0), at(2000.0));
    assert!(
        mix.contains("rounds.VALUE") && !mix.contains('?') && low > 0.0,
        "mix item: {mix}"
    );
    // What the rounds add, not their ratio to the base cost: a busy machine raises the base (the
    // item's other work, its cache misses) and with it shrinks any ratio (the law's 1.5 times
    // was asserted here), while what 1900 rounds add stays near the 2 µs they take on a quiet
    // machine, 4 times either way.
    assert!(
        high - low > 0.0005 && high - low < 0.02,
        "1900 rounds of a multiply and a shift: a few microseconds, not {} ms: {mix}",
        high - low
    );
    // The checksum costs a few ns a call. Net of the probes it lies within four calibration
    // noises (1-2 ns against noises of 1-5 ns here): then it is too short to measure, no law, and a warning
    // names it; where a run finds it above the noise, every one of its runs is counted, though
    // few are kept.
    let checksum = format!("_hl_checksum/{CPU}");
    let samples = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["element"] == checksum.as_str())
        .and_then(|r| r["samples"].as_u64());
    let too_short = report["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["element"] == checksum.as_str() && d["message"].as_str().unwrap_or("").contains("too short to measure")
    });
    match samples {
        Some(n) => assert!(n > 100_000 && !too_short, "{report}"),
        None => assert!(too_short, "neither a result nor 'too short to measure': {report}"),
    }
    // Issue 37: its timings end final, or preliminary with what measuring more could not change.
    final_or_settled(&report, "hotloop");
}

/// Every timing of `report` final, or preliminary with a `settled` reason and nothing more
/// wanted (issue 37).
fn final_or_settled(report: &serde_json::Value, what: &str) {
    for r in report["results"].as_array().unwrap() {
        if r["kind"] != "resource_demand" || r["status"] == "final" {
            continue;
        }
        let settled = r["evidence"]["settled"].as_str().unwrap_or_default();
        assert!(
            settled.starts_with("more measurements will not settle it: "),
            "{what}: {} preliminary ({}) with nothing saying why more measuring would not help: {r:#}",
            r["element"],
            r["reasons"]
        );
        assert!(
            r["evidence"]["wants"].as_array().is_none_or(Vec::is_empty),
            "{what}: {r:#}"
        );
    }
}

/// A small, fast workload for the failure tests, and extra launches.
/// What a point's runs counted, element by element: loop counts, branch decisions and the sizes
/// passed on (every value, sorted), and how many timings each timed element got.
fn counted(m: &PointMeasurement) -> BTreeMap<String, Vec<String>> {
    m.results
        .iter()
        .map(|(e, r)| {
            let mut values: Vec<String> = match e.kind {
                beagle_analysis::blackboard::ElementKind::ResourceDemand { .. } => {
                    vec![format!("{} timings", r.observations.len())]
                }
                _ => r
                    .observations
                    .iter()
                    .map(|o| format!("{:?} {}", o.parameters, o.value))
                    .collect(),
            };
            values.sort();
            (e.id.clone(), values)
        })
        .collect()
}

/// `points_per_jvm`: points measured in one JVM get each its own events and results, the same
/// counts a JVM of its own measures at that point, and a timing per repetition.
#[test]
fn points_sharing_a_jvm_are_each_measured_as_if_alone() {
    let _alone = one_at_a_time();
    let dir = fileshare_copy();
    quick_config(dir.path(), "");
    let (config, prepared, work) = prepared_fileshare(dir.path(), "batch");
    let launch = &config.launches[0];
    // Small and large files, none, some and all already compressed: different paths per point.
    let points = [
        point(3.0, 1_500.0, 0.0),
        point(4.0, 250_000.0, 1.0),
        point(2.0, 2_500.0, 0.5),
    ];
    let dirs: Vec<PathBuf> = (0..points.len()).map(|i| work.join(format!("batch-{i}"))).collect();
    let tags: Vec<String> = (0..points.len()).map(|i| format!("b{i}")).collect();
    let batch = measure_batch(&config, &prepared, launch, &points, &dirs, &work.join("jvm"), &tags).unwrap();
    assert_eq!(batch.len(), points.len());
    for (i, (p, shared)) in points.iter().zip(&batch).enumerate() {
        assert_eq!(&shared.point, p);
        let alone = measure_point(
            &config,
            &prepared,
            launch,
            p,
            &work.join(format!("alone-{i}")),
            &format!("a{i}"),
        )
        .unwrap();
        assert!(!counted(&alone).is_empty());
        assert_eq!(counted(shared), counted(&alone), "at point {i}");
        assert!(shared.notes.is_empty(), "{:?}", shared.notes);
        // The calibration reached each point's events (the probe cost is subtracted and shown).
        assert!(
            !shared.summary.probe_costs.is_empty(),
            "point {i}: no calibration in its events"
        );
    }
}

fn quick_config(dir: &Path, extra: &str) {
    let text = std::fs::read_to_string(dir.join("beagle.toml")).unwrap();
    let text = text
        .replace(
            "sources = [\"src\"]",
            "sources = [\"src\"]\nwarmup = 0\nwarmup_ms = 0\nrepetitions = 1\npoints = 2\nrefine = 0\ntimeout = 5",
        )
        .replace("files = { from = 1, to = 40 }", "files = { from = 1, to = 3 }")
        .replace(
            "size = { from = 1000, to = 400000 }",
            "size = { from = 1000, to = 3000 }",
        );
    std::fs::write(dir.join("beagle.toml"), format!("{text}\n{extra}")).unwrap();
}

#[test]
fn failing_launches_are_named_and_keep_the_measurements() {
    let _alone = one_at_a_time();
    let dir = fileshare_copy();
    std::fs::write(
        dir.path().join("src/fileshare/Hang.java"),
        "package fileshare;\npublic class Hang { public static void main(String[] a) throws Exception { Thread.sleep(600_000); } }\n",
    )
    .unwrap();
    let extra = r#"
[[launch]]
name = "negative"
main = "fileshare.Driver"
args = ["--files", "{files}", "--size", "1000", "--compressed", "0"]
[launch.parameters]
files = { from = -3, to = -1 }

[[launch]]
name = "mixed"
main = "fileshare.Driver"
args = ["--files", "{files}", "--size", "1000", "--compressed", "0"]
[launch.parameters]
files = { from = -1, to = 3 }

[[launch]]
name = "hang"
main = "fileshare.Hang"

[[launch]]
name = "missing"
main = "fileshare.Nope"
args = ["{n}"]
[launch.parameters]
n = { from = 1, to = 9 }
"#;
    quick_config(dir.path(), extra);
    let path = dir.path().to_str().unwrap();
    let started = std::time::Instant::now();
    let out = beagle(&["analyse", path, "--json", "--no-gp"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let errors: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    let negative: Vec<&String> = errors
        .iter()
        .filter(|e| e.starts_with("launch `negative` at files=-"))
        .collect();
    assert!(
        !negative.is_empty() && negative[0].contains("exited with code 2"),
        "{errors:#?}"
    );
    // Its points share a JVM (`points_per_jvm` in the fixture): the failing one is named alone,
    // and the other measured.
    let mixed: Vec<&String> = errors.iter().filter(|e| e.starts_with("launch `mixed`")).collect();
    assert_eq!(mixed.len(), 1, "{errors:#?}");
    assert!(mixed[0].starts_with("launch `mixed` at files=-1:"), "{}", mixed[0]);
    let hang: Vec<&String> = errors.iter().filter(|e| e.starts_with("launch `hang`")).collect();
    assert_eq!(hang.len(), 1, "{errors:#?}");
    assert!(
        hang[0].contains("timed out after 5 s; its process group was killed"),
        "{}",
        hang[0]
    );
    let missing: Vec<&String> = errors.iter().filter(|e| e.starts_with("launch `missing`")).collect();
    assert_eq!(
        missing.len(),
        1,
        "a missing main class is not tried at every point: {errors:#?}"
    );
    assert!(
        missing[0].contains("main class not found: fileshare.Nope"),
        "{}",
        missing[0]
    );
    // The hang sleeps ten minutes: an analysis that waited for it (or for its process group)
    // takes that long, where this quick one takes a minute or two on a busy machine.
    assert!(
        started.elapsed().as_secs() < 300,
        "the hanging launch was cut short: {:?}",
        started.elapsed()
    );
    // The working launch's measurements made it into the results and the store ...
    let x = expressions(&report);
    assert_eq!(x["_fs_file_loop"], "files.NUMBER_OF_ELEMENTS");
    let db = rusqlite::Connection::open(dir.path().join(".beagle/beagle.sqlite")).unwrap();
    let stored: i64 = db
        .query_row("SELECT count(*) FROM measurements WHERE tool = 'java'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(stored >= 2, "{stored}");
    drop(db);
    // ... so a rerun without the broken launches measures nothing again.
    let text = std::fs::read_to_string(dir.path().join("beagle.toml")).unwrap();
    std::fs::write(
        dir.path().join("beagle.toml"),
        &text[..text.find("[[launch]]\nname = \"negative\"").unwrap()],
    )
    .unwrap();
    let again = beagle(&["analyse", path, "--no-gp"]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(String::from_utf8_lossy(&again.stdout).contains("(from the store)"));
}

#[test]
fn compile_errors_in_the_users_code_are_shown() {
    let _alone = one_at_a_time();
    let dir = fileshare_copy();
    quick_config(dir.path(), "");
    let driver = dir.path().join("src/fileshare/Driver.java");
    let mut text = std::fs::read_to_string(&driver).unwrap();
    text.push_str("\nclass Broken { int x = ; }\n");
    std::fs::write(&driver, text).unwrap();
    let out = beagle(&["analyse", dir.path().to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the Java sources do not compile"), "{err}");
    assert!(
        err.contains("Driver.java") && err.contains("illegal start of expression"),
        "{err}"
    );
}

/// The diagnostics of a report that say something went unmeasured.
fn unmeasured(report: &serde_json::Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .filter(|m| m.contains("not measured") || m.contains("no measurement tool measured it"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_component_scope_measures_the_parameters_of_its_calls() {
    let _alone = one_at_a_time();
    let dir = fileshare_copy();
    quick_config(dir.path(), "");
    let path = dir.path().to_str().unwrap();
    // The quick workload lists no file as copyrighted and has no large file: the rejection and the
    // large-file write never run. Their transitions are measured as never taken.
    let rejection =
        format!("_fs_count_rejection/{CPU}: not measured: never executed (no measurement tool measured it)");
    let large = "_fs_write_large_call/record.BYTESIZE: not measured: never executed (no measurement tool measured it)"
        .to_string();
    // The callees (Compression; the file stores) are outside the scope; what they receive is not.
    let scopes = [
        (
            "BusinessCore",
            "_fs_compress_call/data.BYTESIZE",
            "files.INNER.BYTESIZE",
            vec![rejection],
        ),
        (
            "Storage",
            "_fs_write_small_call/record.BYTESIZE",
            "data.BYTESIZE + 16",
            vec![large],
        ),
    ];
    for (component, call, law, never_ran) in scopes {
        let out = beagle(&["analyse", path, "--component", component, "--json", "--no-gp"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!(unmeasured(&report), never_ran, "{component}");
        let x = expressions(&report);
        assert_eq!(x[call], law, "{component}");
        let untaken = if component == "BusinessCore" {
            "_fs_accept/_fs_rejected"
        } else {
            "_fs_file_size/_fs_large"
        };
        assert_eq!(x[untaken], "0", "{component}");
        assert!(
            x.keys()
                .all(|id| !id.starts_with("_fs_compress/") && !id.starts_with("_fs_hash/")),
            "only {component}'s elements: {x:#?}"
        );
    }
}

/// Every file under `dir` (but Beagle's own `.beagle/`) with its bytes.
fn files_under(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if entry.file_name() == ".beagle" {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                out.insert(
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                );
            }
        }
    }
    out
}

/// Issue 17: an older code base with the original Beagle's kind of model and link file
/// (`fixtures/fileshare-older`, built by its `make.py`): SoMoX component names, a link file made
/// for an earlier version of one class, links into a package this version lacks, an ISO-8859-1
/// file, a class that no longer compiles, `byte[][]` inputs named unlike the model's parameters.
/// Analysed with no hand edits, it gives the laws of `fixtures/fileshare`.
#[test]
fn an_older_code_base_with_its_original_links_is_analysed_as_it_comes() {
    let _alone = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/fileshare-older"), dir.path());
    // What this test asserts are links, diagnostics and the exact laws (counts, sizes, the
    // guard), none a timing: so the timings are measured briefly (one pass, two repetitions, no
    // genetic search), which changes nothing the user's code or model brings (issue 48: 150 s of
    // JVMs for timings nobody read). `--no-gp` and the first pass find the exact laws as the full
    // analysis does (the fixture's README).
    common::add_java_keys(dir.path(), common::QUICK_JAVA_KEYS);
    let before = files_under(dir.path());
    let started_in = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(["analyse", dir.path().to_str().unwrap(), "--json", "--no-gp"])
        .current_dir(started_in.path())
        .output()
        .expect("beagle runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);

    // The user's files, and the folder beagle was started from, are as they were.
    assert_eq!(files_under(dir.path()), before, "the user's files are never written");
    assert_eq!(
        std::fs::read_dir(started_in.path()).unwrap().count(),
        0,
        "nothing lands where beagle started"
    );

    let diagnostics: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["severity"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let with = |severity: &str, text: &str| -> Vec<&String> {
        diagnostics
            .iter()
            .filter(|(s, m)| s == severity && m.contains(text))
            .map(|(_, m)| m)
            .collect()
    };
    // Each problem once.
    let mut messages: Vec<&String> = diagnostics.iter().map(|(_, m)| m).collect();
    messages.sort();
    let all = messages.len();
    messages.dedup();
    assert_eq!(messages.len(), all, "{diagnostics:#?}");

    // The package the links name but this version lacks: one warning, with file and line.
    let missing = with("warning", "fileshare.copyrightedmaterialsdb.DbAccess");
    assert_eq!(missing.len(), 1, "{diagnostics:#?}");
    assert!(
        missing[0].contains("links.xml:77: ") && missing[0].contains("`_old_query`"),
        "{}",
        missing[0]
    );
    // Every link into the edited class is re-anchored, by the length of what was added.
    for element in [
        "_fs_partition",
        "_fs_compress_loop_body",
        "_fs_compress_call",
        "_fs_file_loop",
        "_fs_hash_call",
        "_fs_is_listed_call",
        "_fs_accept",
        "_fs_count_rejection",
        "_fs_store_call",
    ] {
        let moved = with(
            "info",
            &format!("{element}: re-anchored: `fileshare.BusinessCore` changed"),
        );
        assert_eq!(moved.len(), 1, "{element}: {diagnostics:#?}");
        assert!(moved[0].contains("moved by +175 characters"), "{}", moved[0]);
    }
    // The ISO-8859-1 file is read, the class that does not compile left out, both said once.
    assert_eq!(
        with(
            "info",
            "src/fileshare/legacy/Notes.java: not UTF-8, read as windows-1252"
        )
        .len(),
        1
    );
    let left_out = with(
        "warning",
        "CopyrightedDatabaseBenchmarker.java: left out: it does not compile",
    );
    assert_eq!(left_out.len(), 1, "{diagnostics:#?}");
    assert!(left_out[0].contains("org.apache.log4j"), "{}", left_out[0]);
    // SoMoX names find their classes; the loop SoMoX linked by its body is found around it;
    // the parameters are matched to the signature by a similar name, then by type or position.
    assert_eq!(
        with(
            "info",
            "class BusinessCore matches component <PC No. 0 fileshare.BusinessCore.java.BusinessCore>"
        )
        .len(),
        1
    );
    assert_eq!(with("info", "_fs_compress_loop: linked to src/fileshare/BusinessCore.java: the loop around the code linked to its body _fs_compress_loop_body").len(), 1);
    assert_eq!(with("info", "the method's parameters (uploadFiles, compressedIndices) matched to its signature's (files, alreadyCompressed): uploadFiles as files (by a similar name); compressedIndices as alreadyCompressed (by ").len(), 1);
    // The elements whose code is missing say why they are not measured, and why no class was
    // found for them.
    assert_eq!(with("warning", "_old_query_seff: not measured").len(), 1);
    assert_eq!(
        with(
            "info",
            "_old_query_seff: no automatic link: no class named DbAccess or like interface IDbAccess (affixes such as I, Impl, Bean, Adapter, Service, Default aside) in package fileshare.copyrightedmaterialsdb"
        )
        .len(),
        1,
        "{diagnostics:#?}"
    );

    // The laws of fixtures/fileshare.
    let x = expressions(&report);
    let n = "files.NUMBER_OF_ELEMENTS";
    let c = "alreadyCompressed.NUMBER_OF_ELEMENTS";
    for (files, compressed) in [(1.0, 0.0), (7.0, 3.0), (40.0, 40.0), (33.0, 12.0)] {
        assert_eq!(
            eval_law(&x["_fs_compress_loop"], &[(n, files), (c, compressed)]),
            files - compressed
        );
    }
    assert_eq!(x["_fs_file_loop"], n);
    assert_eq!(x["_fs_compress_call/data.BYTESIZE"], "files.INNER.BYTESIZE");
    assert_eq!(x["_fs_write_large_call/record.BYTESIZE"], "data.BYTESIZE + 16");
    assert_eq!(x["_fs_write_small_call/record.BYTESIZE"], "data.BYTESIZE + 16");
    let large = &x["_fs_file_size/_fs_large"];
    assert_eq!(eval_law(large, &[("data.BYTESIZE", 200000.0)]), 0.0, "{large}");
    assert_eq!(eval_law(large, &[("data.BYTESIZE", 200001.0)]), 1.0, "{large}");
    // Nothing was measured for the component whose code is missing.
    assert!(!x.keys().any(|k| k.starts_with("_old_")), "{x:?}");
    branch_probabilities_sum_to_one(&report);
}

/// Issue 38: a cost that follows a parameter the signature does not declare. The upload's
/// signature without `alreadyCompressed`: the code's parameter of that name is then no input of
/// the model, and at equal declared inputs (20 files of 2,000 bytes) the compress loop runs 20 to 0
/// times as it varies. No law in the declared inputs can be final, and the result says which
/// parameter to add.
#[test]
fn a_cost_that_follows_an_undeclared_parameter_says_so() {
    let _alone = one_at_a_time();
    let dir = fileshare_copy();
    let repository = dir.path().join("model/fileshare.repository");
    let text = std::fs::read_to_string(&repository).unwrap();
    let without = text.replace(
        "<parameters__OperationSignature dataType__Parameter=\"_fs_NameSet\" parameterName=\"alreadyCompressed\"/>",
        "",
    );
    assert_ne!(without, text);
    std::fs::write(&repository, without).unwrap();
    let toml = std::fs::read_to_string(dir.path().join("beagle.toml")).unwrap();
    let toml = toml
        .replace(
            "sources = [\"src\"]",
            "sources = [\"src\"]\nwarmup = 2\nwarmup_ms = 0\nrepetitions = 1\npoints = 11\nrefine = 0\nreplicates = 0\ntimeout = 30",
        )
        .replace("files = { from = 1, to = 40 }", "files = { values = [20] }")
        .replace("size = { from = 1000, to = 400000 }", "size = { values = [2000] }")
        .replace(
            "compressed = { values = [0.0, 0.5, 1.0] }",
            "compressed = { values = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] }",
        );
    std::fs::write(dir.path().join("beagle.toml"), toml).unwrap();
    let out = beagle(&["analyse", dir.path().to_str().unwrap(), "--json", "--no-gp"]);
    let report = json(&out);
    let result = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["element"] == "_fs_compress_loop")
        .expect("the compress loop is measured");
    assert_eq!(result["status"], "preliminary", "{result:#}");
    let reasons = result["evidence"]["reasons"].to_string();
    assert!(
        reasons.contains("falls with `alreadyCompressed.NUMBER_OF_ELEMENTS`")
            && reasons.contains("which the service's signature does not declare: add it to the signature to get a law"),
        "{reasons}"
    );
}
