//! `beagle.seffGraph` and `beagle.repositoryGraph`: the core's SEFF graph and repository
//! overview (`beagle_ide`) with LSP ranges, each action's predicted demand and share of the
//! service at the inputs the user set, the inputs the prediction depends on, and each SEFF's
//! unmodelled time at its last validation.

use crate::documents::Snapshot;
use crate::error::ServerError;
use crate::position;
use crate::protocol::graph_shapes::*;
use crate::protocol::shapes::{FitStatus, UnmodelledTime};
use crate::results::RepositoryResults;
use beagle_analysis::predict::{Bindings, Prediction, Predictor};
use beagle_ide::{Body, Flow, GraphNode as IdeNode, ResultStatus, SeffGraph as IdeGraph, Span};
use beagle_pcm::ModelSet;
use ropey::Rope;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a graph request is about.
pub struct GraphRequest<'a> {
    pub path: &'a Path,
    /// The workspace folder (for the `.system` that binds the service's calls).
    pub root: &'a Path,
    pub open: &'a [Arc<Snapshot>],
    pub results: Option<&'a RepositoryResults>,
}

/// `beagle.seffGraph`: SEFF `seff`'s graph, predicted at `given` (inputs left out take the
/// middle of what was measured, else 1).
pub fn seff_graph(set: &ModelSet, req: &GraphRequest, seff: &str, given: &Bindings) -> Result<SeffGraph, ServerError> {
    let id = file_id(set, req)?;
    let list = req.results.map_or(&[][..], |r| &r.results[..]);
    let graph = beagle_ide::seff_graph(set, id, seff, list)
        .ok_or_else(|| ServerError::file(req.path, format!("no SEFF with id `{seff}`")))?;
    let file = set.file(id);
    let system = crate::queries::system_of(req.path, req.root);
    let assembly = system
        .as_ref()
        .and_then(|(_, f)| beagle_pcm::model::system::assembly(f));
    let rates = crate::queries::rates_of(req.path, req.root);
    let predictor = Predictor::bound(file, assembly.as_ref(), rates.as_ref());
    let (inputs, prediction) = match &predictor {
        Some(p) => predict(p, seff, given, req.results),
        None => (Vec::new(), None),
    };
    let unmodelled = unmodelled_at(req.results, seff, &inputs);
    let mut ranges = Ranges::new(set, req.open);
    let mut out = convert(&graph, req.path, prediction.as_ref(), &mut ranges).with(
        inputs,
        prediction.as_ref(),
        system.map(|(p, _)| p),
    );
    out.unmodelled = unmodelled;
    Ok(out)
}

/// The SEFF's unmodelled time at its last validation, its law evaluated at the diagram's inputs
/// (beside the predicted total at the same inputs).
fn unmodelled_at(results: Option<&RepositoryResults>, seff: &str, inputs: &[GraphInput]) -> Option<UnmodelledTime> {
    let found = beagle_ide::unmodelled_time(results?.validations.get(seff)?)?;
    let values: Bindings = inputs.iter().map(|i| (i.name.clone(), i.value)).collect();
    Some(UnmodelledTime {
        at_inputs_ms: found.at(&values),
        ..UnmodelledTime::from(&found)
    })
}

/// The unmodelled time of SEFF `seff` for the repository's overview.
fn unmodelled_of(results: Option<&RepositoryResults>, seff: Option<&String>) -> Option<UnmodelledTime> {
    let found = beagle_ide::unmodelled_time(results?.validations.get(seff?)?)?;
    Some(UnmodelledTime::from(&found))
}

/// `beagle.repositoryGraph`: the repository's components, roles and SEFFs.
pub fn repository_graph(set: &ModelSet, req: &GraphRequest) -> Result<RepositoryGraph, ServerError> {
    let id = file_id(set, req)?;
    let list = req.results.map_or(&[][..], |r| &r.results[..]);
    let overview = beagle_ide::repository_overview(set.file(id), list)
        .ok_or_else(|| ServerError::file(req.path, "not a PCM repository"))?;
    let mut ranges = Ranges::new(set, req.open);
    let role = |r: &beagle_ide::RoleEnd| RoleNode {
        id: r.id.clone(),
        name: r.name.clone(),
        interface: r.interface.clone(),
        interface_id: r.interface_id.clone(),
    };
    Ok(RepositoryGraph {
        uri: uri_of(req.path),
        name: overview.name,
        components: overview
            .components
            .iter()
            .map(|c| ComponentNode {
                id: c.id.clone(),
                name: c.name.clone(),
                kind: c.kind.to_string(),
                range: ranges.range(req.path, c.span),
                provides: c.provides.iter().map(role).collect(),
                requires: c.requires.iter().map(role).collect(),
                seffs: c
                    .seffs
                    .iter()
                    .map(|s| SeffSummary {
                        id: s.id.clone(),
                        service: s.service.clone(),
                        range: ranges.range(req.path, s.span),
                        actions: s.actions as u32,
                        results: s.results as u32,
                        unmodelled: unmodelled_of(req.results, s.id.as_ref()),
                    })
                    .collect(),
            })
            .collect(),
    })
}

