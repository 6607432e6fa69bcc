#!/usr/bin/env bash
# Search throughput on one core, in the same run: Operon and gplearn through the harness's
# throughput.py, then Beagle's GP evaluator (runner/src/bin/gp_throughput.rs) on the same two
# problems (perf_nm__exact, perf_3var__exact). Writes results/throughput.txt.
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
  (cd "$HARNESS" && "$PYTHON" throughput.py)
  for p in perf_nm__exact perf_3var__exact; do
    echo "beagle $p, evaluation and constant optimisation of a fixed random population:"
    "$BIN" "$DATA/$p/train.csv" 10
    # The whole search loop (selection, variation, evaluation), as Operon's figure is measured:
    # 10 s, no early stop, unseeded, with 10 and with 0 Levenberg-Marquardt iterations.
    for it in 10 0; do
      echo "beagle $p, whole GP loop, lm_iters=$it:"
      GP_TIME=10 GP_GENS=1000000 GP_STAGNATION=1000000 GP_EXACT=-1 GP_ITER=$it "$RUN" "$DATA/$p/train.csv" | grep -m1 generations
    done
  done
} 2>&1 | tee "$OUT/throughput.txt"
