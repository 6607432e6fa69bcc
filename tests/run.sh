#!/usr/bin/env bash
# Every test of the project: the README's test command. CI runs it through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

echo "== format"
cargo fmt --all -- --check

echo "== lints"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== unit, integration and snapshot tests"
# insta fails on a missing or changed snapshot when CI is set; locally it writes .snap.new files.
cargo test --workspace --locked

echo "== the README's main job: beagle check over the bundled models"
set +e
cargo run --quiet --release --locked -p beagle-cli -- check fixtures/pcm > target/check-fixtures.txt
status=$?
set -e
tail -n 3 target/check-fixtures.txt
# Exit 1 means "errors found" (two fixtures are genuinely incomplete); anything else is a failure.
if [ "$status" -ne 1 ] || ! grep -q "MediaStore.repository: PCM 5.2, 6 components" target/check-fixtures.txt; then
  echo "beagle check over fixtures/pcm: unexpected exit status $status or output" >&2
  exit 1
fi
echo "main job: ok"
