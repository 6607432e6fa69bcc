#!/usr/bin/env python3
"""Peer for the Beagle events format: every line of the events file into a dict, best of N runs.

    events_json.py FILE --impl json|orjson --runs 5

Reads the file and, per line (blank lines and `#` comments skipped, as Beagle does), calls
`json.loads` (CPython's standard library) or `orjson.loads`, keeping the dicts in a list. No
validation and no typed events: lighter work than Beagle's `read_events`, which checks every
event's fields and builds typed events. Prints one JSON result line.
"""
import argparse
import json
import platform
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--impl", choices=["json", "orjson"], default="json")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if args.impl == "orjson":
        import orjson

        loads = orjson.loads
        name = f"Python orjson {orjson.__version__} loads per line"
    else:
        loads = json.loads
        name = f"CPython {platform.python_version()} json.loads per line"
    times = []
    count = 0
    for _ in range(args.runs):
        t = time.perf_counter()
        with open(args.file, "r", encoding="utf-8") as f:
            events = []
            for line in f:
                s = line.strip()
                if not s or s.startswith("#"):
                    continue
                events.append(loads(s))
        times.append(time.perf_counter() - t)
        count = len(events)
        del events
    import os

    out = {
        "bench": "events",
        "impl": name,
        "peer": True,
        "events": count,
        "bytes": os.path.getsize(args.file),
        "runs_s": times,
        "best_s": min(times),
        "median_s": sorted(times)[len(times) // 2],
    }
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
