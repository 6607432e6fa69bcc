#!/usr/bin/env python3
"""Peer for the Kieker text logs: every `.dat` line split into fields, best of N runs.

    kieker_csv.py DIR --kind cipm|oer --impl csv|pandas --runs 5

Reads `kieker.map` and every `*.dat` file of DIR in file-name order (as Beagle does) and
- `csv`: splits each line on `;` with the standard library's `csv.reader` (no quoting) and keeps
  the rows (lists of strings) in a list: parse only, no types, no records, no conversion to events;
- `pandas`: `pandas.read_csv(sep=';', header=None, quoting=QUOTE_NONE)` per file (C engine, type
  inference per column; rows of a shorter record padded), then `pandas.concat`: a DataFrame, no
  records and no events either.
Both do less than Beagle's `read_log` + `convert`. Prints one JSON result line.
"""
import argparse
import csv
import glob
import json
import os
import platform
import sys
import time


def read_csv(files):
    rows = []
    for path in files:
        with open(path, "r", encoding="utf-8", newline="") as f:
            rows.extend(csv.reader(f, delimiter=";", quoting=csv.QUOTE_NONE))
    return len(rows), rows


def read_pandas(files, pd):
    # Enough columns for the widest record (CPUUtilizationRecord: $n, timestamp and 10 fields).
    names = list(range(12))
    frames = [
        pd.read_csv(path, sep=";", header=None, names=names, quoting=csv.QUOTE_NONE, low_memory=False)
        for path in files
    ]
    frame = pd.concat(frames, ignore_index=True)
    return len(frame), frame


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--kind", required=True)
    ap.add_argument("--impl", choices=["csv", "pandas"], default="csv")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if args.impl == "pandas":
        import pandas as pd

        name = f"pandas {pd.__version__} read_csv"
        read = lambda files: read_pandas(files, pd)  # noqa: E731
    else:
        name = f"CPython {platform.python_version()} csv.reader (split on ;)"
        read = read_csv
    times = []
    count = 0
    files = []
    for _ in range(args.runs):
        t = time.perf_counter()
        with open(os.path.join(args.dir, "kieker.map"), encoding="utf-8") as f:
            record_map = dict(l.strip().split("=", 1) for l in f if l.strip())
        files = sorted(glob.glob(os.path.join(args.dir, "*.dat")))
        count, data = read(files)
        times.append(time.perf_counter() - t)
        assert record_map
        del data
    out = {
        "bench": f"kieker-{args.kind}",
        "impl": name,
        "peer": True,
        "records": count,
        "files": len(files),
        "bytes": sum(os.path.getsize(p) for p in files),
        "runs_s": times,
        "best_s": min(times),
        "median_s": sorted(times)[len(times) // 2],
    }
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
