#!/usr/bin/env bash
# Trust benchmark: `beagle fit` beside the best-subset BIC baseline and Operon in the same run, on
# pure noise (100 instances: does the answer use a variable?) and on five-point linear laws
# (50 instances: linear in the right variable, <= 2 constants, fresh points within 15 %).
# Solvers run one after another (2-core machine), one thread each, seed 1. Writes
# results/results_<solver>.csv, results/log_<solver>.txt, results/machine.txt, results/summary.md.
#
#   bash benchmarks/trust/run.sh                       # everything (~7 min)
#   SOLVERS="beagle" bash benchmarks/trust/run.sh      # only some solvers (the others' CSVs are kept)
#   LIMIT=5 bash benchmarks/trust/run.sh               # smoke test: the first 5 instances per family
#
# Does NOT build Beagle: build it first (cargo build --release -p beagle-cli). The binary is
# ${CARGO_TARGET_DIR:-<repo>/target}/release/beagle, or $BEAGLE. It is copied to a temporary file
# for the run, so a rebuild in the meantime does not mix two versions in one result file.
# Env: PYTHON (interpreter with pyoperon sympy numpy scipy ...), BUDGET (s per problem, default 2),
# SOLVERS, LIMIT, FAMILIES (default noise,five; noise1 is opt-in), SR_HARNESS (the shared
# harness folder, default <repo>/../shared/bench/sr),
# TRUST_WORK (where the CSVs are written, default $TMPDIR/beagle-trust-work).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
export SR_HARNESS="${SR_HARNESS:-$ROOT/../shared/bench/sr}"
PYTHON="${PYTHON:-python3}"
BUDGET="${BUDGET:-2}"
SOLVERS="${SOLVERS:-beagle baseline_bic operon}"
LIMIT="${LIMIT:-0}"
FAMILIES="${FAMILIES:-noise,five}"
OUT="$HERE/results"
mkdir -p "$OUT"

BEAGLE="${BEAGLE:-${CARGO_TARGET_DIR:-$ROOT/target}/release/beagle}"
case " $SOLVERS " in
  *" beagle "*)
    if [ ! -x "$BEAGLE" ]; then
      echo "no beagle binary at $BEAGLE: build it (cargo build --release -p beagle-cli) or set BEAGLE" >&2
      exit 1
    fi ;;
esac
BIN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/beagle-trust-bin.XXXXXX")"
trap 'rm -rf "$BIN_DIR"' EXIT
if [ -x "$BEAGLE" ]; then
  cp "$BEAGLE" "$BIN_DIR/beagle"
fi

started=$(date +%s)
{
  echo "date: $(date -Is)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (dirty)')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "python: $("$PYTHON" --version 2>&1)"
  "$PYTHON" -c 'import importlib.metadata as m
for p in ("pyoperon", "sympy", "numpy"):
    try:
        print(p, m.version(p))
    except m.PackageNotFoundError:
        print(p, "not installed")'
  if [ -x "$BIN_DIR/beagle" ]; then
    echo "beagle: $BEAGLE ($(stat -c '%y' "$BEAGLE" | cut -d. -f1), sha256 $(sha256sum "$BIN_DIR/beagle" | cut -c1-16))"
  fi
  echo "harness: $SR_HARNESS"
  echo "budget: $BUDGET s per problem, SR_THREADS=1, seed 1, solvers one after another: $SOLVERS"
  echo "families: $FAMILIES"
  if [ "$LIMIT" != 0 ]; then echo "limit: first $LIMIT instances per family"; fi
} > "$OUT/machine.txt"

lim=(--family "$FAMILIES")
if [ "$LIMIT" != 0 ]; then lim+=(--limit "$LIMIT"); fi
for s in $SOLVERS; do
  echo "=== $s $(date -Is)"
  t0=$(date +%s)
  if [ "$s" = beagle ]; then
    "$PYTHON" "$HERE/trust.py" run "cmd:$BIN_DIR/beagle fit" --tag beagle --budget "$BUDGET" "${lim[@]}" \
      --out "$OUT/results_beagle.csv" > "$OUT/log_beagle.txt" 2>&1
  else
    "$PYTHON" "$HERE/trust.py" run "$s" --budget "$BUDGET" "${lim[@]}" \
      --out "$OUT/results_$s.csv" > "$OUT/log_$s.txt" 2>&1
  fi
  echo "$s: $(( $(date +%s) - t0 )) s" | tee -a "$OUT/machine.txt"
done
{
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "total: $(( $(date +%s) - started )) s"
} >> "$OUT/machine.txt"

csvs=()
# the kept "before" baseline (made by hand from the first run), shown as beagle_before
if [ -f "$OUT/before_results_beagle.csv" ]; then csvs+=("$OUT/before_results_beagle.csv"); fi
for s in beagle baseline_bic operon gplearn; do
  if [ -f "$OUT/results_$s.csv" ]; then csvs+=("$OUT/results_$s.csv"); fi
done
"$PYTHON" "$HERE/trust.py" summarize "${csvs[@]}" --out "$OUT/summary.md"
cat "$OUT/machine.txt"