fn file_id(set: &ModelSet, req: &GraphRequest) -> Result<beagle_pcm::FileId, ServerError> {
    set.id_of(req.path)
        .ok_or_else(|| ServerError::file(req.path, "not a model of the workspace"))
}

/// The prediction at the inputs the service depends on: those its composed demand names, those
/// given, and those a guard or count needed (a guard's input is not in the composed demand when
/// the guard could not be decided without it).
fn predict(
    p: &Predictor,
    seff: &str,
    given: &Bindings,
    results: Option<&RepositoryResults>,
) -> (Vec<GraphInput>, Option<Prediction>) {
    let composed = p.compose(seff);
    let mut names: BTreeSet<String> = composed.demands.values().flat_map(beagle_stoex::variables).collect();
    names.extend(given.keys().cloned());
    // Each round may name more of them; a service has few, so five rounds settle it.
    for round in 1.. {
        let inputs = inputs_of(&names, given, seff, results);
        let values: Bindings = inputs.iter().map(|i| (i.name.clone(), i.value)).collect();
        let prediction = p.predict(seff, &values);
        let before = names.len();
        names.extend(prediction.missing.iter().cloned());
        if names.len() == before || round == 5 {
            return (inputs, Some(prediction));
        }
    }
    unreachable!("the loop returns by its fifth round")
}

/// Values for `names`, in name order: the value given, else the median of the service's last
/// validation's points, else the middle of the range its results were measured over, else 1.
fn inputs_of(
    names: &BTreeSet<String>,
    given: &Bindings,
    seff: &str,
    results: Option<&RepositoryResults>,
) -> Vec<GraphInput> {
    let validation = results.and_then(|r| r.validations.get(seff));
    names
        .iter()
        .cloned()
        .map(|name| {
            let validated: Vec<f64> = validation
                .map(|v| v.rows.iter().filter_map(|r| r.inputs.get(&name).copied()).collect())
                .unwrap_or_default();
            let measured: Vec<(f64, f64)> = results
                .map(|r| {
                    r.results
                        .iter()
                        .flat_map(|x| &x.parameter_ranges)
                        .filter(|(n, _, _)| *n == name)
                        .map(|(_, lo, hi)| (*lo, *hi))
                        .collect()
                })
                .unwrap_or_default();
            let (min, max) = if !validated.is_empty() {
                (
                    Some(validated.iter().copied().fold(f64::INFINITY, f64::min)),
                    Some(validated.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
                )
            } else if !measured.is_empty() {
                (
                    Some(measured.iter().map(|r| r.0).fold(f64::INFINITY, f64::min)),
                    Some(measured.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max)),
                )
            } else {
                (None, None)
            };
            let value = given
                .get(&name)
                .copied()
                .or_else(|| median(&validated))
                .or_else(|| Some((min? + max?) / 2.0))
                .unwrap_or(1.0);
            GraphInput { name, value, min, max }
        })
        .collect()
}

