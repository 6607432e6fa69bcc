#!/usr/bin/env bash
# Is a section's demand net of the probes? (issue 35; see README.md, "Net of the probe".)
# Builds the probe runtime and NetCost.java with javac, runs NetCost in JVMS fresh JVMs (each:
# busy loops tuned to 200 ns, 1 µs and 10 µs uninstrumented, timed flat and nested in CPU sections
# as the instrumenter writes them), and rewrites NET-RESULTS.md beside this file.
#
#   bash benchmarks/probe/net.sh
#   JVMS=5 ROUNDS=31 CALLS=2000 bash benchmarks/probe/net.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
JVMS="${JVMS:-5}"
ROUNDS="${ROUNDS:-21}"
CALLS="${CALLS:-2000}"
TARGETS="${TARGETS:-200 1000 10000}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/beagle-bench-net.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
javac --release 17 -encoding UTF-8 -d "$TMP/classes" "$ROOT"/server/java/probe/beagle/probe/*.java "$HERE/NetCost.java"
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
for j in $(seq 1 "$JVMS"); do
    # shellcheck disable=SC2086
    java -Xms256m -Xmx256m -Dbeagle.events="$TMP/events-$j" -cp "$TMP/classes" NetCost "$ROUNDS" "$CALLS" $TARGETS \
        | sed "s/^/$j /" >> "$TMP/lines"
    rm -f "$TMP/events-$j"
done
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$TMP/lines" "$HERE/NET-RESULTS.md" "$JVMS" "$ROUNDS" "$CALLS" "$load_start" "$load_end" <<'PY'
import sys, statistics, datetime, platform, subprocess
lines, out, jvms, rounds, calls, load_start, load_end = sys.argv[1:]
rows = {}
for line in open(lines):
    j, target, config, plain, net, err = line.split()
    rows.setdefault((int(target), config), []).append((float(plain), float(net), float(err)))
java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[1]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
with open(out, "w") as f:
    f.write("# Net of the probe: results\n\n")
    f.write("Produced by `benchmarks/probe/net.sh` (what is measured: README.md, \"Net of the probe\").\n\n")
    f.write(f"- Date: {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC\n")
    f.write(f"- Machine: {cpu}, {platform.release()}; load average (1, 5, 15 min) at the start {load_start}, at the end {load_end}\n")
    f.write(f"- {java}\n")
    f.write(f"- {jvms} JVMs, each {rounds} rounds of {calls} calls per configuration; per JVM the median over rounds\n\n")
    f.write("The peer is the same busy loop uninstrumented, timed in the same JVM between the instrumented rounds\n")
    f.write("(thread CPU time over all its calls). `outer` holds the inner section and as much work again: its\n")
    f.write("expected net cost is twice the target's.\n\n")
    f.write("| target | section | uninstrumented (ns, median over JVMs) | net of the probe (ns) | error, median over JVMs | worst JVM |\n")
    f.write("|---:|---|---:|---:|---:|---:|\n")
    worst_all = 0.0
    for (target, config), rs in sorted(rows.items(), key=lambda kv: (kv[0][0], ["flat", "outer", "inner"].index(kv[0][1]))):
        plain = statistics.median(r[0] for r in rs)
        net = statistics.median(r[1] for r in rs)
        errs = [r[2] for r in rs]
        med = statistics.median(errs)
        worst = max(errs, key=abs)
        worst_all = max(worst_all, abs(med))
        f.write(f"| {target} ns | {config} | {plain:.1f} | {net:.1f} | {100*med:+.1f} % | {100*worst:+.1f} % |\n")
    f.write(f"\nLargest median error: {100*worst_all:.1f} % (target: 5 %).\n")
print(open(out).read())
PY
