#!/usr/bin/env bash
# Kieker import of a large CIPM log: `beagle analyse --kieker` (streamed import and the analysis
# of the events example's model, no genetic programming) beside pandas.read_csv and Python's csv
# reading the same files, in one run. Peak memory from /usr/bin/time. SIZE_MB (default 1000).
# PYTHON: a python with pandas (default: python3). BEAGLE: the binary (default: release build).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
size="${SIZE_MB:-1000}"
py="${PYTHON:-python3}"
beagle="${BEAGLE:-$root/target/release/beagle}"
work="${WORK:-$here/.work}"
mkdir -p "$work" "$here/results"
out="$here/results/run-$(date -u +%Y%m%d-%H%M%S).txt"
log="$work/log"
# KEEP=1: measure the log generated before (its size as it is).
if [ -z "${KEEP:-}" ]; then
  python3 "$here/generate.py" "$log" "$size" | tee "$out"
fi
du -sb "$log" | tee -a "$out"
records=$(cat "$log"/*.dat | wc -l)
echo "records (lines, metadata included): $records" | tee -a "$out"
ws="$work/ws"
rm -rf "$ws" && mkdir -p "$ws"
cp "$root/fixtures/events-example/FileShare.repository" "$ws/"
measure() {
  local name="$1"; shift
  /usr/bin/time -f "$name: wall %e s, peak RSS %M KB" "$@" > "$work/$name.out" 2> "$work/$name.err" || { cat "$work/$name.err"; exit 1; }
  tail -1 "$work/$name.err" | tee -a "$out"
}
measure beagle "$beagle" analyse "$ws/FileShare.repository" --kieker "$log" --no-gp --json
grep -o '"[^"]*streamed from[^"]*"' "$work/beagle.out" | tee -a "$out" || true
measure pandas "$py" "$here/peers.py" pandas "$log"
cat "$work/pandas.out" | tee -a "$out"
measure csv "$py" "$here/peers.py" csv "$log"
cat "$work/csv.out" | tee -a "$out"
echo "results: $out"
