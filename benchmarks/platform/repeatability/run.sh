#!/usr/bin/env bash
# Calibrates this machine 3 times with the default JVM options and writes the per-key spread of
# the three profiles and of their suite totals into RESULTS.md (issue 39: repeatable within 2 %).
# Usage: benchmarks/platform/repeatability/run.sh [extra `beagle calibrate` options]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$root"
cargo build --quiet -p beagle-cli
beagle="${CARGO_TARGET_DIR:-$root/target}/debug/beagle"
for i in 1 2 3; do
  start=$(date +%s)
  "$beagle" calibrate --out "$here/profile-$i.toml" --name "repeatability $i" "$@" >/dev/null
  echo "calibration $i: $(( $(date +%s) - start )) s"
done
python3 "$here/spread.py" "$here"/profile-{1,2,3}.toml > "$here/RESULTS.md"
cat "$here/RESULTS.md"
