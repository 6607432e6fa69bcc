#!/usr/bin/env python3
"""Renders benchmarks/analysis/scale/results/results.jsonl as RESULTS.md (see run.sh)."""
import json
import os
import platform
import subprocess
import sys
import datetime

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
java = []
if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
    java = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
binaries = list(dict.fromkeys(r["binary"] for r in rows))
levels = sorted({r["per_point"] for r in rows})


def cell(r):
    if r is None:
        return "-"
    if r["exit"] == 124:
        return "did not finish (timeout)"
    if r["exit"] not in (0, 1):
        limit = r.get("memory_limit_mb")
        out_of_memory = "memory allocation" in r.get("stderr_tail", "") or r["exit"] in (134, 137)
        if limit and out_of_memory:
            return f"out of memory (over {limit / 1000:.0f} GB)"
        return f"failed (exit {r['exit']})"
    return f"{r['wall_s']:.1f} s, {r['peak_rss_mb']:.0f} MB, store {r['store_mb']:.1f} MB"


def find(b, level, fmt):
    return next((r for r in rows if r["binary"] == b and r["per_point"] == level and r.get("format", "raw") == fmt), None)


cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
print("# Results: scale with executions per point (issue 16)\n")
print(f"Run on {datetime.date.today()} on {os.cpu_count()} cores ({cpu}, {platform.system()}), by "
      "`benchmarks/analysis/scale/run.sh`: one `beagle analyse --json` of the generated import service "
      "(`generate.py`: 50 parameter points, a loop over 100-2060 items, the action `process` in "
      "its body) per binary and level, one after another; wall time and peak resident memory from "
      "`/usr/bin/time`, the store is the size of `.beagle/`. Raw rows: `results/results.jsonl`.\n")
print("| executions of `process` per point | events | events file | " + " | ".join(binaries) + " |")
print("|---|---|---|" + "---|" * len(binaries))
for level in levels:
    for fmt in ("raw", "aggregate"):
        got = [r for r in rows if r["per_point"] == level and r.get("format", "raw") == fmt]
        if not got:
            continue
        ev = got[0]["events_mb"]
        cells = [cell(find(b, level, fmt)) if find(b, level, fmt) else ("cannot read them" if fmt == "aggregate" else "-") for b in binaries]
        size = f"{ev * 1000:,.0f} kB" if ev < 1 else f"{ev:,.1f} MB"
        print(f"| {level:,} | {fmt} | {size} | " + " | ".join(cells) + " |")
goal = [r for r in rows if r["per_point"] == 1_000_000 and r["binary"] == binaries[-1] and r["exit"] in (0, 1)]
if goal:
    r = goal[0]
    met = r["wall_s"] < 30 and r["peak_rss_mb"] < 300 and r["store_mb"] < 50
    print(f"\n**Goal (issue 16): a million executions per point in under 30 s and 300 MB, the store under 50 MB: "
          f"{'met' if met else 'not met'}** ({binaries[-1]}, {r.get('format', 'raw')} events: {cell(r)}).")
print("\n## Laws found\n")
for b in binaries:
    for level in levels:
        for fmt in ("raw", "aggregate"):
            r = find(b, level, fmt)
            if r and r["laws"]:
                laws = "; ".join(f"{k}: `{v[0]}` ({v[1]})" for k, v in sorted(r["laws"].items()))
                print(f"- {b}, {level:,} per point, {fmt}: {laws}")

if java:
    print("\n## Java: a service looping up to 100,000 times per call\n")
    print("`fixtures/hotloop` (`beagle analyse`, measuring included: instrumenting, compiling, running "
          "the JVMs, decoding, fitting): its import service loops over 1,000-100,000 items per call, an "
          "internal action and an external call per iteration. Goal: within 3 minutes.\n")
    print("| binary | result |")
    print("|---|---|")
    for r in java:
        print(f"| {r['binary']} | {cell(r)} |")
    for r in java:
        if r["laws"]:
            laws = "; ".join(f"{k}: `{v[0]}` ({v[1]})" for k, v in sorted(r["laws"].items()))
            print(f"- {r['binary']}: {laws}")
