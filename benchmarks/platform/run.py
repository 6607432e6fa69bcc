"""The platform benchmark (see run.sh): calibrate, analyse and count, validate per flag set."""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BEAGLE = os.environ.get("BEAGLE", str(ROOT / "target/release/beagle"))
POINTS = os.environ.get("POINTS", "6")
SEED = os.environ.get("SEED", "1")
FLAG_SETS = [
    # The measuring platform itself: the floor, what the model's error is where it was measured.
    ("default", ""),
    ("xint", "-Xint"),
    ("nosimd", "-XX:-UseSHA -XX:UseAVX=0"),
    ("c1", "-XX:TieredStopAtLevel=1"),
]


def run(args, log, **kw):
    started = time.time()
    with open(log, "w") as out:
        subprocess.run(args, check=True, stdout=out, stderr=subprocess.STDOUT, **kw)
    return time.time() - started


def toml_with(text, java_keys):
    """beagle.toml with keys set under [java] (replacing what is there)."""
    lines = text.splitlines()
    out, in_java = [], False
    for line in lines:
        if line.strip().startswith("["):
            in_java = line.strip() == "[java]"
            out.append(line)
            if in_java:
                out.extend(f"{k} = {v}" for k, v in java_keys.items())
            continue
        if in_java and re.match(r"\s*(\w+)\s*=", line) and re.match(r"\s*(\w+)", line).group(1) in java_keys:
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    fixtures = sys.argv[1:] or ["fileshare", "hotloop", "finegrained"]
    wanted = os.environ.get("FLAGS")
    flag_sets = [f for f in FLAG_SETS if not wanted or f[0] in wanted.split(",")]
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    out = HERE / "results" / stamp
    work = HERE / ".work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out.mkdir(parents=True)
    timings = {}
    # The measuring platform and the others, each calibrated on this machine.
    timings["calibrate default"] = run([BEAGLE, "calibrate", "--name", "default", "--out", str(out / "default.toml")], out / "calibrate-default.log")
    for name, flags in flag_sets:
        if name == "default":
            continue
        timings[f"calibrate {name}"] = run(
            [BEAGLE, "calibrate", "--name", name, f"--jvm-args={flags}", "--out", str(out / f"{name}.toml")],
            out / f"calibrate-{name}.log",
        )
    for fixture in fixtures:
        analysed = work / fixture
        shutil.copytree(ROOT / "fixtures" / fixture, analysed)
        shutil.rmtree(analysed / ".beagle", ignore_errors=True)
        toml = analysed / "beagle.toml"
        toml.write_text(toml_with(toml.read_text(), {"platform": json.dumps(str(out / "default.toml"))}))
        timings[f"analyse {fixture}"] = run(
            [BEAGLE, "analyse", str(analysed), "--count", "--write", "--seed", SEED], out / f"analyse-{fixture}.log"
        )
        for name, flags in flag_sets:
            there = work / f"{fixture}-{name}"
            shutil.copytree(analysed, there)
            if name == "xint":
                # The interpreter compiles nothing: no warm-up, and room for its slow runs.
                t = there / "beagle.toml"
                t.write_text(toml_with(t.read_text(), {"warmup": 1, "warmup_ms": 0, "timeout": 1800}))
            result = out / f"{fixture}-{name}.json"
            started = time.time()
            with open(result, "w") as f, open(out / f"validate-{fixture}-{name}.log", "w") as log:
                subprocess.run(
                    [BEAGLE, "validate", str(there), "--json", "--points", POINTS, "--seed", SEED,
                     "--platform", str(out / f"{name}.toml"), f"--jvm-args={flags}"],
                    check=True, stdout=f, stderr=log,
                )
            timings[f"validate {fixture} {name}"] = time.time() - started
    (out / "timings.json").write_text(json.dumps(timings, indent=1))
    # A nested service with thousands of points makes tens of MB of JSON: kept gzipped.
    for result in out.glob("*.json"):
        if result.stat().st_size > 1_000_000:
            subprocess.run(["gzip", "-9", str(result)], check=True)
    subprocess.run([sys.executable, str(HERE / "summarise.py"), str(out)], check=True)
    print((out / "RESULTS.md").read_text())


if __name__ == "__main__":
    main()
