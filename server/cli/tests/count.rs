//! Counting runs on `fixtures/fileshare`: the counts of compress and hash, measured at a few sizes
//! in JVMs with the counting agent, are exact or near-exact laws over the bytes, the elements
//! hash's SHA-256 is passed among them.

use beagle_analysis::{scope_elements, Scope};
use beagle_java::count::agent::{asm_dir, asm_jars};
use beagle_java::count::laws::fit_counts;
use beagle_java::count::run::{agent_for, count_point};
use beagle_java::launch::{read_java_config, Point, PointValue};
use beagle_java::prepare::prepare;
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn point(size: f64) -> Point {
    [
        ("files".to_string(), PointValue::Number(2.0)),
        ("size".to_string(), PointValue::Number(size)),
        ("compressed".to_string(), PointValue::Number(0.0)),
    ]
    .into()
}

#[test]
fn compress_and_hash_counts_are_laws_over_bytes() {
    if Command::new("javac").arg("-version").output().is_err() || asm_jars(&asm_dir()).is_err() {
        eprintln!("skipped: no JDK or no ASM (libasm-java)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fileshare");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare");
    assert!(Command::new("cp")
        .arg("-r")
        .arg(&fixture)
        .arg(&dir)
        .status()
        .unwrap()
        .success());
    let toml_path = dir.join("beagle.toml");
    let mut config = read_java_config(&toml_path, &std::fs::read_to_string(&toml_path).unwrap())
        .unwrap()
        .unwrap();
    // Counts do not depend on the JIT: one warm-up run, two counted.
    config.workload.warmup = 1;
    config.workload.warmup_ms = 0;
    config.workload.repetitions = 2;
    let repo_path = dir.join("model/fileshare.repository");
    let file = ModelFile::from_bytes(repo_path.clone(), std::fs::read(&repo_path).unwrap());
    let repo = file.repository.as_ref().unwrap();
    let scope = scope_elements(repo, &Scope::Repository).unwrap();
    let links = beagle_java::links::read_links(&dir.join("model/links.toml"), &config.root, &config.sources)
        .unwrap()
        .links;
    let services = scope.services.keys().cloned().collect();
    let work = dir.join(".beagle/count");
    let prepared = prepare(&config, &[repo], &scope.elements, &services, &links, &[], &work).unwrap();
    let agent = agent_for(&prepared, &work.join("agent")).unwrap();
    let mut observations = Vec::new();
    for (i, size) in [1000.0, 3000.0, 9000.0, 27000.0, 81000.0, 150000.0].iter().enumerate() {
        let launch = &config.launches[0];
        let counted = count_point(
            &config,
            &prepared,
            &agent,
            launch,
            &point(*size),
            &work.join(format!("p{i}")),
        )
        .unwrap();
        observations.extend(counted);
    }
    let names: BTreeMap<String, String> = [("_fs_compress", "compress"), ("_fs_hash", "hash")]
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .into();
    let laws = fit_counts(&observations, &names);
    for l in &laws {
        match &l.law {
            Ok(f) => eprintln!(
                "{}: {} (r2 {:.6}, {})",
                l.element,
                f.stoex,
                f.r2,
                f.evidence.status_text()
            ),
            Err(e) => eprintln!("{}: {e}", l.element),
        }
    }
    let law = |element: &str| {
        let l = laws
            .iter()
            .find(|l| l.element == element)
            .unwrap_or_else(|| panic!("{element} not counted"));
        l.law.as_ref().unwrap()
    };
    // Compression (LZW on the driver's data) is bytecode: its counts grow with the bytes, some
    // exactly, the data-dependent ones near exactly.
    assert_eq!(law("compress/count/int-mul").stoex, "data.BYTESIZE");
    assert!(law("compress/count/int-mul").evidence.is_final);
    let load = law("compress/count/load");
    assert!(
        load.stoex.contains("data.BYTESIZE") && load.r2 > 0.999,
        "{} r2 {}",
        load.stoex,
        load.r2
    );
    // Hashing is the JDK's: one call per run, whatever the bytes, passed every byte (the cost per
    // call and per element is the platform's, for a calibration to time).
    let digest = law("hash/count/java/security/MessageDigest.digest");
    assert_eq!(digest.stoex, "1");
    assert!(digest.evidence.is_final);
    let elements = law("hash/count/java/security/MessageDigest.digest elements");
    assert_eq!(elements.stoex, "data.BYTESIZE");
    assert!(elements.evidence.is_final);
    assert_eq!(elements.r2, 1.0);
}
