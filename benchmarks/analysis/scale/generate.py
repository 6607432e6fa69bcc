#!/usr/bin/env python3
"""Writes a Beagle workspace whose one service loops over its items (issue 16's scale benchmark).

    python3 generate.py DIR --per-point N [--points 50] [--seed 1] [--aggregate]

DIR gets `import.repository` (one component, one SEFF: an internal action `prepare`, then a loop
over `items.NUMBER_OF_ELEMENTS` whose body is the internal action `process`), `beagle.toml` and
`import.events` in Beagle's events format (docs in the README, "Measurements from events"):
`--points` parameter points (items = 100, 140, ..., distinct), at each as many service calls as
make `process` run about N times in all. Demands: prepare 0.2 ms + 1 us per item, process 3 us +
0.5 us per hundred items, both with 5 % lognormal noise (seeded, `random.Random`). Written as a
stream: a million executions per point are about 6 GB of events at 50 points. With
`--aggregate`, each call's runs of `process` are one `resource_demand_total` event (their count
and total time: what a probe that aggregates at the source writes), from the same draws.
"""
import argparse
import math
import os
import random

REPOSITORY = """<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_sc_repository" entityName="ScaleRepository">
  <components__Repository xsi:type="repository:BasicComponent" id="_sc_Importer" entityName="Importer">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_sc_Importer_provides" entityName="IImport" providedInterface__OperationProvidedRole="_sc_IImport"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_sc_import_seff" describedService__SEFF="_sc_import">
      <steps_Behaviour xsi:type="seff:StartAction" id="_sc_start" successor_AbstractAction="_sc_prepare"/>
      <steps_Behaviour xsi:type="seff:InternalAction" id="_sc_prepare" entityName="prepare" predecessor_AbstractAction="_sc_start" successor_AbstractAction="_sc_per_item">
        <resourceDemand_Action>
          <specification_ParametericResourceDemand specification="1"/>
          <requiredResource_ParametricResourceDemand href="pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ"/>
        </resourceDemand_Action>
      </steps_Behaviour>
      <steps_Behaviour xsi:type="seff:LoopAction" id="_sc_per_item" entityName="for each item" predecessor_AbstractAction="_sc_prepare" successor_AbstractAction="_sc_stop">
        <bodyBehaviour_Loop id="_sc_per_item_body">
          <steps_Behaviour xsi:type="seff:StartAction" id="_sc_body_start" successor_AbstractAction="_sc_process"/>
          <steps_Behaviour xsi:type="seff:InternalAction" id="_sc_process" entityName="process" predecessor_AbstractAction="_sc_body_start" successor_AbstractAction="_sc_body_stop">
            <resourceDemand_Action>
              <specification_ParametericResourceDemand specification="1"/>
              <requiredResource_ParametricResourceDemand href="pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ"/>
            </resourceDemand_Action>
          </steps_Behaviour>
          <steps_Behaviour xsi:type="seff:StopAction" id="_sc_body_stop" predecessor_AbstractAction="_sc_process"/>
        </bodyBehaviour_Loop>
        <iterationCount_LoopAction specification="1"/>
      </steps_Behaviour>
      <steps_Behaviour xsi:type="seff:StopAction" id="_sc_stop" predecessor_AbstractAction="_sc_per_item"/>
    </serviceEffectSpecifications__BasicComponent>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_sc_IImport" entityName="IImport">
    <signatures__OperationInterface id="_sc_import" entityName="import">
      <parameters__OperationSignature dataType__Parameter="_sc_ItemList" parameterName="items"/>
    </signatures__OperationInterface>
  </interfaces__Repository>
  <dataTypes__Repository xsi:type="repository:CollectionDataType" id="_sc_ItemList" entityName="ItemList">
    <innerType_CollectionDataType xsi:type="repository:PrimitiveDataType" href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0"/>
  </dataTypes__Repository>
</repository:Repository>
"""

TOML = """# Issue 16's scale benchmark (benchmarks/scale/generate.py).
[model]
repository = "import.repository"

[measurements]
events = "import.events"

[analysis]
seed = 1
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--per-point", type=int, required=True, help="executions of `process` per point")
    ap.add_argument("--points", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--aggregate", action="store_true", help="one total event per call for `process`")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    with open(os.path.join(a.dir, "import.repository"), "w") as fh:
        fh.write(REPOSITORY)
    with open(os.path.join(a.dir, "beagle.toml"), "w") as fh:
        fh.write(TOML)
    rng = random.Random(a.seed)
    t = 1_000_000_000
    executions = 0
    with open(os.path.join(a.dir, "import.events"), "w") as out:
        out.write("# benchmarks/scale/generate.py --per-point %d --points %d --seed %d\n"
                  % (a.per_point, a.points, a.seed))
        for p in range(a.points):
            items = 100 + 40 * p
            calls = max(1, round(a.per_point / items))
            for c in range(calls):
                ex = "import-%d-%d" % (p, c)
                lines = []
                start = t
                prepare = 0.2e6 + 1e3 * items
                d = int(prepare * math.exp(0.05 * rng.gauss(0, 1)))
                lines.append('{"event":"resource_demand","execution":"%s","action":"_sc_prepare","resource":"CPU","start_ns":%d,"stop_ns":%d}' % (ex, t, t + d))
                t += d
                per_item = 3e3 + 5.0 * items
                total = 0
                for _ in range(items):
                    d = int(per_item * math.exp(0.05 * rng.gauss(0, 1)))
                    if not a.aggregate:
                        lines.append('{"event":"resource_demand","execution":"%s","action":"_sc_process","resource":"CPU","start_ns":%d,"stop_ns":%d}' % (ex, t, t + d))
                    t += d
                    total += d
                    executions += 1
                if a.aggregate:
                    lines.append('{"event":"resource_demand_total","execution":"%s","action":"_sc_process","resource":"CPU","count":%d,"total_ns":%d}' % (ex, items, total))
                lines.append('{"event":"loop","execution":"%s","loop_id":"_sc_per_item","count":%d}' % (ex, items))
                out.write('{"event":"service_call","execution":"%s","service":"_sc_import_seff","parameters":{"items.NUMBER_OF_ELEMENTS":%d.0},"entry_ns":%d,"exit_ns":%d}\n'
                          % (ex, items, start, t + 1000))
                out.write("\n".join(lines) + "\n")
                t += 10_000
    print("%d points, %d executions of process" % (a.points, executions))


if __name__ == "__main__":
    main()
