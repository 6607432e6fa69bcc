#!/usr/bin/env python3
"""Warnings per run: `beagle analyse --json` on a fresh copy of each workspace under `fixtures/`
(and the CIPM Kieker logs through the events example), with one or more Beagle binaries, every
diagnostic counted by severity and kept verbatim, so that each remaining warning can be read.

    python3 benchmarks/messages/run.py --beagle LABEL=PATH [--beagle LABEL=PATH ...] --out FILE

Standard library only. Each binary analyses its own fresh copy (no store is shared)."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# (name, workspace under fixtures/, extra arguments)
RUNS = [
    ("events-example", "events-example", []),
    ("kieker-cipm-2018", "events-example", ["--kieker", os.path.join(ROOT, "fixtures/kieker-cipm/cipm-2018")]),
    ("otel-example", "otel-example", []),
    ("hotloop", "hotloop", []),
    ("finegrained", "finegrained", []),
    ("strategies", "strategies", []),
    ("extracted", "extracted", []),
    ("downloads", "downloads", []),
    ("fileshare", "fileshare", []),
    ("fileshare-older", "fileshare-older", []),
    ("teastore", "teastore", []),
]


# TeaStore (Apache-2.0, fetched by benchmarks/linking/fetch.sh) with CIPM's hand-made model:
# a real system and a model someone else made. Its code needs its Maven dependencies, which
# are not here: the run links, instruments and stops at javac, with every warning it had.
TEASTORE = os.path.join(ROOT, "benchmarks/linking/systems/teastore")
TEASTORE_MODEL = os.path.join(ROOT, "benchmarks/linking/models/teastore/teastore.repository")


def teastore_workspace(copy):
    os.makedirs(copy)
    roots = []
    for dirpath, dirnames, _ in os.walk(TEASTORE):
        if dirpath.endswith(os.path.join("src", "main", "java")):
            rel = os.path.relpath(dirpath, TEASTORE)
            shutil.copytree(dirpath, os.path.join(copy, rel))
            roots.append(rel)
            dirnames[:] = []
    roots.sort()
    with open(os.path.join(copy, "beagle.toml"), "w") as f:
        f.write(f"[model]\nrepository = {json.dumps(TEASTORE_MODEL)}\n[java]\nsources = {json.dumps(roots)}\n\n")
        f.write('[[launch]]\nname = "unused"\nmain = "NotRunTheCodeDoesNotCompileHere"\n')


def run(beagle, workspace, extra):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "ws")
        if workspace == "teastore":
            teastore_workspace(copy)
        else:
            shutil.copytree(os.path.join(ROOT, "fixtures", workspace), copy, ignore=shutil.ignore_patterns(".beagle", "out"))
        started = time.time()
        p = subprocess.run([beagle, "analyse", "--json", *extra, "."], cwd=copy, capture_output=True, text=True)
        seconds = time.time() - started
        try:
            report = json.loads(p.stdout)
        except json.JSONDecodeError:
            # A run that fails says why on stderr, with every warning it had.
            lines = p.stderr.splitlines()
            warnings = [l for l in lines if l.startswith("warning: ")]
            return {
                "ok": False,
                "seconds": round(seconds, 1),
                "counts": {"warning": len(warnings)},
                "warnings": warnings,
                "error": next((l for l in lines if l.startswith("error")), "")[:2000],
            }
        diags = report.get("diagnostics", [])
        counts = {}
        for d in diags:
            counts[d.get("severity", "?")] = counts.get(d.get("severity", "?"), 0) + 1
        return {
            "ok": p.returncode == 0,
            "seconds": round(seconds, 1),
            "counts": counts,
            "warnings": [d["message"] for d in diags if d.get("severity") == "warning"],
            "results": len(report.get("results", [])),
        }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beagle", action="append", required=True, help="LABEL=PATH")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", action="append", help="run names to run (default: all)")
    args = ap.parse_args()
    binaries = [b.split("=", 1) for b in args.beagle]
    out = {"runs": {}}
    for name, ws, extra in RUNS:
        if args.only and name not in args.only:
            continue
        out["runs"][name] = {}
        for label, path in binaries:
            r = run(path, ws, extra)
            out["runs"][name][label] = r
            w = r.get("counts", {}).get("warning", "-")
            print(f"{name:18} {label:8} warnings {w!s:>4}  {r['seconds']:7.1f} s  {'ok' if r['ok'] else 'FAILED'}", flush=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print()
    print("| run | " + " | ".join(f"{l} warnings" for l, _ in binaries) + " |")
    print("|---|" + "---|" * len(binaries))
    for name, by in out["runs"].items():
        cells = [
            str(by[l].get("counts", {}).get("warning", 0)) + ("" if by[l].get("ok") else " (run failed)")
            for l, _ in binaries
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
