//! Every real PCM model in fixtures/pcm: counts, execution order, references, round trips.

mod common;

use beagle_pcm::model::{ActionBody, ActionKind, DataTypeKind};
use beagle_pcm::reference::Target;
use beagle_pcm::{ModelFile, ModelSet, Severity};
use common::*;
use std::collections::BTreeMap;

fn action_counts(file: &ModelFile) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for a in file.repository.as_ref().unwrap().actions() {
        *counts.entry(a.kind.as_str()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn counts_match_the_sources_notes() {
    // The figures in fixtures/pcm/SOURCES.md, counted there by hand.
    let ms = read("mediastore/MediaStore.repository");
    let repo = ms.repository.as_ref().unwrap();
    assert_eq!(ms.pcm_version.as_deref(), Some("5.2"));
    assert_eq!(repo.components.len(), 6);
    assert_eq!(repo.seffs().count(), 11);
    let c = action_counts(&ms);
    assert_eq!(c["InternalAction"], 12);
    assert_eq!(c["ExternalCallAction"], 9);
    assert_eq!(c["LoopAction"], 1);
    assert_eq!(c["BranchAction"], 4);
    assert_eq!(c["SetVariableAction"], 7);
    let inputs: usize = repo
        .actions()
        .map(|a| match &a.body {
            ActionBody::ExternalCall { inputs, .. } => inputs.len(),
            _ => 0,
        })
        .sum();
    // SOURCES.md says 26: it counted opening and closing tags; there are 13 usages.
    assert_eq!(inputs, 13);

    let fs = read("beagle-palladiofileshare/internal_architecture_model.repository");
    let repo = fs.repository.as_ref().unwrap();
    assert_eq!(fs.pcm_version.as_deref(), Some("5.1"));
    assert_eq!(repo.components.len(), 10);
    assert_eq!(repo.seffs().count(), 17);
    let c = action_counts(&fs);
    assert_eq!(
        (
            c["InternalAction"],
            c["ExternalCallAction"],
            c["LoopAction"],
            c["BranchAction"]
        ),
        (32, 17, 4, 4)
    );

    let family = read("beagle-palladiofileshare/Family.repository");
    let c = action_counts(&family);
    assert_eq!((c["LoopAction"], c["BranchAction"]), (2, 3));

    let min = read("minimum-example/default.repository");
    let c = action_counts(&min);
    assert_eq!((c["InternalAction"], c["BranchAction"]), (2, 1));
    assert_eq!(min.specifications.len(), 2);
}

#[test]
fn every_fixture_reads_and_round_trips_byte_identical() {
    for path in all_model_files() {
        let bytes = std::fs::read(&path).unwrap();
        let file = ModelFile::read(&path).unwrap();
        assert_eq!(file.text().as_bytes(), &bytes[..], "{}", path.display());
        assert_eq!(
            beagle_pcm::edit::apply(file.text(), &[]).unwrap().as_bytes(),
            &bytes[..]
        );
        assert!(
            file.tree.errors.is_empty(),
            "{}: {:?}",
            path.display(),
            file.tree.errors
        );
        assert!(file.pcm_version.is_some(), "{}", path.display());
        // Every specification in a real file parses (the Xtext grammar accepted them all).
        for spec in &file.specifications {
            assert!(
                spec.expr.is_ok(),
                "{}: `{}`: {:?}",
                path.display(),
                spec.text,
                spec.expr
            );
        }
    }
}

#[test]
fn clean_models_have_no_errors() {
    let mut set = ModelSet::new();
    for rel in [
        "mediastore/MediaStore.repository",
        "mediastore/MediaStore-Cacheless.system",
        "mediastore/MediaStore-Cacheless.allocation",
        "mediastore/MediaStore.usagemodel",
        "minimum-example/default.repository",
        "minimum-example/default.allocation",
        "harddisk-example/default.repository",
        "harddisk-example/withoutInitialSeek.repository",
        "beagle-palladiofileshare/internal_architecture_model.repository",
    ] {
        let id = set.load(&fixture(rel)).unwrap();
        let errors: Vec<_> = set
            .check(id)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{rel}: {errors:#?}");
    }
}

#[test]
fn execution_order_follows_successors_not_document_order() {
    let ms = read("mediastore/MediaStore.repository");
    let repo = ms.repository.as_ref().unwrap();
    let seff = repo
        .seffs()
        .find(|(_, s)| s.id.as_deref() == Some("_oIcbYMHCEeSIWsmXhQZfeA"))
        .map(|(_, s)| s);
    let seff = seff.unwrap_or_else(|| repo.seffs().next().unwrap().1);
    let order: Vec<String> = seff
        .behaviour
        .ordered()
        .map(|a| format!("{} {}", a.kind.as_str(), a.name.as_deref().unwrap_or("-")))
        .collect();
    // Documents list the StopAction second; execution ends with it.
    assert_eq!(seff.behaviour.actions[1].kind, ActionKind::StopAction);
    assert_eq!(order.first().unwrap().split(' ').next(), Some("StartAction"));
    assert_eq!(order.last().unwrap().split(' ').next(), Some("StopAction"));
    assert_eq!(order.len(), seff.behaviour.actions.len());
    insta::assert_snapshot!("mediastore_first_seff_order", order.join("\n"));

    let min = read("minimum-example/default.repository");
    let seff = &min.repository.as_ref().unwrap().components[0].seffs[0];
    let kinds: Vec<_> = seff.behaviour.ordered().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        [
            ActionKind::StartAction,
            ActionKind::BranchAction,
            ActionKind::StopAction
        ]
    );

    // Every behaviour of every clean fixture is fully ordered.
    for rel in [
        "mediastore/MediaStore.repository",
        "harddisk-example/withoutInitialSeek.repository",
    ] {
        let f = read(rel);
        for (_, s) in f.repository.as_ref().unwrap().seffs() {
            assert_eq!(s.behaviour.order.len(), s.behaviour.actions.len(), "{rel} {:?}", s.id);
        }
    }
}

#[test]
fn references_resolve_across_files_and_to_bundled_default_models() {
    let mut set = ModelSet::new();
    let id = set.load(&fixture("mediastore/MediaStore.repository")).unwrap();
    set.load_referenced(id);
    let file = set.file(id);
    let repo = file.repository.as_ref().unwrap();
    // pathmap:// to the CPU resource type, served from the bundled Palladio.resourcetype.
    let demand = repo.actions().flat_map(|a| &a.resource_demands).next().unwrap();
    let (tf, tn) = set.resolve(id, demand.resource_type.as_ref().unwrap()).unwrap();
    assert!(set.file(tf).path.to_string_lossy().starts_with("pathmap://PCM_MODELS/"));
    assert_eq!(set.file(tf).tree.value(tn, "entityName").as_deref(), Some("CPU"));
    // An EMF path fragment into PrimitiveTypes.repository: INT is the first data type.
    let composite = repo
        .data_types
        .iter()
        .find_map(|d| match &d.kind {
            DataTypeKind::Composite { members, .. } if !members.is_empty() => Some(members),
            _ => None,
        })
        .unwrap();
    let r = composite[0].data_type.as_ref().unwrap();
    assert!(matches!(&r.target, Target::External { fragment, .. } if fragment == "//@dataTypes__Repository.0"));
    let (tf, tn) = set.resolve(id, r).unwrap();
    assert_eq!(set.file(tf).tree.local_name(tn), "dataTypes__Repository");
    assert_eq!(
        set.file(tf).tree.value(tn, "type"),
        None,
        "INT is the default, written as no attribute"
    );
    // An id within the file: the called service of an external call is a signature.
    let call = repo
        .actions()
        .find(|a| a.kind == ActionKind::ExternalCallAction)
        .unwrap();
    let ActionBody::ExternalCall { called_service, .. } = &call.body else {
        unreachable!()
    };
    let (tf, tn) = set.resolve(id, called_service.as_ref().unwrap()).unwrap();
    assert_eq!(tf, id);
    assert_eq!(file.tree.local_name(tn), "signatures__OperationInterface");

    // The system refers to components in the repository by `MediaStore.repository#id`.
    let sys = set.load(&fixture("mediastore/MediaStore-Cacheless.system")).unwrap();
    set.load_referenced(sys);
    let refs: Vec<_> = set
        .file(sys)
        .index
        .references()
        .iter()
        .filter(|r| r.feature == "encapsulatedComponent__AssemblyContext")
        .cloned()
        .collect();
    assert!(!refs.is_empty());
    for r in &refs {
        let (tf, tn) = set.resolve(sys, r).unwrap();
        assert_eq!(tf, id);
        assert_eq!(set.file(tf).tree.local_name(tn), "components__Repository");
    }

    // SoMoX wrote a relative path into the Eclipse plug-in; the bundled copy stands in for it.
    let fs = set
        .load(&fixture(
            "beagle-palladiofileshare/internal_architecture_model.repository",
        ))
        .unwrap();
    set.load_referenced(fs);
    let r = set
        .file(fs)
        .index
        .references()
        .iter()
        .find(|r| r.feature == "requiredResource_ParametricResourceDemand")
        .cloned()
        .unwrap();
    let (tf, tn) = set.resolve(fs, &r).unwrap();
    assert_eq!(set.file(tf).tree.raw_value(tn, "id"), Some("_oro4gG3fEdy4YaaT-RYrLQ"));
}

#[test]
fn broken_references_and_chains_are_reported_with_positions() {
    // Family.repository is a hand-made test model with unfinished behaviours.
    let mut set = ModelSet::new();
    let id = set
        .load(&fixture("beagle-palladiofileshare/Family.repository"))
        .unwrap();
    let diags = set.check(id);
    let file = set.file(id);
    let flow: Vec<String> = diags
        .iter()
        .filter(|d| d.code == "control-flow" && d.severity == Severity::Error)
        .map(|d| {
            let at = file.line_col(d.span.start as usize);
            format!(
                "{}:{} {} {}",
                at.line,
                at.column,
                d.element.as_deref().unwrap_or("-"),
                d.message
            )
        })
        .collect();
    insta::assert_snapshot!("family_control_flow_errors", flow.join("\n"));
    let pmf = diags
        .iter()
        .find(|d| d.code == "stoex-lint")
        .expect("the odd DoublePMF is flagged");
    assert!(
        file.text()[pmf.span.range()].contains("DoublePMF"),
        "{:?}",
        &file.text()[pmf.span.range()]
    );

    // A missing system file is named in the error.
    let um = set.load(&fixture("harddisk-example/default.usagemodel")).unwrap();
    let d = set.check(um);
    assert!(
        d.iter()
            .any(|d| d.code == "unresolved-reference" && d.message.contains("default.system")),
        "{d:#?}"
    );
}

#[test]
fn a_reference_to_an_unreadable_file_says_which_file_and_why() {
    let original = fixture("mediastore/MediaStore.repository");
    let text = std::fs::read_to_string(&original)
        .unwrap()
        .replace("pathmap://PCM_MODELS/Palladio.resourcetype", "missing.resourcetype");
    let mut set = ModelSet::new();
    let id = set.insert(ModelFile::parse(original.clone(), text));
    set.load_referenced(id);
    let repo = set.file(id).repository.as_ref().unwrap();
    let demand = repo.actions().flat_map(|a| &a.resource_demands).next().unwrap();
    let e = set.resolve(id, demand.resource_type.as_ref().unwrap()).unwrap_err();
    let beagle_pcm::workspace::Unresolved::File { uri, reason } = &e else {
        panic!("{e}")
    };
    assert_eq!(uri, "missing.resourcetype");
    let beagle_pcm::workspace::LoadError::Unreadable { path, .. } = reason else {
        panic!("{reason}")
    };
    let expected = original.parent().unwrap().join("missing.resourcetype");
    assert_eq!(path, &beagle_pcm::workspace::normalise(&expected));
    assert!(e.to_string().starts_with("cannot read `missing.resourcetype`: "), "{e}");
}
