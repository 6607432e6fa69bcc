//! The typed view of a repository: plain data that points back into the text through `NodeId`s
//! (every element's and attribute's span is on [`crate::XmlTree`]).

use crate::reference::Reference;
use crate::xml::NodeId;

/// Index into [`crate::ModelFile::specifications`].
pub type SpecId = usize;

#[derive(Clone, Debug)]
pub struct Repository {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub components: Vec<Component>,
    pub interfaces: Vec<Interface>,
    pub data_types: Vec<DataType>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentKind {
    Basic,
    Composite,
    /// CompleteComponentType, ProvidesComponentType, SubSystem, or an unknown type.
    Other,
}

#[derive(Clone, Debug)]
pub struct Component {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub kind: ComponentKind,
    pub provided_roles: Vec<Role>,
    pub required_roles: Vec<Role>,
    pub seffs: Vec<Seff>,
    /// `ResourceDemandingInternalBehaviour`s, the targets of InternalCallActions.
    pub internal_behaviours: Vec<Behaviour>,
    pub passive_resources: Vec<PassiveResource>,
}

#[derive(Clone, Debug)]
pub struct Role {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The `xsi:type`'s local name: `OperationProvidedRole`, `OperationRequiredRole`, `SourceRole`, ...
    pub kind: String,
    pub interface: Option<Reference>,
}

#[derive(Clone, Debug)]
pub struct PassiveResource {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub capacity: Option<SpecId>,
}

#[derive(Clone, Debug)]
pub struct Interface {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub kind: String,
    pub parents: Vec<Reference>,
    pub signatures: Vec<Signature>,
}

#[derive(Clone, Debug)]
pub struct Signature {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub parameters: Vec<Parameter>,
    pub return_type: Option<Reference>,
}

#[derive(Clone, Debug)]
pub struct Parameter {
    pub node: NodeId,
    pub name: Option<String>,
    pub data_type: Option<Reference>,
}

#[derive(Clone, Debug)]
pub struct DataType {
    pub node: NodeId,
    /// Primitive types in Palladio's `PrimitiveTypes.repository` have no id (they are found by path).
    pub id: Option<String>,
    pub name: Option<String>,
    pub kind: DataTypeKind,
}

#[derive(Clone, Debug)]
pub enum DataTypeKind {
    /// `INT` (the default, omitted in files), `STRING`, `BOOL`, `DOUBLE`, `CHAR`, `BYTE`, `LONG`.
    Primitive(String),
    Collection {
        inner: Option<Reference>,
    },
    Composite {
        members: Vec<InnerDeclaration>,
        parents: Vec<Reference>,
    },
    Unknown,
}

#[derive(Clone, Debug)]
pub struct InnerDeclaration {
    pub node: NodeId,
    pub name: Option<String>,
    pub data_type: Option<Reference>,
}

#[derive(Clone, Debug)]
pub struct Seff {
    pub node: NodeId,
    pub id: Option<String>,
    pub described_service: Option<Reference>,
    pub behaviour: Behaviour,
}

/// A chain of actions from a StartAction to a StopAction.
#[derive(Clone, Debug)]
pub struct Behaviour {
    /// The element whose `steps_Behaviour` children are the actions.
    pub node: NodeId,
    pub id: Option<String>,
    /// In document order.
    pub actions: Vec<Action>,
    /// Indices into `actions` in execution order: from the StartAction along `successor_AbstractAction`,
    /// as far as the chain is sound (the checker reports where it is not).
    pub order: Vec<usize>,
}

impl Behaviour {
    /// The actions in execution order.
    pub fn ordered(&self) -> impl Iterator<Item = &Action> {
        self.order.iter().map(|&i| &self.actions[i])
    }

    /// Every action of this behaviour and of the behaviours nested in it, depth first in document order.
    pub fn walk(&self) -> Vec<&Action> {
        let mut out = Vec::new();
        self.walk_into(&mut out);
        out
    }

