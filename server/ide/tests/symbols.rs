mod common;

use beagle_ide::{document_symbols, workspace_symbols, Symbol, SymbolKind};
use beagle_pcm::model::ActionKind;
use common::*;

fn find<'a>(symbols: &'a [Symbol], name: &str) -> Option<&'a Symbol> {
    symbols.iter().find_map(|s| {
        if s.name == name {
            Some(s)
        } else {
            find(&s.children, name)
        }
    })
}

/// Spans nest: every child inside its parent, the selection inside the symbol.
fn assert_nested(symbols: &[Symbol], parent: Option<&Symbol>) {
    for s in symbols {
        assert!(
            s.span.start <= s.selection.start && s.selection.end <= s.span.end,
            "{}",
            s.name
        );
        if let Some(p) = parent {
            assert!(
                p.span.start <= s.span.start && s.span.end <= p.span.end,
                "{} in {}",
                s.name,
                p.name
            );
        }
        assert_nested(&s.children, Some(s));
    }
}

#[test]
fn fileshare_outline() {
    let file = read(FILESHARE);
    let symbols = document_symbols(&file);
    assert_nested(&symbols, None);
    insta::assert_snapshot!(render_symbols(&file, &symbols));
}

#[test]
fn actions_are_in_execution_order_not_document_order() {
    let file = read(FILESHARE);
    let symbols = document_symbols(&file);
    let seff = find(&symbols, "SEFF upload").expect("the upload SEFF is named after its signature");
    assert_eq!(seff.kind, SymbolKind::Seff);
    let names: Vec<&str> = seff.children.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "StartAction",
            "partition files",
            "compress loop",
            "file loop",
            "StopAction"
        ]
    );
    let file_loop = &seff.children[3];
    let body: Vec<&str> = file_loop.children.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(body, ["StartAction", "hash", "isListed", "accept", "StopAction"]);
    let accept = &file_loop.children[3];
    assert_eq!(accept.kind, SymbolKind::BranchAction);
    assert_eq!(accept.children.len(), 2);
    assert_eq!(accept.children[1].kind, SymbolKind::BranchTransition);
    assert_eq!(accept.children[1].children[1].name, "store");
    // The selection is the entityName's value.
    assert_eq!(&file.text()[accept.selection.range()], "accept");
}

#[test]
fn mediastore_outline() {
    let file = read(MEDIASTORE);
    let symbols = document_symbols(&file);
    assert_nested(&symbols, None);
    // MediaStore lists each StopAction second, right after its StartAction.
    let repo = file.repository.as_ref().unwrap();
    let (_, first_seff) = repo.seffs().next().unwrap();
    assert_eq!(first_seff.behaviour.actions[1].kind, ActionKind::StopAction);
    let outline = find(&symbols, "SEFF download").unwrap();
    assert_eq!(outline.children.first().unwrap().kind, SymbolKind::StartAction);
    assert_eq!(outline.children.last().unwrap().kind, SymbolKind::StopAction);
    insta::assert_snapshot!(render_symbols(&file, &symbols));
}

#[test]
fn other_files_get_their_named_elements() {
    let file = read("pcm/minimum-example/default.system");
    let symbols = document_symbols(&file);
    assert_nested(&symbols, None);
    insta::assert_snapshot!(render_symbols(&file, &symbols), @r"
    System defaultSystem — System @2
      Other Assembly_AComponent <AComponent> — assemblyContexts__ComposedStructure @3
      Other ProvDelegation Provided_AnInterface -> Provided_AnInterface_AComponent — ProvidedDelegationConnector @6
      Role Provided_AnInterface — OperationProvidedRole @9
    ");
}

#[test]
fn workspace_symbols_match_case_insensitive_subsequences() {
    let fileshare = read(FILESHARE);
    let mediastore = read(MEDIASTORE);
    let files = [&fileshare, &mediastore];
    let found = workspace_symbols(&files, "UPLD");
    assert!(!found.is_empty());
    assert!(found.iter().all(|(_, s)| {
        let name = s.name.to_lowercase();
        let mut chars = name.chars();
        "upld".chars().all(|q| chars.any(|c| c == q))
    }));
    // Exact and prefix matches come before mere subsequences.
    let found = workspace_symbols(&files, "upload");
    assert_eq!(found[0].1.name, "upload");
    assert!(found.iter().any(|(p, _)| p.ends_with("MediaStore.repository")));
    let store = workspace_symbols(&files, "store")
        .into_iter()
        .find(|(_, s)| s.kind == SymbolKind::ExternalCallAction)
        .expect("the store call");
    assert_eq!(store.1.container.as_deref(), Some("accepted"));
    // An empty query matches everything, up to the cap (the SoMoX model alone has more).
    assert_eq!(workspace_symbols(&files, "").len(), 219);
    let somox = read("pcm/beagle-palladiofileshare/internal_architecture_model.repository");
    let everything = workspace_symbols(&[&fileshare, &mediastore, &somox], "");
    assert_eq!(everything.len(), beagle_ide::MAX_WORKSPACE_SYMBOLS);
    assert!(workspace_symbols(&files, "zzzzqqq").is_empty());
}
