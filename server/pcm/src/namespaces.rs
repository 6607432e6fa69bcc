//! PCM's namespaces, matched by URI (never by prefix: the same package appears as `repository:`
//! in one file and `pcm.repository:` in another), and the `xsi:type`s each package defines.

/// A PCM metamodel package and its version, read from a namespace URI such as
/// `http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcmNamespace<'a> {
    pub package: Package,
    /// `5.2`, `5.1`, ... for PCM packages; `2.2` for StoEx.
    pub version: &'a str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Package {
    Repository,
    Seff,
    SeffPerformance,
    SeffReliability,
    Reliability,
    Composition,
    Core,
    System,
    Allocation,
    UsageModel,
    ResourceEnvironment,
    ResourceType,
    Parameter,
    StoEx,
    Other,
}

const PCM_HOSTS: [&str; 2] = [
    "http://palladiosimulator.org/PalladioComponentModel/",
    "http://sdq.ipd.uka.de/PalladioComponentModel/",
];
const STOEX_HOST: &str = "http://sdq.ipd.uka.de/StochasticExpressions/";

pub fn parse_namespace(uri: &str) -> Option<PcmNamespace<'_>> {
    if let Some(version) = uri.strip_prefix(STOEX_HOST) {
        return Some(PcmNamespace {
            package: Package::StoEx,
            version,
        });
    }
    let rest = PCM_HOSTS.iter().find_map(|h| uri.strip_prefix(h))?;
    let (path, version) = rest.rsplit_once('/')?;
    let package = match path {
        "Repository" => Package::Repository,
        "SEFF" => Package::Seff,
        "SEFF/SEFFPerformance" => Package::SeffPerformance,
        "SEFF/SEFFReliability" => Package::SeffReliability,
        "Reliability" => Package::Reliability,
        "Core/Composition" => Package::Composition,
        "Core" | "Core/Entity" => Package::Core,
        "System" => Package::System,
        "Allocation" => Package::Allocation,
        "UsageModel" => Package::UsageModel,
        "ResourceEnvironment" => Package::ResourceEnvironment,
        "ResourceType" => Package::ResourceType,
        "Parameter" => Package::Parameter,
        _ => Package::Other,
    };
    Some(PcmNamespace { package, version })
}

/// The concrete `xsi:type`s a package defines, where Beagle knows the list; `None` means
/// "not checked" (an unknown type there is not reported).
pub fn known_types(package: Package) -> Option<&'static [&'static str]> {
    Some(match package {
        Package::Repository => &[
            "Repository",
            "BasicComponent",
            "CompositeComponent",
            "CompleteComponentType",
            "ProvidesComponentType",
            "OperationInterface",
            "InfrastructureInterface",
            "EventGroup",
            "OperationProvidedRole",
            "OperationRequiredRole",
            "InfrastructureProvidedRole",
            "InfrastructureRequiredRole",
            "SourceRole",
            "SinkRole",
            "PrimitiveDataType",
            "CompositeDataType",
            "CollectionDataType",
            "OperationSignature",
            "InfrastructureSignature",
            "EventType",
            "PassiveResource",
            "Parameter",
        ],
        Package::Seff => &[
            "ResourceDemandingSEFF",
            "ResourceDemandingBehaviour",
            "ResourceDemandingInternalBehaviour",
            "StartAction",
            "StopAction",
            "InternalAction",
            "ExternalCallAction",
            "LoopAction",
            "CollectionIteratorAction",
            "BranchAction",
            "ProbabilisticBranchTransition",
            "GuardedBranchTransition",
            "SetVariableAction",
            "AcquireAction",
            "ReleaseAction",
            "ForkAction",
            "ForkedBehaviour",
            "SynchronisationPoint",
            "EmitEventAction",
            "InternalCallAction",
        ],
        Package::StoEx => &["VariableReference", "NamespaceReference"],
        Package::Reliability => &[
            "SoftwareInducedFailureType",
            "HardwareInducedFailureType",
            "NetworkInducedFailureType",
            "ResourceTimeoutFailureType",
            "InternalFailureOccurrenceDescription",
            "ExternalFailureOccurrenceDescription",
            "FailureType",
        ],
        Package::Composition => &[
            "AssemblyContext",
            "AssemblyConnector",
            "ProvidedDelegationConnector",
            "RequiredDelegationConnector",
            "AssemblyEventConnector",
            "AssemblyInfrastructureConnector",
            "EventChannel",
            "EventChannelSinkConnector",
            "EventChannelSourceConnector",
            "SinkDelegationConnector",
            "SourceDelegationConnector",
            "ProvidedInfrastructureDelegationConnector",
            "RequiredInfrastructureDelegationConnector",
            "RequiredResourceDelegationConnector",
            "ResourceRequiredDelegationConnector",
        ],
        Package::UsageModel => &[
            "UsageModel",
            "UsageScenario",
            "ScenarioBehaviour",
            "Start",
            "Stop",
            "EntryLevelSystemCall",
            "Loop",
            "Branch",
            "BranchTransition",
            "Delay",
            "ClosedWorkload",
            "OpenWorkload",
            "UserData",
        ],
        _ => return None,
    })
}

