#!/usr/bin/env bash
# Same-run side-by-side of `beagle fit` with Operon, gplearn and the best-subset BIC baseline on
# the symbolic-regression problems of ../shared/bench/sr (groups perf at all three noise levels,
# and nguyen), 10 s per problem, one thread, seed 1. Writes results/ and RESULTS-style tables.
#
#   bash benchmarks/sr/run.sh            # everything (~35 min on the 2-core machine)
#   SOLVERS="beagle" bash benchmarks/sr/run.sh   # only some solvers (the others' CSVs are kept)
#
# Needs Python 3 with: pip install pyoperon gplearn sympy numpy scikit-learn pandas scipy
# (PYTHON=/path/to/venv/bin/python to choose the interpreter). Solvers run one at a time: the
# machine has 2 cores, and a neighbour would steal the budget of the solver being measured.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
HARNESS="${SR_HARNESS:-$ROOT/../shared/bench/sr}"
PYTHON="${PYTHON:-python3}"
BUDGET="${BUDGET:-10}"
SOLVERS="${SOLVERS:-beagle operon gplearn baseline_bic}"
OUT="$HERE/results"
mkdir -p "$OUT"

cargo build --release --locked -p beagle-cli --manifest-path "$ROOT/Cargo.toml"
BEAGLE="${CARGO_TARGET_DIR:-$ROOT/target}/release/beagle"

{
  echo "date: $(date -Is)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet || echo ' (dirty)')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "python: $("$PYTHON" --version 2>&1)"
  "$PYTHON" -c 'import importlib.metadata as m; print("pyoperon", m.version("pyoperon")); print("gplearn", m.version("gplearn"))'
  echo "budget: $BUDGET s, SR_THREADS=1, seed 1"
} > "$OUT/machine.txt"

cd "$HARNESS"
for s in $SOLVERS; do
  echo "=== $s $(date -Is)"
  if [ "$s" = beagle ]; then
    "$PYTHON" run_anchor.py "cmd:$BEAGLE fit" --tag beagle --budget "$BUDGET" --group perf,nguyen \
      --out "$OUT/results_beagle.csv" > "$OUT/log_beagle.txt" 2>&1
  else
    "$PYTHON" run_anchor.py "$s" --budget "$BUDGET" --group perf,nguyen \
      --out "$OUT/results_$s.csv" > "$OUT/log_$s.txt" 2>&1
  fi
done
csvs=()
for s in beagle operon gplearn baseline_bic; do
  [ -f "$OUT/results_$s.csv" ] && csvs+=("$OUT/results_$s.csv")
done
"$PYTHON" run_anchor.py summarize "${csvs[@]}" > "$OUT/summary.md"
echo "wrote $OUT/summary.md"
