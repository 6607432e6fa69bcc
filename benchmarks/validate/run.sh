#!/usr/bin/env bash
# Does the model predict its services? `beagle analyse fixtures/fileshare --write` on a fresh
# copy, then `beagle validate --json` at fresh points: per service, predicted beside measured
# thread CPU time. BEAGLE: the binary (default: release build). POINTS (default 8), SEED (1).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
beagle="${BEAGLE:-$root/target/release/beagle}"
work="${WORK:-$here/.work}"
rm -rf "$work" && mkdir -p "$work" "$here/results"
cp -r "$root/fixtures/fileshare" "$work/fileshare"
rm -rf "$work/fileshare/.beagle"
stamp="$(date -u +%Y%m%d-%H%M%S)"
out="$here/results/run-$stamp.json"
{
  echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -sr), $(java -version 2>&1 | head -1)"
  echo "# commit: $(git -C "$root" rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$here/results/run-$stamp.txt"
/usr/bin/time -f "analyse: wall %e s" "$beagle" analyse "$work/fileshare" --write --seed "${SEED:-1}" \
  > "$work/analyse.txt" 2>> "$here/results/run-$stamp.txt"
/usr/bin/time -f "validate: wall %e s" "$beagle" validate "$work/fileshare" --json --points "${POINTS:-8}" \
  --seed "${SEED:-1}" > "$out" 2>> "$here/results/run-$stamp.txt"
python3 - "$out" >> "$here/results/run-$stamp.txt" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for s in report["services"]:
    print(f'{s["service"]}: {s["points"]} points, median {100 * s["median_relative_error"]:.1f} %, '
          f'worst {100 * s["max_relative_error"]:.1f} %{" (incomplete: " + "; ".join(s["problems"]) + ")" if s.get("problems") else ""}')
    if s["seff"] == "_fs_upload_seff":
        for r in s["rows"]:
            inputs = ", ".join(f"{k}={v:g}" for k, v in r["inputs"].items())
            err = abs(r["predicted_ms"] - r["measured_ms"]) / r["measured_ms"]
            print(f'    {inputs}: predicted {r["predicted_ms"]:.3f} ms, measured {r["measured_ms"]:.3f} ms ({100 * err:.1f} %)')
for n in report["notes"]:
    print("note:", n)
PY
cat "$here/results/run-$stamp.txt"
echo "results: $out"
