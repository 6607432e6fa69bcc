//! The `beagle` binary as a user runs it: output, JSON shape and exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn beagle(args: &[&str]) -> Output {
    // Run from the repository root so that paths in the output are the relative ones given.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("beagle runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn check_json_reports_every_fixture() {
    let out = beagle(&["check", "--json", "fixtures/pcm"]);
    // Family.repository is a hand-made, unfinished model: its errors make the exit status 1.
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let reports: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(reports.len(), 18);
    let ms = reports
        .iter()
        .find(|r| r["file"] == "fixtures/pcm/mediastore/MediaStore.repository")
        .unwrap();
    assert_eq!(ms["pcm_version"], "5.2");
    assert_eq!(ms["components"], 6);
    assert_eq!(ms["seffs"], 11);
    assert_eq!(ms["actions"]["InternalAction"], 12);
    assert_eq!(ms["actions"]["ExternalCallAction"], 9);
    assert_eq!(ms["specifications"], 41);
    assert_eq!(ms["diagnostics"].as_array().unwrap().len(), 0);
    let family = reports
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("Family.repository"))
        .unwrap();
    let first = &family["diagnostics"][0];
    for key in ["severity", "line", "column", "element", "message"] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn check_exit_status_and_text() {
    let out = beagle(&[
        "check",
        "fixtures/pcm/mediastore/MediaStore.repository",
        "fixtures/pcm/minimum-example",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    insta::assert_snapshot!(stdout(&out));
    let out = beagle(&["check", "fixtures/pcm/nope.repository"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("cannot read the file"));
}

#[test]
fn check_reports_a_processing_rate_that_is_not_a_number_on_its_line() {
    // MediaStore with one rate changed: the folder as a user would check it.
    let dir = tempfile::tempdir().unwrap();
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore");
    for entry in std::fs::read_dir(&real).unwrap() {
        let path = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_some_and(|e| e == "resourceenvironment") {
            let from = "specification=\"50 * 1000 * 1000\"";
            assert!(text.contains(from));
            text = text.replacen(from, "specification=\"hdd.VALUE\"", 1);
        }
        std::fs::write(dir.path().join(path.file_name().unwrap()), text).unwrap();
    }
    let folder = dir.path().to_str().unwrap();
    let out = beagle(&["check", folder]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let env = dir.path().join("MediaStore.resourceenvironment");
    let expected = format!(
        "{}:19:70: error[processing-rate]: HDD of `ApplicationServer`: processing rate `hdd.VALUE` is not a number: unknown variable `hdd.VALUE`; the simulators divide each demand by it, so it must be a positive number (element _TVMn0Hy8EeaPy6UnbN4v1Q)",
        env.display()
    );
    assert!(text.lines().any(|l| l == expected), "{text}");
    // The one error: the other files, the allocation among them, are clean.
    assert_eq!(text.lines().filter(|l| l.contains("error[")).count(), 1, "{text}");
    let out = beagle(&["check", "--json", folder]);
    let reports: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let report = reports.iter().find(|r| r["file"] == env.display().to_string()).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(
        (d["line"].as_u64(), d["code"].as_str()),
        (Some(19), Some("processing-rate")),
        "{d}"
    );
    assert_eq!(d["element"], "_TVMn0Hy8EeaPy6UnbN4v1Q");
}

#[test]
fn stoex_parse_prints_canonical_form_or_column() {
    let out = beagle(&["stoex", "parse", "files.NUMBER_OF_ELEMENTS*2.1E5+1400"]);
    assert!(out.status.success());
    insta::assert_snapshot!("canonical", stdout(&out));
    let out = beagle(&["stoex", "parse", "a.VALUE + (2 *"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: column 15:"), "{err}");
}

#[test]
fn stoex_eval_with_variables() {
    let out = beagle(&[
        "stoex",
        "eval",
        "files.NUMBER_OF_ELEMENTS * 2.1E5 + 1400",
        "--var",
        "files.NUMBER_OF_ELEMENTS=3",
    ]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim().parse::<f64>().unwrap(), 631400.0);
    let out = beagle(&[
        "stoex",
        "eval",
        "n.VALUE > 2 ? IntPMF[(1;0.5)(3;0.5)] : 0",
        "--var",
        "n.VALUE=5",
    ]);
    assert_eq!(stdout(&out).trim().parse::<f64>().unwrap(), 2.0);
    // A fitted law may begin with a minus: the expression, not an option.
    let out = beagle(&["stoex", "eval", "-3.0E-9 * n.VALUE + 1", "--var", "n.VALUE=1E9"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout(&out).trim().parse::<f64>().unwrap(), -2.0);
    let out = beagle(&["stoex", "parse", "-2 * n.VALUE"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = beagle(&["stoex", "eval", "x.VALUE + 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("x.VALUE"));
}

/// Writes a CSV of `y = f(x)` for x = 10, 20, ... into a fresh temporary file.
fn law_csv(name: &str, header: &str, f: impl Fn(f64) -> f64) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("beagle-cli-fit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("train.csv");
    let mut text = format!("{header}\n");
    for i in 1..=40 {
        let x = f64::from(i * i) * 100.0;
        text.push_str(&format!("{x:?},{:?}\n", f(x)));
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn fit_follows_the_solver_contract() {
    let csv = law_csv("affine", "x1,y", |x| 0.35 * x + 120.0);
    let out = Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(["fit", csv.to_str().unwrap()])
        .env("SR_TIME_LIMIT", "10")
        .env("SR_SEED", "7")
        .env("SR_THREADS", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("expr: 0.35*x1 + 120"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("size: ")));

    let csv = law_csv("stoex", "files.NUMBER_OF_ELEMENTS,y", |x| 0.35 * x + 120.0);
    let out = beagle(&["fit", "--stoex", csv.to_str().unwrap()]);
    assert_eq!(
        stdout(&out).lines().last(),
        Some("expr: 0.35 * files.NUMBER_OF_ELEMENTS + 120")
    );

    // Target kinds: a branch decision prints its guard; a passed value is an exact integer form.
    let csv = law_csv("branch", "file.BYTESIZE,y", |x| if x > 50000.0 { 1.0 } else { 0.0 });
    let out = beagle(&["fit", "--target", "probability", "--stoex", csv.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "guard: file.BYTESIZE > 50000"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("expr: file.BYTESIZE > 50000 ? 1 : 0"),
        "{text}"
    );
    let csv = law_csv("value", "n,y", |x| x - 1.0);
    let out = beagle(&["fit", "--target", "value", csv.to_str().unwrap()]);
    assert_eq!(stdout(&out).lines().last(), Some("expr: x1 - 1"));

    let bad = csv.with_file_name("bad.csv");
    std::fs::write(&bad, "x1,y\n1,2\n3,oops\n").unwrap();
    let out = beagle(&["fit", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("line 3"));
}

#[test]
fn fit_publishes_a_noisy_constant_as_its_distribution_when_asked() {
    // Ten points of three repetitions each; the demand is 40 ms plus up to 10 % whatever x is.
    let dir = std::env::temp_dir().join(format!("beagle-cli-fit-{}-spread", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("noise.csv");
    let mut text = "files.NUMBER_OF_ELEMENTS,y\n".to_string();
    for i in 0..30u32 {
        let noise = f64::from((i * 7919) % 97) / 970.0;
        text.push_str(&format!("{},{:?}\n", 1 + i % 10, 40.0 * (1.0 + noise)));
    }
    std::fs::write(&csv, text).unwrap();
    let out = beagle(&[
        "fit",
        "--stoex",
        "--no-gp",
        "--spread",
        "distribution",
        csv.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    let expr = text.lines().last().unwrap();
    assert!(expr.starts_with("expr: DoublePDF[(40;0)("), "{text}");
    assert!(
        text.lines().any(|l| l == format!("log: distribution: {}", &expr[6..])),
        "{text}"
    );
    assert!(text.contains("distribution of the 30 observations"), "{text}");
    // Without the flag: the constant.
    let out = beagle(&["fit", "--stoex", "--no-gp", csv.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        !text.contains("PDF") && text.lines().last().unwrap().starts_with("expr: 4"),
        "{text}"
    );
}

#[test]
fn fit_runs_the_genetic_search_and_reports_it() {
    // x^2.5 is outside the regression basis: the analysers alone answer with a piecewise cubic.
    let csv = law_csv("pow", "x1,y", |x| x.powf(2.5));
    let run = |threads: &str, extra: &[&str]| {
        let mut args = vec!["fit"];
        args.extend_from_slice(extra);
        args.push(csv.to_str().unwrap());
        let out = Command::new(env!("CARGO_BIN_EXE_beagle"))
            .args(&args)
            .env("SR_TIME_LIMIT", "10")
            .env("SR_SEED", "3")
            .env("SR_THREADS", threads)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        stdout(&out)
    };
    let one = run("1", &[]);
    assert!(
        one.lines()
            .any(|l| l.starts_with("log: gp: ") && l.contains(" generations, ") && l.contains(" evaluations")),
        "{one}"
    );
    // Exact (any algebraically equal form, e.g. `sqrt(x1)^5` with other seeds).
    assert!(one.lines().any(|l| l.contains("best from gp, R^2 1.000000")), "{one}");
    // The same expression with two threads.
    assert_eq!(run("2", &[]).lines().last(), one.lines().last());
    // Without the genetic search: no gp line, another answer.
    let without = run("1", &["--no-gp"]);
    assert!(!without.lines().any(|l| l.starts_with("log: gp:")), "{without}");
    assert_ne!(without.lines().last(), one.lines().last());
}
