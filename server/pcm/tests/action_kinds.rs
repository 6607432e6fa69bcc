//! Every action kind PCM's SEFF package defines, including those the bundled fixtures lack
//! (Fork, CollectionIterator, EmitEvent, InternalCall), read into the typed view.

use beagle_pcm::model::{ActionBody, ActionKind, UsageRole};
use beagle_pcm::{ModelFile, Severity};

const SEFF: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" xmlns:stoex="http://sdq.ipd.uka.de/StochasticExpressions/2.2" id="_repo">
  <components__Repository xsi:type="repository:BasicComponent" id="_comp" entityName="All">
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff" describedService__SEFF="_sig">
      <steps_Behaviour xsi:type="seff:StopAction" id="_stop" predecessor_AbstractAction="_call"/>
      <steps_Behaviour xsi:type="seff:StartAction" id="_start" successor_AbstractAction="_fork"/>
      <steps_Behaviour xsi:type="seff:ForkAction" id="_fork" predecessor_AbstractAction="_start" successor_AbstractAction="_iter">
        <asynchronousForkedBehaviours_ForkAction id="_async">
          <steps_Behaviour xsi:type="seff:StartAction" id="_fs" successor_AbstractAction="_fe"/>
          <steps_Behaviour xsi:type="seff:StopAction" id="_fe" predecessor_AbstractAction="_fs"/>
        </asynchronousForkedBehaviours_ForkAction>
        <synchronisingBehaviours_ForkAction id="_syncpoint">
          <synchronousForkedBehaviours_SynchronisationPoint id="_sync">
            <steps_Behaviour xsi:type="seff:StartAction" id="_ss" successor_AbstractAction="_se"/>
            <steps_Behaviour xsi:type="seff:StopAction" id="_se" predecessor_AbstractAction="_ss"/>
          </synchronousForkedBehaviours_SynchronisationPoint>
        </synchronisingBehaviours_ForkAction>
      </steps_Behaviour>
      <steps_Behaviour xsi:type="seff:CollectionIteratorAction" id="_iter" predecessor_AbstractAction="_fork" successor_AbstractAction="_emit" parameter_CollectionIteratorAction="_param">
        <bodyBehaviour_Loop id="_body">
          <steps_Behaviour xsi:type="seff:StartAction" id="_bs" successor_AbstractAction="_work"/>
          <steps_Behaviour xsi:type="seff:InternalAction" id="_work" predecessor_AbstractAction="_bs" successor_AbstractAction="_be">
            <resourceDemand_Action>
              <specification_ParametericResourceDemand specification="files.NUMBER_OF_ELEMENTS * 2.1E5 + 1400"/>
              <requiredResource_ParametricResourceDemand href="pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ"/>
            </resourceDemand_Action>
          </steps_Behaviour>
          <steps_Behaviour xsi:type="seff:StopAction" id="_be" predecessor_AbstractAction="_work"/>
        </bodyBehaviour_Loop>
      </steps_Behaviour>
      <steps_Behaviour xsi:type="seff:EmitEventAction" id="_emit" predecessor_AbstractAction="_iter" successor_AbstractAction="_call">
        <inputVariableUsages__CallAction>
          <variableCharacterisation_VariableUsage type="BYTESIZE">
            <specification_VariableCharacterisation specification="files.BYTESIZE"/>
          </variableCharacterisation_VariableUsage>
          <namedReference__VariableUsage xsi:type="stoex:VariableReference" referenceName="event"/>
        </inputVariableUsages__CallAction>
      </steps_Behaviour>
      <steps_Behaviour xsi:type="seff:InternalCallAction" id="_call" predecessor_AbstractAction="_emit" successor_AbstractAction="_stop" calledResourceDemandingInternalBehaviour="_internal"/>
    </serviceEffectSpecifications__BasicComponent>
    <resourceDemandingInternalBehaviours_BasicComponent id="_internal">
      <steps_Behaviour xsi:type="seff:StartAction" id="_is" successor_AbstractAction="_ie"/>
      <steps_Behaviour xsi:type="seff:StopAction" id="_ie" predecessor_AbstractAction="_is"/>
    </resourceDemandingInternalBehaviours_BasicComponent>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_if" entityName="IAll">
    <signatures__OperationInterface id="_sig" entityName="all">
      <parameters__OperationSignature parameterName="files" id="_param">
        <dataType__Parameter xsi:type="repository:PrimitiveDataType" href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.1"/>
      </parameters__OperationSignature>
    </signatures__OperationInterface>
  </interfaces__Repository>
</repository:Repository>
"#;

#[test]
fn rarer_action_kinds_are_typed_and_ordered() {
    let file = ModelFile::parse("kinds.repository".into(), SEFF.to_string());
    let errors: Vec<_> = file
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let repo = file.repository.as_ref().unwrap();
    let seff = &repo.components[0].seffs[0];
    let order: Vec<ActionKind> = seff.behaviour.ordered().map(|a| a.kind).collect();
    assert_eq!(
        order,
        [
            ActionKind::StartAction,
            ActionKind::ForkAction,
            ActionKind::CollectionIteratorAction,
            ActionKind::EmitEventAction,
            ActionKind::InternalCallAction,
            ActionKind::StopAction
        ]
    );
    let fork = repo.action("_fork").unwrap();
    let ActionBody::Fork { behaviours } = &fork.body else {
        panic!("{:?}", fork.body)
    };
    assert_eq!(behaviours.len(), 2, "one asynchronous and one synchronised behaviour");
    let iter = repo.action("_iter").unwrap();
    let ActionBody::CollectionIterator { parameter, body } = &iter.body else {
        panic!()
    };
    assert_eq!(parameter.as_ref().unwrap().target.id(), Some("_param"));
    let work = &body.as_ref().unwrap().actions[1];
    assert_eq!(work.kind, ActionKind::InternalAction);
    let spec = &file.specifications[work.resource_demands[0].specification.unwrap()];
    assert_eq!(
        beagle_stoex::variables(spec.expr.as_ref().unwrap()),
        ["files.NUMBER_OF_ELEMENTS"]
    );
    let emit = repo.action("_emit").unwrap();
    let usage = emit.body.variable_usages()[0];
    assert_eq!((usage.role, usage.name.as_str()), (UsageRole::Input, "event"));
    assert_eq!(usage.characterisations[0].kind, "BYTESIZE");
    let call = repo.action("_call").unwrap();
    let ActionBody::InternalCall { called, .. } = &call.body else {
        panic!()
    };
    assert_eq!(called.as_ref().unwrap().target.id(), Some("_internal"));
    assert_eq!(repo.components[0].internal_behaviours[0].order.len(), 2);
    // Nested actions are counted: 6 in the SEFF, 4 in the forks, 3 in the iterator's body.
    assert_eq!(repo.actions().count(), 6 + 4 + 3 + 2);
    // The parameter's type comes from another file, by EMF path: STRING is index 1.
    let p = &repo.interfaces[0].signatures[0].parameters[0];
    assert_eq!(p.name.as_deref(), Some("files"));
    assert_eq!(
        p.data_type.as_ref().unwrap().target.fragment(),
        "//@dataTypes__Repository.1"
    );
}
