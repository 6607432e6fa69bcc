#!/usr/bin/env bash
# Search throughput on one core, in the same run: Operon and gplearn through the harness's
# throughput.py, then Beagle's GP evaluator (server/fit/examples/gp_throughput.rs) on the same two
# problems (perf_nm__exact, perf_3var__exact). Writes results/throughput.txt.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
HARNESS="${SR_HARNESS:-$ROOT/../shared/bench/sr}"
PYTHON="${PYTHON:-python3}"
OUT="$HERE/results"
mkdir -p "$OUT"
cargo build --release --locked -p beagle-fit --example gp_throughput --manifest-path "$ROOT/Cargo.toml"
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/gp_throughput"
DATA="$(mktemp -d)"
trap 'rm -rf "$DATA"' EXIT
(cd "$HARNESS" && "$PYTHON" problems.py --dump "$DATA" > /dev/null)
{
  echo "# $(date -Is), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), one thread, 10 s each"
  (cd "$HARNESS" && "$PYTHON" throughput.py)
  for p in perf_nm__exact perf_3var__exact; do
    "$BIN" "$DATA/$p/train.csv" --name "$p"
  done
} 2>&1 | tee "$OUT/throughput.txt"
