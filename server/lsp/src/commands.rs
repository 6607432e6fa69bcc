//! `workspace/executeCommand`: the analyses, pause/resume/abort, results, status. Arguments are
//! `[uri]`, `[uri, id]` or `[{"uri": ..., "id": ...}]`; URIs must lie inside a workspace folder.
//! Answers are the typed shapes of [`crate::protocol::shapes`].

use crate::error::ServerError;
use crate::protocol::shapes::{Applied, Discarded, EvaluateRequest, LinkProposal, QueuedJob, QueuedJobs, Target};
use crate::protocol::Command;
use crate::queue::JobControl;
use crate::results::key;
use crate::session::{Handle, Message};
use crate::state::World;
use beagle_analysis::Scope;
use beagle_job::Workspace;
use beagle_pcm::ModelFile;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{Position, Uri};

/// A command's error on the wire: its text (the server also shows it to the user).
fn invalid(e: impl std::fmt::Display) -> Error {
    Error::invalid_params(e.to_string())
}

/// `(uri, id)` from the arguments.
fn target(args: &[Value]) -> Result<(Uri, Option<String>)> {
    let Target { uri, id } = Target::from_args(args).map_err(invalid)?;
    let uri: Uri = uri.parse().map_err(|_| invalid(format!("`{uri}` is not a URI")))?;
    Ok((uri, id))
}

/// A command's typed answer on the wire.
fn answer(value: impl Serialize) -> Result<Option<Value>> {
    serde_json::to_value(value)
        .map(Some)
        .map_err(|e| Error::invalid_params(e.to_string()))
}

/// The file path of a URI, checked to lie inside a workspace folder.
fn path_in_workspace(world: &World, uri: &Uri) -> Result<(PathBuf, PathBuf)> {
    let path = uri
        .to_file_path()
        .ok_or_else(|| invalid(format!("`{}` is not a file", uri.as_str())))?
        .into_owned();
    match world.root_of(&path) {
        Some(root) => Ok((path, root)),
        None if world.roots.is_empty() => {
            let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
            Ok((path, dir))
        }
        None => Err(invalid(ServerError::OutsideWorkspace(path))),
    }
}

/// The workspace (nearest `beagle.toml` above, inside `root`) that analyses `repository`;
/// its repositories narrowed to that one, its paths checked against the workspace folder.
fn workspace_for(repository: &Path, root: &Path) -> std::result::Result<Workspace, ServerError> {
    let d = beagle_job::workspace::folder_above(repository, Some(root)).ok_or_else(|| {
        ServerError::file(
            repository,
            "no beagle.toml above it (inside the workspace): Beagle needs one to know where the measurements come from",
        )
    })?;
    let mut ws = beagle_job::resolve(&d)?;
    let wanted = key(repository);
    if !ws.repositories.iter().any(|r| key(r) == wanted) {
        return Err(ServerError::Workspace {
            config: d.join("beagle.toml"),
            message: format!("its [model] does not name {}", repository.display()),
        });
    }
    ws.repositories.retain(|r| key(r) == wanted);
    check_inside(&ws, root)?;
    Ok(ws)
}

fn check_inside(ws: &Workspace, root: &Path) -> std::result::Result<(), ServerError> {
    let outside = ws.paths_outside(root);
    if outside.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = outside.iter().map(|p| p.display().to_string()).collect();
    Err(ServerError::Workspace {
        config: ws.root.join("beagle.toml"),
        message: format!(
            "names paths outside the workspace ({}); Beagle reads and runs only what is inside it",
            list.join(", ")
        ),
    })
}

