mod common;

use beagle_ide::{definition, element_at, reference_at, references, ElementAtKind, Location};
use beagle_pcm::model::ActionKind;
use beagle_pcm::ModelSet;
use common::*;

/// The text a location points at.
fn text_at<'a>(set: &'a ModelSet, at: &Location) -> &'a str {
    let id = set.id_of(&at.path).expect("a file of the set");
    &set.file(id).text()[at.span.range()]
}

fn line_of(set: &ModelSet, at: &Location) -> u32 {
    let file = set.file(set.id_of(&at.path).unwrap());
    file.line_col(at.span.start as usize).line
}

#[test]
fn definition_of_a_called_signature_is_the_signature_in_its_interface() {
    let (set, id) = set_with(FILESHARE);
    let text = set.file(id).text();
    // Inside the token, at its start and just after its end.
    let token = "calledService_ExternalService=\"_fs_ICompression_compress\"";
    let value_start = offset_of(text, token, 0, "calledService_ExternalService=\"".len());
    for offset in [
        value_start,
        value_start + 5,
        value_start + "_fs_ICompression_compress".len(),
    ] {
        let at = definition(&set, id, offset).expect("resolves");
        assert_eq!(at.path, set.file(id).path);
        assert_eq!(text_at(&set, &at), "_fs_ICompression_compress");
        assert_eq!(line_of(&set, &at), 210, "the signature's line");
    }
    // On the attribute's name: not a reference.
    assert_eq!(definition(&set, id, offset_of(text, token, 0, 3)), None);
}

#[test]
fn definition_of_a_roles_interface_is_the_interface() {
    let (set, id) = set_with(FILESHARE);
    let text = set.file(id).text();
    let offset = offset_of(text, "providedInterface__OperationProvidedRole=\"_fs_IUpload\"", 0, 45);
    let at = definition(&set, id, offset).expect("resolves");
    assert_eq!(text_at(&set, &at), "_fs_IUpload");
    let file = set.file(id);
    let node = file.node_by_id("_fs_IUpload").unwrap();
    assert_eq!(file.tree.local_name(node), "interfaces__Repository");
}

#[test]
fn definition_of_a_successor_is_the_next_action() {
    let (set, id) = set_with(FILESHARE);
    let text = set.file(id).text();
    let offset = offset_of(text, "successor_AbstractAction=\"_fs_partition\"", 0, 30);
    let at = definition(&set, id, offset).expect("resolves");
    assert_eq!(line_of(&set, &at), 11);
}

#[test]
fn an_elements_own_id_has_no_definition() {
    let (set, id) = set_with(FILESHARE);
    let text = set.file(id).text();
    let offset = offset_of(text, "id=\"_fs_ICompression_compress\"", 0, 6);
    assert_eq!(definition(&set, id, offset), None);
    assert!(reference_at(set.file(id), offset).is_none());
}

#[test]
fn definition_across_files() {
    let (set, id) = set_with("pcm/minimum-example/default.system");
    let text = set.file(id).text();
    let offset = offset_of(text, "href=\"default.repository#_os1t4CHbEd62GabW1zGSBw\"", 0, 30);
    let at = definition(&set, id, offset).expect("resolves into the repository");
    assert!(
        at.path.ends_with("minimum-example/default.repository"),
        "{}",
        at.path.display()
    );
    assert_eq!(text_at(&set, &at), "_os1t4CHbEd62GabW1zGSBw");
    assert_eq!(line_of(&set, &at), 3, "the AComponent line");
}

#[test]
fn definition_of_a_resource_type_is_in_the_bundled_default_model() {
    let (set, id) = set_with(FILESHARE);
    let text = set.file(id).text();
    let offset = offset_of(text, "Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ", 0, 30);
    let at = definition(&set, id, offset).expect("resolves into Palladio.resourcetype");
    assert_eq!(at.path.to_str(), Some("pathmap://PCM_MODELS/Palladio.resourcetype"));
    assert_eq!(text_at(&set, &at), "_oro4gG3fEdy4YaaT-RYrLQ");
    let target = set.file(set.id_of(&at.path).unwrap());
    let node = target.node_by_id("_oro4gG3fEdy4YaaT-RYrLQ").unwrap();
    assert_eq!(target.tree.value(node, "entityName").as_deref(), Some("CPU"));
}

#[test]
fn references_of_a_signature_are_its_calls_and_seffs() {
    let (set, id) = set_with(FILESHARE);
    let file = set.file(id);
    let text = file.text();
    let declaration = offset_of(text, "id=\"_fs_IFileStore_write\"", 0, 6);
    let lines = |found: &[Location]| found.iter().map(|l| line_of(&set, l)).collect::<Vec<_>>();
    let found = references(&set, id, declaration, false);
    assert_eq!(lines(&found), [147, 161, 178, 191], "two calls, two SEFFs");
    assert!(found.iter().all(|l| text_at(&set, l) == "_fs_IFileStore_write"));
    let with_declaration = references(&set, id, declaration, true);
    assert_eq!(lines(&with_declaration), [147, 161, 178, 191, 231]);
    // From one of the references, and from the signature's name: the same.
    let from_call = offset_of(text, "calledService_ExternalService=\"_fs_IFileStore_write\"", 1, 35);
    assert_eq!(references(&set, id, from_call, true), with_declaration);
    let from_name = offset_of(text, "entityName=\"write\">", 0, 13);
    assert_eq!(references(&set, id, from_name, true), with_declaration);
    // Between elements: nothing to look for.
    assert!(references(&set, id, 0, true).is_empty());
}

