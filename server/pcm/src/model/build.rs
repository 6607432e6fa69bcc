//! Builds the typed view of a repository from the element tree.

use super::types::*;
use crate::index::Index;
use crate::namespaces::{parse_namespace, Package};
use crate::reference::Reference;
use crate::xml::{NodeId, XmlTree};

pub(crate) struct Builder<'a> {
    pub tree: &'a XmlTree,
    pub index: &'a Index,
}

impl Builder<'_> {
    fn id(&self, n: NodeId) -> Option<String> {
        self.tree.raw_value(n, "id").map(str::to_string)
    }

    fn name(&self, n: NodeId) -> Option<String> {
        self.tree.value(n, "entityName").map(Into::into)
    }

    /// The local name of `xsi:type` when its namespace is the given PCM package.
    fn type_in(&self, n: NodeId, package: Package) -> Option<&str> {
        let (ns, local) = self.tree.xsi_type(n)?;
        (parse_namespace(ns?)?.package == package).then_some(local)
    }

    fn children<'b>(&'b self, n: NodeId, tag: &'b str) -> impl Iterator<Item = NodeId> + 'b {
        self.tree.children_named(n, tag)
    }

    /// A single-valued reference feature, written as an attribute or as an `href` child.
    fn reference(&self, n: NodeId, feature: &str) -> Option<Reference> {
        self.index.references_of(n, feature).next().cloned().or_else(|| {
            let child = self.tree.child_named(n, feature)?;
            self.index.references_of(child, feature).next().cloned()
        })
    }

    fn references(&self, n: NodeId, feature: &str) -> Vec<Reference> {
        let mut refs: Vec<Reference> = self.index.references_of(n, feature).cloned().collect();
        for child in self.children(n, feature) {
            refs.extend(self.index.references_of(child, feature).cloned());
        }
        refs
    }

    fn spec(&self, n: NodeId, tag: &str) -> Option<SpecId> {
        self.index.spec_of(self.tree.child_named(n, tag)?)
    }

    pub fn repository(&self, root: NodeId) -> Repository {
        Repository {
            node: root,
            id: self.id(root),
            name: self.name(root),
            components: self
                .children(root, "components__Repository")
                .map(|c| self.component(c))
                .collect(),
            interfaces: self
                .children(root, "interfaces__Repository")
                .map(|i| self.interface(i))
                .collect(),
            data_types: self
                .children(root, "dataTypes__Repository")
                .map(|d| self.data_type(d))
                .collect(),
        }
    }

    fn component(&self, n: NodeId) -> Component {
        let kind = match self.type_in(n, Package::Repository) {
            Some("BasicComponent") => ComponentKind::Basic,
            Some("CompositeComponent") => ComponentKind::Composite,
            _ => ComponentKind::Other,
        };
        Component {
            node: n,
            id: self.id(n),
            name: self.name(n),
            kind,
            provided_roles: self
                .children(n, "providedRoles_InterfaceProvidingEntity")
                .map(|r| self.role(r))
                .collect(),
            required_roles: self
                .children(n, "requiredRoles_InterfaceRequiringEntity")
                .map(|r| self.role(r))
                .collect(),
            seffs: self
                .children(n, "serviceEffectSpecifications__BasicComponent")
                .map(|s| self.seff(s))
                .collect(),
            internal_behaviours: self
                .children(n, "resourceDemandingInternalBehaviours_BasicComponent")
                .map(|b| self.behaviour(b))
                .collect(),
            passive_resources: self
                .children(n, "passiveResource_BasicComponent")
                .map(|p| PassiveResource {
                    node: p,
                    id: self.id(p),
                    name: self.name(p),
                    capacity: self.spec(p, "capacity_PassiveResource"),
                })
                .collect(),
        }
    }

    fn role(&self, n: NodeId) -> Role {
        let kind = self.tree.xsi_type(n).map(|(_, l)| l.to_string()).unwrap_or_default();
        let interface = [
            "providedInterface__OperationProvidedRole",
            "requiredInterface__OperationRequiredRole",
            "providedInterface__InfrastructureProvidedRole",
            "requiredInterface__InfrastructureRequiredRole",
            "eventGroup__SourceRole",
            "eventGroup__SinkRole",
        ]
        .into_iter()
        .find_map(|f| self.reference(n, f));
        Role {
            node: n,
            id: self.id(n),
            name: self.name(n),
            kind,
            interface,
        }
    }

    fn interface(&self, n: NodeId) -> Interface {
        Interface {
            node: n,
            id: self.id(n),
            name: self.name(n),
            kind: self.tree.xsi_type(n).map(|(_, l)| l.to_string()).unwrap_or_default(),
            parents: self.references(n, "parentInterfaces__Interface"),
            signatures: [
                "signatures__OperationInterface",
                "signatures__InfrastructureInterface",
                "eventTypes__EventGroup",
            ]
            .into_iter()
            .flat_map(|tag| self.children(n, tag).collect::<Vec<_>>())
            .map(|s| Signature {
                node: s,
                id: self.id(s),
                name: self.name(s),
                parameters: [
                    "parameters__OperationSignature",
                    "parameters__InfrastructureSignature",
                    "parameter__EventType",
                ]
                .into_iter()
                .flat_map(|tag| self.children(s, tag).collect::<Vec<_>>())
                .map(|p| Parameter {
                    node: p,
                    name: self.tree.value(p, "parameterName").map(Into::into),
                    data_type: self.reference(p, "dataType__Parameter"),
                })
                .collect(),
                return_type: self.reference(s, "returnType__OperationSignature"),
            })
            .collect(),
        }
    }

    fn data_type(&self, n: NodeId) -> DataType {
        // PrimitiveTypes.repository binds the package to `pcm.repository:`: matched by URI.
        let kind = match self.type_in(n, Package::Repository) {
            Some("PrimitiveDataType") => {
                DataTypeKind::Primitive(self.tree.value(n, "type").map_or_else(|| "INT".to_string(), Into::into))
            }
            Some("CollectionDataType") => DataTypeKind::Collection {
                inner: self.reference(n, "innerType_CollectionDataType"),
            },
            Some("CompositeDataType") => DataTypeKind::Composite {
                members: self
                    .children(n, "innerDeclaration_CompositeDataType")
                    .map(|d| InnerDeclaration {
                        node: d,
                        name: self.name(d),
                        data_type: self.reference(d, "datatype_InnerDeclaration"),
                    })
                    .collect(),
                parents: self.references(n, "parentType_CompositeDataType"),
            },
            _ => DataTypeKind::Unknown,
        };
        DataType {
            node: n,
            id: self.id(n),
            name: self.name(n),
            kind,
        }
    }

    fn seff(&self, n: NodeId) -> Seff {
        Seff {
            node: n,
            id: self.id(n),
            described_service: self.reference(n, "describedService__SEFF"),
            behaviour: self.behaviour(n),
        }
    }

    pub fn behaviour(&self, n: NodeId) -> Behaviour {
        let actions: Vec<Action> = self.children(n, "steps_Behaviour").map(|a| self.action(a)).collect();
        let order = crate::model::order::execution_order(&actions);
        Behaviour {
            node: n,
            id: self.id(n),
            actions,
            order,
        }
    }

    fn action(&self, n: NodeId) -> Action {
        let kind = self
            .type_in(n, Package::Seff)
            .map_or(ActionKind::Unknown, ActionKind::from_type);
        let body = match kind {
            ActionKind::ExternalCallAction => ActionBody::ExternalCall {
                called_service: self.reference(n, "calledService_ExternalService"),
                role: self.reference(n, "role_ExternalService"),
                inputs: self.usages(n, UsageRole::Input),
                returns: self.usages(n, UsageRole::Return),
            },
            ActionKind::LoopAction => ActionBody::Loop {
                iteration_count: self.spec(n, "iterationCount_LoopAction"),
                body: self
                    .tree
                    .child_named(n, "bodyBehaviour_Loop")
                    .map(|b| self.behaviour(b)),
            },
            ActionKind::CollectionIteratorAction => ActionBody::CollectionIterator {
                parameter: self.reference(n, "parameter_CollectionIteratorAction"),
                body: self
                    .tree
                    .child_named(n, "bodyBehaviour_Loop")
                    .map(|b| self.behaviour(b)),
            },
            ActionKind::BranchAction => ActionBody::Branch {
                transitions: self
                    .children(n, "branches_Branch")
                    .map(|t| self.transition(t))
                    .collect(),
            },
            ActionKind::SetVariableAction => ActionBody::SetVariable {
                usages: self.usages(n, UsageRole::Local),
            },
            ActionKind::ForkAction => {
                let mut behaviours: Vec<Behaviour> = self
                    .children(n, "asynchronousForkedBehaviours_ForkAction")
                    .map(|b| self.behaviour(b))
                    .collect();
                for sync in self.children(n, "synchronisingBehaviours_ForkAction") {
                    behaviours.extend(
                        self.children(sync, "synchronousForkedBehaviours_SynchronisationPoint")
                            .map(|b| self.behaviour(b)),
                    );
                }
                ActionBody::Fork { behaviours }
            }
            ActionKind::AcquireAction => ActionBody::PassiveResource {
                resource: self.reference(n, "passiveresource_AcquireAction"),
            },
            ActionKind::ReleaseAction => ActionBody::PassiveResource {
                resource: self.reference(n, "passiveResource_ReleaseAction"),
            },
            ActionKind::EmitEventAction => ActionBody::EmitEvent {
                inputs: self.usages(n, UsageRole::Input),
            },
            ActionKind::InternalCallAction => ActionBody::InternalCall {
                called: self.reference(n, "calledResourceDemandingInternalBehaviour"),
                inputs: self.usages(n, UsageRole::Input),
            },
            _ => ActionBody::None,
        };
        Action {
            node: n,
            id: self.id(n),
            name: self.name(n),
            kind,
            predecessor: self.reference(n, "predecessor_AbstractAction"),
            successor: self.reference(n, "successor_AbstractAction"),
            resource_demands: self
                .children(n, "resourceDemand_Action")
                .map(|d| ResourceDemand {
                    node: d,
                    specification: self.spec(d, "specification_ParametericResourceDemand"),
                    resource_type: self.reference(d, "requiredResource_ParametricResourceDemand"),
                })
                .collect(),
            body,
        }
    }

    fn transition(&self, n: NodeId) -> BranchTransition {
        let kind = match self.type_in(n, Package::Seff) {
            Some("ProbabilisticBranchTransition") => TransitionKind::Probabilistic {
                probability: self
                    .tree
                    .value(n, "branchProbability")
                    .and_then(|v| v.trim().parse().ok()),
            },
            Some("GuardedBranchTransition") => TransitionKind::Guarded {
                condition: self.spec(n, "branchCondition_GuardedBranchTransition"),
            },
            _ => TransitionKind::Unknown,
        };
        BranchTransition {
            node: n,
            id: self.id(n),
            name: self.name(n),
            kind,
            behaviour: self
                .tree
                .child_named(n, "branchBehaviour_BranchTransition")
                .map(|b| self.behaviour(b)),
        }
    }

    fn usages(&self, n: NodeId, role: UsageRole) -> Vec<VariableUsage> {
        self.children(n, role.tag()).map(|u| self.usage(u, role)).collect()
    }

    pub fn usage(&self, n: NodeId, role: UsageRole) -> VariableUsage {
        VariableUsage {
            node: n,
            role,
            name: self.variable_name(n),
            characterisations: self
                .children(n, "variableCharacterisation_VariableUsage")
                .map(|c| Characterisation {
                    node: c,
                    kind: self
                        .tree
                        .value(c, "type")
                        .map_or_else(|| "VALUE".to_string(), Into::into),
                    specification: self.spec(c, "specification_VariableCharacterisation"),
                })
                .collect(),
        }
    }

    /// `namedReference__VariableUsage` and its `innerReference_NamespaceReference` chain as `a.b.c`.
    fn variable_name(&self, usage: NodeId) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut next = self.tree.child_named(usage, "namedReference__VariableUsage");
        while let Some(r) = next {
            if let Some(name) = self.tree.value(r, "referenceName") {
                parts.push(name.into());
            }
            next = self.tree.child_named(r, "innerReference_NamespaceReference");
        }
        parts.join(".")
    }
}
