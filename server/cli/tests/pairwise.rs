//! `beagle analyse fixtures/pairwise` (issue 51): a recommender's training step whose main cost is
//! each order's pairwise matrix, `orderItems²/orders` (N orders of M items: N·M²), beside a pass
//! over the items. The law must come out in that form over the model's two inputs. Launched over
//! a catalogue size the model does not declare, the result names that parameter, how much the
//! cost moves across its range, stays preliminary, and a hint names the signature parameter that
//! would carry it.

mod common;

use common::{beagle_in, copy_dir, diagnostic_messages, eval_law, javac_available, json, root};

const PAIRS: &str = "_pw_train_pairs/_oro4gG3fEdy4YaaT-RYrLQ";

fn result<'a>(report: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    (report["results"].as_array().unwrap().iter())
        .find(|r| r["element"] == id)
        .unwrap_or_else(|| panic!("no result for {id}: {}", report["results"]))
}

#[test]
fn pairs_within_orders_are_a_law_over_items_squared_per_order() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/pairwise"), dir.path());
    let out = beagle_in(dir.path(), &["analyse", "--json", "."]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let pairs = result(&report, PAIRS)["expression"].as_str().unwrap().to_string();
    assert!(
        pairs.contains("orderItems.NUMBER_OF_ELEMENTS ^ 2 / orders.NUMBER_OF_ELEMENTS"),
        "{pairs}"
    );
    // At equal items, 40 orders of 80 make ten times the pairs of 400 orders of 8.
    let at = |items: f64, orders: f64| {
        eval_law(
            &pairs,
            &[
                ("orderItems.NUMBER_OF_ELEMENTS", items),
                ("orders.NUMBER_OF_ELEMENTS", orders),
            ],
        )
    };
    let ratio = at(3200.0, 40.0) / at(3200.0, 400.0);
    assert!((4.0..=12.0).contains(&ratio), "{pairs}: {ratio}");
    let all = diagnostic_messages(&report).join("\n");
    assert!(
        !all.contains("`catalogue` of `train`"),
        "the catalogue is held at one value:\n{all}"
    );
}

#[test]
fn a_catalogue_the_model_lacks_is_named_on_the_first_run() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/pairwise"), dir.path());
    let toml = dir.path().join("beagle.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let varied = text.replace(
        "catalogue = { values = [200] }",
        "catalogue = { values = [200, 2000, 20000] }",
    );
    assert_ne!(text, varied);
    std::fs::write(&toml, varied).unwrap();
    let out = beagle_in(dir.path(), &["analyse", "--json", "."]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let pairs = result(&report, PAIRS);
    assert_eq!(pairs["status"], "preliminary", "{pairs}");
    let reasons = pairs["reasons"].to_string();
    assert!(
        reasons.contains("across `catalogue` of `train` (200 to 20000"),
        "{reasons}"
    );
    assert!(
        reasons.contains("the law over the declared inputs is the average over that range as launched"),
        "{reasons}"
    );
    let messages = diagnostic_messages(&report);
    let hint = (messages.iter())
        .find(|m| m.starts_with(PAIRS) && m.contains("hint:"))
        .unwrap_or_else(|| panic!("no hint:\n{}", messages.join("\n")));
    assert!(
        hint.contains("add a parameter `catalogue` (INT) to `IRecommender.train` and pass `catalogue.VALUE`"),
        "{hint}"
    );
    // The launch's own `--orders` and `--items` are the declared inputs' (orders, items/orders):
    // not undeclared.
    assert!(!messages
        .iter()
        .any(|m| m.contains("`orders` of `train`") || m.contains("`items` of `train`")));
}
