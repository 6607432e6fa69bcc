#!/usr/bin/env bash
# Retakes the screenshots the README, the manual and the extension's README show, from the
# artifacts of a green run of tests/vscode/run.sh (target/vscode-e2e/): what users see is what
# the current version draws, with the laws it fits today (issue 41).
#   bash tests/vscode/run.sh && bash tests/vscode/update-images.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
art="${BEAGLE_VSCODE_ARTIFACTS:-$root/target/vscode-e2e}"
grep -q ' 0 failed' "$art/e2e.log" 2>/dev/null || { echo "update-images: $art/e2e.log is not a green run" >&2; exit 1; }
# image in the docs <- screenshot of the run
pairs=(
  context-menu:05-context-menu
  trust-question:06-trust-question
  progress:07-progress-percent
  hover-expression:10-hover-expression
  results-view:12-results-view-wide
  results-view-loop:13-results-view-loop
  lenses:16b-lenses
  service-prediction:17-service-prediction
  seff-diagram:19-seff-diagram-wide
  seff-diagram-cursor:21-diagram-follows-cursor
)
for pair in "${pairs[@]}"; do
  image="${pair%%:*}" shot="${pair#*:}"
  [ -f "$art/$shot.png" ] || { echo "update-images: no $shot.png in $art" >&2; exit 1; }
  for dir in "$root/docs/src/images"; do
    mkdir -p "$dir"
    cp "$art/$shot.png" "$dir/$image.png"
  done
done
echo "update-images: ${#pairs[@]} images from $art"