/// Id-valued reference features (EMF writes them as attributes holding one or more ids, or
/// `//@` paths, separated by spaces). Cross-file references are written as child elements with
/// `href`, which are found without a list.
pub const REFERENCE_ATTRIBUTES: &[&str] = &[
    "successor_AbstractAction",
    "predecessor_AbstractAction",
    "successor",
    "predecessor",
    "describedService__SEFF",
    "calledService_ExternalService",
    "role_ExternalService",
    "providedInterface__OperationProvidedRole",
    "requiredInterface__OperationRequiredRole",
    "providedInterface__InfrastructureProvidedRole",
    "requiredInterface__InfrastructureRequiredRole",
    "parentInterfaces__Interface",
    "dataType__Parameter",
    "returnType__OperationSignature",
    "innerType_CollectionDataType",
    "datatype_InnerDeclaration",
    "passiveresource_AcquireAction",
    "passiveResource_ReleaseAction",
    "parameter_CollectionIteratorAction",
    "calledResourceDemandingInternalBehaviour",
    "eventType__EmitEventAction",
    "sourceRole__EmitEventAction",
    "eventGroup__SourceRole",
    "eventGroup__SinkRole",
    "softwareInducedFailureType__InternalFailureOccurrenceDescription",
    "internalFailureOccurrenceDescriptions__SoftwareInducedFailureType",
    "requiringAssemblyContext_AssemblyConnector",
    "providingAssemblyContext_AssemblyConnector",
    "providedRole_AssemblyConnector",
    "requiredRole_AssemblyConnector",
    "outerProvidedRole_ProvidedDelegationConnector",
    "innerProvidedRole_ProvidedDelegationConnector",
    "assemblyContext_ProvidedDelegationConnector",
    "outerRequiredRole_RequiredDelegationConnector",
    "innerRequiredRole_RequiredDelegationConnector",
    "assemblyContext_RequiredDelegationConnector",
    "assemblyContext_AllocationContext",
    "resourceContainer_AllocationContext",
    "providedResourceInterface__ResourceProvidedRole",
    "connectedResourceContainers_LinkingResource",
];

/// Features written as `href` children in PCM files (cross-file references).
pub const HREF_FEATURES: &[&str] = &[
    "requiredResource_ParametricResourceDemand",
    "dataType__Parameter",
    "datatype_InnerDeclaration",
    "innerType_CollectionDataType",
    "returnType__OperationSignature",
    "parentInterfaces__Interface",
    "encapsulatedComponent__AssemblyContext",
    "providedRole_EntryLevelSystemCall",
    "operationSignature__EntryLevelSystemCall",
    "targetResourceEnvironment_Allocation",
    "system_Allocation",
    "resourceContainer_AllocationContext",
    "assemblyContext_AllocationContext",
    "activeResourceType_ActiveResourceSpecification",
    "schedulingPolicy",
    "communicationLinkResourceType_CommunicationLinkResourceSpecification",
    "resourceType_ResourceInterface",
    "providedInterface__OperationProvidedRole",
    "requiredInterface__OperationRequiredRole",
    "providedRole_AssemblyConnector",
    "requiredRole_AssemblyConnector",
    "innerProvidedRole_ProvidedDelegationConnector",
    "innerRequiredRole_RequiredDelegationConnector",
];

/// A feature name as a `Cow`: borrowed from the lists above when known.
pub fn intern_feature(name: &str) -> std::borrow::Cow<'static, str> {
    REFERENCE_ATTRIBUTES
        .iter()
        .chain(HREF_FEATURES)
        .find(|&&f| f == name)
        .map_or_else(
            || std::borrow::Cow::Owned(name.to_string()),
            |&f| std::borrow::Cow::Borrowed(f),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_by_uri() {
        let ns = parse_namespace("http://palladiosimulator.org/PalladioComponentModel/Repository/5.1").unwrap();
        assert_eq!((ns.package, ns.version), (Package::Repository, "5.1"));
        let ns = parse_namespace("http://palladiosimulator.org/PalladioComponentModel/Core/Composition/5.2").unwrap();
        assert_eq!((ns.package, ns.version), (Package::Composition, "5.2"));
        let ns = parse_namespace("http://sdq.ipd.uka.de/StochasticExpressions/2.2").unwrap();
        assert_eq!((ns.package, ns.version), (Package::StoEx, "2.2"));
        assert!(parse_namespace("http://www.omg.org/XMI").is_none());
    }
}
