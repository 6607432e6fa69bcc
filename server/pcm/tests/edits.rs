//! Edits of every kind on real files: minimal, escaped, indented like their siblings, and the
//! re-parsed model holds the new value. Diffs are snapshotted.

mod common;

use beagle_pcm::edit::{EditError, UsageTarget};
use beagle_pcm::model::{ActionBody, TransitionKind, UsageRole};
use beagle_pcm::ModelFile;
use common::*;

fn spec_text(file: &ModelFile, id: Option<usize>) -> Option<&str> {
    id.map(|i| file.specifications[i].text.as_str())
}

#[test]
fn replace_an_existing_cpu_demand() {
    let file = read("minimum-example/default.repository");
    let edits = file
        .set_resource_demand(
            "_rl6MwCHbEd62GabW1zGSBw",
            "CPU",
            "files.NUMBER_OF_ELEMENTS * 2.1E5 + 1400",
        )
        .unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(
        &file.text()[edits[0].span.range()],
        "Exp(1)",
        "only the value bytes change"
    );
    let (new, diff) = apply_and_check(&file, &edits);
    let a = new
        .repository
        .as_ref()
        .unwrap()
        .action("_rl6MwCHbEd62GabW1zGSBw")
        .unwrap();
    assert_eq!(
        spec_text(&new, a.resource_demands[0].specification),
        Some("files.NUMBER_OF_ELEMENTS * 2.1E5 + 1400")
    );
    insta::assert_snapshot!(diff);
}

#[test]
fn add_a_demand_for_another_resource_type() {
    let file = read("minimum-example/default.repository");
    let edits = file
        .set_resource_demand("_rl6MwCHbEd62GabW1zGSBw", "HDD", "data.BYTESIZE / 1024")
        .unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    let a = new
        .repository
        .as_ref()
        .unwrap()
        .action("_rl6MwCHbEd62GabW1zGSBw")
        .unwrap();
    assert_eq!(a.resource_demands.len(), 2);
    let hdd = &a.resource_demands[1];
    assert_eq!(
        hdd.resource_type.as_ref().unwrap().target.fragment(),
        "_BIjHoQ3KEdyouMqirZIhzQ"
    );
    assert_eq!(spec_text(&new, hdd.specification), Some("data.BYTESIZE / 1024"));
    // The CPU demand is untouched.
    assert_eq!(spec_text(&new, a.resource_demands[0].specification), Some("Exp(1)"));
    insta::assert_snapshot!(diff);
}

#[test]
fn demand_on_an_action_without_children_opens_its_tag() {
    let text = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_r">
    <components__Repository xsi:type="repository:BasicComponent" id="_c" entityName="C">
        <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_s">
            <steps_Behaviour xsi:type="seff:StartAction" id="_a" successor_AbstractAction="_b"/>
            <steps_Behaviour xsi:type="seff:InternalAction" id="_b" entityName="work" predecessor_AbstractAction="_a" successor_AbstractAction="_z" />
            <steps_Behaviour xsi:type="seff:StopAction" id="_z" predecessor_AbstractAction="_b"/>
        </serviceEffectSpecifications__BasicComponent>
    </components__Repository>
</repository:Repository>
"#;
    let file = ModelFile::parse("inline.repository".into(), text.to_string());
    assert!(errors(&file).is_empty(), "{:?}", errors(&file));
    let edits = file
        .set_resource_demand("_b", "CPU", "n.VALUE < 10 ? 5 : n.VALUE * 0.5")
        .unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    let a = new.repository.as_ref().unwrap().action("_b").unwrap();
    assert_eq!(
        spec_text(&new, a.resource_demands[0].specification),
        Some("n.VALUE < 10 ? 5 : n.VALUE * 0.5")
    );
    assert!(new
        .text()
        .contains("specification=\"n.VALUE &lt; 10 ? 5 : n.VALUE * 0.5\""));
    insta::assert_snapshot!(diff);
}

