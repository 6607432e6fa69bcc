//! `beagle analyse fixtures/downloads`: a media store modelled by hand (issue 50), whose inputs
//! are shaped unlike the code's. A composite `request` is spread over four code parameters; the
//! packer's input size sits inside `Item` objects; the model's first transition is the code's
//! `else` arm; the callers pass a list's size as its `VALUE` and `zip`'s demand reads a
//! `NUMBER_OF_ELEMENTS` nobody sets; `upload`'s composite is one object read through a getter.
//! The fixture's README says what the code costs; this test checks that the laws come out over
//! the model's own inputs, in its own words.

mod common;

use common::{beagle_in, copy_dir, diagnostic_messages, eval_law, javac_available, json, root};
use std::collections::BTreeMap;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

#[test]
fn a_hand_made_models_inputs_are_measured_in_its_own_words() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/downloads"), dir.path());
    let model = "model/downloads.repository";

    // Before: the hand-written demand reads a characterisation no caller sets.
    let before = beagle_in(dir.path(), &["check", model]);
    let before = String::from_utf8_lossy(&before.stdout).to_string();
    assert!(
        before.contains("characterisation-not-passed")
            && before.contains(
                "`items.NUMBER_OF_ELEMENTS`: no caller of pack sets it (they pass items.BYTESIZE, items.VALUE)"
            ),
        "{before}"
    );

    let out = beagle_in(dir.path(), &["analyse", "--json", "--write", "."]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let messages = diagnostic_messages(&report);
    let all = messages.join("\n");
    let message = |prefix: &str| -> &str {
        messages
            .iter()
            .find(|m| m.starts_with(prefix))
            .unwrap_or_else(|| panic!("no message starting {prefix:?}:\n{all}"))
    };

    // The composite spread over the method's parameters: linked and used, each part by name.
    let linked = message("_dl_download: automatic link to src/org/acme/media/MediaStore.java (used;");
    assert!(
        linked.contains("request spread over files, size, login, named like its inner declarations"),
        "{linked}"
    );
    let matched = message("src/org/acme/media/MediaStore.java: _dl_download:");
    assert!(
        matched.contains("files as request.Files (by name, its size the model's request.Files.VALUE); size as request.Size (by name); login as request.Login (by name); local: not in the signature"),
        "{matched}"
    );
    // The composite taken as one object: its inner declaration read through the getter.
    let object = message("src/org/acme/media/MediaStore.java: _dl_upload:");
    assert!(
        object.contains("its request.Parts read through the object's fields or getters"),
        "{object}"
    );
    // The transitions by what their arms hold: `packed` is the `else`, `single` the `then`.
    assert!(
        message("_dl_packed: automatic link").contains("the arm at line 42 holds its call `pack`"),
        "{all}"
    );
    assert!(
        message("_dl_single: automatic link").contains("the arm at line 28"),
        "{all}"
    );
    assert!(
        message("_dl_download_send: automatic link").contains("statements at lines 30-41"),
        "{all}"
    );
    // A code value the model lacks: once per call, not published; once per service, ignored.
    assert!(
        all.contains("_dl_download_fetch: the code passes `reader.BYTESIZE`, which is no parameter of the called signature fetch(ids, size): not published"),
        "{all}"
    );
    let ignored = messages
        .iter()
        .filter(|m| m.contains("measurements name `local.VALUE`"))
        .count();
    assert_eq!(ignored, 1, "said once for the service:\n{all}");
    assert!(!all.contains("never executed"), "{all}");

    let results: BTreeMap<&str, &serde_json::Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["element"].as_str().unwrap(), r))
        .collect();
    assert!(
        !results.keys().any(|k| k.contains("reader")),
        "a call parameter the signature lacks was published: {:?}",
        results.keys()
    );
    let expression = |id: &str| -> String {
        results
            .get(id)
            .unwrap_or_else(|| panic!("no result for {id}: {:?}", results.keys()))["expression"]
            .as_str()
            .unwrap()
            .to_string()
    };

    // The packing branch: its guard right (taken above one file), whatever the model's order.
    let packed = expression("_dl_download_branch/_dl_packed");
    for (files, taken) in [(1.0, 0.0), (2.0, 1.0), (4.0, 1.0)] {
        assert_eq!(
            eval_law(&packed, &[("request.Files.VALUE", files)]),
            taken,
            "packed at {files} files: {packed}"
        );
    }
    // The call's parameters over the request's inner declarations, in the callers' words.
    let count = expression("_dl_download_pack/items.VALUE");
    assert_eq!(eval_law(&count, &[("request.Files.VALUE", 3.0)]), 3.0, "{count}");
    let bytes = expression("_dl_download_pack/items.BYTESIZE");
    assert_eq!(
        eval_law(&bytes, &[("request.Files.VALUE", 3.0), ("request.Size.VALUE", 1000.0)]),
        3000.0,
        "{bytes}"
    );
    // Packing costs by the bytes inside the items, a law over the model's `items.BYTESIZE`.
    let zip = expression(&format!("_dl_pack_zip/{CPU}"));
    let vars = beagle_stoex::variables(&beagle_stoex::parse(&zip).unwrap());
    assert_eq!(vars, ["items.BYTESIZE"], "zip: {zip}");
    let grows = eval_law(&zip, &[("items.BYTESIZE", 200_000.0)]) / eval_law(&zip, &[("items.BYTESIZE", 20_000.0)]);
    assert!(grows > 4.0, "zip grows {grows}× from 20 kB to 200 kB: {zip}");
    // Storing costs by the parts behind the getter.
    let store = expression(&format!("_dl_upload_store/{CPU}"));
    assert!(store.contains("request.Parts.VALUE"), "store parts: {store}");
    // Reading, by the fetch's own inputs (the ids' number as its VALUE).
    let read = expression(&format!("_dl_fetch_read/{CPU}"));
    assert!(
        read.contains("ids.VALUE") && read.contains("size.VALUE"),
        "read: {read}"
    );

    // After: what was written is in the callers' words; the check is clean.
    let after = beagle_in(dir.path(), &["check", model]);
    let after = String::from_utf8_lossy(&after.stdout).to_string();
    assert!(after.contains("0 errors, 0 warnings"), "{after}");
    let written = std::fs::read_to_string(dir.path().join(model)).unwrap();
    let specifications: Vec<&str> = written.lines().filter(|l| l.contains("specification=")).collect();
    assert!(
        !specifications.iter().any(|l| l.contains("NUMBER_OF_ELEMENTS")),
        "{specifications:#?}"
    );
}