/// Every `beagle.toml` under `root` (not under hidden folders, `target` or `node_modules`).
fn configs_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() && !name.starts_with('.') && name != "target" && name != "node_modules" {
                stack.push(p);
            } else if kind.is_file() && name == "beagle.toml" {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

async fn queue(
    session: &Handle,
    label: String,
    root: PathBuf,
    workspace: Workspace,
    scope: Scope,
) -> Result<QueuedJob> {
    let (id, ahead) = session
        .ask(|reply| Message::Queue {
            label: label.clone(),
            root,
            workspace: Box::new(workspace),
            scope,
            reply,
        })
        .await
        .ok_or_else(Error::internal_error)?;
    Ok(QueuedJob {
        queued: true,
        job: id,
        ahead,
        label,
    })
}

/// The LSP position after the URI: `[uri, {line, character}]`.
fn position_arg(args: &[Value]) -> Result<Position> {
    args.get(1)
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(|| invalid("expected a position {\"line\": .., \"character\": ..} after the URI"))
}

/// The open document's snapshot, else the file read from disk.
fn model_of(world: &World, uri: &Uri, path: &Path) -> Result<std::sync::Arc<ModelFile>> {
    if let Some(s) = world.snapshot(uri) {
        return Ok(s.model());
    }
    ModelFile::read(path)
        .map(std::sync::Arc::new)
        .map_err(|e| invalid(format!("{}: {e}", path.display())))
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().to_string())
}