/// The iteration count of a LoopAction, as text.
fn loop_count<'a>(file: &'a ModelFile, id: &str) -> Option<&'a str> {
    let a = file.repository.as_ref()?.action(id)?;
    let ActionBody::Loop { iteration_count, .. } = &a.body else {
        return None;
    };
    spec_text(file, *iteration_count)
}

#[test]
fn loop_iteration_counts_replace_and_create() {
    let file = read("harddisk-example/default.repository");
    let edits = file
        .set_loop_iteration_count("_ZDv6sHJ3Ed2efr_U4e1c6Q", "Trunc(data.BYTESIZE / 4096)")
        .unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    assert_eq!(
        loop_count(&new, "_ZDv6sHJ3Ed2efr_U4e1c6Q"),
        Some("Trunc(data.BYTESIZE / 4096)")
    );
    insta::assert_snapshot!("loop_replace", diff);

    // Without its iterationCount_LoopAction, Family's InnerLoop gets one after its body.
    let family = read("beagle-palladiofileshare/Family.repository");
    let text = family
        .text()
        .replace("            <iterationCount_LoopAction specification=\"7\"/>\n", "");
    assert_ne!(text.len(), family.text().len());
    let file = ModelFile::parse(family.path.clone(), text);
    let edits = file
        .set_loop_iteration_count("_h1a6ILnnEeWVlphM5rov7g", "n.VALUE")
        .unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    assert_eq!(loop_count(&new, "_h1a6ILnnEeWVlphM5rov7g"), Some("n.VALUE"));
    insta::assert_snapshot!("loop_create", diff);
}

#[test]
fn branch_guards_are_escaped() {
    let file = read("harddisk-example/withoutInitialSeek.repository");
    let edits = file
        .set_branch_condition(
            "_6zHQ8HJ6Ed2efr_U4e1c6Q",
            "data.BYTESIZE <= 4096 AND mode.VALUE == \"fast\"",
        )
        .unwrap();
    assert_eq!(
        &file.text()[edits[0].span.range()],
        "data.BYTESIZE &lt;= seekSize.VALUE"
    );
    let (new, diff) = apply_and_check(&file, &edits);
    let t = new
        .repository
        .as_ref()
        .unwrap()
        .actions()
        .find_map(|a| match &a.body {
            ActionBody::Branch { transitions } => transitions
                .iter()
                .find(|t| t.id.as_deref() == Some("_6zHQ8HJ6Ed2efr_U4e1c6Q")),
            _ => None,
        })
        .unwrap();
    let TransitionKind::Guarded { condition } = &t.kind else {
        panic!()
    };
    assert_eq!(
        spec_text(&new, *condition),
        Some("data.BYTESIZE <= 4096 AND mode.VALUE == \"fast\"")
    );
    insta::assert_snapshot!(diff);
}

#[test]
fn branch_probabilities_replace_and_add_the_attribute() {
    let file = read("minimum-example/default.repository");
    let edits = file.set_branch_probability("_vN34UCHjEd6ZSMvOJK-6LQ", 0.25).unwrap();
    assert_eq!(&file.text()[edits[0].span.range()], "0.3");
    let (_, diff) = apply_and_check(&file, &edits);
    insta::assert_snapshot!("probability_replace", diff);

    // SubBranchOne in Family.repository has no branchProbability attribute (EMF's default 0).
    let file = read("beagle-palladiofileshare/Family.repository");
    let edits = file.set_branch_probability("_JR0rsLnrEeWVlphM5rov7g", 0.5).unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    assert_eq!(
        new.tree
            .raw_value(new.node_by_id("_JR0rsLnrEeWVlphM5rov7g").unwrap(), "branchProbability"),
        Some("0.5")
    );
    insta::assert_snapshot!("probability_add", diff);
    assert!(file.set_branch_probability("_JR0rsLnrEeWVlphM5rov7g", 1.5).is_err());
}

