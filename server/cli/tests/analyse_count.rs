//! `beagle analyse --count` on `fixtures/fileshare` (issue 39, point 1): after the timing runs,
//! JVMs with the counting agent at the first pass's points; each internal action's counts are
//! laws over its inputs, kept in the store. Compression (LZW, bytecode) counts one hash
//! multiplication per byte, exactly; hashing (the JDK's SHA-256) one `digest` call per file.
//! Without a profile of the measuring platform, no R, and the output says how to get one.
//!
//! The two-step workflow for another machine, with two JVM configurations standing for two
//! machines: `beagle calibrate` here (the default JVM) names the measuring platform, the analysis
//! fits R per action; `beagle calibrate --jvm-args -Xint` stands for the target's calibration,
//! and `beagle predict --platform` moves the counted actions' times there without running the
//! system under it.

mod common;

use beagle_analysis::Store;
use beagle_java::count::agent::{asm_dir, asm_jars};
use common::{beagle_in, root};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether this machine has what counting needs (a JDK, ASM); says so when not.
fn can_count() -> bool {
    if Command::new("javac").arg("-version").output().is_err() || asm_jars(&asm_dir()).is_err() {
        eprintln!("skipped: no JDK or no ASM (libasm-java)");
        return false;
    }
    true
}

/// A copy of `fixtures/fileshare` at `dir` with a short timing analysis (the first pass only: the
/// counts are what is tested).
fn quick_fileshare(dir: &Path) {
    common::copy_dir(&root().join("fixtures/fileshare"), dir);
    common::add_java_keys(dir, common::QUICK_JAVA_KEYS);
}

/// `beagle analyse --count` on the quick copy, without a platform profile, shared by this run's
/// tests (`common::shared`): its folder, the store in it, and what it said (`{"stderr": ...}`).
/// Both tests here ask for this analysis: the second adds a profile and analyses a copy again,
/// which finds every timing in the store and counts with R (issue 48: the JVMs of one analysis,
/// 45 s of the measuring chain, not timed twice).
fn counted_fileshare() -> (PathBuf, serde_json::Value) {
    common::shared::shared_report("fileshare-counted", |dir| {
        quick_fileshare(dir);
        let out = beagle_in(dir, &["analyse", ".", "--count", "--no-gp", "--budget", "60"]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        serde_json::json!({ "stderr": stderr })
    })
}

#[test]
fn counts_are_laws_in_the_store_after_an_analysis() {
    if !can_count() {
        return;
    }
    let (dir, said) = counted_fileshare();
    let stderr = said["stderr"].as_str().unwrap();
    assert!(stderr.contains("compress: counted at"), "{stderr}");
    assert!(stderr.contains("counts kept without R"), "{stderr}");
    let store = Store::open(&dir).unwrap();
    let counts = store.section_counts("model/fileshare.repository").unwrap();
    let compress = &counts["_fs_compress"];
    assert!(compress.points >= 6, "{compress:?}");
    assert!(compress.factor.is_none());
    let int_mul = &compress.laws["int-mul"];
    assert_eq!(int_mul.stoex, "data.BYTESIZE");
    assert!(int_mul.is_final, "{compress:?}");
    let loads = &compress.laws["load"];
    assert!(loads.stoex.contains("data.BYTESIZE") && loads.r2 > 0.99, "{loads:?}");
    let hash = &counts["_fs_hash"];
    let digest = &hash.laws["java/security/MessageDigest.digest([B)[B"];
    assert_eq!(digest.stoex, "1");
    assert!(digest.is_final, "{hash:?}");
}

fn calibrate(dir: &std::path::Path, out: &str, extra: &[&str]) {
    let o = beagle_in(dir, &[&["calibrate", ".", "--quick", "--out", out][..], extra].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_platform_calibrated_elsewhere_moves_the_counted_actions() {
    if !can_count() {
        return;
    }
    // The shared counted analysis, copied with its store: its timings are this analysis's too
    // (the same code, launch, points and workload), so only the counts are made again.
    let (counted, _) = counted_fileshare();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fileshare");
    assert!(Command::new("cp")
        .arg("-r")
        .arg(&counted)
        .arg(&dir)
        .status()
        .unwrap()
        .success());
    common::add_java_keys(&dir, "platform = \"here.toml\"\n");
    // Step 0, here: this machine's profile, named as the measuring platform.
    calibrate(&dir, "here.toml", &["--name", "here"]);
    let out = beagle_in(
        &dir,
        &["analyse", ".", "--count", "--no-gp", "--budget", "60", "--write"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let counts = Store::open(&dir)
        .unwrap()
        .section_counts("model/fileshare.repository")
        .unwrap();
    let r = counts["_fs_compress"].factor.as_ref().expect("R with a profile").r;
    assert!(stderr.contains(&format!("R = {r:.3} on here")), "{stderr}");
    // Step 1, "on the target": its calibration (here the interpreter stands for it).
    calibrate(&dir, "target.toml", &["--name", "target", "--jvm-args=-Xint"]);
    // Step 2, here again: the prediction for the target, beside the one for this machine.
    let predict = |platform: Option<&str>| {
        let mut args = vec![
            "predict",
            ".",
            "--service",
            "Compression.compress",
            "--at",
            "data.BYTESIZE=100000",
            "--json",
        ];
        if let Some(p) = platform {
            args.extend(["--platform", p]);
        }
        let o = beagle_in(&dir, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let total = |v: &serde_json::Value| {
        v["demands"]
            .as_object()
            .unwrap()
            .values()
            .map(|d| d.as_f64().unwrap())
            .sum::<f64>()
    };
    let here = predict(None);
    let there = predict(Some("target.toml"));
    assert_eq!(there["platform"], "target");
    let moved: Vec<&str> = there["counted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(moved.contains(&"compress"), "{there}");
    // The service's own action is the one that moved it.
    assert!(there["composed"].to_string().contains("data.BYTESIZE"), "{there}");
    // The interpreter runs LZW's bytecode several times slower than the JIT's code.
    let ratio = total(&there) / total(&here);
    assert!(ratio > 3.0, "target / here = {ratio}: {there}");
    // The same machine's own profile predicts what was measured, within R's spread.
    let same = predict(Some("here.toml"));
    let back = total(&same) / total(&here);
    assert!((0.7..1.4).contains(&back), "here / measured = {back}");
}
