// Generated SEFFs for the diagram benchmark and the VS Code end-to-end test: a seeded, realistic
// mix of internal actions, external calls, variable settings, loops with bodies and branches with
// 2 or 3 transitions, nested up to four levels. The same SEFF comes out as a PCM repository file
// (for `beagle graph` and the editor) and directly as a SeffGraph JSON in the server's shape.
// No dependencies: e2e.mjs imports it as it is.

const MAX_DEPTH = 4;
const DEMAND_HREF = 'pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ';

/** mulberry32: small, seeded, the same numbers everywhere (the extension's tests use it too). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A SEFF of exactly `actions` actions (start and stop actions of every behaviour included). */
export function generateSeff(actions, seed = 1) {
  if (actions < 3) throw new Error('a SEFF has at least 3 actions (start, one action, stop)');
  const rng = random(seed);
  let next = 0;
  const id = () => `_g_a${next++}`;
  const counts = { InternalAction: 0, ExternalCallAction: 0, SetVariableAction: 0, LoopAction: 0, BranchAction: 0, StartAction: 0, StopAction: 0 };
  let depthSeen = 0;
  // How many actions a nested behaviour gets: at least 3, fewer the deeper it is.
  const bodySize = (max, depth) => Math.min(max, 3 + Math.floor(rng() * Math.min(max - 2, 10 + 40 / (depth + 1))));

  const flow = (budget, depth) => {
    depthSeen = Math.max(depthSeen, depth);
    const nodes = [{ id: id(), kind: 'StartAction', name: null }];
    let left = budget - 2;
    while (left > 0) {
      const r = rng();
      const n = next;
      if (depth < MAX_DEPTH && left >= 4 && r < 0.14) {
        const size = bodySize(left - 1, depth);
        nodes.push({ id: id(), kind: 'LoopAction', name: `loop ${n}`, iterations: String(2 + Math.floor(rng() * 20)), bodies: [{ id: id(), flow: flow(size, depth + 1) }] });
        left -= size + 1;
      } else if (depth < MAX_DEPTH && left >= 7 && r < 0.26) {
        const t = left >= 10 && rng() < 0.5 ? 3 : 2;
        const self = { id: id(), kind: 'BranchAction', name: `branch ${n}`, bodies: [] };
        left -= 1;
        for (let i = 0; i < t; i++) {
          const size = bodySize(Math.floor(left / (t - i)), depth);
          self.bodies.push({ id: id(), name: `case ${i + 1}`, probability: Number((1 / t).toFixed(3)), flow: flow(size, depth + 1) });
          left -= size;
        }
        nodes.push(self);
      } else if (r < 0.4) {
        nodes.push({ id: id(), kind: 'ExternalCallAction', name: `call ${n}` });
        left -= 1;
      } else if (r < 0.47) {
        nodes.push({ id: id(), kind: 'SetVariableAction', name: `set ${n}` });
        left -= 1;
      } else {
        nodes.push({ id: id(), kind: 'InternalAction', name: `compute ${n}`, demand: `${(0.1 + rng() * 5).toFixed(2)} * n.VALUE` });
        left -= 1;
      }
    }
    nodes.push({ id: id(), kind: 'StopAction', name: null });
    for (const a of nodes) counts[a.kind]++;
    return { id: null, nodes };
  };
  const root = flow(actions, 0);
  // Results on some actions, so the drawing has every status.
  const status = random(seed + 1);
  const visit = (f) => {
    for (const a of f.nodes) {
      const u = status();
      a.status = (a.kind === 'InternalAction' || a.kind === 'LoopAction') && u < 0.5 ? (u < 0.3 ? 'Final' : 'Preliminary') : null;
      a.ms = a.kind === 'InternalAction' || a.kind === 'ExternalCallAction' ? status() * 4 : 0;
      for (const b of a.bodies ?? []) visit(b.flow);
    }
  };
  visit(root);
  return { seed, actions, counts, depth: depthSeen, root };
}

