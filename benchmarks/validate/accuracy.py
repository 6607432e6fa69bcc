#!/usr/bin/env python3
"""Does the analysed model predict the REAL system? (issue 35; run through accuracy.sh)

Analyses a scratch copy of a fixture (`beagle analyse --write`), picks fresh seeded points inside
its launch ranges (not the analysed ones), predicts the top service there (`beagle predict
--json`, launch arguments mapped to the service's input characterisations by
benchmarks/validate/fixtures/<name>.toml) and measures the uninstrumented system there with the
yardstick (thread CPU time per call, JIT warm). Then `beagle validate --json` (its own fresh
points, in its plain build): its measured totals beside the yardstick at the same points,
mapped back to launch arguments. Prints the tables; writes them, with the analysis's report, to
results/accuracy-<name>-<stamp>.txt and everything raw to results/accuracy-<name>-<stamp>.json.
"""

import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CPU = "_oro4gG3fEdy4YaaT-RYrLQ"  # Palladio's CPU resource type


def jround(x):
    """Java's Math.round (half up), which the drivers use; Python's round() rounds half to even."""
    return math.floor(x + 0.5)


HELPERS = {"jround": jround, "floor": math.floor, "ceil": math.ceil, "min": min, "max": max, "log": math.log,
           "__builtins__": {}}


def usage(message):
    sys.exit(f"accuracy: {message}\nusage: accuracy.sh FIXTURE [POINTS=10] [SEED=1]  "
             "(also as plain numbers, or in the environment; BEAGLE, CALLS, WARMUP, WARMUP_CPU_MS, MIN_CPU_MS, KEEP=1,"
             " CALIBRATE=1, UNMODELLED=1)")


def parse_args(argv):
    if not argv:
        usage("which fixture?")
    opts = {"POINTS": os.environ.get("POINTS", "10"), "SEED": os.environ.get("SEED", "1")}
    positional = ["POINTS", "SEED"]
    for a in argv[1:]:
        if "=" in a:
            k, v = a.split("=", 1)
            if k.upper() not in opts:
                usage(f"unknown setting {a}")
            opts[k.upper()] = v
        elif positional:
            opts[positional.pop(0)] = a
        else:
            usage(f"unexpected argument {a}")
    fixture = Path(argv[0])
    if not (fixture / "beagle.toml").is_file():
        fixture = ROOT / "fixtures" / argv[0]
    if not (fixture / "beagle.toml").is_file():
        usage(f"no fixture {argv[0]} (a folder with a beagle.toml, or a name under fixtures/)")
    return fixture.resolve(), int(opts["POINTS"]), int(opts["SEED"])


def nested(chars):
    """{'files.INNER.BYTESIZE': 3} -> files=NS(INNER=NS(BYTESIZE=3)), so expressions read as PCM's."""
    root = {}
    for key, value in chars.items():
        parts = key.split(".")
        node = root
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value

    def ns(d):
        return SimpleNamespace(**{k: ns(v) if isinstance(v, dict) else v for k, v in d.items()})

    return {k: ns(v) if isinstance(v, dict) else v for k, v in root.items()}


def fmt(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


# ---- points ----------------------------------------------------------------------------------

def is_int_range(spec):
    return isinstance(spec.get("from"), int) and isinstance(spec.get("to"), int)


def value_at(spec, u):
    """A range's value at u in [0, 1] (log scale if asked), integers where both ends are."""
    lo, hi = spec["from"], spec["to"]
    if spec.get("scale") == "log":
        v = math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo)))
    else:
        v = lo + u * (hi - lo)
    return min(max(jround(v), lo), hi) if is_int_range(spec) else v


