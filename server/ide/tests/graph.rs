//! SEFF graphs on the fixtures: node and edge counts against the typed model, nesting, calls and
//! their providers, ranges, and the file-share upload SEFF as a snapshot.

mod common;

use beagle_ide::{seff_graph, seff_graphs, Flow, SeffGraph};
use beagle_pcm::model::Behaviour;
use beagle_pcm::{ModelFile, ModelSet};
use common::{set_with, FILESHARE, MEDIASTORE};
use std::fmt::Write;

const EVENTS: &str = "events-example/FileShare.repository";

/// Counts the model's actions and successor links (those that resolve within their behaviour),
/// nested behaviours included, independently of the graph code.
fn model_counts(file: &ModelFile, b: &Behaviour) -> (usize, usize) {
    let own: Vec<_> = b.actions.iter().map(|a| a.node).collect();
    let mut nodes = b.actions.len();
    let mut edges = b
        .actions
        .iter()
        .filter(|a| {
            a.successor
                .as_ref()
                .and_then(|r| file.resolve_local(&r.target))
                .is_some_and(|n| own.contains(&n))
        })
        .count();
    for a in &b.actions {
        for inner in a.body.behaviours() {
            let (n, e) = model_counts(file, inner);
            nodes += n;
            edges += e;
        }
    }
    (nodes, edges)
}

fn graph_counts(flow: &Flow) -> (usize, usize) {
    let mut nodes = flow.nodes.len();
    let mut edges = flow.edges.len();
    for n in &flow.nodes {
        for b in &n.bodies {
            let (bn, be) = graph_counts(&b.flow);
            nodes += bn;
            edges += be;
        }
    }
    (nodes, edges)
}

/// Every span in the graph selects the text it claims: a node's span its name (or id), its
/// extent the whole element.
fn check_spans(text: &str, flow: &Flow) {
    for n in &flow.nodes {
        let selected = &text[n.span.range()];
        assert!(
            n.name.as_deref() == Some(selected) || n.id.as_deref() == Some(selected) || selected.contains("Behaviour"),
            "{selected:?} for {:?}",
            n.id
        );
        let whole = &text[n.extent.range()];
        assert!(whole.starts_with('<') && n.id.as_ref().is_none_or(|id| whole.contains(id.as_str())));
        for b in &n.bodies {
            check_spans(text, &b.flow);
        }
    }
}

fn graphs(path: &str) -> (ModelSet, beagle_pcm::FileId, Vec<SeffGraph>) {
    let (set, id) = set_with(path);
    let graphs = seff_graphs(&set, id, &[]);
    (set, id, graphs)
}

#[test]
fn every_seff_of_the_fixtures_has_the_models_actions_and_links() {
    for (path, seffs) in [(FILESHARE, 7), (MEDIASTORE, 11), (EVENTS, 2)] {
        let (set, id, graphs) = graphs(path);
        let file = set.file(id);
        let model: Vec<_> = file
            .repository
            .as_ref()
            .unwrap()
            .components
            .iter()
            .flat_map(|c| &c.seffs)
            .collect();
        assert_eq!(graphs.len(), seffs, "{path}");
        assert_eq!(graphs.len(), model.len());
        for (g, s) in graphs.iter().zip(model) {
            assert_eq!(g.id, s.id);
            assert_eq!(
                graph_counts(&g.flow),
                model_counts(file, &s.behaviour),
                "{path} {:?}",
                g.id
            );
            // A well-formed behaviour is one chain: one edge fewer than its nodes.
            assert_eq!(g.flow.edges.len() + 1, g.flow.nodes.len(), "{path} {:?}", g.id);
            assert_eq!(g.flow.nodes.first().map(|n| n.kind.as_str()), Some("StartAction"));
            assert_eq!(g.flow.nodes.last().map(|n| n.kind.as_str()), Some("StopAction"));
            check_spans(file.text(), &g.flow);
        }
    }
}