/// Issue 50: where Beagle cannot tell a characterisation from the code, the link file gives it
/// as a Java expression over the method's parameters (`[[input]]`), compiled into the probe. One
/// that does not compile stops the analysis before anything runs, naming the link file's line;
/// one that does is measured in place of Beagle's own (here the items' count times 1000, which
/// the call's law over the request then shows).
#[test]
fn a_characterisation_the_link_file_gives_in_java_is_measured_and_a_bad_one_named_at_its_line() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures/downloads"), dir.path());
    common::add_java_keys(dir.path(), common::QUICK_JAVA_KEYS);
    let toml = dir.path().join("beagle.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replacen(
            "repository = \"model/downloads.repository\"\n",
            "repository = \"model/downloads.repository\"\nlinks = \"model/links.toml\"\n",
            1,
        ),
    )
    .unwrap();
    let links = |java: &str| {
        let entry = format!(
            "# Inputs only: the links are found automatically.\n\n[[input]]\nelement = \"_dl_pack\"\ncharacterisation = \"items.BYTESIZE\"\njava = \"{java}\"\n"
        );
        std::fs::write(dir.path().join("model/links.toml"), entry).unwrap();
    };

    links("items.nope()");
    let out = beagle_in(dir.path(), &["analyse", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("model/links.toml:3: [[input]] `items.BYTESIZE` of _dl_pack: the Java expression `items.nope()` does not compile in the service's method: cannot find symbol"),
        "{stderr}"
    );

    links("1000 * items.size()");
    let out = beagle_in(dir.path(), &["analyse", "--json", "."]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let bytes = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["element"] == "_dl_download_pack/items.BYTESIZE")
        .unwrap_or_else(|| panic!("{report:#}"))["expression"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        eval_law(&bytes, &[("request.Files.VALUE", 3.0), ("request.Size.VALUE", 5000.0)]),
        3000.0,
        "{bytes}"
    );
}
