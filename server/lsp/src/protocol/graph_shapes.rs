//! The shapes of `beagle.seffGraph` and `beagle.repositoryGraph`: a SEFF (and a repository's
//! components) as a diagram draws them, with LSP-style ranges instead of the core's byte spans,
//! each action's share of the service's predicted demand at the inputs the user set, and each
//! SEFF's unmodelled time.

use super::shapes::{FitStatus, UnmodelledTime};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A position as LSP counts it: zero-based line, UTF-16 code units into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TextPosition {
    pub line: u32,
    pub character: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TextRange {
    pub start: TextPosition,
    pub end: TextPosition,
}

/// `beagle.seffGraph`'s result: one SEFF's diagram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SeffGraph {
    pub uri: String,
    pub id: Option<String>,
    /// The signature it describes, qualified by its interface (`IUpload.upload`).
    pub service: Option<String>,
    pub component: Option<String>,
    pub component_id: Option<String>,
    /// The SEFF's id attribute (what an editor selects) and the whole element.
    pub range: TextRange,
    pub extent: TextRange,
    pub flow: GraphFlow,
    /// The service's inputs that its prediction depends on, with the values it was computed at.
    pub inputs: Vec<GraphInput>,
    /// The service's predicted demand at `inputs`; none when the repository cannot be predicted.
    pub prediction: Option<GraphPrediction>,
    /// The SEFF's unmodelled time at its last validation (with its law at `inputs`), if found.
    pub unmodelled: Option<UnmodelledTime>,
}

/// One input of the service: the value used, and the range it was measured over (if it was).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphInput {
    /// `files.NUMBER_OF_ELEMENTS`.
    pub name: String,
    pub value: f64,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphPrediction {
    /// Over all resource types, callees included (ms per service execution).
    pub total_ms: f64,
    /// Whether every part of the service was predicted (`problems` says what was not).
    pub complete: bool,
    pub problems: Vec<String>,
    /// The `.system` that bound the calls, if any.
    pub system: Option<String>,
}

/// A behaviour: its actions in execution order, then any the successor chain does not reach.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphFlow {
    pub id: Option<String>,
    pub nodes: Vec<GraphNode>,
    /// Successor edges `[from, to]`, indices into `nodes`.
    pub edges: Vec<(u32, u32)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphNode {
    pub id: Option<String>,
    pub name: Option<String>,
    /// `StartAction`, `StopAction`, `InternalAction`, `ExternalCallAction`, `LoopAction`,
    /// `CollectionIteratorAction`, `BranchAction`, `ForkAction`, `SetVariableAction`, ...
    pub kind: String,
    /// The action's name (what the editor selects on a click) and the whole element.
    pub range: TextRange,
    pub extent: TextRange,
    /// The model's current specifications (resource demands, iteration count), shortened.
    pub specifications: Vec<GraphSpec>,
    /// Beagle's results for this action.
    pub results: Vec<GraphResult>,
    /// Loop bodies, branch transitions, fork behaviours.
    pub bodies: Vec<GraphBody>,
    pub call: Option<GraphCall>,
    /// Predicted demand of this action per service execution (ms, all resource types; a
    /// loop's, branch's or call's includes what runs inside it).
    pub demand_ms: Option<f64>,
    /// `demand_ms` over the service's total (0..1).
    pub share: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphSpec {
    /// `CPU demand`, `HDD demand`, `iterations`.
    pub what: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphResult {
    /// `CPU demand`, `loop iterations`, `branch`, ...
    pub what: String,
    pub expression: String,
    pub status: FitStatus,
    pub r2: Option<f64>,
    pub samples: u32,
    /// A demand's law (`expression`, ms) in work units and on which container, or why it is not
    /// written (as `FittedResult::work_units`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub work_units: Option<String>,
}

/// A nested behaviour and what leads into it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphBody {
    pub id: Option<String>,
    pub name: Option<String>,
    /// A branch transition's `p = 0.3` or guard; none for loop bodies and forks.
    pub condition: Option<String>,
    pub range: TextRange,
    pub flow: GraphFlow,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphCall {
    /// `ICompression.compress`.
    pub signature: String,
    pub role: Option<String>,
    /// The SEFFs that describe the called signature, in any file of the workspace.
    pub providers: Vec<GraphProvider>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GraphProvider {
    pub component: Option<String>,
    pub seff: Option<String>,
    pub uri: String,
    /// The providing SEFF's id attribute.
    pub range: TextRange,
}

/// `beagle.repositoryGraph`'s result: the repository's components, their roles and SEFFs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RepositoryGraph {
    pub uri: String,
    pub name: Option<String>,
    pub components: Vec<ComponentNode>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ComponentNode {
    pub id: Option<String>,
    pub name: Option<String>,
    /// `BasicComponent`, `CompositeComponent`, ...
    pub kind: String,
    pub range: TextRange,
    pub provides: Vec<RoleNode>,
    pub requires: Vec<RoleNode>,
    pub seffs: Vec<SeffSummary>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleNode {
    pub id: Option<String>,
    pub name: Option<String>,
    pub interface: Option<String>,
    pub interface_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SeffSummary {
    pub id: Option<String>,
    pub service: Option<String>,
    pub range: TextRange,
    /// Actions in it, nested ones included.
    pub actions: u32,
    /// Beagle's results about them.
    pub results: u32,
    /// Its unmodelled time at its last validation, if found.
    pub unmodelled: Option<UnmodelledTime>,
}