fn median(values: &[f64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

impl SeffGraph {
    fn with(mut self, inputs: Vec<GraphInput>, p: Option<&Prediction>, system: Option<PathBuf>) -> SeffGraph {
        self.inputs = inputs;
        self.prediction = p.map(|p| GraphPrediction {
            total_ms: p.total(),
            complete: p.is_complete(),
            problems: p.problems.iter().map(|q| q.message.clone()).collect(),
            system: system.map(|s| s.display().to_string()),
        });
        self
    }
}

fn convert(g: &IdeGraph, path: &Path, p: Option<&Prediction>, ranges: &mut Ranges) -> SeffGraph {
    let mut c = Converter { path, p, ranges };
    SeffGraph {
        uri: uri_of(path),
        id: g.id.clone(),
        service: g.service.clone(),
        component: g.component.clone(),
        component_id: g.component_id.clone(),
        range: c.ranges.range(path, g.span),
        extent: c.ranges.range(path, g.extent),
        flow: c.flow(&g.flow),
        inputs: Vec::new(),
        prediction: None,
        unmodelled: None,
    }
}

struct Converter<'a, 'b> {
    path: &'a Path,
    p: Option<&'a Prediction>,
    ranges: &'a mut Ranges<'b>,
}

impl Converter<'_, '_> {
    fn flow(&mut self, f: &Flow) -> GraphFlow {
        GraphFlow {
            id: f.id.clone(),
            nodes: f.nodes.iter().map(|n| self.node(n)).collect(),
            edges: f.edges.iter().map(|&(a, b)| (a as u32, b as u32)).collect(),
        }
    }

    fn node(&mut self, n: &IdeNode) -> GraphNode {
        let demand = self
            .p
            .zip(n.id.as_ref())
            .and_then(|(p, id)| p.elements.get(id).copied());
        let total = self.p.map(Prediction::total).filter(|t| *t > 0.0);
        GraphNode {
            id: n.id.clone(),
            name: n.name.clone(),
            kind: n.kind.clone(),
            range: self.ranges.range(self.path, n.span),
            extent: self.ranges.range(self.path, n.extent),
            specifications: n
                .specifications
                .iter()
                .map(|s| GraphSpec {
                    what: s.what.clone(),
                    text: s.text.clone(),
                })
                .collect(),
            results: n
                .results
                .iter()
                .map(|r| GraphResult {
                    what: r.what.clone(),
                    expression: r.expression.clone(),
                    status: match r.status {
                        ResultStatus::Final => FitStatus::Final,
                        ResultStatus::Preliminary => FitStatus::Preliminary,
                    },
                    r2: r.r2,
                    samples: r.samples as u32,
                    work_units: None,
                })
                .collect(),
            bodies: n.bodies.iter().map(|b| self.body(b)).collect(),
            call: n.call.as_ref().map(|c| GraphCall {
                signature: c.signature.clone(),
                role: c.role.clone(),
                providers: c
                    .providers
                    .iter()
                    .map(|p| GraphProvider {
                        component: p.component.clone(),
                        seff: p.seff.clone(),
                        uri: uri_of(&p.location.path),
                        range: self.ranges.range(&p.location.path, p.location.span),
                    })
                    .collect(),
            }),
            demand_ms: demand,
            share: demand.zip(total).map(|(d, t)| d / t),
        }
    }

    fn body(&mut self, b: &Body) -> GraphBody {
        GraphBody {
            id: b.id.clone(),
            name: b.name.clone(),
            condition: b.condition.clone(),
            range: self.ranges.range(self.path, b.span),
            flow: self.flow(&b.flow),
        }
    }
}

fn uri_of(path: &Path) -> String {
    tower_lsp_server::ls_types::Uri::from_file_path(path)
        .map(|u| u.as_str().to_string())
        .unwrap_or_else(|| path.display().to_string())
}

/// Spans to LSP ranges: through the open document's text where the file is open (the user's
/// unsaved edits), else the workspace's copy.
struct Ranges<'a> {
    set: &'a ModelSet,
    open: HashMap<PathBuf, &'a Rope>,
    read: HashMap<PathBuf, Rope>,
}

impl<'a> Ranges<'a> {
    fn new(set: &'a ModelSet, open: &'a [Arc<Snapshot>]) -> Ranges<'a> {
        Ranges {
            set,
            open: open
                .iter()
                .map(|s| (beagle_pcm::workspace::normalise(&s.path), &s.rope))
                .collect(),
            read: HashMap::new(),
        }
    }

    fn range(&mut self, path: &Path, span: Span) -> TextRange {
        let key = beagle_pcm::workspace::normalise(path);
        let rope = match self.open.get(&key) {
            Some(r) => *r,
            None => {
                let set = self.set;
                self.read.entry(key.clone()).or_insert_with(|| {
                    let text = set.id_of(path).map_or("", |id| set.file(id).text());
                    Rope::from_str(text)
                })
            }
        };
        let r = position::range(rope, span);
        TextRange {
            start: TextPosition {
                line: r.start.line,
                character: r.start.character,
            },
            end: TextPosition {
                line: r.end.line,
                character: r.end.character,
            },
        }
    }
}