#[test]
fn variable_characterisations_replace_add_and_create_usages() {
    let file = read("mediastore/MediaStore.repository");
    let call = "_AzXr4MZ7EeSDae6OpXziLw";
    let target = |variable, characterisation| UsageTarget {
        action_id: call,
        role: UsageRole::Input,
        variable,
        characterisation,
    };
    // Replace: audioRequest.Count VALUE is `1`.
    let edits = file
        .set_variable_characterisation(&target("audioRequest.Count", "VALUE"), "files.NUMBER_OF_ELEMENTS")
        .unwrap();
    assert_eq!(&file.text()[edits[0].span.range()], "1");
    let (_, diff) = apply_and_check(&file, &edits);
    insta::assert_snapshot!("usage_replace", diff);

    // Add a characterisation to an existing usage.
    let edits = file
        .set_variable_characterisation(&target("audioRequest.Count", "BYTESIZE"), "8")
        .unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    let a = new.repository.as_ref().unwrap().action(call).unwrap();
    let usage = a
        .body
        .variable_usages()
        .into_iter()
        .find(|u| u.name == "audioRequest.Count")
        .unwrap();
    let kinds: Vec<_> = usage.characterisations.iter().map(|c| c.kind.as_str()).collect();
    assert_eq!(kinds, ["VALUE", "BYTESIZE"]);
    insta::assert_snapshot!("usage_add_characterisation", diff);

    // Create a whole usage on a call that has none, in a file that has no stoex namespace yet.
    let file = read("beagle-palladiofileshare/internal_architecture_model.repository");
    let t = UsageTarget {
        action_id: "_DrlNcOe1EeW5NafnxUciog",
        role: UsageRole::Input,
        variable: "query.terms",
        characterisation: "NUMBER_OF_ELEMENTS",
    };
    let edits = file
        .set_variable_characterisation(&t, "input.NUMBER_OF_ELEMENTS / 2")
        .unwrap();
    assert_eq!(edits.len(), 2, "binds the stoex prefix and inserts the usage");
    let (new, diff) = apply_and_check(&file, &edits);
    assert!(
        new.diagnostics.iter().all(|d| d.code != "unknown-type"),
        "{:?}",
        new.diagnostics
    );
    let a = new
        .repository
        .as_ref()
        .unwrap()
        .action("_DrlNcOe1EeW5NafnxUciog")
        .unwrap();
    let usage = &a.body.variable_usages()[0];
    assert_eq!(usage.name, "query.terms");
    assert_eq!(usage.characterisations[0].kind, "NUMBER_OF_ELEMENTS");
    assert_eq!(
        spec_text(&new, usage.characterisations[0].specification),
        Some("input.NUMBER_OF_ELEMENTS / 2")
    );
    insta::assert_snapshot!("usage_create", diff);
}

#[test]
fn bad_edits_are_refused_whole() {
    let file = read("minimum-example/default.repository");
    assert!(matches!(
        file.set_resource_demand("_rl6MwCHbEd62GabW1zGSBw", "CPU", "1 +"),
        Err(EditError::InvalidSpecification { .. })
    ));
    assert!(matches!(
        file.set_resource_demand("_nope", "CPU", "1"),
        Err(EditError::NotFound(_))
    ));
    // A branch is not a loop.
    assert!(matches!(
        file.set_loop_iteration_count("_tfAiwCHjEd6ZSMvOJK-6LQ", "1"),
        Err(EditError::NotFound(_))
    ));
    // A file with broken XML is never edited.
    let broken = ModelFile::parse("x.repository".into(), file.text()[..file.text().len() / 2].to_string());
    assert!(matches!(
        broken.set_resource_demand("_rl6MwCHbEd62GabW1zGSBw", "CPU", "1"),
        Err(EditError::NotEditable(_))
    ));
}

#[test]
fn crlf_files_keep_their_line_breaks() {
    let file = read("minimum-example/default.repository");
    let crlf = file.text().replace('\n', "\r\n");
    let file = ModelFile::parse("crlf.repository".into(), crlf);
    let edits = file.set_resource_demand("_rl6MwCHbEd62GabW1zGSBw", "HDD", "1").unwrap();
    assert!(edits[0].new_text.contains("\r\n") && !edits[0].new_text.replace("\r\n", "").contains('\n'));
    apply_and_check(&file, &edits);
}

