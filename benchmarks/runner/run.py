#!/usr/bin/env python3
"""Issue 40: the fileshare analysis (fixtures/fileshare) measured here, over ssh and on Slurm, and
what each runner adds per JVM and per parameter point.

The three runners are real: this machine, an sshd on loopback and a single-node Slurm cluster on
loopback (tests/services/runners.sh, as root). All three run their JVMs on this machine, so the
difference in wall time is the runner's own cost: copying the classes, starting each JVM through
ssh or a job array, polling, bringing the events back. The peer is the local runner, measured in
the same run, interleaved (local, ssh, slurm, local, ...), each analysis on a fresh copy (no store).

Usage: python3 benchmarks/runner/run.py [--repeats N]   (writes benchmarks/runner/results/<stamp>/)
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY = os.environ.get("BEAGLE_TEST_SSH_KEY", "/tmp/beagle-ssh-key")


def runner_table(kind: str, scratch: Path) -> str:
    if kind == "ssh":
        return (
            '[runner]\nkind = "ssh"\nhost = "127.0.0.1"\nport = 2222\nuser = "beagletest"\n'
            f'identity = "{KEY}"\nwork_dir = "beagle-bench-work"\n'
        )
    if kind == "slurm":
        return f'[runner]\nkind = "slurm"\nwork_dir = "{scratch / "slurm-work"}"\n'
    return ""


def analyse(beagle: str, kind: str, scratch: Path) -> dict:
    ws = scratch / f"fileshare-{kind}"
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(ROOT / "fixtures" / "fileshare", ws, ignore=shutil.ignore_patterns(".beagle"))
    toml = ws / "beagle.toml"
    toml.write_text(toml.read_text() + "\n" + runner_table(kind, scratch))
    started = time.monotonic()
    out = subprocess.run([beagle, "analyse", "-v", "."], cwd=ws, capture_output=True, text=True)
    wall = time.monotonic() - started
    if out.returncode != 0:
        raise SystemExit(f"{kind}: beagle analyse failed:\n{out.stderr}")
    # `-v` prints each point as its JVM starts ("  quick pass: launch `upload` at ..."); a pass's
    # points go five to a JVM (fileshare's points_per_jvm), in the order of the pass.
    per_pass = {}
    for line in out.stderr.splitlines():
        if "launch `upload` at" in line:
            per_pass[line.split(":")[0].strip()] = per_pass.get(line.split(":")[0].strip(), 0) + 1
    points = sum(per_pass.values())
    jvms = sum(-(-n // 5) for n in per_pass.values())
    finals = out.stdout.count("final\n")
    return {"runner": kind, "wall_s": round(wall, 2), "jvms": jvms, "points": points, "finals": finals}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "beagle-cli"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    beagle = str(target / "release" / "beagle")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            for kind in ["local", "ssh", "slurm"]:
                row = analyse(beagle, kind, Path(tmp))
                row["repeat"] = r
                print(json.dumps(row), flush=True)
                rows.append(row)
    summary = {}
    for kind in ["local", "ssh", "slurm"]:
        mine = [x for x in rows if x["runner"] == kind]
        summary[kind] = {
            "wall_s": statistics.median(x["wall_s"] for x in mine),
            "jvms": statistics.median(x["jvms"] for x in mine),
            "points": statistics.median(x["points"] for x in mine),
        }
    local = summary["local"]
    lines = ["| runner | wall (median) | JVMs | points | ratio to local | added per JVM | added per point |", "|---|---|---|---|---|---|---|"]
    for kind, s in summary.items():
        added = s["wall_s"] - local["wall_s"]
        per_jvm = added / s["jvms"] if kind != "local" else 0.0
        per_point = added / s["points"] if kind != "local" else 0.0
        lines.append(
            f"| {kind} | {s['wall_s']:.1f} s | {s['jvms']:.0f} | {s['points']:.0f} | {s['wall_s'] / local['wall_s']:.2f} | {per_jvm:.2f} s | {per_point:.3f} s |"
        )
    table = "\n".join(lines)
    print(table)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = Path(__file__).parent / "results" / stamp
    out.mkdir(parents=True)
    (out / "runs.json").write_text(json.dumps(rows, indent=1) + "\n")
    (out / "summary.md").write_text(
        f"fileshare analysis, {args.repeats} repeats per runner, interleaved; {os.cpu_count()} cores\n\n{table}\n"
    )


if __name__ == "__main__":
    main()
