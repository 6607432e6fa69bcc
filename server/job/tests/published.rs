//! What a job publishes, on the bundled events example (`fixtures/events-example`, as
//! `beagle analyse fixtures/events-example` runs it): every branch's transitions sum to 1, and
//! elements that never ran in an execution of their own SEFF get no result.

use beagle_analysis::{Control, ElementKind, FinalExpression, Scope};
use beagle_job::{resolve, run, JobOutput, Quiet, Request, Settings};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/events-example")
}

/// A private copy of the events example (the store writes into the folder), with its events
/// file rewritten by `events`.
fn example_copy(events: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["FileShare.repository", "beagle.toml"] {
        std::fs::copy(example().join(f), dir.path().join(f)).unwrap();
    }
    let text = std::fs::read_to_string(example().join("upload.events")).unwrap();
    std::fs::write(dir.path().join("upload.events"), events(&text)).unwrap();
    dir
}

fn analyse(dir: &Path) -> JobOutput {
    let request = Request {
        workspace: resolve(dir).unwrap(),
        scope: Scope::Repository,
        settings: Settings {
            gp: false,
            threads: 1,
            ..Settings::default()
        },
    };
    run(&request, &mut Quiet, &Control::new()).unwrap()
}

/// A published probability that is one number, in millionths (the most decimals Beagle writes),
/// if it is one number with at most that many decimals.
fn millionths(stoex: &str) -> Option<i64> {
    let v: f64 = stoex.parse().ok()?;
    let units = (v * 1e6).round();
    ((units / 1e6) == v).then_some(units as i64)
}

#[test]
fn every_branch_of_the_events_example_publishes_probabilities_that_sum_to_one() {
    let dir = example_copy(str::to_string);
    let out = analyse(dir.path());
    let finals = &out.repositories[0].finals;
    let mut branches: BTreeMap<&str, Vec<&FinalExpression>> = BTreeMap::new();
    for (e, fe) in finals.values() {
        if let ElementKind::Branch { branch, .. } = &e.kind {
            branches.entry(branch).or_default().push(fe);
        }
    }
    // The example's two branches, each with both transitions published.
    assert_eq!(
        branches.iter().map(|(b, ts)| (*b, ts.len())).collect::<Vec<_>>(),
        [("_fs_compress_if_large", 2), ("_fs_notify", 2)]
    );
    for (branch, transitions) in &branches {
        let numbers: Option<Vec<i64>> = transitions.iter().map(|fe| millionths(&fe.proposal.stoex)).collect();
        match numbers {
            // Printed numbers: exactly 1 in decimal.
            Some(n) => assert_eq!(n.iter().sum::<i64>(), 1_000_000, "{branch}: {n:?}"),
            // Laws of the inputs: 1 at every measured decision (the transitions observe the same
            // decisions, row by row).
            None => {
                let rows = transitions[0].proposal.predictions.len();
                assert!(rows > 0);
                for fe in transitions {
                    assert_eq!(fe.proposal.predictions.len(), rows, "{branch}");
                }
                for row in 0..rows {
                    let sum: f64 = transitions.iter().map(|fe| fe.proposal.predictions[row]).sum();
                    assert!((sum - 1.0).abs() < 1e-9, "{branch}, decision {row}: {sum}");
                }
            }
        }
    }
    // And as the report prints them.
    let printed: BTreeMap<&str, &str> = out
        .report
        .results
        .iter()
        .map(|r| (r.element.as_str(), r.expression.as_str()))
        .collect();
    assert_eq!(printed["_fs_notify/_fs_send_mail"], "0.3");
    assert_eq!(printed["_fs_notify/_fs_no_mail"], "0.7");
    assert_eq!(
        printed["_fs_compress_if_large/_fs_large"],
        "size.VALUE > 210000 ? 1 : 0"
    );
    assert_eq!(
        printed["_fs_compress_if_large/_fs_small"],
        "size.VALUE <= 210000 ? 1 : 0"
    );
}

#[test]
fn an_action_whose_seff_never_ran_gets_no_result_but_a_note() {
    // The store's code ran inside the uploads (as a helper method would), its SEFF never: its
    // `write` demand is recorded in upload executions, which are no executions of its SEFF.
    let dir = example_copy(|text| {
        let mut out = String::new();
        for line in text.lines() {
            if line.contains(r#""service":"_fs_store_seff""#) {
                continue;
            }
            match line.find(r#""execution":"store-"#) {
                Some(at) => {
                    // store-<upload>-<file> becomes upload-<upload>.
                    let id_start = at + r#""execution":""#.len();
                    let id_end = id_start + line[id_start..].find('"').unwrap();
                    let upload = line[id_start..id_end].split('-').nth(1).unwrap();
                    out.push_str(&line[..id_start]);
                    out.push_str(&format!("upload-{upload}"));
                    out.push_str(&line[id_end..]);
                }
                None => out.push_str(line),
            }
            out.push('\n');
        }
        out
    });
    let out = analyse(dir.path());
    let write = "_fs_write/_BIjHoQ3KEdyouMqirZIhzQ";
    let published: Vec<&str> = out.report.results.iter().map(|r| r.element.as_str()).collect();
    assert!(!published.contains(&write), "{published:?}");
    assert!(!published.contains(&"_fs_store_file/bytes.VALUE"), "{published:?}");
    // What ran is still published.
    assert!(published.contains(&"_fs_hash/_oro4gG3fEdy4YaaT-RYrLQ"), "{published:?}");
    let messages: Vec<&str> = out.report.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.contains(&format!("{write}: not measured: never executed (no measurement tool measured it)").as_str()),
        "{messages:#?}"
    );
    assert!(
        messages.contains(
            &format!(
                "{write}: 404 observations were made in executions of SEFF _fs_upload_seff, not of its own SEFF \
                 _fs_store_seff: not used"
            )
            .as_str()
        ),
        "{messages:#?}"
    );
}