#[test]
fn a_stoex_prefix_taken_by_another_namespace_gets_a_fresh_one() {
    let base = read("beagle-palladiofileshare/internal_architecture_model.repository");
    let text = base
        .text()
        .replacen("xmlns:xmi=", "xmlns:stoex=\"urn:not-stoex\" xmlns:xmi=", 1);
    let file = ModelFile::parse(base.path.clone(), text);
    let t = UsageTarget {
        action_id: "_DrlNcOe1EeW5NafnxUciog",
        role: UsageRole::Input,
        variable: "n",
        characterisation: "VALUE",
    };
    let edits = file.set_variable_characterisation(&t, "1").unwrap();
    assert!(edits[0].new_text.starts_with(" xmlns:stoex1="), "{:?}", edits[0]);
    let (new, _) = apply_and_check(&file, &edits);
    assert!(new.tree.errors.is_empty());
    assert!(new.text().contains("xsi:type=\"stoex1:VariableReference\""));
}

#[test]
fn overlapping_and_out_of_range_edits_are_told_apart() {
    use beagle_pcm::edit::{apply, EditError, TextEdit};
    use beagle_pcm::Span;
    let edit = |start, end, text: &str| TextEdit {
        span: Span::new(start, end),
        new_text: text.into(),
    };
    let text = "abcdéf"; // é is two bytes: 4..6
    assert_eq!(
        apply(text, &[edit(1, 2, "B"), edit(5, 5, "x")]).unwrap_err(),
        EditError::OutOfRange {
            span: Span::new(5, 5),
            len: 7
        }
    );
    // It was called an overlap once, whatever was wrong.
    assert!(matches!(
        apply(text, &[edit(3, 9, "")]),
        Err(EditError::OutOfRange { len: 7, .. })
    ));
    assert_eq!(
        apply(text, &[edit(0, 3, "X"), edit(2, 4, "Y")]).unwrap_err(),
        EditError::Overlap {
            first_end: 3,
            second: Span::new(2, 4)
        }
    );
    assert_eq!(apply(text, &[edit(3, 4, "D"), edit(0, 1, "A")]).unwrap(), "AbcDéf");
    let shown = apply(text, &[edit(3, 9, "")]).unwrap_err().to_string();
    assert!(shown.contains("outside the text (7 bytes)"), "{shown}");
}

/// A SEFF's unmodelled time becomes an internal action right after its start, joined into the
/// chain by its two neighbours' references; a second write only sets its demand. On every SEFF of
/// a real third-party model (MediaStore), the re-parsed chain runs start → (unmodelled) → the old
/// successor, and the file still checks clean.
#[test]
fn the_unmodelled_time_is_an_action_right_after_the_start() {
    let file = read("mediastore/MediaStore.repository");
    let seffs: Vec<String> = (file.repository.as_ref().unwrap().seffs())
        .filter_map(|(_, s)| s.id.clone())
        .collect();
    assert!(seffs.len() > 3);
    for seff in &seffs {
        let before = file.repository.as_ref().unwrap();
        let (_, s) = before.seffs().find(|(_, s)| s.id.as_ref() == Some(seff)).unwrap();
        let old_first = s.behaviour.ordered().nth(1).and_then(|a| a.id.clone());
        let edits = file
            .set_unmodelled_action(seff, "S", "CPU", "0.02 * n.VALUE + 0.1")
            .unwrap();
        assert_eq!(edits.len(), 3, "the action and two references");
        let (new, _) = apply_and_check(&file, &edits);
        let repo = new.repository.as_ref().unwrap();
        let (_, s) = repo.seffs().find(|(_, s)| s.id.as_ref() == Some(seff)).unwrap();
        let order: Vec<&beagle_pcm::model::Action> = s.behaviour.ordered().collect();
        assert_eq!(order[1].name.as_deref(), Some("S (unmodelled)"), "{seff}");
        assert_eq!(order[2].id, old_first, "{seff}: the old first action follows it");
        assert_eq!(
            spec_text(&new, order[1].resource_demands[0].specification),
            Some("0.02 * n.VALUE + 0.1")
        );
        // Again: the same action, its demand set; nothing else changes.
        let again = new.set_unmodelled_action(seff, "S", "CPU", "0.5").unwrap();
        assert_eq!(again.len(), 1);
        let (newer, _) = apply_and_check(&new, &again);
        let repo = newer.repository.as_ref().unwrap();
        let (_, s) = repo.seffs().find(|(_, s)| s.id.as_ref() == Some(seff)).unwrap();
        let order: Vec<&beagle_pcm::model::Action> = s.behaviour.ordered().collect();
        assert_eq!(
            spec_text(&newer, order[1].resource_demands[0].specification),
            Some("0.5")
        );
        assert_eq!(s.behaviour.actions.len(), order.len().max(s.behaviour.actions.len()));
    }
    assert!(matches!(
        file.set_unmodelled_action("_no_such_seff", "S", "CPU", "1"),
        Err(EditError::NotFound(_))
    ));
}

