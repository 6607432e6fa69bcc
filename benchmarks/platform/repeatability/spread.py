"""The spread of several platform profiles: per key (max - min) / median, and of the suite total
(the sum of every timing, as `Profile::suite_total_ns` computes it). Prints Markdown."""
import statistics
import sys
import tomllib

profiles = [tomllib.load(open(p, "rb")) for p in sys.argv[1:]]


def timings(p):
    out = {}
    for k, v in p["instructions"].items():
        out[f"compiled {k}"] = v
    for k, v in p.get("interpreted", {}).items():
        out[f"interpreted {k}"] = v
    for section in ("methods", "arrays"):
        for k, c in p.get(section, {}).items():
            out[f"{k} call"] = c["call_ns"]
            out[f"{k} element"] = c.get("element_ns", 0.0)
    return out


def total(p):
    t = sum(p["instructions"].values())
    for section in ("methods", "arrays"):
        t += sum(c["call_ns"] + c.get("element_ns", 0.0) for c in p.get(section, {}).values())
    return t


def spread(xs):
    m = statistics.median(xs)
    return 0.0 if m == 0 else (max(xs) - min(xs)) / m * 100


rows = [timings(p) for p in profiles]
keys = sorted(set.intersection(*(set(r) for r in rows)))
totals = [total(p) for p in profiles]
over = [(k, spread([r[k] for r in rows])) for k in keys if spread([r[k] for r in rows]) > 2]
p0 = profiles[0]["platform"]
print("# Calibration repeatability\n")
print(f"{len(profiles)} calibrations with `beagle calibrate` (default JVM options) on {p0['host']} "
      f"({p0['cpu']}, {p0['cores']} cores), {p0['jvm']}; run times "
      + ", ".join(f"{p.get('calibration_s', 0):.1f} s" for p in profiles) + ".")
print("Spread = (max - min) / median over the runs. Reproduce: `benchmarks/platform/repeatability/run.sh`.\n")
print(f"**Suite total**: " + ", ".join(f"{t:.1f}" for t in totals)
      + f" ns, spread **{spread(totals):.2f} %**.\n")
print(f"{len(keys) - len(over)} of {len(keys)} timings are within 2 %; {len(over)} are not:\n")
print("| timing | runs (ns) | spread |\n|---|---|---|")
for k, s in sorted(over, key=lambda x: -x[1]):
    print(f"| {k} | " + ", ".join(f"{r[k]:.4g}" for r in rows) + f" | {s:.1f} % |")
print("\n<details><summary>Every timing</summary>\n")
print("| timing | runs (ns) | spread |\n|---|---|---|")
for k in keys:
    print(f"| {k} | " + ", ".join(f"{r[k]:.4g}" for r in rows) + f" | {spread([r[k] for r in rows]):.1f} % |")
print("\n</details>")
