#!/usr/bin/env bash
# The probes' overhead, MooBench-style (see README.md): builds the probe runtime and MonitoredLoop
# with javac, runs every configuration round-robin in one JVM per probe variant, and rewrites
# RESULTS.md beside this file. Variants: the probe as committed at BEFORE (the first probe
# runtime), the current one with CPU clock reuse off (-Dbeagle.cpuReuseNs=0: every CPU section
# reads the clock twice), and the current one as shipped. Run it on an idle machine.
#
#   bash benchmarks/probe/run.sh
#   CALLS=1000000 REPS=9 WORK=200 bash benchmarks/probe/run.sh
#
# Events go to /dev/null by default (the write system call per 64 KiB buffer is counted, the disk
# is not); EVENTS=/path/file writes a real file (removed after each variant).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CALLS="${CALLS:-2000000}"
REPS="${REPS:-5}"
WARMUP="${WARMUP:-2}"
WORK="${WORK:-100}"
BEFORE="${BEFORE:-37fd9e3}"
EVENTS="${EVENTS:-/dev/null}"
JAVA_OPTS="${JAVA_OPTS:--Xms256m -Xmx256m}"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/beagle-bench-probe.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

# build VARIANT PROBE_DIR: probe runtime + benchmark into $TMP/VARIANT.
build() {
    mkdir -p "$TMP/$1"
    javac --release 17 -encoding UTF-8 -d "$TMP/$1" "$2"/beagle/probe/*.java "$HERE/MonitoredLoop.java" "$HERE/ClockCost.java"
}
mkdir -p "$TMP/before-src/beagle/probe"
for f in Probe Launcher; do
    git -C "$ROOT" show "$BEFORE:server/java/probe/beagle/probe/$f.java" > "$TMP/before-src/beagle/probe/$f.java"
done
build before "$TMP/before-src"
build current "$ROOT/server/java/probe"

# run NAME CLASSES [JVM ARGS...]: median lines prefixed with NAME into $TMP/medians.
run() {
    local name="$1" classes="$2"
    shift 2
    echo "=== $name ($(date -u +%H:%M:%S))" >&2
    # shellcheck disable=SC2086
    # (The first probe tried to sync /dev/null after every round and said so: not worth a line each.)
    java $JAVA_OPTS "$@" -Dbeagle.events="$EVENTS" -cp "$TMP/$classes" MonitoredLoop "$CALLS" "$REPS" "$WARMUP" "$WORK" \
        2> >(grep -v 'cannot sync events' >&2) \
        | tee "$TMP/$name.log" | awk -v n="$name" '$1 == "median" { print n, $2, $3 }' >> "$TMP/medians"
    if [ "$EVENTS" != /dev/null ]; then rm -f "$EVENTS"; fi
}
: > "$TMP/medians"
LOAD_START="$(cut -d" " -f1-3 /proc/loadavg)"
echo "=== clock costs ($(date -u +%H:%M:%S))" >&2
java $JAVA_OPTS -cp "$TMP/current" ClockCost "$CALLS" "$REPS" | tee "$TMP/clocks.log" >&2
run before before
run current-no-reuse current -Dbeagle.cpuReuseNs=0
run current current

# table VARIANT: configuration, median ns/call, overhead ns, ratio.
table() {
    awk -v v="$1" '$1 == v { c[++n] = $2; ns[n] = $3; if ($2 == "uninstrumented") base = $3 }
        END { print "| configuration | ns per call (median) | overhead (ns) | ratio |"
              print "|---|---:|---:|---:|"
              for (i = 1; i <= n; i++)
                  printf "| %s | %.1f | %.1f | %.2fx |\n", c[i], ns[i], ns[i] - base, ns[i] / base }' "$TMP/medians"
}
# compare CONFIG: overhead of one configuration in each variant.
compare() {
    awk -v cfg="$1" '$2 == "uninstrumented" { base[$1] = $3 } $2 == cfg { o[$1] = $3 }
        END { printf "| %s | %.1f | %.1f | %.1f |\n", cfg, o["before"] - base["before"],
              o["current-no-reuse"] - base["current-no-reuse"], o["current"] - base["current"] }' "$TMP/medians"
}

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
{
    echo "# Probe overhead: results"
    echo
    echo "Produced by \`benchmarks/probe/run.sh\` (what is measured: README.md)."
    echo
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- Machine: $CPU, $(uname -sr), clock source $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
    echo "- Load average (1, 5, 15 min) at the start: $LOAD_START, at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other jobs shared the machine when it is well above 0)"
    echo "- Java: $(java -version 2>&1 | sed -n 2p), options \`$JAVA_OPTS\`"
    echo "- Command: \`CALLS=$CALLS REPS=$REPS WARMUP=$WARMUP WORK=$WORK EVENTS=$EVENTS bash benchmarks/probe/run.sh\`"
    echo "  ($CALLS calls per repetition, median of $REPS repetitions after $WARMUP discarded, $WORK xorshift rounds of work per call)"
    echo
    echo "## The current probe"
    echo
    table current
    echo
    echo "## The floor: one call of each clock (ns, median of $REPS repetitions)"
    echo
    echo 'A CPU section reads the thread CPU clock twice (once when it starts right after another'
    echo 'reading: see the reuse below), a wall section `System.nanoTime` twice; every probe looks up'
    echo "its thread's state once (\`ThreadLocal.get\`). The user-time clock, the other CPU clock Java 17"
    echo 'offers without native code, is no alternative.'
    echo
    echo "| source | ns per call |"
    echo "|---|---:|"
    awk '$1 == "median" { printf "| %s | %s |\n", $2, $3 }' "$TMP/clocks.log"
    echo
    echo "## Before and after: overhead in ns per call"
    echo
    echo "\`before\`: the probe of commit $BEFORE; \`no reuse\`: the current probe with \`-Dbeagle.cpuReuseNs=0\` (two CPU clock reads per section, as before)."
    echo
    echo "| configuration | before | no reuse | current |"
    echo "|---|---:|---:|---:|"
    for c in cpu-section wall-section service service+cpu cpu-section-in-loop; do compare "$c"; done
    echo
    echo "## Every variant"
    for v in before current-no-reuse current; do
        echo
        echo "### $v"
        echo
        table "$v"
    done
    # Sections of example-slowdown.sh runs (whole workloads), kept as they were.
    if [ -f "$HERE/RESULTS.md" ]; then
        echo
        sed -n '/^## The example.s workloads/,$p' "$HERE/RESULTS.md"
    fi
} > "$HERE/RESULTS.md.new"
mv "$HERE/RESULTS.md.new" "$HERE/RESULTS.md"
cat "$HERE/RESULTS.md"
