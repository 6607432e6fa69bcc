#!/usr/bin/env python3
"""Renders benchmarks/scale/results/results.jsonl as RESULTS.md (see run.sh)."""
import json
import os
import platform
import subprocess
import sys
import datetime

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
binaries = list(dict.fromkeys(r["binary"] for r in rows))
levels = sorted({r["per_point"] for r in rows})


def cell(r):
    if r is None:
        return "-"
    if r["exit"] == 124:
        return "did not finish (timeout)"
    if r["exit"] not in (0, 1):
        return f"failed (exit {r['exit']})"
    return f"{r['wall_s']:.1f} s, {r['peak_rss_mb']:.0f} MB, store {r['store_mb']:.1f} MB"


def find(b, level):
    return next((r for r in rows if r["binary"] == b and r["per_point"] == level), None)


cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
print("# Results: scale with executions per point (issue 16)\n")
print(f"Run on {datetime.date.today()} on {os.cpu_count()} cores ({cpu}, {platform.system()}), by "
      "`benchmarks/scale/run.sh`: one `beagle analyse --json` of the generated import service "
      "(`generate.py`: 50 parameter points, a loop over 100-2060 items, the action `process` in "
      "its body) per binary and level, one after another; wall time and peak resident memory from "
      "`/usr/bin/time`, the store is the size of `.beagle/`. Raw rows: `results/results.jsonl`.\n")
print("| executions of `process` per point | events file | " + " | ".join(binaries) + " |")
print("|---|---|" + "---|" * len(binaries))
for level in levels:
    ev = next((r["events_mb"] for r in rows if r["per_point"] == level), 0)
    print(f"| {level:,} | {ev:,.0f} MB | " + " | ".join(cell(find(b, level)) for b in binaries) + " |")
print("\n## Laws found\n")
for b in binaries:
    for level in levels:
        r = find(b, level)
        if r and r["laws"]:
            laws = "; ".join(f"{k}: `{v[0]}` ({v[1]})" for k, v in sorted(r["laws"].items()))
            print(f"- {b}, {level:,} per point: {laws}")
