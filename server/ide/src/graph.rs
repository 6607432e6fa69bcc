//! A SEFF as a graph, for a diagram: its actions in execution order with the successor edges
//! between them, loop bodies, branch transitions and fork behaviours nested in their actions,
//! external calls with the SEFFs that provide the called signature, each action's
//! specifications and Beagle's results, and the text ranges an editor navigates by.
//!
//! Plain data (serialisable as it is); the language server serves it and the extension draws it.
//! Built from the typed model of a file in a [`ModelSet`]: a broken file gives the graph of what
//! it reads (an action the successor chain does not reach is still a node, with no edge to it).

use crate::navigate::Location;
use crate::results::{ElementResult, ResultStatus};
use crate::text::{entity_name, extent, name_span, spec_text, target_name};
use crate::typed::execution_order;
use beagle_analysis::model::resource_name;
use beagle_pcm::model::{Action, ActionBody, Behaviour, Component, Seff, TransitionKind};
use beagle_pcm::{FileId, ModelFile, ModelSet, NodeId, Span};
use serde::Serialize;
use std::collections::HashMap;

/// One SEFF's diagram.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeffGraph {
    /// The SEFF's id.
    pub id: Option<String>,
    /// The signature it describes, qualified by its interface (`IFileStore.write`).
    pub service: Option<String>,
    pub component: Option<String>,
    pub component_id: Option<String>,
    /// The SEFF element's name (or tag) and whole extent in its file.
    pub span: Span,
    pub extent: Span,
    pub flow: Flow,
}

/// A behaviour: its actions in execution order (then any the chain does not reach).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flow {
    pub id: Option<String>,
    pub nodes: Vec<GraphNode>,
    /// Successor edges `(from, to)`, indices into `nodes`.
    pub edges: Vec<(usize, usize)>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphNode {
    pub id: Option<String>,
    pub name: Option<String>,
    /// The action's type (`InternalAction`, `LoopAction`, ...).
    pub kind: String,
    /// What an editor selects for the node (its name's value) and the whole element (for
    /// following the cursor).
    pub span: Span,
    pub extent: Span,
    /// The current specifications: resource demands, iteration count.
    pub specifications: Vec<GraphSpec>,
    /// Beagle's results for this action (demands, iterations, branch decisions, parameters).
    pub results: Vec<GraphResult>,
    /// Loop and collection-iterator bodies, branch transitions, fork behaviours.
    pub bodies: Vec<Body>,
    pub call: Option<Call>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphSpec {
    /// `CPU demand`, `HDD demand`, `iterations`.
    pub what: String,
    /// StoEx, shortened.
    pub text: String,
}

/// One result, as a diagram labels it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphResult {
    pub what: String,
    pub expression: String,
    pub status: ResultStatus,
    pub r2: Option<f64>,
    pub samples: usize,
}

/// A nested behaviour and what leads into it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Body {
    /// The branch transition's id and name (none for a loop body).
    pub id: Option<String>,
    pub name: Option<String>,
    /// `p = 0.3` or the guard in StoEx; none for loop bodies and forks.
    pub condition: Option<String>,
    pub span: Span,
    pub flow: Flow,
}

/// What an external call calls, and who provides it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Call {
    /// `IFileStore.write`.
    pub signature: String,
    pub role: Option<String>,
    /// The SEFFs (in any file of the set) that describe the called signature.
    pub providers: Vec<Provider>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Provider {
    pub component: Option<String>,
    pub seff: Option<String>,
    pub location: Location,
}

/// The graph of the SEFF with id `seff` in `file`; `results` are the file's analysis results
/// (attached to the actions they belong to). `None` when the file has no such SEFF.
pub fn seff_graph(set: &ModelSet, file: FileId, seff: &str, results: &[ElementResult]) -> Option<SeffGraph> {
    let builder = Builder::new(set, file, results)?;
    let repo = builder.f.repository.as_ref()?;
    repo.components.iter().find_map(|c| {
        c.seffs
            .iter()
            .find(|s| s.id.as_deref() == Some(seff))
            .map(|s| builder.seff(c, s))
    })
}

/// The graphs of every SEFF of every component in `file`, in document order.
pub fn seff_graphs(set: &ModelSet, file: FileId, results: &[ElementResult]) -> Vec<SeffGraph> {
    let Some(builder) = Builder::new(set, file, results) else {
        return Vec::new();
    };
    let Some(repo) = &builder.f.repository else {
        return Vec::new();
    };
    let builder = &builder;
    repo.components
        .iter()
        .flat_map(|c| c.seffs.iter().map(move |s| builder.seff(c, s)))
        .collect()
}

/// Every SEFF of the set by the signature it describes (file and node of the signature).
fn providers(set: &ModelSet) -> HashMap<(FileId, NodeId), Vec<Provider>> {
    let mut out: HashMap<(FileId, NodeId), Vec<Provider>> = HashMap::new();
    for (id, f) in set.files() {
        let Some(repo) = &f.repository else { continue };
        for c in &repo.components {
            for s in &c.seffs {
                let Some(signature) = s.described_service.as_ref().and_then(|r| set.resolve(id, r).ok()) else {
                    continue;
                };
                out.entry(signature).or_default().push(Provider {
                    component: c.name.clone(),
                    seff: s.id.clone(),
                    location: Location {
                        path: f.path.clone(),
                        span: crate::text::id_span(&f.tree, s.node),
                    },
                });
            }
        }
    }
    out
}