#[test]
fn references_across_files_and_into_bundled_models() {
    let mut set = ModelSet::new();
    let system = set.load(&fixture("pcm/minimum-example/default.system")).unwrap();
    set.load_referenced(system);
    let repository = set.id_of(&fixture("pcm/minimum-example/default.repository")).unwrap();
    let text = set.file(repository).text();
    let component = offset_of(text, "id=\"_os1t4CHbEd62GabW1zGSBw\"", 0, 5);
    let found = references(&set, repository, component, false);
    assert_eq!(found.len(), 1);
    assert!(found[0].path.ends_with("default.system"));
    // Every CPU demand of the repository refers to the same resource type.
    let cpu = offset_of(text, "#_oro4gG3fEdy4YaaT-RYrLQ", 0, 3);
    let found = references(&set, repository, cpu, true);
    assert_eq!(found.len(), 3, "two demands and the declaration");
    assert_eq!(
        found[2].path.to_str(),
        Some("pathmap://PCM_MODELS/Palladio.resourcetype")
    );
}

#[test]
fn element_at_finds_components_seffs_and_actions() {
    let file = read(FILESHARE);
    let text = file.text();

    let on_component = offset_of(text, "entityName=\"Compression\"", 0, 14);
    let at = element_at(&file, on_component).unwrap();
    assert_eq!(at.kind, ElementAtKind::Component);
    assert_eq!(
        (at.id.as_deref(), at.name.as_deref()),
        (Some("_fs_Compression"), Some("Compression"))
    );
    assert_eq!(at.component.as_deref(), Some("_fs_Compression"));

    // A role belongs to its component.
    let on_role = offset_of(text, "id=\"_fs_BusinessCore_hashing\"", 0, 8);
    let at = element_at(&file, on_role).unwrap();
    assert_eq!(
        (at.kind, at.id.as_deref()),
        (ElementAtKind::Component, Some("_fs_BusinessCore"))
    );
    assert_eq!(at.seff, None, "a component is in no SEFF");

    let on_seff = offset_of(text, "id=\"_fs_upload_seff\"", 0, 5);
    let at = element_at(&file, on_seff).unwrap();
    assert_eq!(at.kind, ElementAtKind::Seff);
    assert_eq!(at.name.as_deref(), Some("upload"), "named after its signature");
    assert_eq!(at.component.as_deref(), Some("_fs_BusinessCore"));
    assert_eq!(at.seff.as_deref(), Some("_fs_upload_seff"), "a SEFF is its own");

    // Inside an action's resource demand: the action.
    let in_demand = offset_of(text, "specification=\"0\"", 0, 15);
    let at = element_at(&file, in_demand).unwrap();
    assert_eq!(at.kind, ElementAtKind::Action(ActionKind::InternalAction));
    assert_eq!(at.id.as_deref(), Some("_fs_partition"));
    assert_eq!(at.name.as_deref(), Some("partition files"));
    assert_eq!(at.seff.as_deref(), Some("_fs_upload_seff"));

    // Inside a branch transition: the branch; inside the transition's actions: those.
    let on_transition = offset_of(text, "id=\"_fs_rejected\"", 0, 5);
    let at = element_at(&file, on_transition).unwrap();
    assert_eq!(at.kind, ElementAtKind::Action(ActionKind::BranchAction));
    let nested = offset_of(text, "entityName=\"count rejection\"", 0, 14);
    let at = element_at(&file, nested).unwrap();
    assert_eq!(at.id.as_deref(), Some("_fs_count_rejection"));
    assert_eq!(at.seff.as_deref(), Some("_fs_upload_seff"), "nested actions too");

    // Outside components: the signature with its id, the repository in between.
    let on_signature = offset_of(text, "id=\"_fs_IHashing_hash\"", 0, 5);
    let at = element_at(&file, on_signature).unwrap();
    assert_eq!(
        (at.kind, at.id.as_deref()),
        (ElementAtKind::Other, Some("_fs_IHashing_hash"))
    );
    assert_eq!(at.seff, None);
    let between = offset_of(text, "\n  <components__Repository", 1, 1);
    assert_eq!(element_at(&file, between).unwrap().kind, ElementAtKind::Repository);

    // Before the root element and after it: nothing.
    assert_eq!(element_at(&file, 0), None);
    assert_eq!(element_at(&file, text.trim_end().len()), None);
    assert_eq!(element_at(&file, text.len() + 10), None);
}