/// Only an outermost SEFF's unmodelled time is written: a called SEFF's time is in its callers'
/// totals. In the file-share model the upload is called by nobody, compress and hash by it.
#[test]
fn a_seff_another_seff_calls_is_known() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare/model/fileshare.repository");
    let file = ModelFile::read(&path).unwrap();
    assert!(!file.seff_is_called("_fs_upload_seff"));
    assert!(file.seff_is_called("_fs_compress_seff"));
    assert!(file.seff_is_called("_fs_hash_seff"));
    assert!(!file.seff_is_called("_no_such_seff"));
}

/// The primitive type a parameter's reference names in Palladio's `PrimitiveTypes.repository`.
fn primitive_of(parameter: &beagle_pcm::model::Parameter) -> Option<&'static str> {
    match &parameter.data_type.as_ref()?.target {
        beagle_pcm::reference::Target::External { uri, fragment } if uri.ends_with("PrimitiveTypes.repository") => {
            let index: usize = fragment.strip_prefix("//@dataTypes__Repository.")?.parse().ok()?;
            beagle_pcm::vocabulary::PRIMITIVES.get(index).copied()
        }
        _ => None,
    }
}

fn signature<'a>(file: &'a ModelFile, id: &str) -> &'a beagle_pcm::model::Signature {
    let repo = file.repository.as_ref().unwrap();
    repo.signatures()
        .map(|(_, s)| s)
        .find(|s| s.id.as_deref() == Some(id))
        .unwrap()
}

fn repository_file(rel: &str) -> ModelFile {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(rel);
    ModelFile::read(&path).unwrap()
}

/// A launch parameter the cost follows becomes a parameter of the service's signature: after its
/// parameters, referring to Palladio's primitive the way the file refers to primitives (here an
/// `href` child with the file's `xsi:type`, as its inner declarations do; `DOUBLE` is
/// `//@dataTypes__Repository.3`). A second addition of the same name is refused.
#[test]
fn a_parameter_is_added_after_the_signatures_parameters() {
    let file = repository_file("pairwise/model/pairwise.repository");
    let edits = file
        .add_signature_parameter("_pw_IRecommender_train", "catalogue", "INT")
        .unwrap();
    assert_eq!(edits.len(), 1);
    let (new, diff) = apply_and_check(&file, &edits);
    assert!(
        diff.contains(
            "       <parameters__OperationSignature parameterName=\"orders\" dataType__Parameter=\"_pw_OrderList\"/>\n\
             +      <parameters__OperationSignature parameterName=\"catalogue\">\n\
             +        <dataType__Parameter xsi:type=\"repository:PrimitiveDataType\" href=\"pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0\"/>\n\
             +      </parameters__OperationSignature>\n\
             \x20    </signatures__OperationInterface>"
        ),
        "{diff}"
    );
    let s = signature(&new, "_pw_IRecommender_train");
    let names: Vec<_> = s.parameters.iter().map(|p| p.name.as_deref().unwrap_or("")).collect();
    assert_eq!(names, ["orderItems", "orders", "catalogue"]);
    assert_eq!(primitive_of(&s.parameters[2]), Some("INT"));
    assert!(matches!(
        new.add_signature_parameter("_pw_IRecommender_train", "catalogue", "INT"),
        Err(EditError::Exists(_))
    ));
    // A DOUBLE is Palladio's fourth primitive.
    let (new, _) = apply_and_check(
        &file,
        &file
            .add_signature_parameter("_pw_IRecommender_train", "rate", "DOUBLE")
            .unwrap(),
    );
    assert_eq!(
        primitive_of(&signature(&new, "_pw_IRecommender_train").parameters[2]),
        Some("DOUBLE")
    );
    assert!(matches!(
        file.add_signature_parameter("_no_such_signature", "catalogue", "INT"),
        Err(EditError::NotFound(_))
    ));
    assert!(matches!(
        file.add_signature_parameter("_pw_IRecommender_train", "catalogue", "FLOAT"),
        Err(EditError::NotFound(_))
    ));
}

