#!/usr/bin/env python3
"""Scores `beagle link --suggest` against truth/<system>.tsv for every system fetched under
systems/ (fetch.sh).

    python3 benchmarks/linking/score.py --beagle target/release/beagle [--label NAME] [--out results/NAME.json]

For each system: a temporary workspace holding a copy of every `src/main/java` of the code and a
beagle.toml that names them and the model, `beagle link --suggest` on it (timed), and its `[[link]]` blocks and
`# No candidate` lines read back. Only SEFFs with a truth row are scored. A link is correct when
its file is a truth row's file and the row's line (the method's name) lies within from..to. A link
is used when its confidence is at least 0.8, as Beagle uses automatic links.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from extract_truth import BENCH, SYSTEMS, model_seffs

USED = 0.8  # Beagle uses automatic links from this confidence up (docs/src/java.md)


def read_truth(name):
    rows = {}
    lines = (BENCH / "truth" / f"{name}.tsv").read_text().splitlines()
    for line in lines:
        if line.startswith("#") or line.startswith("seff_id\t") or not line:
            continue
        seff, file, cls, method, at = line.split("\t")
        rows.setdefault(seff, []).append({"file": file, "class": cls, "method": method, "line": int(at)})
    return rows


def source_roots(code):
    """Every src/main/java directory of the code (what a user would list as sources)."""
    roots = []
    for dirpath, dirnames, _ in os.walk(code):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if dirpath.endswith(os.sep + os.path.join("src", "main", "java")):
            roots.append(dirpath)
            dirnames[:] = []
    return roots


def parse_suggest(text, workspace):
    """The links and no-candidate lines of `beagle link --suggest` output. Files come relative to
    the workspace root, which holds the code at its own relative paths: made absolute, then
    relative to the workspace again, they are relative to the code root, as the truth has them."""
    links, misses, link, in_misses = [], {}, None, False
    for line in text.splitlines():
        if line == "[[link]]":
            link = {"confidence": 0.0, "reason": ""}  # suggest marks every link; 0 if not
            links.append(link)
        elif line.startswith("# No candidate"):
            in_misses, link = True, None
        elif in_misses and line.startswith("# ") and ": " in line:
            seff, why = line[2:].split(": ", 1)
            misses[seff] = why
        elif link is not None and line.startswith("# automatic, confidence "):
            confidence, reason = line[len("# automatic, confidence "):].split(": ", 1)
            link["confidence"], link["reason"] = float(confidence), reason
        elif link is not None and " = " in line:
            key, value = line.split(" = ", 1)
            link[key] = json.loads(value)  # TOML basic strings read as JSON ones here
    for link in links:
        path = os.path.realpath(os.path.join(workspace, link["file"]))
        link["file"] = os.path.relpath(path, os.path.realpath(workspace))
        link["from_line"] = int(link["from"].split(":")[0])
        link["to_line"] = int(link["to"].split(":")[0])
    return links, misses


def correct(link, rows):
    return any(link["file"] == r["file"] and link["from_line"] <= r["line"] <= link["to_line"] for r in rows)


def score(name, beagle):
    system, code = SYSTEMS[name], BENCH / "systems" / name
    truth = read_truth(name)
    seffs = model_seffs(BENCH / system["model"])
    with tempfile.TemporaryDirectory(prefix=f"beagle-linking-{name}-") as ws:
        # Beagle reads only source roots inside the workspace (one outside is skipped without a
        # word), so the workspace gets a copy of each src/main/java at its path in the code.
        roots = []
        for root in source_roots(code):
            roots.append(Path(ws, os.path.relpath(root, code)))
            shutil.copytree(root, roots[-1])
        sources = ", ".join(json.dumps(str(r)) for r in roots)
        model = json.dumps(str((BENCH / system["model"]).resolve()))
        # Beagle reads [java] only with a [[launch]] (server/java/src/launch/config.rs, "needs at
        # least one [[launch]]"); linking never runs it, so a placeholder does.
        Path(ws, "beagle.toml").write_text(
            f"[model]\nrepository = {model}\n[java]\nsources = [{sources}]\n\n"
            '[[launch]]\nname = "unused"\nmain = "NotRunByLinkSuggest"\n')
        began = time.monotonic()
        run = subprocess.run([beagle, "link", "--suggest", ws], capture_output=True, text=True)
        seconds = time.monotonic() - began
        if run.returncode != 0:
            sys.exit(f"{name}: beagle exited with {run.returncode}:\n{run.stderr}")
        links, misses = parse_suggest(run.stdout, ws)

    def describe(seff):
        component, signature, _ = seffs[seff]
        return f"{component} / {signature}"

    def where(link):
        return f"{link['file'].rsplit('/', 1)[-1]}:{link['from_line']}-{link['to_line']}"

    result = {"truth_seffs": len(truth), "seconds": round(seconds, 2), "problems": []}
    # A property of the truth, not of Beagle: the SEFFs whose method bears the signature's name
    # (case aside). Where the instrumentation marks another method (a generic
    # `sendEntityForCreation` for `persistOrder`), no linking by names reaches it.
    result["named_like_signature"] = sum(
        1 for seff, rows in truth.items()
        if any(r["method"].lower() == seffs[seff][1].rsplit(".", 1)[-1].lower() for r in rows))
    for kind, keep in (("used", lambda l: l["confidence"] >= USED), ("all", lambda l: True)):
        scored = [l for l in links if l["element"] in truth and keep(l)]
        right = [l for l in scored if correct(l, truth[l["element"]])]
        found = {l["element"] for l in right}
        result[kind] = {"correct": len(right), "links": len(scored),
                        "precision": round(len(right) / len(scored), 3) if scored else None,
                        "recall": round(len(found) / len(truth), 3), "seffs_found": len(found)}
    result["no_candidate"] = sorted(s for s in truth if s in misses)
    result["no_candidate_in_model"] = len(misses)  # every SEFF of the model, truth or not
    # Every truth SEFF without a correct used link, and every wrong used link: what to learn from.
    for seff, rows in sorted(truth.items(), key=lambda kv: describe(kv[0])):
        mine = [l for l in links if l["element"] == seff]
        used = [l for l in mine if l["confidence"] >= USED]
        wrong = [l for l in used if not correct(l, rows)]
        if used and not wrong:
            continue
        if used and len(wrong) < len(used):
            status = "extra wrong link"
        elif wrong:
            status = "wrong"
        elif any(correct(l, rows) for l in mine):
            status = "right but below 0.8"
        elif mine:
            status = "only wrong candidates below 0.8"
        elif seff in misses:
            status = "no candidate"
        else:
            status = "not mentioned"
        result["problems"].append({
            "seff": seff, "name": describe(seff), "status": status,
            "truth": [f"{r['class']}.{r['method']} ({r['file'].rsplit('/', 1)[-1]}:{r['line']})" for r in rows],
            "beagle": [f"{where(l)} conf {l['confidence']:.2f}: {l['reason']}"
                       for l in (wrong if status == "extra wrong link" else mine)]
                      or [f"no candidate: {misses.get(seff, '(not in the output)')}"],
        })
    result["links"] = [{k: l[k] for k in ("element", "name", "file", "from", "to", "confidence", "reason")
                        if k in l} for l in links if l["element"] in truth]
    return result


def table(label, results):
    def pct(x):
        return "–" if x is None else f"{x:.0%}"

    out = ["| version | system | truth SEFFs | used correct/links | used precision | used recall "
           "| all correct/links | all precision | all recall | no candidate | time |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        u, a = r["used"], r["all"]
        out.append(f"| {label} | {name} | {r['truth_seffs']} | {u['correct']}/{u['links']} | {pct(u['precision'])} "
                   f"| {pct(u['recall'])} | {a['correct']}/{a['links']} | {pct(a['precision'])} "
                   f"| {pct(a['recall'])} | {len(r['no_candidate'])} | {r['seconds']:.1f} s |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beagle", required=True, help="the beagle binary")
    parser.add_argument("--label", default="run")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()
    beagle = os.path.abspath(args.beagle)
    names = [n for n in SYSTEMS if (BENCH / "systems" / n).is_dir()]
    if not names:
        sys.exit("no system under benchmarks/linking/systems: run fetch.sh first")
    results = {name: score(name, beagle) for name in names}
    print(table(args.label, results))
    print("\ntruth SEFFs whose method bears the signature's name (what linking by names can reach): "
          + ", ".join(f"{n} {r['named_like_signature']} of {r['truth_seffs']}" for n, r in results.items()))
    for name, r in results.items():
        print(f"\n{name}: SEFFs without a correct used link, and wrong used links")
        for p in r["problems"]:
            print(f"- {p['name']} [{p['seff']}] {p['status']}; truth {', '.join(p['truth'])}")
            for b in p["beagle"]:
                print(f"    beagle: {b}")
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"label": args.label, "beagle": beagle,
                                   "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                   "systems": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