struct Builder<'a> {
    set: &'a ModelSet,
    file: FileId,
    f: &'a ModelFile,
    results: &'a [ElementResult],
    providers: HashMap<(FileId, NodeId), Vec<Provider>>,
}

impl<'a> Builder<'a> {
    fn new(set: &'a ModelSet, file: FileId, results: &'a [ElementResult]) -> Option<Builder<'a>> {
        let f = set.files().find(|&(i, _)| i == file).map(|(_, f)| f)?;
        Some(Builder {
            set,
            file,
            f,
            results,
            providers: providers(set),
        })
    }

    fn seff(&self, c: &Component, s: &Seff) -> SeffGraph {
        let tree = &self.f.tree;
        let service = s.described_service.as_ref().map(|r| target_name(self.f, r));
        SeffGraph {
            id: s.id.clone(),
            service,
            component: c.name.clone(),
            component_id: c.id.clone(),
            span: crate::text::id_span(tree, s.node),
            extent: extent(tree, s.node),
            flow: self.flow(&s.behaviour),
        }
    }

    fn flow(&self, b: &Behaviour) -> Flow {
        let actions = execution_order(b);
        let index: HashMap<NodeId, usize> = actions.iter().enumerate().map(|(i, a)| (a.node, i)).collect();
        let edges = actions
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let next = self.f.resolve_local(&a.successor.as_ref()?.target)?;
                Some((i, *index.get(&next)?))
            })
            .collect();
        Flow {
            id: b.id.clone(),
            nodes: actions.iter().map(|a| self.node(a)).collect(),
            edges,
        }
    }

    fn node(&self, a: &Action) -> GraphNode {
        let tree = &self.f.tree;
        let mut specifications: Vec<GraphSpec> = a
            .resource_demands
            .iter()
            .map(|d| GraphSpec {
                what: format!(
                    "{} demand",
                    d.resource_type
                        .as_ref()
                        .map_or("?", |r| resource_name(r.target.fragment()))
                ),
                text: spec_text(self.f, d.specification),
            })
            .collect();
        let mut bodies = Vec::new();
        let mut call = None;
        match &a.body {
            ActionBody::Loop { iteration_count, body } => {
                specifications.push(GraphSpec {
                    what: "iterations".into(),
                    text: spec_text(self.f, *iteration_count),
                });
                bodies.extend(body.iter().map(|b| self.body(b, None)));
            }
            ActionBody::CollectionIterator { body, .. } => bodies.extend(body.iter().map(|b| self.body(b, None))),
            ActionBody::Fork { behaviours } => bodies.extend(behaviours.iter().map(|b| self.body(b, None))),
            ActionBody::Branch { transitions } => {
                for t in transitions {
                    let condition = match &t.kind {
                        TransitionKind::Probabilistic { probability } => {
                            Some(probability.map_or("p = ?".into(), |p| format!("p = {}", crate::format_number(p))))
                        }
                        TransitionKind::Guarded { condition } => Some(spec_text(self.f, *condition)),
                        TransitionKind::Unknown => None,
                    };
                    let flow = t.behaviour.as_ref().map_or_else(
                        || Flow {
                            id: None,
                            nodes: Vec::new(),
                            edges: Vec::new(),
                        },
                        |b| self.flow(b),
                    );
                    bodies.push(Body {
                        id: t.id.clone(),
                        name: t.name.clone(),
                        condition,
                        span: name_span(tree, t.node),
                        flow,
                    });
                }
            }
            ActionBody::ExternalCall {
                called_service: Some(r),
                role,
                ..
            } => {
                let providers = self
                    .set
                    .resolve(self.file, r)
                    .ok()
                    .and_then(|signature| self.providers.get(&signature))
                    .cloned()
                    .unwrap_or_default();
                call = Some(Call {
                    signature: target_name(self.f, r),
                    role: role.as_ref().map(|r| target_name(self.f, r)),
                    providers,
                });
            }
            _ => {}
        }
        let results = match &a.id {
            Some(id) => self
                .results
                .iter()
                .filter(|r| &r.action == id)
                .map(|r| GraphResult {
                    what: r.what.clone(),
                    expression: r.expression.clone(),
                    status: r.status,
                    r2: r.r2,
                    samples: r.samples,
                })
                .collect(),
            None => Vec::new(),
        };
        GraphNode {
            id: a.id.clone(),
            name: a.name.clone().or_else(|| entity_name(tree, a.node)),
            kind: a.kind.as_str().to_string(),
            span: name_span(tree, a.node),
            extent: extent(tree, a.node),
            specifications,
            results,
            bodies,
            call,
        }
    }

    fn body(&self, b: &Behaviour, condition: Option<String>) -> Body {
        Body {
            id: b.id.clone(),
            name: None,
            condition,
            span: name_span(&self.f.tree, b.node),
            flow: self.flow(b),
        }
    }
}
