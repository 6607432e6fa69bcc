#!/usr/bin/env python3
"""Times `beagle link --suggest` on the generated system (generate.py) and checks its links
against the construction's truth: every SEFF linked, at or above 0.8, to its class's method.

    python3 benchmarks/linking/scale/run.py --beagle PATH [--runs 5] [--workdir DIR]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def links(text):
    out, link = {}, None
    for line in text.splitlines():
        if line == "[[link]]":
            link = {}
        elif link is not None and line.startswith("# automatic, confidence "):
            conf, _ = line[len("# automatic, confidence "):].split(": ", 1)
            link["confidence"] = float(conf)
            if link.get("element", "").startswith("_seff_") and not link["element"].endswith(("_work", "_start", "_stop")):
                out[link["element"]] = link
            link = None
        elif link is not None and " = " in line:
            k, v = line.split(" = ", 1)
            link[k] = json.loads(v)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beagle", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workdir")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(args.workdir or tmp) / "generated"
        if not ws.exists():
            subprocess.run([sys.executable, str(HERE / "generate.py"), str(ws)], check=True)
        truth = {}
        for line in (ws / "truth.tsv").read_text().splitlines()[1:]:
            seff, file, cls, method = line.split("\t")
            truth[seff] = (file, method)
        times, found = [], {}
        for _ in range(args.runs):
            began = time.monotonic()
            run = subprocess.run([args.beagle, "link", "--suggest", str(ws)], capture_output=True, text=True)
            times.append(time.monotonic() - began)
            if run.returncode != 0:
                sys.exit(run.stderr)
            found = links(run.stdout)
        right = 0
        wrong = []
        for seff, (file, method) in truth.items():
            link = found.get(seff)
            text = (ws / link["file"]).read_text().splitlines() if link else []
            line = text[int(link["from"].split(":")[0]) - 1] if link else ""
            if link and link["file"] == file and f" {method}(" in line and link["confidence"] >= 0.8:
                right += 1
            elif len(wrong) < 5:
                wrong.append((seff, file, method, link))
        print(json.dumps({"seffs": len(truth), "linked_right_and_used": right,
                          "median_s": round(statistics.median(times), 2), "max_s": round(max(times), 2),
                          "runs": args.runs, "examples_of_misses": wrong}, indent=1))


if __name__ == "__main__":
    main()
