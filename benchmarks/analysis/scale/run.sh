#!/usr/bin/env bash
# Issue 16's scale benchmark: time, peak memory and store size of one `beagle analyse` of a
# service that loops over its items, against the executions of the looped action per point
# (50 parameter points), for two Beagle binaries side by side: BEFORE (named by BEFORE_NAME, e.g.
# the commit before issue 16's change) and AFTER (this tree's). Each level is measured on events
# as a per-iteration recorder writes them ("raw", up to RAW_MAX executions per point: 690 MB of
# events at 100k) and, for AFTER, as a probe that aggregates at the source writes them
# ("aggregate": one total per call; BEFORE cannot read those). Writes results/results.jsonl (one
# line per measurement) and RESULTS.md.
#
#   BEFORE=/path/to/old/beagle BEFORE_NAME=5c34c8e bash benchmarks/analysis/scale/run.sh
#   LEVELS="1000 10000" TIMEOUT=300 ... bash benchmarks/analysis/scale/run.sh
#   LEVELS="" BEFORE=... bash benchmarks/analysis/scale/run.sh    # the Java hot loop only
#
# Does not build Beagle: AFTER defaults to <repo>/target/release/beagle. Each binary is copied
# first, so a rebuild during the run does not mix versions. A run that exceeds TIMEOUT seconds
# (default 900) or fails is recorded as such, not retried. The inputs are generated into a
# temporary directory (6 GB at a million executions per point) and removed at the end.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
LEVELS="${LEVELS-1000 10000 100000 1000000}"
RAW_MAX="${RAW_MAX:-100000}"
export MEMORY_LIMIT_MB="${MEMORY_LIMIT_MB:-8000}"   # address space per run: the machine stays usable
TIMEOUT="${TIMEOUT:-900}"
AFTER="${AFTER:-${CARGO_TARGET_DIR:-$ROOT/target}/release/beagle}"
AFTER_NAME="${AFTER_NAME:-$(git -C "$ROOT" rev-parse --short HEAD)}"
PYTHON="${PYTHON:-python3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/beagle-scale.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$HERE/results"
OUT="$HERE/results/results.jsonl"
# LEVELS="" measures only the Java hot loop and keeps the events levels of the last run.
if [ -n "$LEVELS" ]; then : > "$OUT"; fi
declare -a NAMES BINS
if [ -n "${BEFORE:-}" ]; then
  cp "$BEFORE" "$WORK/beagle-before"; NAMES+=("${BEFORE_NAME:-before}"); BINS+=("$WORK/beagle-before")
fi
cp "$AFTER" "$WORK/beagle-after"; NAMES+=("$AFTER_NAME"); BINS+=("$WORK/beagle-after")
measure() { # binary-index format level dir events-bytes
  local i=$1 format=$2 level=$3 dir=$4 events_bytes=$5
  rm -rf "$dir/.beagle"
  status=0
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" timeout "$TIMEOUT" \
    sh -c 'ulimit -v $(( $1 * 1024 )); exec "$2" analyse "$3" --json' sh "$MEMORY_LIMIT_MB" "${BINS[$i]}" "$dir" \
    > "$WORK/report.json" 2> "$WORK/stderr.txt" || status=$?
  read -r wall rss_kb < <(tail -1 "$WORK/time.txt" | grep -E '^[0-9.]+ [0-9]+$' || echo "nan 0")
  store=$(du -sb "$dir/.beagle" 2>/dev/null | cut -f1 || echo 0)
  "$PYTHON" - "$OUT" "${NAMES[$i]}" "$format" "$level" "$status" "$wall" "$rss_kb" "${store:-0}" "$events_bytes" \
    "$WORK/report.json" "$WORK/gen.txt" "$WORK/stderr.txt" <<'PY'
import json, sys
out, name, fmt, level, status, wall, rss, store, events, report, gen, stderr = sys.argv[1:]
laws = {}
try:
    for r in json.load(open(report))["results"]:
        laws[r["element"]] = [r["expression"], r["status"]]
except Exception:
    pass
row = dict(binary=name, format=fmt, memory_limit_mb=int(__import__("os").environ.get("MEMORY_LIMIT_MB", "0")), per_point=int(level), exit=int(status), wall_s=float(wall),
           peak_rss_mb=int(rss) / 1024, store_mb=int(store) / 1e6, events_mb=int(events) / 1e6,
           generated=open(gen).read().strip(), laws=laws,
           stderr_tail=open(stderr, errors="replace").read()[-300:] if int(status) else "")
open(out, "a").write(json.dumps(row) + "\n")
print(f"{name:10s} {fmt:9s} {level:>8s} exec/point: exit {status} {wall} s {int(rss)/1024:.0f} MB store {int(store)/1e6:.1f} MB", flush=True)
PY
}
last=$(( ${#BINS[@]} - 1 ))
for level in $LEVELS; do
  dir="$WORK/ws-$level"
  if [ "$level" -le "$RAW_MAX" ]; then
    "$PYTHON" "$HERE/generate.py" "$dir" --per-point "$level" > "$WORK/gen.txt"
    events_bytes=$(stat -c %s "$dir/import.events")
    for i in "${!BINS[@]}"; do measure "$i" raw "$level" "$dir" "$events_bytes"; done
    rm -rf "$dir"
  fi
  "$PYTHON" "$HERE/generate.py" "$dir" --per-point "$level" --aggregate > "$WORK/gen.txt"
  events_bytes=$(stat -c %s "$dir/import.events")
  measure "$last" aggregate "$level" "$dir" "$events_bytes"
  rm -rf "$dir"
done
# The Java hot loop (fixtures/hotloop, measuring included), each binary once, unless JAVA=0.
JAVA_OUT="$HERE/results/java.jsonl"
if [ "${JAVA:-1}" != 0 ]; then
  : > "$JAVA_OUT"
  for i in "${!BINS[@]}"; do
    dir="$WORK/hotloop"
    rm -rf "$dir"; cp -r "$ROOT/fixtures/hotloop" "$dir"; rm -rf "$dir/.beagle"
    echo "" > "$WORK/gen.txt"
    OUT="$JAVA_OUT" measure "$i" java 0 "$dir" 0
    rm -rf "$dir"
  done
fi
"$PYTHON" "$HERE/report.py" "$OUT" "$JAVA_OUT" > "$HERE/RESULTS.md"
echo "wrote $OUT and $HERE/RESULTS.md"
