//! `beagle analyse fixtures/strategies`: real code as it is written (issue 38), with no code links.
//! Three components share one template method inherited from an abstract base; a fourth runs an
//! interface's default method; the model's operation is `find(pattern, items)` where the code has
//! `findMatches(items, pattern)`; the reporter's cost grows with a parameter the model lacks.
//! The fixture's README documents the laws the code has; the test checks the analysis finds them.

mod common;

use common::{analyse_fixture_copy, copy_dir, diagnostic_messages, eval_law, javac_available, root};
use std::collections::BTreeMap;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

#[test]
fn inherited_renamed_and_reordered_code_is_linked_and_each_component_measured_on_its_own() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let report = analyse_fixture_copy("strategies");
    let messages = diagnostic_messages(&report);

    // Every SEFF linked automatically, each to the code that runs for its component.
    for (seff, file, runs_for) in [
        ("_st_ExactMatcher_find", "AbstractMatcher.java", "ExactMatcher"),
        ("_st_PrefixMatcher_find", "AbstractMatcher.java", "PrefixMatcher"),
        ("_st_FuzzyMatcher_find", "AbstractMatcher.java", "FuzzyMatcher"),
        ("_st_Reporter_summarise", "Reporting.java", "Reporter"),
    ] {
        let linked = messages
            .iter()
            .find(|m| m.starts_with(&format!("{seff}: automatic link to src/strategies/{file} (used;")))
            .unwrap_or_else(|| panic!("{seff} not linked:\n{}", messages.join("\n")));
        assert!(linked.contains(&format!("(its body runs for {runs_for})")), "{linked}");
    }
    assert!(
        !messages.iter().any(|m| m.contains("not linked")),
        "{}",
        messages.join("\n")
    );
    // The renamed operation, and its parameters by name whatever their order.
    assert!(messages
        .iter()
        .any(|m| m.contains("findMatches(items, pattern) has a name like signature find's")));
    assert!(
        messages.iter().any(|m| m.contains(
            "the method's parameters (items, pattern) matched to its signature's (pattern, items): items by name; pattern by name"
        )),
        "{}",
        messages.join("\n")
    );

    let results: BTreeMap<&str, &serde_json::Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["element"].as_str().unwrap(), r))
        .collect();
    let expression = |id: &str| -> &str {
        results
            .get(id)
            .unwrap_or_else(|| panic!("no result for {id}: {:?}", results.keys()))["expression"]
            .as_str()
            .unwrap()
    };
    // The one loop of the shared body: an item per iteration, for each component.
    for component in ["ExactMatcher", "PrefixMatcher", "FuzzyMatcher"] {
        let id = format!("_st_{component}_items");
        assert_eq!(expression(&id), "items.NUMBER_OF_ELEMENTS", "{id}");
        assert_eq!(results[id.as_str()]["status"], "final", "{id}");
    }
    // The step each one's object runs: measured per component, each its own law (README.md).
    let per_item = |component: &str, pattern: f64| {
        let law = expression(&format!("_st_{component}_match/{CPU}"));
        eval_law(
            law,
            &[
                ("pattern.NUMBER_OF_ELEMENTS", pattern),
                ("items.NUMBER_OF_ELEMENTS", 500.0),
            ],
        )
    };
    let growth = |component: &str| per_item(component, 48.0) / per_item(component, 8.0);
    // The second increment of a law over the pattern (28 to 48 elements) against its first (8 to
    // 28): its curvature, which a level raised by another process leaves as it is.
    let curvature = |component: &str| {
        let (f8, f28, f48) = (
            per_item(component, 8.0),
            per_item(component, 28.0),
            per_item(component, 48.0),
        );
        (f48 - f28) / (f28 - f8)
    };
    // Exact: one comparison per pattern element, linear: it grows, at most as the elements (6×),
    // and bends upwards no more than n·log n does (1.2; a quadratic's is 2.1). How much it grows
    // is not asked: its per-item floor is what a busy machine raises (the fuzzy law's ratio shrank
    // from 12× to 7.9× in a CI run beside two builds), and a floor raised enough takes any ratio
    // below a bound. A constant (another component's law) or a quadratic still fails.
    // Exact's step is tens of nanoseconds per item at small patterns, a few probe costs: on a busy
    // machine the probes' calibration noise rises, and a step within four noises of zero is too
    // short to measure (no law, and a warning naming it; the hotloop test's checksum is the same
    // case). A CI run with the real clients' analyses beside it had no result for it. Then its
    // own checks are left out; anything else without a result still fails.
    let exact_id = format!("_st_ExactMatcher_match/{CPU}");
    let exact_measured = results.contains_key(exact_id.as_str());
    if !exact_measured {
        let too_short = report["diagnostics"].as_array().unwrap().iter().any(|d| {
            d["element"] == exact_id.as_str() && d["message"].as_str().unwrap_or("").contains("too short to measure")
        });
        assert!(
            too_short,
            "no result for {exact_id}, and no warning that it is too short to measure:\n{}",
            messages.join("\n")
        );
    }
    if exact_measured {
        let exact = growth("ExactMatcher");
        let exact_curvature = curvature("ExactMatcher");
        assert!(
            exact > 1.0 && exact <= 6.5 && exact_curvature <= 1.4,
            "exact grows {exact}×, its second increment {exact_curvature} times its first"
        );
    }
    // Prefix: the same work whatever the pattern.
    let prefix = growth("PrefixMatcher");
    assert!((0.8..=1.25).contains(&prefix), "prefix grows {prefix}×");
    // Fuzzy: every pair of pattern elements, quadratic (36× the pairs). What carries over from a
    // quiet machine to a busy one is the form, not the ratio: a per-item level raised by another
    // process (a CI run beside two builds measured 7.9× where quiet runs give 12× and more) shrinks
    // the ratio, never the curvature. A quadratic's second increment (28 to 48 elements) is 2.1
    // times its first (8 to 28), a line's 1, n·log n's 1.2: at least 1.4 is
    // clearly more than either, within what the evidence of a busy run carries.
    let fuzzy = growth("FuzzyMatcher");
    let fuzzy_law = expression(&format!("_st_FuzzyMatcher_match/{CPU}"));
    let fuzzy_curvature = curvature("FuzzyMatcher");
    assert!(
        fuzzy >= 4.0 && fuzzy_curvature >= 1.4,
        "fuzzy grows {fuzzy}×, its second increment {fuzzy_curvature} times its first: {fuzzy_law}"
    );
    // At a large pattern the pairs cost more than the single pass: what the pattern adds from 8 to
    // 48 elements, a difference the floor drops out of (1.6 µs against 40 ns in the README's
    // laws; a ratio of the levels at 48 would shrink as the floor rises, as the growths do).
    let added = |component: &str| per_item(component, 48.0) - per_item(component, 8.0);
    // (Exact too short to measure adds nothing measurable.)
    let exact_added = if exact_measured { added("ExactMatcher") } else { 0.0 };
    assert!(
        added("FuzzyMatcher") > 5.0 * exact_added,
        "fuzzy adds {} ms from 8 to 48 elements, exact {} ms",
        added("FuzzyMatcher"),
        exact_added
    );

    // The reporter's cost grows with `width`, which the model's signature lacks: no final law,
    // and the reason says what to add.
    let digest = results[format!("_st_Reporter_digest/{CPU}").as_str()];
    assert_eq!(digest["status"], "preliminary");
    let reasons: Vec<&str> = digest["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r.as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("rises with `width.VALUE`") && r.contains("add it to the signature")),
        "{reasons:?}"
    );
}

