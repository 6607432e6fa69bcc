#!/usr/bin/env bash
# The total slowdown of the bundled example's workloads under Beagle's instrumentation: the same
# Driver runs, through the same launcher (warm-up, then measured runs), once compiled from the
# original sources and once from the instrumented copy that `beagle analyse fixtures/fileshare`
# leaves in fixtures/fileshare/.beagle/java (run that first). Prints wall seconds per
# configuration and point, and the ratio. Writes events to /dev/null, as the probe cost is what is
# measured, not the disk.
#
#   FIXTURE=hotloop bash benchmarks/probe/example-slowdown.sh   # the looped import (issue 16)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fixture=${FIXTURE:-fileshare}
case "$fixture" in
  fileshare) main=fileshare.Driver
    points=("--files 40 --size 300000 --compressed 0.5" "--files 10 --size 50000 --compressed 0" "--files 40 --size 1000 --compressed 0" "--files 1 --size 1000 --compressed 1") ;;
  hotloop) main=hotloop.Driver
    points=("--items 100000 --rounds 100" "--items 100000 --rounds 2000" "--items 1000 --rounds 100" "--items 1000 --rounds 2000") ;;
  *) echo "FIXTURE: fileshare or hotloop" >&2; exit 2 ;;
esac
java_dir=fixtures/$fixture/.beagle/java
[ -d "$java_dir/classes" ] || { echo "run: cargo run --release -p beagle-cli -- analyse fixtures/$fixture" >&2; exit 1; }
probe=$(find "$java_dir/probe" -maxdepth 1 -name classes -type d)
javac -nowarn -d "$work/original" $(find fixtures/$fixture/src -name '*.java')
reps=${REPS:-20}
run() { # classes, args...
  local cp=$1; shift
  local start end
  start=$(date +%s%N)
  java -Dbeagle.events=/dev/null -cp "$cp:$probe" beagle.probe.Launcher 3 300 "$reps" "$main" "$@" >/dev/null
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
echo "| point | original ms | instrumented ms | ratio |"
echo "|---|---:|---:|---:|"
for args in "${points[@]}"; do
  best_o=999999999; best_i=999999999
  for _ in 1 2 3; do
    o=$(run "$work/original" $args); i=$(run "$java_dir/classes" $args)
    (( o < best_o )) && best_o=$o
    (( i < best_i )) && best_i=$i
  done
  echo "| \`$args\` | $best_o | $best_i | $(python3 -c "print(f'{$best_i/$best_o:.2f}x')") |"
done
