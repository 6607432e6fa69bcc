#!/usr/bin/env bash
# Import speed (Beagle events format, Kieker text logs) against Python readers, and the analysis
# loop's own overhead against direct fitting, all in one run; rewrites results/results.jsonl and
# RESULTS.md beside this file. About 3.5 minutes on the 2-core machine; run it on an idle machine
# (everything is wall-clock and single-threaded, but a neighbour shares caches and memory bandwidth).
#
#   bash benchmarks/analysis/run.sh
#   PYTHON=/path/to/venv/bin/python RUNS=5 bash benchmarks/analysis/run.sh
#
# The peers need Python 3; orjson and pandas are optional (their rows are left out when the
# interpreter cannot import them): python3 -m venv venv && venv/bin/pip install orjson pandas.
# The generated inputs (about 0.6 GB) go to a temporary directory that is removed at the end.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-python3}"
RUNS="${RUNS:-5}"
EVENTS="${EVENTS:-1000000}"
OER_RECORDS="${OER_RECORDS:-1000000}"
LOOP_RUNS="${LOOP_RUNS:-3}"
OUT="$HERE/results"
RES="$OUT/results.jsonl"
mkdir -p "$OUT"

cargo build --release --locked -p beagle-bench-analysis --manifest-path "$ROOT/Cargo.toml"
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/beagle-bench-analysis"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/beagle-bench-analysis.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
step() { echo "=== $* ($(date -u +%H:%M:%S))" >&2; }

step "generate inputs into $WORK"
"$BIN" generate "$WORK" --events "$EVENTS" --oer-records "$OER_RECORDS"
: > "$RES"

has() { "$PYTHON" -c "import $1" 2>/dev/null; }

step "events format: Beagle read_events"
"$BIN" events "$WORK/events.jsonl" --runs "$RUNS" >> "$RES"
step "events format: Python json"
"$PYTHON" "$HERE/peers/events_json.py" "$WORK/events.jsonl" --impl json --runs "$RUNS" >> "$RES"
if has orjson; then
  step "events format: Python orjson"
  "$PYTHON" "$HERE/peers/events_json.py" "$WORK/events.jsonl" --impl orjson --runs "$RUNS" >> "$RES"
else
  echo "orjson not importable by $PYTHON: its row is left out" >&2
fi

for kind in cipm oer; do
  same=()
  [ "$kind" = cipm ] && same=(--same-as "$WORK/events.jsonl")
  step "Kieker $kind: Beagle read_log + convert"
  "$BIN" kieker "$WORK/kieker-$kind" --kind "$kind" --runs "$RUNS" "${same[@]}" >> "$RES"
  step "Kieker $kind: Python csv"
  "$PYTHON" "$HERE/peers/kieker_csv.py" "$WORK/kieker-$kind" --kind "$kind" --impl csv --runs "$RUNS" >> "$RES"
  if has pandas; then
    step "Kieker $kind: pandas"
    "$PYTHON" "$HERE/peers/kieker_csv.py" "$WORK/kieker-$kind" --kind "$kind" --impl pandas --runs "$RUNS" >> "$RES"
  else
    echo "pandas not importable by $PYTHON: its row is left out" >&2
  fi
done

step "analysis loop against direct medians (5, 20, 80 elements), constant analyser only"
"$BIN" loop --config constant --services 1,4,16 --runs 20 >> "$RES"
step "analysis loop against direct fitting (5, 20, 80 elements), regression only"
"$BIN" loop --config regression --services 1,4,16 --runs "$RUNS" >> "$RES"
step "analysis loop against direct fitting (5, 20, 80 elements), no GP"
"$BIN" loop --config no-gp --services 1,4,16 --runs "$LOOP_RUNS" >> "$RES"

"$BIN" report "$RES" --python "$("$PYTHON" --version 2>&1)" > "$HERE/RESULTS.md"
step "wrote $HERE/RESULTS.md"
