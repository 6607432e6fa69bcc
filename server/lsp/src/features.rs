//! The read requests: symbols, definition, references, hover, code lenses and code actions.
//! Each works on snapshots taken under the state lock, then runs without it; the language
//! itself is `beagle_ide`'s, here only converted to LSP.

use crate::documents::{DocKind, Snapshot};
use crate::position;
use crate::protocol::Command as BeagleCommand;
use crate::queue::Activity;
use crate::results::RepositoryResults;
use beagle_ide::{ElementAtKind, Symbol, SymbolKind as Kind};
use beagle_pcm::model::ActionKind;
use beagle_pcm::ModelSet;
use ropey::Rope;
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeLens, Command, DocumentSymbol, Hover, HoverContents, Location,
    MarkupContent, MarkupKind, Position, SymbolKind, Uri, WorkspaceSymbol,
};

fn kind(k: Kind) -> SymbolKind {
    match k {
        Kind::Repository | Kind::System => SymbolKind::PACKAGE,
        Kind::Component => SymbolKind::CLASS,
        Kind::Interface => SymbolKind::INTERFACE,
        Kind::Signature | Kind::Seff => SymbolKind::METHOD,
        Kind::Role => SymbolKind::PROPERTY,
        Kind::DataType => SymbolKind::STRUCT,
        Kind::Behaviour | Kind::UsageScenario => SymbolKind::NAMESPACE,
        Kind::LoopAction | Kind::BranchAction | Kind::BranchTransition => SymbolKind::OPERATOR,
        Kind::ExternalCallAction => SymbolKind::EVENT,
        Kind::StartAction | Kind::StopAction => SymbolKind::KEY,
        Kind::InternalAction | Kind::OtherAction => SymbolKind::FUNCTION,
        Kind::Other => SymbolKind::OBJECT,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be given.
fn document_symbol(rope: &Rope, s: &Symbol) -> DocumentSymbol {
    DocumentSymbol {
        name: if s.name.is_empty() {
            "(unnamed)".into()
        } else {
            s.name.clone()
        },
        detail: s.detail.clone(),
        kind: kind(s.kind),
        tags: None,
        deprecated: None,
        range: position::range(rope, s.span),
        selection_range: position::range(rope, s.selection),
        children: Some(s.children.iter().map(|c| document_symbol(rope, c)).collect()),
    }
}

pub fn document_symbols(doc: &Snapshot) -> Vec<DocumentSymbol> {
    if doc.kind != DocKind::Model {
        return Vec::new();
    }
    beagle_ide::document_symbols(&doc.model())
        .iter()
        .map(|s| document_symbol(&doc.rope, s))
        .collect()
}

/// The rope of a file: the open document's, else one built from the set's text.
fn rope_of(
    path: &Path,
    open: &HashMap<PathBuf, Arc<Snapshot>>,
    set: &ModelSet,
    cache: &mut HashMap<PathBuf, Rope>,
) -> Option<Rope> {
    if let Some(s) = open.get(path) {
        return Some(s.rope.clone());
    }
    if let Some(r) = cache.get(path) {
        return Some(r.clone());
    }
    let id = set.id_of(path)?;
    let rope = Rope::from_str(set.file(id).text());
    cache.insert(path.to_path_buf(), rope.clone());
    Some(rope)
}

fn open_by_path(open: &[Arc<Snapshot>]) -> HashMap<PathBuf, Arc<Snapshot>> {
    open.iter()
        .map(|s| (beagle_pcm::workspace::normalise(&s.path), s.clone()))
        .collect()
}

/// Locations on disk (bundled default models have no file and are left out).
fn locations(locs: Vec<beagle_ide::Location>, open: &[Arc<Snapshot>], set: &ModelSet) -> Vec<Location> {
    let open = open_by_path(open);
    let mut ropes = HashMap::new();
    locs.into_iter()
        .filter_map(|l| {
            let uri = Uri::from_file_path(&l.path).filter(|_| l.path.is_absolute())?;
            let rope = rope_of(&l.path, &open, set, &mut ropes)?;
            Some(Location::new(uri, position::range(&rope, l.span)))
        })
        .collect()
}

pub fn workspace_symbols(set: &ModelSet, open: &[Arc<Snapshot>], query: &str) -> Vec<WorkspaceSymbol> {
    let files: Vec<&beagle_pcm::ModelFile> = set.files().map(|(_, f)| f).filter(|f| f.path.is_absolute()).collect();
    let found = beagle_ide::workspace_symbols(&files, query);
    let open_paths = open_by_path(open);
    let mut ropes = HashMap::new();
    found
        .into_iter()
        .filter_map(|(path, s)| {
            let uri = Uri::from_file_path(&path)?;
            let rope = rope_of(&path, &open_paths, set, &mut ropes)?;
            Some(WorkspaceSymbol {
                name: s.name,
                kind: kind(s.kind),
                tags: None,
                container_name: s.container,
                location: tower_lsp_server::ls_types::OneOf::Left(Location::new(
                    uri,
                    position::range(&rope, s.selection),
                )),
                data: None,
            })
        })
        .collect()
}

pub fn definition(set: &ModelSet, open: &[Arc<Snapshot>], doc: &Snapshot, pos: Position) -> Option<Location> {
    let id = set.id_of(&doc.path)?;
    let offset = position::offset(&doc.rope, pos);
    let target = beagle_ide::definition(set, id, offset)?;
    locations(vec![target], open, set).pop()
}

pub fn references(
    set: &ModelSet,
    open: &[Arc<Snapshot>],
    doc: &Snapshot,
    pos: Position,
    declaration: bool,
) -> Vec<Location> {
    let Some(id) = set.id_of(&doc.path) else {
        return Vec::new();
    };
    let offset = position::offset(&doc.rope, pos);
    locations(beagle_ide::references(set, id, offset, declaration), open, set)
}

/// The counts the store keeps for the internal action at `offset` (`beagle analyse --count`);
/// the store is only read where there is one.
fn counts_of(
    model: &beagle_pcm::ModelFile,
    offset: usize,
    path: &Path,
    root: Option<&Path>,
) -> Option<beagle_analysis::section_counts::SectionCounts> {
    let root = root?;
    let id = beagle_ide::element_at(model, offset)?.id?;
    if !root.join(".beagle").join("beagle.sqlite").is_file() {
        return None;
    }
    let store = beagle_analysis::Store::open(root).ok()?;
    let mut counts = store
        .section_counts(&beagle_job::measuring::counting::store_key(root, path))
        .ok()?;
    counts.remove(&id)
}

/// `root`: the workspace folder (to find the `.system` a SEFF's prediction is bound through).
pub fn hover(doc: &Snapshot, pos: Position, results: Option<&RepositoryResults>, root: Option<&Path>) -> Option<Hover> {
    if doc.kind != DocKind::Model {
        return None;
    }
    let model = doc.model();
    let offset = position::offset(&doc.rope, pos);
    let list = results.map_or(&[][..], |r| &r.results[..]);
    let none = Default::default();
    let validations = results.map_or(&none, |r| &r.validations);
    // Only a SEFF's hover composes its prediction: read the workspace's .system for that alone.
    let on_seff = beagle_ide::element_at(&model, offset).is_some_and(|e| e.kind == beagle_ide::ElementAtKind::Seff);
    let system = on_seff
        .then(|| crate::queries::system_of(&doc.path, root.unwrap_or(Path::new("/"))))
        .flatten();
    let assembly = system
        .as_ref()
        .and_then(|(_, f)| beagle_pcm::model::system::assembly(f));
    // Only an action's hover shows demands: read the deployment for that alone.
    let on_action =
        beagle_ide::element_at(&model, offset).is_some_and(|e| matches!(e.kind, beagle_ide::ElementAtKind::Action(_)));
    let units = on_action
        .then(|| crate::units::demand_units(&doc.path, root, &model).ok())
        .flatten();
    let rates = on_seff
        .then(|| crate::queries::rates_of(&doc.path, root.unwrap_or(Path::new("/"))))
        .flatten();
    let h = beagle_ide::hover_with(
        &model,
        offset,
        list,
        validations,
        assembly.as_ref(),
        units.as_ref(),
        rates.as_ref(),
    )?;
    let mut markdown = h.markdown;
    if on_action {
        if let Some(c) = counts_of(&model, offset, &doc.path, root) {
            markdown.push_str(&beagle_ide::counts_section(&c));
        }
    }
    if let Some(r) = results {
        let about_this = beagle_ide::element_at(&model, offset)
            .and_then(|e| e.id)
            .is_some_and(|id| r.results.iter().any(|x| x.action == id));
        if about_this {
            markdown.push_str(&format!("\n\n---\n_Beagle: {} ({})_", r.headline, r.stage.label()));
        }
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(position::range(&doc.rope, h.span)),
    })
}

/// "Beagle: predicted vs measured: 6.9 % median (8 points)".
fn validation_lens(v: &beagle_analysis::validation::ServiceValidation) -> String {
    format!(
        "Beagle: predicted vs measured: {:.1} % median ({} points{}{})",
        100.0 * v.median_relative_error,
        v.points,
        if v.problems.is_empty() { "" } else { ", incomplete" },
        if v.notes.is_empty() {
            ""
        } else {
            ", a called SEFF not analysed"
        }
    )
}

fn command(title: String, name: &str, args: Vec<serde_json::Value>) -> Command {
    Command {
        title,
        command: name.to_string(),
        arguments: Some(args),
    }
}

/// Above every component and SEFF: "Analyse", and where its results stand; above every SEFF
/// "◇ Diagram" when the client has a command for it (`diagram`, run with `[uri, seffId]`).
pub fn code_lenses(
    doc: &Snapshot,
    results: Option<&RepositoryResults>,
    activity: Option<&Activity>,
    diagram: Option<&str>,
) -> Vec<CodeLens> {
    if doc.kind != DocKind::Model {
        return Vec::new();
    }
    let model = doc.model();
    let Some(repo) = &model.repository else {
        return Vec::new();
    };
    let uri = json!(doc.uri.as_str());
    let mut out = Vec::new();
    // Below a SEFF's own lenses: its diagram, and how well the model predicted it at its last
    // validation.
    let mut diagrams = Vec::new();
    let mut validated = Vec::new();
    let mut push = |symbol_span: beagle_pcm::Span, analyse: Command, state: String| {
        let range = position::range(&doc.rope, beagle_pcm::Span::empty(symbol_span.start as usize));
        out.push(CodeLens {
            range,
            command: Some(analyse),
            data: None,
        });
        out.push(CodeLens {
            range,
            command: Some(command(state, "", vec![])),
            data: None,
        });
    };
    let running = activity.filter(|a| a.analyses(&doc.path));
    // What a reader needs first (issue 41): how many results are final and how many still
    // preliminary, and how well the model predicted the service when last validated.
    let state_of = |actions: &[String], seffs: &[&str]| -> String {
        if let Some(a) = running {
            return format!("Beagle: analysing… {} % ({})", a.percentage, a.message);
        }
        let Some(r) = results else {
            return "Beagle: not analysed".into();
        };
        let mine: Vec<&beagle_ide::ElementResult> = r.results.iter().filter(|x| actions.contains(&x.action)).collect();
        if mine.is_empty() {
            return "Beagle: no results".into();
        }
        let finals = mine
            .iter()
            .filter(|x| x.status == beagle_ide::ResultStatus::Final)
            .count();
        let errors: Vec<f64> = (seffs.iter())
            .filter_map(|s| r.validations.get(*s))
            .map(|v| 100.0 * v.median_relative_error)
            .collect();
        let worst = errors.iter().copied().fold(f64::NAN, f64::max);
        let validation = match errors.len() {
            0 => "not validated".to_string(),
            1 => format!("validation error {worst:.1} %"),
            _ => format!("validation error ≤ {worst:.1} %"),
        };
        let stage = match r.stage {
            crate::results::Stage::Final => String::new(),
            other => format!(" ({})", other.label()),
        };
        format!(
            "Beagle: {} results, {finals} final, {} preliminary; {validation}{stage}",
            mine.len(),
            mine.len() - finals
        )
    };
    for c in &repo.components {
        let Some(id) = &c.id else { continue };
        let actions: Vec<String> = c
            .seffs
            .iter()
            .flat_map(|s| s.behaviour.walk())
            .filter_map(|a| a.id.clone())
            .collect();
        let seffs: Vec<&str> = c.seffs.iter().filter_map(|s| s.id.as_deref()).collect();
        let name = c.name.clone().unwrap_or_else(|| id.clone());
        let span = model.tree.element(c.node).span();
        push(
            span,
            command(
                format!("▶ Analyse {name}"),
                BeagleCommand::AnalyseComponent.name(),
                vec![uri.clone(), json!(id)],
            ),
            state_of(&actions, &seffs),
        );
        for s in &c.seffs {
            let Some(sid) = &s.id else { continue };
            let actions: Vec<String> = s.behaviour.walk().iter().filter_map(|a| a.id.clone()).collect();
            let span = model.tree.element(s.node).span();
            push(
                span,
                command(
                    "▶ Analyse service".into(),
                    BeagleCommand::AnalyseAction.name(),
                    vec![uri.clone(), json!(sid)],
                ),
                state_of(&actions, &[sid.as_str()]),
            );
            if let Some(diagram) = diagram {
                diagrams.push(CodeLens {
                    range: position::range(&doc.rope, beagle_pcm::Span::empty(span.start as usize)),
                    command: Some(command("◇ Diagram".into(), diagram, vec![uri.clone(), json!(sid)])),
                    data: None,
                });
            }
            if let Some(v) = results.and_then(|r| r.validations.get(sid)) {
                validated.push(CodeLens {
                    range: position::range(&doc.rope, beagle_pcm::Span::empty(span.start as usize)),
                    command: Some(command(validation_lens(v), "", vec![])),
                    data: None,
                });
            }
        }
    }
    out.extend(diagrams);
    out.extend(validated);
    out
}

fn action(title: String, cmd: Command) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        command: Some(cmd),
        ..Default::default()
    })
}

