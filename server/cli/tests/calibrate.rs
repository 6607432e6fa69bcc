//! `beagle calibrate`: a real suite run in a JVM (with `--quick`: fewer, shorter samples) makes a
//! profile that parses and says what it measured; `-Xint` makes a slower platform; `--set-rate`
//! changes a container's rate and no other byte.

use beagle_java::count::agent::{asm_dir, asm_jars};
use beagle_java::platform::Profile;
use std::path::Path;
use std::process::Command;

fn beagle() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beagle"))
}

fn have_jdk() -> bool {
    if Command::new("javac").arg("-version").output().is_err() || asm_jars(&asm_dir()).is_err() {
        eprintln!("skipped: no JDK or no ASM (libasm-java)");
        return false;
    }
    true
}

fn calibrate(dir: &Path, out: &str, extra: &[&str]) -> Profile {
    let _alone = ONE_CALIBRATION_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = dir.join(out);
    let status = beagle()
        .arg("calibrate")
        .arg(dir)
        .arg("--quick")
        .arg("--out")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    Profile::read(&out).unwrap()
}

/// The two tests calibrate one after the other: each JVM's samples are a millisecond, and a
/// second calibration on a two-core machine is the load that spoils them.
static ONE_CALIBRATION_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_calibration_names_the_jvm_and_times_every_class_and_xint_is_slower() {
    if !have_jdk() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let p = calibrate(tmp.path(), "default.toml", &["--jvm-args", "-Xss2m", "--name", "here"]);
    assert_eq!(p.platform.name, "here");
    assert_eq!(p.platform.jvm_args, vec!["-Xss2m"]);
    assert!(p.platform.jvm.contains("VM"), "{}", p.platform.jvm);
    assert!(p.platform.cores >= 1 && !p.platform.created.is_empty());
    assert!(p.quick && p.clock_resolution_ns > 0.0);
    let classes = [
        "const",
        "load",
        "store",
        "stack",
        "array-load",
        "array-store",
        "int-arith",
        "int-mul",
        "int-div",
        "long-arith",
        "long-mul",
        "long-div",
        "float-arith",
        "double-arith",
        "convert",
        "branch",
        "field",
        "invoke",
        "new",
        "return",
        "other",
        "float-convert",
    ];
    for c in classes {
        assert!(p.instructions[c] > 0.0, "compiled {c}: {}", p.instructions[c]);
        assert!(p.interpreted[c] > 0.0, "interpreted {c}: {}", p.interpreted[c]);
    }
    // Which of compiled and interpreted is dearer per class is not asked here: with --quick's
    // five 1 ms samples on a busy machine a class's difference is noise (a CI run measured
    // interpreted int-arith, int-div and long-arith below the compiled ones). The full
    // calibrations in benchmarks/platform/results show it; here the suite as a whole must be.
    let digest = p.methods["java/security/MessageDigest.digest([B)[B"];
    assert!(digest.element_ns > 0.0, "{digest:?}");
    assert!(p.cost_ns("new byte[] elements").is_some());
    assert!(p.cost_ns("java/util/zip/Deflater.setInput([B)V elements").unwrap() > 0.0);

    let xint = calibrate(tmp.path(), "xint.toml", &["--jvm-args", "-Xint"]);
    assert_eq!(xint.platform.jvm_args, vec!["-Xint"]);
    assert_eq!(
        xint.instructions, xint.interpreted,
        "under -Xint both are the interpreter's"
    );
    let ratio = xint.suite_total_ns() / p.suite_total_ns();
    assert!(
        ratio > 3.0,
        "-Xint's suite total is only {ratio:.2} times the default's"
    );
}

#[test]
fn set_rate_changes_only_the_rates_bytes() {
    if !have_jdk() {
        return;
    }
    let _alone = ONE_CALIBRATION_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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
    let env = dir.join("model/fileshare.resourceenvironment");
    let before = std::fs::read_to_string(&env).unwrap();
    let out = beagle()
        .arg("calibrate")
        .arg(&dir)
        .args(["--quick", "--set-rate", "FileShareServer", "--out"])
        .arg(tmp.path().join("p.toml"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("work units per s"), "{stdout}");
    let profile = Profile::read(&tmp.path().join("p.toml")).unwrap();
    let after = std::fs::read_to_string(&env).unwrap();
    let old = "specification=\"1000 * 1000 * 1000\"";
    let at = before.find(old).unwrap();
    let start = at + "specification=\"".len();
    let end = after[start..].find('"').unwrap() + start;
    assert_eq!(&after[..start], &before[..start]);
    assert_eq!(&after[end..], &before[at + old.len() - 1..]);
    let rate: f64 = after[start..end].parse().unwrap();
    let want = 1e9 / profile.suite_total_ns();
    assert!((rate - want).abs() < 1e-5 * want, "{rate} vs {want}");
    // A container the environment does not have: an error naming the ones it has, nothing written.
    let out = beagle()
        .arg("calibrate")
        .arg(&dir)
        .args(["--quick", "--set-rate", "Nowhere", "--out"])
        .arg(tmp.path().join("q.toml"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("FileShareServer"));
    assert_eq!(std::fs::read_to_string(&env).unwrap(), after);
}
