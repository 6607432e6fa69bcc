#!/usr/bin/env bash
# Search throughput on one core, in the same run: Operon and gplearn through the harness's
# throughput.py, Beagle's GP evaluator (runner/src/bin/gp_throughput.rs), then Operon's and
# Beagle's whole search loops over seeds 1-5 (throughput_seeds.py) on the same two problems
# (perf_nm__exact, perf_3var__exact). Writes results/throughput.txt (~10 min).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
HARNESS="${SR_HARNESS:-$ROOT/../shared/bench/sr}"
PYTHON="${PYTHON:-python3}"
OUT="$HERE/results"
mkdir -p "$OUT"
cargo build --release --locked -p beagle-bench-sr --bins --manifest-path "$ROOT/Cargo.toml"
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/gp_throughput"
RUN="${CARGO_TARGET_DIR:-$ROOT/target}/release/gp_run"
DATA="$(mktemp -d)"
trap 'rm -rf "$DATA"' EXIT
(cd "$HARNESS" && "$PYTHON" problems.py --dump "$DATA" > /dev/null)
{
  echo "# $(date -Is), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), one thread, 10 s each"
  echo "## The harness's figures (Operon random_state=1, gplearn)"
  (cd "$HARNESS" && "$PYTHON" throughput.py)
  echo "## Beagle: evaluation and constant optimisation of a fixed random population"
  for p in perf_nm__exact perf_3var__exact; do
    "$BIN" "$DATA/$p/train.csv" 10
  done
  # The whole search loop (selection, variation, evaluation), as Operon's figure is measured:
  # 10 s, no early stop, with 10 and with 0 Levenberg-Marquardt iterations, seeds 1-5 of both,
  # alternating, medians compared.
  echo "## Whole search loop, Operon and Beagle, seeds 1-5"
  "$PYTHON" "$HERE/throughput_seeds.py" --harness "$HARNESS" --gp-run "$RUN" --data "$DATA" --seeds 5 --seconds 10
} 2>&1 | tee "$OUT/throughput.txt"