pub async fn execute(session: &Handle, command: Command, args: &[Value]) -> Result<Option<Value>> {
    let world = session.world().await;
    match command {
        Command::AnalyseRepository | Command::AnalyseComponent | Command::AnalyseAction => {
            let (uri, id) = target(args)?;
            let (path, root) = path_in_workspace(&world, &uri)?;
            if command == Command::AnalyseRepository && (path.is_dir() || path.ends_with("beagle.toml")) {
                let dir = if path.is_dir() {
                    path.clone()
                } else {
                    path.parent().unwrap_or(&root).to_path_buf()
                };
                let ws = beagle_job::resolve(&dir).map_err(invalid)?;
                check_inside(&ws, &root).map_err(invalid)?;
                return answer(queue(session, file_name(&dir), root, ws, Scope::Repository).await?);
            }
            let ws = workspace_for(&path, &root).map_err(invalid)?;
            let (scope, label) = match (command, id) {
                (Command::AnalyseRepository, _) => (Scope::Repository, file_name(&path)),
                (Command::AnalyseComponent, Some(id)) => {
                    let label = format!("component {} in {}", element_name(&world, &uri, &id), file_name(&path));
                    (Scope::Component(id), label)
                }
                (_, Some(id)) => {
                    let label = format!("{} in {}", element_name(&world, &uri, &id), file_name(&path));
                    if is_seff(&world, &uri, &path, &id) {
                        (Scope::Service(id), label)
                    } else {
                        (Scope::Action(id), label)
                    }
                }
                (_, None) => return Err(invalid(format!("{command} needs an element id after the URI"))),
            };
            answer(queue(session, label, root, ws, scope).await?)
        }
        Command::AnalyseWorkspace => {
            let mut queued = Vec::new();
            let mut problems = Vec::new();
            for root in world.roots.clone() {
                for config in configs_under(&root) {
                    let dir = config.parent().unwrap_or(&root).to_path_buf();
                    match beagle_job::resolve(&dir)
                        .map_err(ServerError::from)
                        .and_then(|ws| check_inside(&ws, &root).map(|_| ws))
                    {
                        Ok(ws) => {
                            queued.push(queue(session, file_name(&dir), root.clone(), ws, Scope::Repository).await?)
                        }
                        Err(e) => problems.push(e.to_string()),
                    }
                }
            }
            if queued.is_empty() && problems.is_empty() {
                problems.push("no beagle.toml in the workspace folders".into());
            }
            answer(QueuedJobs { queued, problems })
        }
        Command::Pause | Command::Resume | Command::Abort => {
            let what = match command {
                Command::Pause => JobControl::Pause,
                Command::Resume => JobControl::Resume,
                _ => JobControl::Abort,
            };
            let reply = session.ask(|reply| Message::Control { what, reply }).await;
            answer(reply.ok_or_else(Error::internal_error)?)
        }
        Command::ApplyResults => {
            let (uri, _) = target(args)?;
            let (path, _) = path_in_workspace(&world, &uri)?;
            let applied = crate::apply::apply_results(session, &path).await.map_err(invalid)?;
            answer(Applied { applied })
        }
        Command::DiscardResults => {
            let (uri, _) = target(args)?;
            let (path, _) = path_in_workspace(&world, &uri)?;
            let discarded = session.ask(|reply| Message::DiscardResults { path, reply }).await;
            answer(Discarded {
                discarded: discarded.unwrap_or(false),
            })
        }
        Command::Status => answer(session.ask(Message::Status).await.ok_or_else(Error::internal_error)?),
        Command::LinkToCode => {
            let (uri, id) = target(args)?;
            let id = id.ok_or_else(|| invalid("beagle.linkToCode needs an element id after the URI"))?;
            let (path, root) = path_in_workspace(&world, &uri)?;
            let (links, text) = tokio::task::spawn_blocking(move || crate::link::proposal(&path, &root, &id))
                .await
                .map_err(|e| invalid(e.to_string()))?
                .map_err(invalid)?;
            let applied = crate::link::append(session, &links, &text).await.map_err(invalid)?;
            answer(LinkProposal {
                applied,
                file: links.display().to_string(),
                text,
            })
        }
        Command::ElementAt => {
            let (uri, _) = target(args)?;
            let pos = position_arg(args)?;
            let snapshot = world.snapshot(&uri);
            let Some(doc) = snapshot else {
                return Err(invalid(format!("{} is not open", uri.as_str())));
            };
            let at = tokio::task::spawn_blocking(move || crate::queries::element_at(&doc, pos))
                .await
                .map_err(|e| invalid(e.to_string()))?;
            answer(at)
        }
        Command::ElementResults => {
            let (uri, id) = target(args)?;
            let id = id.ok_or_else(|| invalid("beagle.elementResults needs an element id after the URI"))?;
            let (path, root) = path_in_workspace(&world, &uri)?;
            let model = model_of(&world, &uri, &path)?;
            let results = world.results.get(&path);
            let value = tokio::task::spawn_blocking(move || {
                let system = crate::queries::system_of(&path, &root);
                let assembly = system
                    .as_ref()
                    .and_then(|(_, f)| beagle_pcm::model::system::assembly(f));
                let rates = crate::queries::rates_of(&path, &root);
                let mut found =
                    crate::queries::element_results(&model, results.as_deref(), &id, assembly.as_ref(), rates.as_ref());
                if let Ok(units) = crate::units::demand_units(&path, Some(&root), &model) {
                    crate::units::annotate_results(&mut found, &model, &units);
                }
                found
            })
            .await
            .map_err(|e| invalid(e.to_string()))?;
            answer(value)
        }
        Command::Evaluate => {
            let request: EvaluateRequest = args
                .first()
                .filter(|a| a.is_object())
                .and_then(|a| serde_json::from_value(a.clone()).ok())
                .ok_or_else(|| {
                    invalid("expected {\"expression\": ..., \"bindings\": [{name: number}]} as the argument")
                })?;
            answer(crate::queries::evaluate(&request).map_err(invalid)?)
        }
        Command::Predict => {
            // [uri, seffId, {"files.NUMBER_OF_ELEMENTS": 20, ...}]: the service's expected demand
            // from the document as it is now (unsaved edits included).
            let (uri, id) = target(args)?;
            let seff = id.ok_or_else(|| invalid("beagle.predict needs a SEFF id after the URI"))?;
            let inputs = inputs_arg(args.get(2))?;
            let (path, root) = path_in_workspace(&world, &uri)?;
            let model = model_of(&world, &uri, &path)?;
            let value =
                tokio::task::spawn_blocking(move || crate::queries::predict(&model, &path, &root, &seff, &inputs))
                    .await
                    .map_err(|e| invalid(e.to_string()))?
                    .map_err(invalid)?;
            answer(value)
        }
        Command::SeffGraph => {
            // [uri, seffId, {"files.NUMBER_OF_ELEMENTS": 20, ...}?]: the diagram of the SEFF as
            // the document is now, predicted at those inputs.
            let (uri, id) = target(args)?;
            let seff = id.ok_or_else(|| invalid("beagle.seffGraph needs a SEFF id after the URI"))?;
            let inputs = inputs_arg(args.get(2))?;
            answer(
                read_graph(session, &world, &uri, move |set, req| {
                    let mut graph = crate::graphs::seff_graph(set, req, &seff, &inputs)?;
                    if let Some(model) = set.id_of(req.path).map(|id| set.file(id)) {
                        if let Ok(units) = crate::units::demand_units(req.path, Some(req.root), model) {
                            crate::units::annotate_graph(&mut graph, model, &units);
                        }
                    }
                    Ok(graph)
                })
                .await?,
            )
        }
        Command::RepositoryGraph => {
            let (uri, _) = target(args)?;
            answer(
                read_graph(session, &world, &uri, |set, req| {
                    crate::graphs::repository_graph(set, req)
                })
                .await?,
            )
        }
    }
}