/// At the cursor: analyse the repository, this component, this action (or SEFF); apply or
/// discard results; link this element to code.
pub fn code_actions(doc: &Snapshot, pos: Position, has_results: bool) -> Vec<CodeActionOrCommand> {
    if doc.kind != DocKind::Model {
        return Vec::new();
    }
    let model = doc.model();
    if model.repository.is_none() {
        return Vec::new();
    }
    let uri = json!(doc.uri.as_str());
    let offset = position::offset(&doc.rope, pos);
    let at = beagle_ide::element_at(&model, offset);
    let mut out = Vec::new();
    if let Some(at) = &at {
        let name = at.name.clone().or_else(|| at.id.clone()).unwrap_or_default();
        match (at.kind, &at.id) {
            (ElementAtKind::Action(k), Some(id)) if beagle_analysis::model::is_measured_kind(k) => {
                let what = match k {
                    ActionKind::LoopAction => "loop",
                    ActionKind::BranchAction => "branch",
                    ActionKind::ExternalCallAction => "external call",
                    _ => "internal action",
                };
                let title = format!("Beagle: Analyse {what} {name}");
                out.push(action(
                    title.clone(),
                    command(title, BeagleCommand::AnalyseAction.name(), vec![uri.clone(), json!(id)]),
                ));
            }
            (ElementAtKind::Seff, Some(id)) => {
                let title = format!("Beagle: Analyse service {name}");
                out.push(action(
                    title.clone(),
                    command(title, BeagleCommand::AnalyseAction.name(), vec![uri.clone(), json!(id)]),
                ));
            }
            _ => {}
        }
        if let Some(component) = &at.component {
            let cname = model
                .node_by_id(component)
                .and_then(|n| model.tree.value(n, "entityName").map(|v| v.to_string()))
                .unwrap_or_else(|| component.clone());
            let title = format!("Beagle: Analyse component {cname}");
            out.push(action(
                title.clone(),
                command(
                    title,
                    BeagleCommand::AnalyseComponent.name(),
                    vec![uri.clone(), json!(component)],
                ),
            ));
        }
    }
    let title = "Beagle: Analyse repository".to_string();
    out.push(action(
        title.clone(),
        command(title, BeagleCommand::AnalyseRepository.name(), vec![uri.clone()]),
    ));
    if has_results {
        let title = "Beagle: Apply results".to_string();
        out.push(action(
            title.clone(),
            command(title, BeagleCommand::ApplyResults.name(), vec![uri.clone()]),
        ));
        let title = "Beagle: Discard results".to_string();
        out.push(action(
            title.clone(),
            command(title, BeagleCommand::DiscardResults.name(), vec![uri.clone()]),
        ));
    }
    if let Some(at) = &at {
        let linkable = matches!(at.kind, ElementAtKind::Seff)
            || matches!(at.kind, ElementAtKind::Action(k) if beagle_analysis::model::is_measured_kind(k));
        if let (true, Some(id)) = (linkable, &at.id) {
            let title = format!("Beagle: Link {} to code", at.name.clone().unwrap_or_else(|| id.clone()));
            out.push(action(
                title.clone(),
                command(title, BeagleCommand::LinkToCode.name(), vec![uri.clone(), json!(id)]),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{code_actions, code_lenses};
    use crate::documents::Document;
    use crate::queue::Activity;
    use std::path::PathBuf;
    use tower_lsp_server::ls_types::CodeActionOrCommand;
    use tower_lsp_server::ls_types::Uri;

    fn fileshare_text() -> String {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/fileshare/model/fileshare.repository"),
        )
        .unwrap()
    }

    #[test]
    fn the_editor_offers_to_analyse_exactly_what_the_analysis_measures() {
        // The file-share model with its file loop made a collection iterator: the editor once
        // offered "Analyse loop" for it, and the analysis measured nothing there.
        let text = fileshare_text().replacen(
            "xsi:type=\"seff:LoopAction\" id=\"_fs_file_loop\"",
            "xsi:type=\"seff:CollectionIteratorAction\" id=\"_fs_file_loop\"",
            1,
        );
        assert!(text.contains("seff:CollectionIteratorAction"), "the fixture changed");
        let uri: Uri = "file:///w/model/fileshare.repository".parse().unwrap();
        let doc = Document::open(uri, PathBuf::from("/w/model/fileshare.repository"), 1, &text).snapshot();
        let model = doc.model();
        let repo = model.repository.as_ref().unwrap();
        let mut kinds = std::collections::BTreeSet::new();
        for action in repo.actions() {
            let Some(id) = action.id.clone() else { continue };
            let node = model.node_by_id(&id).unwrap();
            let inside = model.tree.element(node).span().start as usize + 2;
            let offered = code_actions(&doc, crate::position::position(&doc.rope, inside), false)
                .iter()
                .any(|a| match a {
                    CodeActionOrCommand::CodeAction(a) => {
                        a.title.starts_with("Beagle: Analyse ")
                            && a.title
                                .ends_with(&format!(" {}", action.name.clone().unwrap_or(id.clone())))
                            && !a.title.starts_with("Beagle: Analyse component")
                            && !a.title.starts_with("Beagle: Analyse service")
                    }
                    CodeActionOrCommand::Command(_) => false,
                });
            let measured = beagle_analysis::scope_elements(repo, &beagle_analysis::Scope::Action(id.clone()))
                .is_ok_and(|s| !s.elements.is_empty());
            assert_eq!(
                offered, measured,
                "{id} ({:?}): offered {offered}, measured {measured}",
                action.kind
            );
            assert_eq!(beagle_analysis::model::is_measured_kind(action.kind), measured, "{id}");
            kinds.insert(format!("{:?}", action.kind));
        }
        for kind in [
            "CollectionIteratorAction",
            "InternalAction",
            "BranchAction",
            "ExternalCallAction",
            "StartAction",
        ] {
            assert!(kinds.contains(kind), "{kinds:?}");
        }
    }

    #[test]
    fn lenses_show_progress_only_on_the_repository_being_analysed() {
        // They once matched the job's label against the file name: "share.repository" is in
        // "component BusinessCore in fileshare.repository".
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/fileshare/model/fileshare.repository"),
        )
        .unwrap();
        let lens_titles = |path: &str, activity: &Activity| -> Vec<String> {
            let uri: Uri = format!("file://{path}").parse().unwrap();
            let doc = Document::open(uri, PathBuf::from(path), 1, &text).snapshot();
            code_lenses(&doc, None, Some(activity), None)
                .into_iter()
                .filter_map(|l| l.command.map(|c| c.title))
                .collect()
        };
        let activity = Activity {
            repositories: vec![PathBuf::from("/w/model/fileshare.repository")],
            percentage: 40,
            message: "quick pass".into(),
        };
        let other = lens_titles("/w/model/share.repository", &activity);
        assert!(other.iter().all(|t| !t.contains("analysing")), "{other:?}");
        assert!(other.iter().any(|t| t == "Beagle: not analysed"), "{other:?}");
        let mine = lens_titles("/w/model/fileshare.repository", &activity);
        assert!(
            mine.iter().any(|t| t == "Beagle: analysing… 40 % (quick pass)"),
            "{mine:?}"
        );
    }
}