    fn walk_into<'a>(&'a self, out: &mut Vec<&'a Action>) {
        for a in &self.actions {
            out.push(a);
            for b in a.body.behaviours() {
                b.walk_into(out);
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ActionKind {
    StartAction,
    StopAction,
    InternalAction,
    ExternalCallAction,
    LoopAction,
    CollectionIteratorAction,
    BranchAction,
    SetVariableAction,
    AcquireAction,
    ReleaseAction,
    ForkAction,
    EmitEventAction,
    InternalCallAction,
    /// An `xsi:type` Beagle does not know (reported as a warning).
    Unknown,
}

impl ActionKind {
    pub const ALL: [ActionKind; 13] = [
        ActionKind::StartAction,
        ActionKind::StopAction,
        ActionKind::InternalAction,
        ActionKind::ExternalCallAction,
        ActionKind::LoopAction,
        ActionKind::CollectionIteratorAction,
        ActionKind::BranchAction,
        ActionKind::SetVariableAction,
        ActionKind::AcquireAction,
        ActionKind::ReleaseAction,
        ActionKind::ForkAction,
        ActionKind::EmitEventAction,
        ActionKind::InternalCallAction,
    ];

    pub fn from_type(local: &str) -> ActionKind {
        ActionKind::ALL
            .into_iter()
            .find(|k| k.as_str() == local)
            .unwrap_or(ActionKind::Unknown)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::StartAction => "StartAction",
            ActionKind::StopAction => "StopAction",
            ActionKind::InternalAction => "InternalAction",
            ActionKind::ExternalCallAction => "ExternalCallAction",
            ActionKind::LoopAction => "LoopAction",
            ActionKind::CollectionIteratorAction => "CollectionIteratorAction",
            ActionKind::BranchAction => "BranchAction",
            ActionKind::SetVariableAction => "SetVariableAction",
            ActionKind::AcquireAction => "AcquireAction",
            ActionKind::ReleaseAction => "ReleaseAction",
            ActionKind::ForkAction => "ForkAction",
            ActionKind::EmitEventAction => "EmitEventAction",
            ActionKind::InternalCallAction => "InternalCallAction",
            ActionKind::Unknown => "Unknown",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Action {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub kind: ActionKind,
    pub predecessor: Option<Reference>,
    pub successor: Option<Reference>,
    /// Resource demands (InternalAction; PCM allows them on every AbstractInternalControlFlowAction).
    pub resource_demands: Vec<ResourceDemand>,
    pub body: ActionBody,
}

#[derive(Clone, Debug)]
pub struct ResourceDemand {
    /// The `resourceDemand_Action` element.
    pub node: NodeId,
    pub specification: Option<SpecId>,
    pub resource_type: Option<Reference>,
}

#[derive(Clone, Debug, Default)]
pub enum ActionBody {
    #[default]
    None,
    ExternalCall {
        called_service: Option<Reference>,
        role: Option<Reference>,
        inputs: Vec<VariableUsage>,
        returns: Vec<VariableUsage>,
    },
    Loop {
        iteration_count: Option<SpecId>,
        body: Option<Behaviour>,
    },
    CollectionIterator {
        parameter: Option<Reference>,
        body: Option<Behaviour>,
    },
    Branch {
        transitions: Vec<BranchTransition>,
    },
    SetVariable {
        usages: Vec<VariableUsage>,
    },
    Fork {
        behaviours: Vec<Behaviour>,
    },
    PassiveResource {
        resource: Option<Reference>,
    },
    EmitEvent {
        inputs: Vec<VariableUsage>,
    },
    InternalCall {
        called: Option<Reference>,
        inputs: Vec<VariableUsage>,
    },
}

impl ActionBody {
    /// The behaviours nested directly in this action.
    pub fn behaviours(&self) -> Vec<&Behaviour> {
        match self {
            ActionBody::Loop { body, .. } | ActionBody::CollectionIterator { body, .. } => body.iter().collect(),
            ActionBody::Branch { transitions } => transitions.iter().filter_map(|t| t.behaviour.as_ref()).collect(),
            ActionBody::Fork { behaviours } => behaviours.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The variable usages of this action (inputs, returns, local assignments).
    pub fn variable_usages(&self) -> Vec<&VariableUsage> {
        match self {
            ActionBody::ExternalCall { inputs, returns, .. } => inputs.iter().chain(returns).collect(),
            ActionBody::SetVariable { usages } => usages.iter().collect(),
            ActionBody::EmitEvent { inputs } | ActionBody::InternalCall { inputs, .. } => inputs.iter().collect(),
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct BranchTransition {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    pub kind: TransitionKind,
    pub behaviour: Option<Behaviour>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TransitionKind {
    /// `branchProbability` is a plain double attribute, not StoEx.
    Probabilistic {
        probability: Option<f64>,
    },
    Guarded {
        condition: Option<SpecId>,
    },
    Unknown,
}

/// Which list of an action a variable usage belongs to (its containment feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UsageRole {
    /// `inputVariableUsages__CallAction`
    Input,
    /// `returnVariableUsage__CallReturnAction`
    Return,
    /// `localVariableUsages_SetVariableAction`
    Local,
}

impl UsageRole {
    pub fn tag(self) -> &'static str {
        match self {
            UsageRole::Input => "inputVariableUsages__CallAction",
            UsageRole::Return => "returnVariableUsage__CallReturnAction",
            UsageRole::Local => "localVariableUsages_SetVariableAction",
        }
    }
}

#[derive(Clone, Debug)]
pub struct VariableUsage {
    pub node: NodeId,
    pub role: UsageRole,
    /// The referenced variable as a dotted path: `audioRequest.Count`, `RETURN`.
    pub name: String,
    pub characterisations: Vec<Characterisation>,
}

#[derive(Clone, Debug)]
pub struct Characterisation {
    /// The `variableCharacterisation_VariableUsage` element.
    pub node: NodeId,
    /// `VALUE`, `BYTESIZE`, `NUMBER_OF_ELEMENTS`, `TYPE` or `STRUCTURE` (`VALUE` when omitted: EMF's default).
    pub kind: String,
    pub specification: Option<SpecId>,
}

impl Repository {
    /// Every action in every SEFF and internal behaviour of every component.
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.components.iter().flat_map(|c| {
            c.seffs
                .iter()
                .map(|s| &s.behaviour)
                .chain(&c.internal_behaviours)
                .flat_map(Behaviour::walk)
        })
    }

    pub fn seffs(&self) -> impl Iterator<Item = (&Component, &Seff)> {
        self.components.iter().flat_map(|c| c.seffs.iter().map(move |s| (c, s)))
    }

    pub fn signatures(&self) -> impl Iterator<Item = (&Interface, &Signature)> {
        self.interfaces
            .iter()
            .flat_map(|i| i.signatures.iter().map(move |s| (i, s)))
    }

    pub fn action(&self, id: &str) -> Option<&Action> {
        self.actions().find(|a| a.id.as_deref() == Some(id))
    }
}
