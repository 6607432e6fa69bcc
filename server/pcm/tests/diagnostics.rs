//! Diagnostics carry file positions that point at the exact problem, and an element id.

mod common;

use beagle_pcm::{ModelFile, ModelSet, Severity};
use common::*;

fn render(file: &ModelFile, diags: &[beagle_pcm::Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| {
            let at = file.line_col(d.span.start as usize);
            format!(
                "{}:{} {:?}[{}] {} ({}) `{}`",
                at.line,
                at.column,
                d.severity,
                d.code,
                d.message,
                d.element.as_deref().unwrap_or("-"),
                &file.text()[d.span.range()]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The minimum example with one substitution.
fn minimum_with(from: &str, to: &str) -> ModelFile {
    let base = read("minimum-example/default.repository");
    assert!(base.text().contains(from), "{from}");
    ModelFile::parse(base.path.clone(), base.text().replacen(from, to, 1))
}

#[test]
fn stoex_errors_point_inside_the_attribute_past_entities() {
    let file = minimum_with(
        "specification=\"Exp(1)\"",
        "specification=\"a.VALUE &lt;= 2 ? 3 : (4 +\"",
    );
    let d: Vec<_> = file.diagnostics.iter().filter(|d| d.code == "stoex-syntax").collect();
    assert_eq!(d.len(), 1, "{:?}", file.diagnostics);
    let line = &file.text()[file
        .lines
        .line_start(file.line_col(d[0].span.start as usize).line)
        .unwrap()..];
    let col = file.line_col(d[0].span.start as usize).column as usize;
    // The error is at the end of the value: just before the closing quote.
    assert_eq!(&line[col - 1..col], "\"", "{}", render(&file, &file.diagnostics));
    assert_eq!(d[0].element.as_deref(), Some("_rl6MwCHbEd62GabW1zGSBw"));
    assert_eq!(d[0].severity, Severity::Error);

    let file = minimum_with(
        "specification=\"Exp(1)\"",
        "specification=\"2 * mylist_NUMBER_OF_ELEMENTS\"",
    );
    insta::assert_snapshot!("bare_variable", render(&file, &file.diagnostics));
}

#[test]
fn malformed_xml_has_a_line_and_column() {
    let file = minimum_with("</branchBehaviour_BranchTransition>", "</branchBehaviour_Transition>");
    insta::assert_snapshot!("mismatched_end_tag", render(&file, &file.diagnostics));
    assert!(file
        .diagnostics
        .iter()
        .any(|d| d.code == "xml" && d.severity == Severity::Error));
}

#[test]
fn unknown_types_are_warnings_matched_by_namespace_uri() {
    let file = minimum_with("seff:InternalAction", "seff:InternalActoin");
    let d = file.diagnostics.iter().find(|d| d.code == "unknown-type").unwrap();
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(&file.text()[d.span.range()], "InternalActoin");
    // The same type under another prefix bound to the same URI is known.
    let file = minimum_with(
        "xmlns:seff=",
        "xmlns:s=\"http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2\" xmlns:seff=",
    );
    let file = ModelFile::parse(
        file.path.clone(),
        file.text().replace("xsi:type=\"seff:", "xsi:type=\"s:"),
    );
    assert!(
        file.diagnostics.iter().all(|d| d.code != "unknown-type"),
        "{:?}",
        file.diagnostics
    );
    assert_eq!(file.repository.as_ref().unwrap().actions().count(), 9);
    // A prefix bound to nothing.
    let file = minimum_with("xsi:type=\"seff:StopAction\"", "xsi:type=\"nope:StopAction\"");
    assert!(file
        .diagnostics
        .iter()
        .any(|d| d.code == "unknown-type" && d.message.contains("not bound")));
}

#[test]
fn dangling_and_cyclic_successors() {
    // The branch's successor now points nowhere.
    let file = minimum_with(
        "successor_AbstractAction=\"_qZUd0SHbEd62GabW1zGSBw\">",
        "successor_AbstractAction=\"_gone\">",
    );
    insta::assert_snapshot!("dangling_successor", render(&file, &file.diagnostics));
    // The branch's successor is the start: a cycle.
    let file = minimum_with(
        "successor_AbstractAction=\"_qZUd0SHbEd62GabW1zGSBw\">",
        "successor_AbstractAction=\"_qZUd0CHbEd62GabW1zGSBw\">",
    );
    insta::assert_snapshot!("cyclic_successor", render(&file, &file.diagnostics));
}

#[test]
fn unresolved_cross_file_references_name_the_file() {
    let dir = std::env::temp_dir().join(format!("beagle-diag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.repository");
    let base = read("minimum-example/default.repository");
    let text = base
        .text()
        .replacen(
            "pathmap://PCM_MODELS/Palladio.resourcetype#",
            "missing.resourcetype#",
            1,
        )
        .replacen(
            "Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ",
            "Palladio.resourcetype#_notAType",
            1,
        );
    std::fs::write(&path, text).unwrap();
    let mut set = ModelSet::new();
    let id = set.load(&path).unwrap();
    let diags = set.check(id);
    let unresolved: Vec<_> = diags.iter().filter(|d| d.code == "unresolved-reference").collect();
    assert_eq!(unresolved.len(), 2, "{diags:#?}");
    assert!(unresolved.iter().any(|d| d.message.contains("missing.resourcetype")));
    assert!(unresolved.iter().any(|d| d.message.contains("_notAType")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn utf8_and_ascii_with_entities() {
    let file = minimum_with(
        "entityName=\"compute\"",
        "entityName=\"r\u{e9}sum\u{e9} &#10;&lt;\u{1F600}&gt;\"",
    );
    let a = file
        .repository
        .as_ref()
        .unwrap()
        .action("_rl6MwCHbEd62GabW1zGSBw")
        .unwrap();
    assert_eq!(a.name.as_deref(), Some("r\u{e9}sum\u{e9} \n<\u{1F600}>"));
    let file = minimum_with("specification=\"Exp(1)\"", "specification=\"\u{e9} + 1\"");
    let d = file.diagnostics.iter().find(|d| d.code == "stoex-syntax").unwrap();
    assert!(file.text()[d.span.range()].starts_with('\u{e9}'));
    // Not UTF-8 at all: reported, the rest still read.
    let mut bytes = read("minimum-example/default.repository").text().as_bytes().to_vec();
    bytes[300] = 0xff;
    let file = ModelFile::from_bytes("latin.repository".into(), bytes);
    assert_eq!(file.diagnostics[0].code, "encoding");
}

#[test]
fn references_to_devices_are_not_read() {
    let base = read("minimum-example/default.repository");
    let text = base
        .text()
        .replacen("pathmap://PCM_MODELS/Palladio.resourcetype#", "/dev/zero#", 1);
    let mut set = ModelSet::new();
    let id = set.insert(ModelFile::parse(fixture("minimum-example/zero.repository"), text));
    let diags = set.check(id);
    assert!(
        diags.iter().any(|d| d.message.contains("not a regular file")),
        "{diags:#?}"
    );
}

/// Issue 50: a demand over `items.NUMBER_OF_ELEMENTS` where every caller passes `items.VALUE` (a
/// list's size as an `INT`) reads a variable no simulation sets: a warning on the variable itself,
/// naming what the callers pass, with the callers' word to write instead. A use in the callers'
/// words, or in a SEFF no action calls, is not warned about.
#[test]
fn a_characterisation_no_caller_passes_is_warned_about_where_it_is_written() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/downloads/model/downloads.repository");
    let file = ModelFile::read(&path).unwrap();
    let diags: Vec<_> = beagle_pcm::check::local::check(&file)
        .into_iter()
        .filter(|d| d.code == "characterisation-not-passed")
        .collect();
    assert_eq!(
        render(&file, &diags),
        "96:74 Warning[characterisation-not-passed] `items.NUMBER_OF_ELEMENTS`: no caller of pack sets it (they pass items.BYTESIZE, items.VALUE), so a simulator reads it as undefined (_dl_pack_zip) `items.NUMBER_OF_ELEMENTS`"
    );
    let found = beagle_pcm::check::vocabulary::not_passed(&file, file.repository.as_ref().unwrap());
    assert_eq!(found[0].replacement.as_deref(), Some("items.VALUE"));
    // Written in the callers' words: nothing to say.
    let fixed = ModelFile::parse(
        path.clone(),
        file.text().replace(
            "0.01 * items.NUMBER_OF_ELEMENTS",
            "0.01 * items.VALUE + 1E-6 * items.BYTESIZE",
        ),
    );
    assert!(beagle_pcm::check::local::check(&fixed)
        .iter()
        .all(|d| d.code != "characterisation-not-passed"));
    // A SEFF no action of the repository calls (`download`, `upload`: a usage model's) is not
    // checked: its callers may pass anything.
    let uncalled = ModelFile::parse(
        path,
        fixed.text().replace(
            "specification=\"request.Files.VALUE &gt; 1\"",
            "specification=\"request.NUMBER_OF_ELEMENTS &gt; 1\"",
        ),
    );
    assert!(beagle_pcm::check::local::check(&uncalled)
        .iter()
        .all(|d| d.code != "characterisation-not-passed"));
}

/// Real models someone else made keep quiet: the third-party repositories under `fixtures/pcm`
/// (MediaStore, the file share, ...) and the linking benchmark's (TeaStore, CoCoME) use what their
/// callers pass, as do our other fixtures.
#[test]
fn third_party_models_use_what_their_callers_pass() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = 0;
    for dir in ["benchmarks/linking/models", "fixtures"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "repository") && !p.ends_with("downloads.repository") {
                    let file = ModelFile::read(&p).unwrap();
                    let said: Vec<_> = beagle_pcm::check::local::check(&file)
                        .into_iter()
                        .filter(|d| d.code == "characterisation-not-passed")
                        .collect();
                    assert!(said.is_empty(), "{}: {}", p.display(), render(&file, &said));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "{checked} repositories");
}

/// A call into an interface that no component provides (here the file share's hashing, once its
/// component no longer provides `IHashing`) is said, as an info on the call: no SEFF answers it,
/// so its cost is in no demand. With the provided role (or one of an interface inheriting it)
/// nothing is said.
#[test]
fn a_call_into_an_interface_nobody_provides_is_said() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare/model/fileshare.repository");
    let text = std::fs::read_to_string(&path).unwrap();
    let codes = |text: String| {
        let mut set = ModelSet::new();
        let id = set.insert(ModelFile::parse(path.clone(), text));
        set.check(id)
            .into_iter()
            .filter(|d| d.code == "interface-not-provided")
            .collect::<Vec<_>>()
    };
    assert!(codes(text.clone()).is_empty());
    let role = "providedInterface__OperationProvidedRole=\"_fs_IHashing\"";
    let without = text.replacen(role, "providedInterface__OperationProvidedRole=\"_fs_IUpload\"", 1);
    let said = codes(without.clone());
    assert_eq!(said.len(), 1, "{said:#?}");
    assert_eq!(said[0].severity, Severity::Info);
    assert_eq!(said[0].element.as_deref(), Some("_fs_hash_call"));
    assert_eq!(
        said[0].message,
        "the call `hash` goes to interface `IHashing`, which no component of this repository (or of the repositories it refers to) provides: its cost is in no demand"
    );
    assert!(without[said[0].span.range()]
        .starts_with("<steps_Behaviour xsi:type=\"seff:ExternalCallAction\" id=\"_fs_hash_call\""));
    // An interface that inherits IHashing, provided, provides it.
    let inherited = without.replacen(
        "<interfaces__Repository xsi:type=\"repository:OperationInterface\" id=\"_fs_IUpload\" entityName=\"IUpload\">",
        "<interfaces__Repository xsi:type=\"repository:OperationInterface\" id=\"_fs_IUpload\" entityName=\"IUpload\" parentInterfaces__Interface=\"_fs_IHashing\">",
        1,
    );
    assert!(codes(inherited).is_empty());
}
