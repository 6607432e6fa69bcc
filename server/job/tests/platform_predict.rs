//! `beagle predict --platform` (issue 39, point 3) on a copy of `fixtures/fileshare`'s real model
//! (a resource environment: demands in work units at 1E9/s): a counted action's demand on the
//! target comes from its counts and the target's costs, composed through the model like any
//! demand; a profile twice as slow doubles it; an action without R keeps its measured demand, and
//! a key the profile has no timing for is named. By the split rule, the time the counts explain
//! moves with the target's costs and the rest with its native reference.

use beagle_analysis::section_counts::{CountLaw, Factor, SectionCounts};
use beagle_analysis::Store;
use beagle_java::platform::{Cost, Profile, NATIVE_REFERENCE};
use beagle_job::predicting::platform::{predict_on_platform, PlatformPrediction};
use beagle_job::predicting::predict::{predict, Deploy};
use std::collections::BTreeMap;
use std::path::Path;

fn fileshare() -> (tempfile::TempDir, beagle_job::Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare");
    let ok = std::process::Command::new("cp")
        .arg("-r")
        .arg(&from)
        .arg(dir.path().join("fs"))
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let _ = std::fs::remove_dir_all(dir.path().join("fs/.beagle"));
    let ws = beagle_job::resolve(&dir.path().join("fs")).unwrap();
    (dir, ws)
}

fn law(stoex: &str) -> CountLaw {
    CountLaw {
        stoex: stoex.into(),
        is_final: true,
        r2: 1.0,
    }
}

fn counts(action: &str, name: &str, r: Option<f64>) -> SectionCounts {
    SectionCounts {
        action: action.into(),
        name: name.into(),
        laws: [
            ("int-arith".to_string(), law("7 * data.BYTESIZE")),
            ("java/util/Arrays.fill([II)V".to_string(), law("1")),
        ]
        .into(),
        points: 8,
        factor: r.map(|r| Factor {
            r,
            spread: 0.01,
            platform: "here".into(),
            ..Factor::default()
        }),
    }
}

fn profile(scale: f64) -> Profile {
    Profile {
        clock_resolution_ns: 20.0,
        instructions: [
            ("int-arith".to_string(), 0.5 * scale),
            ("invoke".to_string(), 3.0 * scale),
        ]
        .into(),
        methods: BTreeMap::<String, Cost>::new(),
        ..Profile::default()
    }
}

/// `profile(scale)` with a native reference of `native` ns per byte.
fn with_native(scale: f64, native: f64) -> Profile {
    let mut p = profile(scale);
    p.methods.insert(
        NATIVE_REFERENCE.into(),
        Cost {
            call_ns: 0.0,
            element_ns: native,
        },
    );
    p
}

/// Counts of compress with R measured on a platform whose costs were int-arith 0.25 ns and an
/// invoke 3 ns, and whose native reference was 8 ns per byte.
fn measured_with_costs(r: f64) -> SectionCounts {
    let mut c = counts("_fs_compress", "compress", Some(r));
    let f = c.factor.as_mut().unwrap();
    f.costs = [
        ("int-arith".to_string(), 0.25),
        ("java/util/Arrays.fill([II)V".to_string(), 3.0),
    ]
    .into();
    f.native_ns = Some(8.0);
    c
}

fn ms_on(ws: &beagle_job::Workspace, counts: SectionCounts, target: &Profile) -> (f64, PlatformPrediction) {
    let mut store = Store::open(&ws.root).unwrap();
    let key = beagle_job::measuring::counting::store_key(&ws.root, &ws.repositories[0]);
    store.save_section_counts(&key, &[counts]).unwrap();
    let p = predict_on_platform(ws, "Compression.compress", &at(1000.0), &Deploy::default(), target).unwrap();
    (p.prediction.prediction.total(), p)
}

