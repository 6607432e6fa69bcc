"""RESULTS.md of one platform benchmark run (see run.sh): per fixture, flag set and service, the
median relative error of the count-based prediction (split rule: what the counts explain moves
with the target's costs, the rest with its native reference) beside Krogmann et al.'s rule (R
scales all of an action's time), the naive one (the default JVM's milliseconds) and the
single-scalar one (those times the ratio of the two calibrations' suite totals), against runs
under the flag set."""

import gzip
import json
import statistics
import sys
import tomllib
from pathlib import Path


def read_json(path):
    """A result, gzipped where it is large (hotloop's nested service has thousands of points)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.load(f)


def results(out, pattern):
    return sorted(list(out.glob(pattern + ".json")) + list(out.glob(pattern + ".json.gz")))


def stem(path):
    return path.name.split(".json")[0]


def suite_total(profile):
    ops = sum(profile["instructions"].values())
    calls = sum(c.get("call_ns", 0) + c.get("element_ns", 0)
                for table in ("methods", "arrays") for c in profile.get(table, {}).values())
    return ops + calls


def median_error(rows, scale=1.0):
    errors = [abs(r["predicted_ms"] * scale - r["measured_ms"]) / r["measured_ms"] for r in rows if r["measured_ms"] > 0]
    return statistics.median(errors) if errors else float("nan")


def main():
    out = Path(sys.argv[1])
    default = tomllib.loads((out / "default.toml").read_text())
    lines = ["# Platform prediction: counts and a calibration against naive and single-scalar", ""]
    lines.append(f"Run {out.name}; measuring platform: {default['platform']['jvm']} on {default['platform']['cpu']} "
                 f"({default['platform']['cores']} cores).")
    lines.append("")
    lines.append("| fixture | JVM options | service | points | counts | counts, R scales all | naive | scalar |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|")
    per_flags = {}
    # The floor: each service's error on the measuring platform itself (flag set "default").
    floor = {}
    for result in results(out, "*-default"):
        fixture = stem(result).rsplit("-", 1)[0]
        for s in read_json(result)["services"]:
            floor[(fixture, s["seff"])] = s["median_relative_error"]
    for result in results(out, "*-*"):
        fixture, name = stem(result).rsplit("-", 1)
        profile = tomllib.loads((out / f"{name}.toml").read_text())
        ratio = suite_total(profile) / suite_total(default)
        report = read_json(result)
        baseline = {b["seff"]: b for b in report.get("baseline", [])}
        scaled_rule = {b["seff"]: b for b in report.get("scaled", [])}
        for s in report["services"]:
            b = baseline.get(s["seff"])
            if b is None:
                continue
            counted = s["median_relative_error"]
            scaled = scaled_rule[s["seff"]]["median_relative_error"] if s["seff"] in scaled_rule else float("nan")
            naive = median_error(b["rows"])
            scalar = median_error(b["rows"], ratio)
            per_flags.setdefault(name, []).append(
                (counted, scaled, naive, scalar, floor.get((fixture, s["seff"]), float("nan"))))
            flags = " ".join(profile["platform"].get("jvm_args", [])) or "(none)"
            lines.append(f"| {fixture} | `{flags}` | {s['service']} | {s['points']} | {100 * counted:.1f} % | "
                         f"{100 * scaled:.1f} % | {100 * naive:.1f} % | {100 * scalar:.1f} % |")
    lines.append("")
    lines.append("Median over the services of each flag set (goal: counts at most 15 %); then over the services")
    lines.append("the model predicts within 15 % on the measuring platform itself (the floor: flag set `default`),")
    lines.append("where what is left is the platform's part of the error:")
    lines.append("")
    def medians(rows):
        m = [statistics.median(c) for c in zip(*[r[:4] for r in rows])]
        return (f"counts {100 * m[0]:.1f} %, R scales all {100 * m[1]:.1f} %, naive {100 * m[2]:.1f} %, "
                f"scalar {100 * m[3]:.1f} % ({len(rows)} services)")

    for name, rows in per_flags.items():
        good = [r for r in rows if r[4] <= 0.15]
        text = f"- {name}: {medians(rows)}"
        if good:
            text += f"; within the floor: {medians(good)}"
        lines.append(text)
    timings = json.loads((out / "timings.json").read_text()) if (out / "timings.json").exists() else {}
    if timings:
        lines.append("")
        lines.append("Wall times: " + ", ".join(f"{k} {v:.0f} s" for k, v in timings.items()))
    (out / "RESULTS.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