#[test]
fn external_calls_lead_to_the_seffs_that_provide_them() {
    let (set, id, graphs) = graphs(FILESHARE);
    let upload = graphs
        .iter()
        .find(|g| g.id.as_deref() == Some("_fs_upload_seff"))
        .unwrap();
    assert_eq!(upload.service.as_deref(), Some("IUpload.upload"));
    let compress_loop = &upload.flow.nodes[2];
    assert_eq!(compress_loop.kind, "LoopAction");
    let call = compress_loop.bodies[0].flow.nodes[1].call.as_ref().unwrap();
    assert_eq!(call.signature, "ICompression.compress");
    assert_eq!(call.providers.len(), 1);
    let provider = &call.providers[0];
    let text = set.file(id).text();
    // The provider's location selects the providing SEFF's id.
    let seff = provider.seff.as_deref().unwrap();
    assert_eq!(&text[provider.location.span.range()], seff);
    assert!(graphs
        .iter()
        .any(|g| g.id.as_deref() == Some(seff) && g.service.as_deref() == Some("ICompression.compress")));
    // One SEFF by id; an unknown id finds nothing.
    assert_eq!(seff_graph(&set, id, "_fs_upload_seff", &[]).as_ref(), Some(upload));
    assert!(seff_graph(&set, id, "no such seff", &[]).is_none());
}

#[test]
fn a_broken_chain_keeps_every_action_and_links_what_it_can() {
    // The upload SEFF with the link from `partition files` to the compress loop cut.
    let (mut set, _) = set_with(FILESHARE);
    let text = set
        .file(set.id_of(&common::fixture(FILESHARE)).unwrap())
        .text()
        .to_string();
    let broken = text.replacen(
        "predecessor_AbstractAction=\"_fs_upload_seff_start\" successor_AbstractAction=\"_fs_compress_loop\"",
        "predecessor_AbstractAction=\"_fs_upload_seff_start\"",
        1,
    );
    assert_ne!(broken, text);
    let id = set.insert(ModelFile::from_bytes(common::fixture(FILESHARE), broken.into_bytes()));
    let g = seff_graph(&set, id, "_fs_upload_seff", &[]).unwrap();
    // Start, partition files; then the unreached loops and the stop, in document order.
    let kinds: Vec<&str> = g.flow.nodes.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "StartAction",
            "InternalAction",
            "LoopAction",
            "LoopAction",
            "StopAction"
        ]
    );
    assert_eq!(g.flow.edges, [(0, 1), (2, 3), (3, 4)]);
}

/// One line per node, indented by nesting: `kind name [specs] -> successors`.
fn render(flow: &Flow, depth: usize, out: &mut String) {
    for (i, n) in flow.nodes.iter().enumerate() {
        let next: Vec<String> = flow
            .edges
            .iter()
            .filter(|e| e.0 == i)
            .map(|e| e.1.to_string())
            .collect();
        let specs: Vec<String> = n
            .specifications
            .iter()
            .map(|s| format!("{}: {}", s.what, s.text))
            .collect();
        let _ = write!(
            out,
            "{}{i} {} {}",
            "  ".repeat(depth),
            n.kind,
            n.name.as_deref().unwrap_or("-")
        );
        if !specs.is_empty() {
            let _ = write!(out, " [{}]", specs.join("; "));
        }
        if let Some(c) = &n.call {
            let providers: Vec<String> = c.providers.iter().map(|p| format!("{:?}", p.component)).collect();
            let _ = write!(
                out,
                " calls {} via {:?} provided by {}",
                c.signature,
                c.role,
                providers.join(", ")
            );
        }
        let _ = writeln!(out, " -> {}", next.join(","));
        for b in &n.bodies {
            let _ = writeln!(
                out,
                "{}body {} {}",
                "  ".repeat(depth + 1),
                b.name.as_deref().unwrap_or("-"),
                b.condition.as_deref().unwrap_or("")
            );
            render(&b.flow, depth + 2, out);
        }
    }
}

#[test]
fn the_upload_seff_as_a_diagram_reads_it() {
    let (set, id) = set_with(FILESHARE);
    let g = seff_graph(&set, id, "_fs_upload_seff", &[]).unwrap();
    let mut out = String::new();
    render(&g.flow, 0, &mut out);
    insta::assert_snapshot!(out);
}