// --- as a SeffGraph (the server's JSON shape; ranges left at zero) ---------------------------

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The SeffGraph that beagle.seffGraph would answer for the generated SEFF (no text ranges). */
export function seffGraph(gen, uri = 'file:///generated.repository') {
  const demand = (a) => a.ms + (a.bodies ?? []).reduce((s, b) => s + b.flow.nodes.reduce((t, x) => t + demand(x), 0), 0);
  const total = gen.root.nodes.reduce((s, a) => s + demand(a), 0) || 1;
  const node = (a) => ({
    id: a.id,
    name: a.name,
    kind: a.kind,
    range: zero,
    extent: zero,
    specifications: a.demand ? [{ what: 'CPU demand', text: a.demand }] : a.iterations ? [{ what: 'iterations', text: a.iterations }] : [],
    results: a.status ? [{ what: a.kind === 'LoopAction' ? 'loop iterations' : 'CPU demand', expression: a.demand ?? a.iterations, status: a.status, r2: 0.98, samples: 24 }] : [],
    bodies: (a.bodies ?? []).map((b) => ({ id: b.id, name: b.name ?? null, condition: b.probability ? `p = ${b.probability}` : null, range: zero, flow: flow(b.flow) })),
    call: a.kind === 'ExternalCallAction' ? { signature: 'ICallee.call', role: 'callee', providers: [{ component: 'Callee', seff: '_g_callee_seff', uri, range: zero }] } : null,
    demandMs: demand(a),
    share: demand(a) / total,
  });
  const flow = (f) => ({ id: f.id, nodes: f.nodes.map(node), edges: f.nodes.slice(1).map((_, i) => [i, i + 1]) });
  return {
    uri,
    id: '_g_seff',
    service: 'IGenerated.run',
    component: 'Generated',
    componentId: '_g_Generated',
    range: zero,
    extent: zero,
    flow: flow(gen.root),
    inputs: [{ name: 'n.VALUE', value: 10, min: 1, max: 100 }],
    prediction: { totalMs: total, complete: true, problems: [], system: null },
  };
}

// --- as a PCM repository file ----------------------------------------------------------------

const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function steps(f, indent) {
  const pad = ' '.repeat(indent);
  const out = [];
  f.nodes.forEach((a, i) => {
    const links =
      (i > 0 ? ` predecessor_AbstractAction="${f.nodes[i - 1].id}"` : '') +
      (i < f.nodes.length - 1 ? ` successor_AbstractAction="${f.nodes[i + 1].id}"` : '');
    const name = a.name ? ` entityName="${attr(a.name)}"` : '';
    const call = a.kind === 'ExternalCallAction' ? ' calledService_ExternalService="_g_ICallee_call" role_ExternalService="_g_Generated_callee"' : '';
    const open = `${pad}<steps_Behaviour xsi:type="seff:${a.kind}" id="${a.id}"${name}${links}${call}`;
    if (a.kind === 'StartAction' || a.kind === 'StopAction' || a.kind === 'ExternalCallAction') {
      out.push(`${open}/>`);
    } else if (a.kind === 'InternalAction') {
      out.push(`${open}>`, `${pad}  <resourceDemand_Action>`, `${pad}    <specification_ParametericResourceDemand specification="${attr(a.demand)}"/>`,
        `${pad}    <requiredResource_ParametricResourceDemand href="${DEMAND_HREF}"/>`, `${pad}  </resourceDemand_Action>`, `${pad}</steps_Behaviour>`);
    } else if (a.kind === 'SetVariableAction') {
      out.push(`${open}>`, `${pad}  <localVariableUsages_SetVariableAction>`, `${pad}    <variableCharacterisation_VariableUsage type="VALUE">`,
        `${pad}      <specification_VariableCharacterisation specification="n.VALUE + 1"/>`, `${pad}    </variableCharacterisation_VariableUsage>`,
        `${pad}    <namedReference__VariableUsage xsi:type="stoex:VariableReference" referenceName="RETURN"/>`,
        `${pad}  </localVariableUsages_SetVariableAction>`, `${pad}</steps_Behaviour>`);
    } else if (a.kind === 'LoopAction') {
      const b = a.bodies[0];
      out.push(`${open}>`, `${pad}  <bodyBehaviour_Loop id="${b.id}">`, ...steps(b.flow, indent + 4), `${pad}  </bodyBehaviour_Loop>`,
        `${pad}  <iterationCount_LoopAction specification="${a.iterations}"/>`, `${pad}</steps_Behaviour>`);
    } else if (a.kind === 'BranchAction') {
      out.push(`${open}>`);
      for (const b of a.bodies) {
        out.push(`${pad}  <branches_Branch xsi:type="seff:ProbabilisticBranchTransition" id="${b.id}" entityName="${attr(b.name)}" branchProbability="${b.probability}">`,
          `${pad}    <branchBehaviour_BranchTransition id="${b.id}_behaviour">`, ...steps(b.flow, indent + 6),
          `${pad}    </branchBehaviour_BranchTransition>`, `${pad}  </branches_Branch>`);
      }
      out.push(`${pad}</steps_Behaviour>`);
    }
  });
  return out;
}