/// The receiving object's class picks the component: an anonymous subclass of `ExactMatcher` is
/// `ExactMatcher`, and a matcher of no component's class (an anonymous `AbstractMatcher`) runs the
/// same probed body without being recorded for anyone.
#[test]
fn a_subclass_counts_for_its_component_and_a_class_of_no_component_for_none() {
    use beagle_analysis::{scope_elements, Scope};
    use beagle_java::launch::{read_java_config, Point, PointValue};
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/strategies"), dir.path());
    let driver = dir.path().join("src/strategies/Driver.java");
    let text = std::fs::read_to_string(&driver).unwrap();
    let text = text.replace(
        "Matching[] strategies = {new ExactMatcher(), new PrefixMatcher(), new FuzzyMatcher()};",
        "Matching[] strategies = {new ExactMatcher(), new PrefixMatcher(), new FuzzyMatcher(), new ExactMatcher() {},
                new AbstractMatcher() {
                    @Override
                    protected boolean matches(int item, int[] pattern) {
                        return item == 0;
                    }
                }};",
    );
    assert!(text.contains("new ExactMatcher() {}"));
    std::fs::write(&driver, text).unwrap();

    let toml_path = dir.path().join("beagle.toml");
    let config = read_java_config(&toml_path, &std::fs::read_to_string(&toml_path).unwrap())
        .unwrap()
        .unwrap();
    let repo_path = dir.path().join("model/strategies.repository");
    let file = beagle_pcm::ModelFile::from_bytes(repo_path.clone(), std::fs::read(&repo_path).unwrap());
    let repo = file.repository.as_ref().unwrap();
    let scope = scope_elements(repo, &Scope::Repository).unwrap();
    let links = beagle_java::links::auto::automatic_links(&[repo], &config.root, &config.sources, &Default::default());
    let services = scope.services.keys().cloned().collect();
    let work = dir.path().join(".beagle/receivers");
    let prepared =
        beagle_java::prepare::prepare(&config, &[repo], &scope.elements, &services, &links, &[], &work).unwrap();
    assert_eq!(prepared.table.dispatch.tables.len(), 1, "{:?}", prepared.table.dispatch);
    let point: Point = [
        ("items".to_string(), PointValue::Number(50.0)),
        ("pattern".to_string(), PointValue::Number(4.0)),
        ("width".to_string(), PointValue::Number(2.0)),
    ]
    .into();
    let m = beagle_java::measure::measure_point(&config, &prepared, &config.launches[0], &point, &work.join("p"), "p")
        .unwrap();
    let executions = |component: &str| -> usize {
        let id = format!("_st_{component}_items");
        m.results
            .iter()
            .find(|(e, _)| e.id == id)
            .map_or(0, |(_, r)| r.observations.len())
    };
    let (exact, prefix, fuzzy) = (
        executions("ExactMatcher"),
        executions("PrefixMatcher"),
        executions("FuzzyMatcher"),
    );
    assert!(prefix > 0, "{:?}", m.notes);
    assert_eq!(fuzzy, prefix);
    // Its own object and the anonymous subclass's; the matcher of no component adds to none.
    assert_eq!(exact, 2 * prefix, "exact {exact}, prefix {prefix}");
}
