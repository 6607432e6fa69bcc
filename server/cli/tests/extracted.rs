//! `beagle analyse fixtures/extracted`: a model laid out as extraction tools lay one out (issue 49),
//! with no code links. Components are named after packages and interfaces after classes; a list
//! is abstracted to its size (`lookup(entries: INT)` for `lookup(long ownerId, List<Entry>
//! entries)`); one operation is abstract; two overloads differ only in a composite type. The
//! fixture's README says what the code costs; this test checks the analysis links, measures and
//! finds it.

mod common;

use common::{analyse_fixture_copy, diagnostic_messages, eval_law, javac_available};
use std::collections::BTreeMap;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

#[test]
fn a_model_laid_out_as_extraction_tools_make_one_is_linked_measured_and_analysed() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let report = analyse_fixture_copy("extracted");
    let messages = diagnostic_messages(&report);
    let all = messages.join("\n");
    let message = |prefix: &str| -> &str {
        messages
            .iter()
            .find(|m| m.starts_with(prefix))
            .unwrap_or_else(|| panic!("no message starting {prefix:?}:\n{all}"))
    };

    // Each SEFF with a body, linked and used, by the rule that names the package and the class.
    for (seff, file, rule) in [
        (
            "_ex_lookup",
            "src/org/acme/roster/Roster.java",
            "component org.acme.roster is package org.acme.roster; class Roster in package org.acme.roster is named like interface Roster",
        ),
        (
            "_ex_update_email",
            "src/org/acme/accounts/Accounts.java",
            "(by parameter types, among overloads)",
        ),
        (
            "_ex_update_id",
            "src/org/acme/accounts/Accounts.java",
            "(by parameter types, among overloads)",
        ),
        (
            "_ex_email_send",
            "src/org/acme/mail/EmailNotifier.java",
            "class EmailNotifier in package org.acme.mail is named like interface EmailNotifier",
        ),
    ] {
        let linked = message(&format!("{seff}: automatic link to {file} (used;"));
        assert!(linked.contains(rule), "{linked}");
    }
    // The abstract operation is not linked to its declaration; the message says where it runs.
    assert!(
        all.contains("operation send is abstract in Notifier") && all.contains("it runs in EmailNotifier"),
        "{all}"
    );
    assert!(
        !all.contains("_ex_notifier_send: automatic link"),
        "the abstract declaration was linked:\n{all}"
    );
    // The list the model abstracts to its size: measured as the model's `entries.VALUE`.
    let sized = message("src/org/acme/roster/Roster.java: _ex_lookup:");
    assert!(
        sized.contains(
            "ownerId: not in the signature (not an input of the model); entries by name, its size the model's entries.VALUE"
        ),
        "{sized}"
    );

    let results: BTreeMap<&str, &serde_json::Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["element"].as_str().unwrap(), r))
        .collect();
    let result = |id: &str| -> &serde_json::Value {
        results
            .get(id)
            .unwrap_or_else(|| panic!("no result for {id}: {:?}", results.keys()))
    };
    let expression = |id: &str| result(id)["expression"].as_str().unwrap().to_string();

    // One iteration per entry, in the model's own vocabulary.
    assert_eq!(expression("_ex_lookup_entries"), "entries.VALUE");
    assert_eq!(result("_ex_lookup_entries")["status"], "final");
    // The same work per entry: no law in the entries' number (at most a small drift with it).
    let weigh = expression(&format!("_ex_lookup_weigh/{CPU}"));
    let (few, many) = (
        eval_law(&weigh, &[("entries.VALUE", 20.0), ("message.BYTESIZE", 100.0)]),
        eval_law(&weigh, &[("entries.VALUE", 2000.0), ("message.BYTESIZE", 100.0)]),
    );
    assert!(few > 0.0 && many / few < 2.0, "weigh entry: {weigh}");
    // The overloads, each measured in its own body: the e-mail address is hashed 400 times over
    // (about 10,800 steps), the id in 250 rounds.
    let by_email = eval_law(&expression(&format!("_ex_update_email_find/{CPU}")), &[]);
    let by_id = eval_law(&expression(&format!("_ex_update_id_find/{CPU}")), &[]);
    assert!(
        by_email > 8.0 * by_id,
        "find by e-mail {by_email} ms, by id {by_id} ms: the overloads' bodies swapped?"
    );
    // Encoding grows with the message.
    let encode = expression(&format!("_ex_email_send_encode/{CPU}"));
    assert!(encode.contains("message.BYTESIZE"), "encode message: {encode}");
    let grows = eval_law(&encode, &[("message.BYTESIZE", 4000.0)]) / eval_law(&encode, &[("message.BYTESIZE", 100.0)]);
    assert!(
        grows > 4.0,
        "encode message grows {grows}× from 100 to 4000 bytes: {encode}"
    );
}