/** The generated SEFF (`_g_seff`, component Generated) in a repository with its callee. */
export function repositoryXml(gen, name = 'Generated') {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" xmlns:stoex="http://sdq.ipd.uka.de/StochasticExpressions/2.2"' +
      ` id="_g_repository" entityName="${attr(name)}" repositoryDescription="Generated by benchmarks/diagram/generate.mjs: ${gen.actions} actions, seed ${gen.seed}.">`,
    '  <components__Repository xsi:type="repository:BasicComponent" id="_g_Generated" entityName="Generated">',
    '    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_g_Generated_IGenerated" entityName="IGenerated" providedInterface__OperationProvidedRole="_g_IGenerated"/>',
    '    <requiredRoles_InterfaceRequiringEntity xsi:type="repository:OperationRequiredRole" id="_g_Generated_callee" entityName="callee" requiredInterface__OperationRequiredRole="_g_ICallee"/>',
    '    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_g_seff" describedService__SEFF="_g_IGenerated_run">',
    ...steps(gen.root, 6),
    '    </serviceEffectSpecifications__BasicComponent>',
    '  </components__Repository>',
    '  <components__Repository xsi:type="repository:BasicComponent" id="_g_Callee" entityName="Callee">',
    '    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_g_Callee_ICallee" entityName="ICallee" providedInterface__OperationProvidedRole="_g_ICallee"/>',
    '    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_g_callee_seff" describedService__SEFF="_g_ICallee_call">',
    '      <steps_Behaviour xsi:type="seff:StartAction" id="_g_callee_start" successor_AbstractAction="_g_callee_work"/>',
    '      <steps_Behaviour xsi:type="seff:InternalAction" id="_g_callee_work" entityName="work" predecessor_AbstractAction="_g_callee_start" successor_AbstractAction="_g_callee_stop">',
    `        <resourceDemand_Action>`,
    `          <specification_ParametericResourceDemand specification="0.5"/>`,
    `          <requiredResource_ParametricResourceDemand href="${DEMAND_HREF}"/>`,
    `        </resourceDemand_Action>`,
    '      </steps_Behaviour>',
    '      <steps_Behaviour xsi:type="seff:StopAction" id="_g_callee_stop" predecessor_AbstractAction="_g_callee_work"/>',
    '    </serviceEffectSpecifications__BasicComponent>',
    '  </components__Repository>',
    '  <interfaces__Repository xsi:type="repository:OperationInterface" id="_g_IGenerated" entityName="IGenerated">',
    '    <signatures__OperationInterface id="_g_IGenerated_run" entityName="run">',
    '      <parameters__OperationSignature parameterName="n">',
    '        <dataType__Parameter xsi:type="repository:PrimitiveDataType" href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0"/>',
    '      </parameters__OperationSignature>',
    '    </signatures__OperationInterface>',
    '  </interfaces__Repository>',
    '  <interfaces__Repository xsi:type="repository:OperationInterface" id="_g_ICallee" entityName="ICallee">',
    '    <signatures__OperationInterface id="_g_ICallee_call" entityName="call"/>',
    '  </interfaces__Repository>',
    '</repository:Repository>',
    '',
  ].join('\n');
}