#[test]
fn the_split_rule_moves_counted_work_by_the_costs_and_the_rest_by_the_native_reference() {
    let (_dir, ws) = fileshare();
    // At 1000 bytes: the target's estimate E' = 0.5 × 7000 + 3 = 3503 ns; the measuring
    // platform's E = 0.25 × 7000 + 3 = 1753 ns; the target's native reference twice as slow.
    let target = with_native(1.0, 16.0);
    // R = 2: half the measured time is beyond the counts; it moves by the native reference.
    let (ms, p) = ms_on(&ws, measured_with_costs(2.0), &target);
    assert!(
        (ms - (3503.0 + 2.0 * 1753.0) * 1e-6).abs() < 1e-9,
        "{ms}: {:?}",
        p.counted
    );
    assert_eq!(p.counted[0].counted_factor, 1.0);
    assert!((p.counted[0].unexplained_factor - 2.0).abs() < 1e-12);
    assert!(p.notes.is_empty(), "{:?}", p.notes);
    // R = 0.5: the JIT overlaps the counted work, here as there; nothing is unexplained.
    let (ms, p) = ms_on(&ws, measured_with_costs(0.5), &target);
    assert!((ms - 0.5 * 3503.0 * 1e-6).abs() < 1e-9, "{ms}");
    assert_eq!(p.counted[0].unexplained_factor, 0.0);
    // Without a JIT the counted work is the suite's, whatever R was.
    let mut xint = with_native(1.0, 16.0);
    xint.platform.jvm_args = vec!["-Xint".into()];
    let (ms, _) = ms_on(&ws, measured_with_costs(0.5), &xint);
    assert!((ms - 3503.0 * 1e-6).abs() < 1e-9, "{ms}");
    // A target without the native reference keeps the unexplained time as measured, and says so.
    let (ms, p) = ms_on(&ws, measured_with_costs(2.0), &profile(1.0));
    assert!((ms - (3503.0 + 1753.0) * 1e-6).abs() < 1e-9, "{ms}");
    assert!(p.notes.iter().any(|n| n.contains("native reference")), "{:?}", p.notes);
}

fn at(size: f64) -> beagle_analysis::predict::Bindings {
    [("data.BYTESIZE".to_string(), size)].into()
}

#[test]
fn a_counted_action_takes_its_time_from_its_counts_on_the_target() {
    let (_dir, ws) = fileshare();
    let mut store = Store::open(&ws.root).unwrap();
    store
        .save_section_counts(
            &beagle_job::measuring::counting::store_key(&ws.root, &ws.repositories[0]),
            &[
                counts("_fs_compress", "compress", Some(2.0)),
                counts("_fs_hash", "hash", None),
            ],
        )
        .unwrap();
    let deploy = Deploy::default();
    let one = predict_on_platform(&ws, "Compression.compress", &at(1000.0), &deploy, &profile(1.0)).unwrap();
    // 2 × (0.5 ns × 7000 + 3 ns × 1 (Arrays.fill: no timing, an invoke)) = 7006 ns.
    let ms = one.prediction.prediction.total();
    assert!((ms - 0.007006).abs() < 1e-9, "{ms}");
    assert_eq!(one.counted.len(), 1);
    assert_eq!(one.counted[0].name, "compress");
    assert_eq!(one.uncalibrated, vec!["java/util/Arrays.fill([II)V".to_string()]);
    assert!(one.not_moved.iter().any(|(n, why)| n == "hash" && why.contains("no R")));
    // Counts stored without the measuring platform's costs: R scales all, which is said.
    assert!(
        one.notes
            .iter()
            .any(|n| n.contains("no costs of the measuring platform")),
        "{:?}",
        one.notes
    );
    // Twice the costs: twice the time, at any input.
    let two = predict_on_platform(&ws, "Compression.compress", &at(5000.0), &deploy, &profile(2.0)).unwrap();
    let base = predict_on_platform(&ws, "Compression.compress", &at(5000.0), &deploy, &profile(1.0)).unwrap();
    let ratio = two.prediction.prediction.total() / base.prediction.prediction.total();
    assert!((ratio - 2.0).abs() < 1e-9, "{ratio}");
    // An R far from 1 says the counts do not carry the time: the demand stays as measured.
    let mut store = Store::open(&ws.root).unwrap();
    store
        .save_section_counts(
            &beagle_job::measuring::counting::store_key(&ws.root, &ws.repositories[0]),
            &[counts("_fs_compress", "compress", Some(400.0))],
        )
        .unwrap();
    let far = predict_on_platform(&ws, "Compression.compress", &at(1000.0), &deploy, &profile(1.0)).unwrap();
    assert!(far.counted.is_empty());
    assert!(
        far.not_moved
            .iter()
            .any(|(n, why)| n == "compress" && why.contains("R = 400")),
        "{:?}",
        far.not_moved
    );
    // The file is untouched: the model on disk predicts what it says.
    let as_is = predict(&ws, "Compression.compress", &at(1000.0), &deploy).unwrap();
    assert!((as_is.prediction.total() - ms).abs() > 1e-6);
}