/// The file's own style: a URI in the attribute where its parameters write one; the parameter as
/// the first child of a signature with none, before its `href` return type; an empty signature
/// opened up; Palladio's default where the file refers to no primitive.
#[test]
fn a_new_parameter_is_written_in_the_files_style() {
    let file = repository_file("otel-example/app.repository");
    let edits = file
        .add_signature_parameter("_ot_IProcess_process", "rate", "DOUBLE")
        .unwrap();
    assert_eq!(
        edits[0].new_text,
        "\n      <parameters__OperationSignature parameterName=\"rate\" dataType__Parameter=\"pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.3\"/>"
    );
    let (new, _) = apply_and_check(&file, &edits);
    assert_eq!(
        primitive_of(&signature(&new, "_ot_IProcess_process").parameters[2]),
        Some("DOUBLE")
    );

    let file = read("beagle-palladiofileshare/Family.repository");
    let edits = file
        .add_signature_parameter("_XsRf4LnnEeWVlphM5rov7g", "n", "INT")
        .unwrap();
    let (new, diff) = apply_and_check(&file, &edits);
    assert!(
        diff.contains("+        <dataType__Parameter xsi:type=\"repository:PrimitiveDataType\" href=\"pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0\"/>"),
        "{diff}"
    );
    let s = signature(&new, "_XsRf4LnnEeWVlphM5rov7g");
    assert_eq!(s.parameters.len(), 1);
    assert_eq!(primitive_of(&s.parameters[0]), Some("INT"));
}

/// On every signature of every repository under fixtures/ (third-party models included), the new
/// parameter parses, comes last with its type, leaves every other byte as it was and is refused
/// the second time.
#[test]
fn a_parameter_can_be_added_to_every_signature_of_every_fixture() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let files = beagle_pcm::workspace::find_model_files(&root).unwrap();
    let mut signatures = 0;
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "repository"))
    {
        let file = ModelFile::read(path).unwrap();
        if !file.tree.errors.is_empty() {
            continue;
        }
        let Some(repo) = &file.repository else { continue };
        let ids: Vec<String> = (repo.interfaces.iter())
            .filter(|i| i.kind == "OperationInterface")
            .flat_map(|i| i.signatures.iter().filter_map(|s| s.id.clone()))
            .collect();
        for id in ids {
            signatures += 1;
            let edits = file
                .add_signature_parameter(&id, "beagleAdded", "LONG")
                .unwrap_or_else(|e| panic!("{}: {id}: {e}", path.display()));
            let (new, _) = apply_and_check(&file, &edits);
            let s = signature(&new, &id);
            let last = s.parameters.last().unwrap();
            assert_eq!(last.name.as_deref(), Some("beagleAdded"), "{}: {id}", path.display());
            assert_eq!(primitive_of(last), Some("LONG"), "{}: {id}", path.display());
            assert!(matches!(
                new.add_signature_parameter(&id, "beagleAdded", "LONG"),
                Err(EditError::Exists(_))
            ));
        }
    }
    assert!(signatures > 50, "{signatures} signatures");
}