#[test]
fn results_are_attached_to_their_actions() {
    let (set, id) = set_with(FILESHARE);
    let result = |action: &str, what: &str| beagle_ide::ElementResult {
        element: format!("{action}/x"),
        action: action.into(),
        what: what.into(),
        expression: "files.NUMBER_OF_ELEMENTS * 2".into(),
        guard: None,
        status: beagle_ide::ResultStatus::Final,
        r2: Some(0.99),
        relative_error: None,
        samples: 40,
        parameter_ranges: Vec::new(),
        points: Vec::new(),
        reasons: Vec::new(),
        evidence: None,
    };
    let results = [
        result("_fs_partition", "CPU demand"),
        result("_fs_file_loop", "loop iterations"),
    ];
    let g = seff_graph(&set, id, "_fs_upload_seff", &results).unwrap();
    let partition = &g.flow.nodes[1];
    assert_eq!(partition.results.len(), 1);
    assert_eq!(partition.results[0].what, "CPU demand");
    assert_eq!(g.flow.nodes[3].results[0].what, "loop iterations");
    assert!(g.flow.nodes[2].results.is_empty());
    // The model's own specifications are there too.
    assert!(partition.specifications.iter().any(|s| s.what == "CPU demand"));
}

#[test]
fn the_repository_overview_has_every_component_its_roles_and_seffs() {
    for path in [FILESHARE, MEDIASTORE, EVENTS] {
        let file = common::read(path);
        let repo = file.repository.as_ref().unwrap();
        let overview = beagle_ide::repository_overview(&file, &[]).unwrap();
        assert_eq!(overview.components.len(), repo.components.len(), "{path}");
        for (b, c) in overview.components.iter().zip(&repo.components) {
            assert_eq!(b.id, c.id);
            assert_eq!(b.provides.len(), c.provided_roles.len());
            assert_eq!(b.requires.len(), c.required_roles.len());
            assert_eq!(b.seffs.len(), c.seffs.len());
            for (e, s) in b.seffs.iter().zip(&c.seffs) {
                assert_eq!(&file.text()[e.span.range()], s.id.as_deref().unwrap());
                assert_eq!(e.actions, s.behaviour.walk().len());
            }
            if let Some(name) = &b.name {
                assert_eq!(&file.text()[b.span.range()], name.as_str());
            }
        }
    }
    // File share: BusinessCore requires four interfaces, each provided by another component.
    let file = common::read(FILESHARE);
    let overview = beagle_ide::repository_overview(&file, &[]).unwrap();
    let core = &overview.components[0];
    assert_eq!(core.kind, "BasicComponent");
    let required: Vec<&str> = core.requires.iter().filter_map(|r| r.interface.as_deref()).collect();
    assert_eq!(required, ["ICompression", "IHashing", "ICopyrightCheck", "IStorage"]);
    for r in &core.requires {
        let providers = overview
            .components
            .iter()
            .filter(|c| c.provides.iter().any(|p| p.interface_id == r.interface_id))
            .count();
        assert_eq!(providers, 1, "{:?}", r.interface);
    }
    // Results are counted per SEFF.
    let result = beagle_ide::ElementResult {
        element: "_fs_partition/x".into(),
        action: "_fs_partition".into(),
        what: "CPU demand".into(),
        expression: "1".into(),
        guard: None,
        status: beagle_ide::ResultStatus::Final,
        r2: None,
        relative_error: None,
        samples: 10,
        parameter_ranges: Vec::new(),
        points: Vec::new(),
        reasons: Vec::new(),
        evidence: None,
    };
    let overview = beagle_ide::repository_overview(&file, &[result]).unwrap();
    assert_eq!(overview.components[0].seffs[0].results, 1);
    assert_eq!(overview.components[1].seffs[0].results, 0);
    // Not a repository: no overview.
    assert!(beagle_ide::repository_overview(&common::read("fileshare/model/fileshare.system"), &[]).is_none());
}
