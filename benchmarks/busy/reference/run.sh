#!/usr/bin/env bash
# The reference work's scatter quiet and beside stress-ng neighbours (README.md). Needs a JDK and
# stress-ng.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
cp "$here/../../../server/java/probe/beagle/probe/Reference.java" "$here/RefBench.java" "$out/"
javac -d "$out/classes" "$out"/*.java
for neighbour in none "--cache 1" "--cpu 1" "--stream 1"; do
  if [ "$neighbour" != none ]; then stress-ng $neighbour --quiet & hog=$!; sleep 1; fi
  echo "beside: $neighbour"
  java -cp "$out/classes" beagle.probe.RefBench 3000
  if [ "$neighbour" != none ]; then kill $hog; wait $hog 2>/dev/null || true; fi
done
rm -rf "$out"