/// A graph of the model at `uri`, computed by `f` on a blocking thread over the workspace's
/// model set, the open documents and the file's results (cancelled with the request).
async fn read_graph<T: Send + 'static>(
    session: &Handle,
    world: &World,
    uri: &Uri,
    f: impl FnOnce(&beagle_pcm::ModelSet, &crate::graphs::GraphRequest) -> std::result::Result<T, ServerError>
        + Send
        + 'static,
) -> Result<T> {
    let (path, root) = path_in_workspace(world, uri)?;
    let set = session.model_set(world).await.ok_or_else(Error::request_cancelled)?;
    let open = world.open_snapshots();
    let results = world.results.get(&path);
    crate::reads::run(move |_| {
        let req = crate::graphs::GraphRequest {
            path: &path,
            root: &root,
            open: &open,
            results: results.as_deref(),
        };
        f(&set, &req)
    })
    .await
    .ok_or_else(Error::request_cancelled)?
    .map_err(invalid)
}

/// A command's optional `{input: number}` argument.
fn inputs_arg(arg: Option<&Value>) -> Result<beagle_analysis::predict::Bindings> {
    match arg {
        None | Some(Value::Null) => Ok(Default::default()),
        Some(v) => {
            serde_json::from_value(v.clone()).map_err(|e| invalid(format!("the inputs must map names to numbers: {e}")))
        }
    }
}

/// The element's name in the open document (its id otherwise), for labels.
fn element_name(world: &World, uri: &Uri, id: &str) -> String {
    let Some(snapshot) = world.snapshot(uri) else {
        return id.to_string();
    };
    let model = snapshot.model();
    model
        .node_by_id(id)
        .and_then(|n| model.tree.value(n, "entityName").map(|v| v.to_string()))
        .unwrap_or_else(|| id.to_string())
}

fn is_seff(world: &World, uri: &Uri, path: &Path, id: &str) -> bool {
    let Ok(model) = model_of(world, uri, path) else {
        return false;
    };
    model
        .repository
        .as_ref()
        .is_some_and(|r| r.seffs().any(|(_, s)| s.id.as_deref() == Some(id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workspace_problem_names_its_beagle_toml_as_data() {
        let ws = tempfile::tempdir().unwrap();
        let root = ws.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("model")).unwrap();
        std::fs::write(root.join("model/a.repository"), "<x/>").unwrap();
        std::fs::write(root.join("model/b.repository"), "<x/>").unwrap();
        std::fs::write(
            root.join("beagle.toml"),
            "[model]\nrepository = \"model/a.repository\"\n[measurements]\nevents = \"none.events\"\n",
        )
        .unwrap();
        // A repository the beagle.toml does not name: the problem is about that file.
        let e = workspace_for(&root.join("model/b.repository"), &root).unwrap_err();
        let Some((file, None)) = e.location() else {
            panic!("{e:?}")
        };
        assert_eq!(file, root.join("beagle.toml"));
        assert!(e.to_string().contains("does not name"), "{e}");
        // No beagle.toml above: the problem is about the repository.
        let outside = tempfile::tempdir().unwrap();
        let lone = outside.path().join("c.repository");
        std::fs::write(&lone, "<x/>").unwrap();
        let e = workspace_for(&lone, outside.path()).unwrap_err();
        assert_eq!(e.location().map(|(f, _)| f.to_path_buf()), Some(lone));
    }
}
