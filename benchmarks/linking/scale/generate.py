#!/usr/bin/env python3
"""A system of the size issue 49 names, laid out as extraction tools lay one out, written to a
folder: PACKAGES Java packages of CLASSES classes each (every class METHODS public methods, the
first taking a list the model abstracts to its size, an `INT`) plus a class named like the
package's last segment, and a PCM repository with a component per package, an OperationInterface
per class (named after it), a signature and a SEFF per public method. Its truth is by construction (the SEFF of `Cls.m` is `Cls.m`): what is measured
with it is time, and that the rules of naming hold at scale.

    python3 benchmarks/linking/scale/generate.py OUT [--packages 20] [--classes 21] [--methods 3] [--seed 1]
"""
import argparse
import random
from pathlib import Path

WORDS = "order item cart user account stock report price store query mail roster audit invoice ship".split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--packages", type=int, default=20)
    ap.add_argument("--classes", type=int, default=21)
    ap.add_argument("--methods", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = Path(args.out)
    truth, components, interfaces = [], [], []
    for p in range(args.packages):
        package = f"org.acme.{rng.choice(WORDS)}{p}"
        pdir = out / "src" / Path(*package.split("."))
        pdir.mkdir(parents=True, exist_ok=True)
        # A facade named like the package's last segment: the trap of naming a component's class.
        last = package.rsplit(".", 1)[1]
        (pdir / f"{last.capitalize()}.java").write_text(
            f"package {package};\n\npublic class {last.capitalize()} {{\n    public int size() {{ return 0; }}\n}}\n")
        seffs = []
        for c in range(args.classes):
            cls = f"{rng.choice(WORDS).capitalize()}{rng.choice(WORDS).capitalize()}{p}x{c}"
            body = [f"package {package};\n", "import java.util.List;\n",
                    f"public class {cls} {{", "    private long total;"]
            sigs = []
            for m in range(args.methods):
                name = f"{rng.choice(WORDS)}{rng.choice(WORDS).capitalize()}{m}"
                if m == 0:
                    # The list a model abstracts to its size.
                    body.append(f"    public int {name}(List<String> entries) {{ total += entries.size(); return entries.size(); }}")
                    sigs.append((name, [("entries", "INT")]))
                else:
                    body.append(f"    public long {name}(long amount, String label) {{ total += amount + label.length(); return total; }}")
                    sigs.append((name, [("amount", "LONG"), ("label", "STRING")]))
            body.append("}\n")
            (pdir / f"{cls}.java").write_text("\n".join(body))
            iid = f"_i_{p}_{c}"
            interfaces.append((iid, cls, [(f"_s_{p}_{c}_{m}", n, ps) for m, (n, ps) in enumerate(sigs)]))
            for m, (n, _) in enumerate(sigs):
                seffs.append((f"_seff_{p}_{c}_{m}", f"_s_{p}_{c}_{m}"))
                truth.append((f"_seff_{p}_{c}_{m}", f"src/{package.replace('.', '/')}/{cls}.java", cls, n))
        components.append((f"_c_{p}", package, [i[0] for i in interfaces[-args.classes:]], seffs))
    prim = {"INT": 0, "STRING": 1, "LONG": 6}
    x = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" '
         'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
         'xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" '
         'xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_generated" entityName="Generated">']
    for cid, name, iids, seffs in components:
        x.append(f'  <components__Repository xsi:type="repository:BasicComponent" id="{cid}" entityName="{name}">')
        for iid in iids:
            x.append(f'    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" '
                     f'id="{cid}{iid}" providedInterface__OperationProvidedRole="{iid}"/>')
        for sid, sig in seffs:
            x.append(f'    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" '
                     f'id="{sid}" describedService__SEFF="{sig}">')
            x.append(f'      <steps_Behaviour xsi:type="seff:StartAction" id="{sid}_start" successor_AbstractAction="{sid}_work"/>')
            x.append(f'      <steps_Behaviour xsi:type="seff:InternalAction" id="{sid}_work" entityName="work" '
                     f'predecessor_AbstractAction="{sid}_start" successor_AbstractAction="{sid}_stop">')
            x.append('        <resourceDemand_Action><specification_ParametricResourceDemand specification="1"/>'
                     '<requiredResource_ParametricResourceDemand href="pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ"/>'
                     '</resourceDemand_Action>')
            x.append('      </steps_Behaviour>')
            x.append(f'      <steps_Behaviour xsi:type="seff:StopAction" id="{sid}_stop" predecessor_AbstractAction="{sid}_work"/>')
            x.append('    </serviceEffectSpecifications__BasicComponent>')
        x.append('  </components__Repository>')
    for iid, cls, sigs in interfaces:
        x.append(f'  <interfaces__Repository xsi:type="repository:OperationInterface" id="{iid}" entityName="{cls}">')
        for sid, n, ps in sigs:
            x.append(f'    <signatures__OperationInterface id="{sid}" entityName="{n}">')
            for pn, pt in ps:
                x.append(f'      <parameters__OperationSignature parameterName="{pn}"><dataType__Parameter '
                         f'href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.{prim[pt]}"/>'
                         '</parameters__OperationSignature>')
            x.append('    </signatures__OperationInterface>')
        x.append('  </interfaces__Repository>')
    x.append('</repository:Repository>\n')
    (out / "model").mkdir(parents=True, exist_ok=True)
    (out / "model" / "generated.repository").write_text("\n".join(x))
    (out / "truth.tsv").write_text("seff_id\tfile\tclass\tmethod\n" + "".join("\t".join(t) + "\n" for t in truth))
    (out / "beagle.toml").write_text('[model]\nrepository = "model/generated.repository"\n[java]\nsources = ["src"]\n\n'
                                     '[[launch]]\nname = "unused"\nmain = "NotRunByLinkSuggest"\n')
    print(f"{out}: {len(components)} components, {len(interfaces)} interfaces, {len(truth)} SEFFs, "
          f"{args.packages * (args.classes + 1)} Java files, "
          f"{(out / 'model' / 'generated.repository').stat().st_size / 1e6:.1f} MB of repository")


if __name__ == "__main__":
    main()