def pick_points(params, n, seed, analysed):
    """n seeded points: a Latin hypercube over the ranges (value lists: each value equally often),
    none equal to an analysed point (those are redrawn)."""
    rng = random.Random(seed)
    names = list(params)
    columns = {}
    for name in names:
        spec = params[name]
        if "values" in spec:
            vals = (spec["values"] * (n // len(spec["values"]) + 1))[:n]
            rng.shuffle(vals)
            columns[name] = vals
        else:
            strata = list(range(n))
            rng.shuffle(strata)
            columns[name] = [value_at(spec, (s + rng.random()) / n) for s in strata]
    seen = {tuple(sorted(p.items())) for p in analysed}
    points = []
    for i in range(n):
        point = {name: columns[name][i] for name in names}
        for _ in range(100):
            key = tuple(sorted(point.items()))
            if key not in seen:
                break
            point = {name: (rng.choice(params[name]["values"]) if "values" in params[name]
                            else value_at(params[name], rng.random())) for name in names}
        seen.add(tuple(sorted(point.items())))
        points.append(point)
    return points


def smallest_points(params, fresh):
    """The smallest calls (issue 51, point 4): every numeric range at its lower end, once for each
    value of the value lists (at most 4 such points), skipping points already among the fresh ones.
    A law fitted over a wide range must hold here too, where per-call fixed costs dominate."""
    corners = [{}]
    for name, spec in params.items():
        options = list(dict.fromkeys(spec["values"])) if "values" in spec else [spec["from"]]
        corners = [dict(c, **{name: v}) for c in corners for v in options]
    seen = {tuple(sorted(p.items())) for p in fresh}
    out = []
    for c in corners[:4]:
        key = tuple(sorted(c.items()))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def parse_value(text):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def analysed_points(stderr, launch_name):
    """The launch points the analysis measured, from its --verbose lines ("launch `x` at a=1, b=2")."""
    points = []
    for m in re.finditer(r"launch `([^`]*)` at (.*)$", stderr, re.M):
        if m.group(1) != launch_name:
            continue
        point = {}
        for part in m.group(2).split(", "):
            k, _, v = part.partition("=")
            point[k.strip()] = parse_value(v.strip())
        points.append(point)
    return points


def launch_args(template, point):
    out = []
    for a in template:
        for k, v in point.items():
            a = a.replace("{" + k + "}", fmt(v))
        out.append(a)
    return out


# ---- running ---------------------------------------------------------------------------------

def run(cmd, **kw):
    t0 = time.monotonic()
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    return p, time.monotonic() - t0


def predict(beagle, ws, service, inputs):
    cmd = [beagle, "predict", ws, "--service", service, "--json"]
    for k, v in inputs.items():
        cmd += ["--at", f"{k}={fmt(v)}"]
    p, _ = run(cmd)
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        return None, (p.stderr.strip() or p.stdout.strip() or f"exit status {p.returncode}"), None
    demands = report.get("demands", {})
    value = demands.get(CPU, sum(demands.values()) if demands else None)
    problems = report.get("problems") or []
    return value, "; ".join(str(x) for x in problems) if problems else None, report


def is_service(reported, service):
    return reported == service or reported.endswith("." + service)


def trim_validation(validation, service):
    """validate's report with rows only for the top service: a callee's rows can number one per
    distinct argument (hotloop's checksum: hundreds of thousands); its summary is kept."""
    if not validation:
        return validation
    out = dict(validation)
    out["services"] = [s if is_service(s["service"], service) else {k: v for k, v in s.items() if k != "rows"}
                       for s in validation["services"]]
    return out


def pct(x):
    return "-" if x is None else f"{100 * x:.1f} %"


def ms(x):
    return "-" if x is None else f"{x:.4f}"


def rel(pred, real):
    return None if pred is None or real is None or real <= 0 else abs(pred - real) / real


def summary(errors, labels):
    pairs = [(e, l) for e, l in zip(errors, labels) if e is not None]
    if not pairs:
        return "no comparable points"
    worst = max(pairs)
    return (f"median relative error {pct(statistics.median(e for e, _ in pairs))}, "
            f"worst {pct(worst[0])} ({worst[1]}), {len(pairs)} points")


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main():
    fixture, n_points, seed = parse_args(sys.argv[1:])
    name = fixture.name
    beagle = Path(os.environ.get("BEAGLE", ROOT / "target" / "release" / "beagle"))
    if not beagle.exists():
        sys.exit(f"accuracy: no {beagle}: cargo build --release -p beagle-cli --locked (or set BEAGLE)")
    calls, warmup = os.environ.get("CALLS", "30"), os.environ.get("WARMUP", "30")
    # Issue 51: each point warmed for at least WARMUP_CPU_MS of thread CPU time (a tiny call needs
    # thousands of repetitions to reach C2), and measured for at least MIN_CPU_MS of it.
    warmup_cpu_ms, min_cpu_ms = os.environ.get("WARMUP_CPU_MS", "2000"), os.environ.get("MIN_CPU_MS", "500")
    mapping_file = Path(os.environ.get("MAPPING", HERE / "fixtures" / f"{name}.toml"))
    if not mapping_file.is_file():
        sys.exit(f"accuracy: no mapping {mapping_file} (the service and its inputs from the launch's arguments)")
    mapping = tomllib.loads(mapping_file.read_text())
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    (HERE / "results").mkdir(exist_ok=True)
    # What a validation at points of its own writes into the model before the fresh points.
    writes = [flag for flag, env in (("--write-calibration", "CALIBRATE"), ("--write-unmodelled", "UNMODELLED"))
              if os.environ.get(env) == "1"]
    suffix = "".join("-" + flag.split("-")[-1] for flag in writes)
    txt = HERE / "results" / f"accuracy-{name}{suffix}-{stamp}.txt"
    raw = {"fixture": name, "points": n_points, "seed": seed, "calls": int(calls), "warmup": int(warmup),
           "warmup_cpu_ms": int(warmup_cpu_ms), "min_cpu_ms": int(min_cpu_ms)}
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    tmp = Path(tempfile.mkdtemp(prefix=f"accuracy-{name}-"))
    ws = tmp / name
    shutil.copytree(fixture, ws, ignore=shutil.ignore_patterns(".beagle"))
    config = tomllib.loads((ws / "beagle.toml").read_text())
    launch = config["launch"][0]
    params = launch["parameters"]
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    say(f"# accuracy: fixtures/{name}, service {mapping['service']}, {n_points} fresh points, seed {seed}")
    say(f"# machine: {os.cpu_count()} cores, {os.uname().sysname} {os.uname().release}, {java}")
    say(f"# commit: {commit}, {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}; beagle: {beagle}")
    say(f"# yardstick: at least {calls} measured calls and {min_cpu_ms} ms of CPU time per point, after at least"
        f" {warmup} warm-up calls and {warmup_cpu_ms} ms of thread CPU time per point (one JVM, uninstrumented,"
        " thread CPU time per call; its mean is compared)")

    # 1. The analysis, written into the copy's repository.
    p, secs = run([beagle, "analyse", ws, "--write", "--seed", seed, "--verbose"])
    say()
    say(f"## beagle analyse --write (exit status {p.returncode}, {secs:.0f} s)")
    say(p.stdout.rstrip())
    if p.returncode not in (0, 1):
        say(p.stderr[-3000:])
        sys.exit("accuracy: the analysis failed")
    analysed = analysed_points(p.stderr, launch["name"])
    raw["analysed_points"] = analysed

    # 1b. CALIBRATE=1 and UNMODELLED=1: the calibration factors (where the probes distorted a
    # service) and the time no action carries, found by a validation at points of its own
    # (seed + 1000: neither the fresh points below nor validate's), written into the model.
    if writes:
        useed = str(int(seed) + 1000)
        p, usecs = run([beagle, "validate", ws, *writes, "--points", n_points, "--seed", useed])
        say()
        say(f"## beagle validate {' '.join(writes)} --seed {useed} (exit status {p.returncode}, {usecs:.0f} s)")
        say("\n".join(line for line in p.stdout.splitlines()
                      if "unmodelled" in line or "calibration" in line or "(SEFF" in line))
        say("\n".join(line for line in p.stderr.splitlines() if line.startswith("written:")))
        if p.returncode != 0:
            say(p.stderr[-3000:])
            sys.exit("accuracy: writing what the validation found failed")

    # 2. Fresh points: prediction and the yardstick.
    points = pick_points(params, n_points, seed, analysed)
    small = smallest_points(params, points)
    rows = []
    for point in points + small:
        env = dict(point)
        inputs = {k: eval(expr, HELPERS, env) for k, expr in mapping["inputs"].items()}
        if point in small and any(r["inputs"] == inputs for r in rows):
            continue  # the same call as a point before it (files=1 at half compressed is all compressed)
        value, problem, report = predict(beagle, ws, mapping["service"], inputs)
        rows.append({"point": point, "args": launch_args(launch["args"], point), "inputs": inputs,
                     "predicted_ms": value, "problem": problem, "predict": report,
                     "smallest": point in small})

    # 3. beagle validate at its own points, mapped back to launch arguments.
    p, vsecs = run([beagle, "validate", ws, "--json", "--points", n_points, "--seed", seed])
    validation = None
    vrows = []
    try:
        validation = json.loads(p.stdout)
    except json.JSONDecodeError:
        say(f"validate failed (exit status {p.returncode}): {p.stderr.strip()[-2000:]}")
    if validation:
        svc = mapping["service"]
        for s in validation["services"]:
            if is_service(s["service"], svc):
                for r in s["rows"]:
                    env = nested(r["inputs"])
                    try:
                        point = {}
                        for k, expr in mapping["launch"].items():
                            v = eval(expr, HELPERS, env)
                            spec = params[k]
                            if "values" not in spec and is_int_range(spec):
                                v = jround(v)
                            point[k] = v
                        args = launch_args(launch["args"], point)
                    except (AttributeError, NameError, ZeroDivisionError, KeyError) as e:
                        point, args = None, None
                        r["mapping_problem"] = f"{type(e).__name__}: {e}"
                    vrows.append({"point": point, "args": args, "validate": r})
    raw["validate"] = trim_validation(validation, mapping["service"])

    # 4. The yardstick, one JVM for all points.
    lines_file = tmp / "points.txt"
    all_args = [r["args"] for r in rows] + [v["args"] for v in vrows if v["args"]]
    unique = []
    for a in all_args:
        if a not in unique:
            unique.append(a)
    lines_file.write_text("".join(" ".join(a) + "\n" for a in unique))
    p, ysecs = run(["bash", HERE / "yardstick" / "yardstick.sh", ws, lines_file, "--json", "--calls", calls,
                    "--warmup", warmup, "--warmup-cpu-ms", warmup_cpu_ms, "--min-cpu-ms", min_cpu_ms])
    if p.returncode != 0:
        say(p.stderr[-3000:])
        sys.exit("accuracy: the yardstick failed")
    yard = json.loads(p.stdout)
    raw["yardstick"] = yard
    by_args = {tuple(pt["args"]): pt for pt in yard["points"]}
    if yard["points"] and "warmup_cpu_ms" in yard["points"][0]:
        wc = [pt["warmup_cpu_ms"] for pt in yard["points"]]
        wn = [pt["warmup_calls"] for pt in yard["points"]]
        cn = [pt["count"] for pt in yard["points"]]
        say()
        say(f"# yardstick warm-up per point: {min(wc):.0f} to {max(wc):.0f} ms of CPU time in {min(wn)} to {max(wn)}"
            f" calls; measured {min(cn)} to {max(cn)} calls per point ({len(wc)} points, {ysecs:.0f} s)")
    say()
    say(f"## fresh points: beagle predict beside the yardstick (predict {sum(1 for r in rows if r['predicted_ms'] is not None)}"
        f"/{len(rows)}; yardstick {ysecs:.0f} s, clock {yard['clock_ms'] * 1000:.2f} us per reading)")
    trows, errors, labels = [], [], []
    for r in rows:
        y = by_args.get(tuple(r["args"]))
        r["yardstick"] = y
        e = rel(r["predicted_ms"], y and y["mean_ms"])
        label = " ".join(f"{k}={fmt(v)}" for k, v in r["point"].items()) + (" (smallest)" if r["smallest"] else "")
        errors.append(e)
        labels.append(label)
        ratio = "-" if e is None else f"{r['predicted_ms'] / y['mean_ms']:.2f}"
        trows.append([label, ms(r["predicted_ms"]), ms(y and y["mean_ms"]), ms(y and y["median_ms"]), ratio, pct(e)])
    say(table(["point", "predicted ms", "yardstick ms", "(median)", "pred/yard", "relative error"], trows))
    for r in rows:
        if r["problem"]:
            say(f"note: predict at {' '.join(r['args'])}: {r['problem']}")
    fresh = [i for i, r in enumerate(rows) if not r["smallest"]]
    smallest = [i for i, r in enumerate(rows) if r["smallest"]]
    say(f"predicted vs yardstick: {summary([errors[i] for i in fresh], [labels[i] for i in fresh])}")
    if smallest:
        say(f"the smallest calls (every range at its lower end): {summary([errors[i] for i in smallest], [labels[i] for i in smallest])}")
        say(f"all points, the smallest calls included: {summary(errors, labels)}")
    raw["rows"] = rows

    say()
    say(f"## beagle validate --json at its own {len(vrows)} points ({vsecs:.0f} s; what validate measures: its"
        " plain build, probes only at the services' entries and exits, net of their cost) beside the yardstick at the same points")
    vt, pe, me, vl = [], [], [], []
    for v in vrows:
        r = v["validate"]
        y = by_args.get(tuple(v["args"])) if v["args"] else None
        label = " ".join(f"{k}={fmt(x)}" for k, x in v["point"].items()) if v["point"] else \
            ", ".join(f"{k}={x:g}" for k, x in r["inputs"].items())
        e1, e2 = rel(r["predicted_ms"], y and y["mean_ms"]), rel(r["measured_ms"], y and y["mean_ms"])
        pe.append(e1)
        me.append(e2)
        vl.append(label)
        vt.append([label, ms(r["predicted_ms"]), ms(r["measured_ms"]), ms(y and y["mean_ms"]),
                   pct(rel(r["predicted_ms"], r["measured_ms"])), pct(e1), pct(e2)])
        v["yardstick"] = y
    if vt:
        say(table(["validate's point", "predicted ms", "measured ms", "yardstick ms", "pred vs meas",
                   "pred vs yard", "meas vs yard"], vt))
        say(f"predicted vs yardstick: {summary(pe, vl)}")
        say(f"validate's measured vs yardstick: {summary(me, vl)}")
        s = next((s for s in validation["services"] if is_service(s["service"], mapping["service"])), None)
        if s:
            say(f"validate's own verdict: median {pct(s['median_relative_error'])}, worst {pct(s['max_relative_error'])}")
    for n in (validation or {}).get("notes", []):
        say(f"validate note: {n}")
    say("note: validate picks its own fresh points (a seeded hypercube away from the analysis's first pass,"
        " server/java/src/launch/points.rs: fresh_points); they differ from the points above. Its points are"
        " mapped back to launch arguments with the [launch] table of"
        f" {mapping_file.relative_to(ROOT) if mapping_file.is_relative_to(ROOT) else mapping_file}.")
    raw["validate_rows"] = vrows

    txt.write_text("\n".join(lines) + "\n")
    txt.with_suffix(".json").write_text(json.dumps(raw, indent=1, default=str) + "\n")
    print(f"results: {txt.relative_to(ROOT)} (and .json)")
    if os.environ.get("KEEP") == "1":
        print(f"kept: {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
