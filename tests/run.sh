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

echo "== the README's main job: beagle analyse on the bundled events example"
rm -rf fixtures/events-example/.beagle
cargo run --quiet --release --locked -p beagle-cli -- analyse fixtures/events-example > target/analyse-example.txt
cat target/analyse-example.txt
for expected in "0.05 * files.NUMBER_OF_ELEMENTS + 0.8" "4.0E-6 * bytes.VALUE + 0.05" "files.NUMBER_OF_ELEMENTS  "; do
  if ! grep -qF "$expected" target/analyse-example.txt; then
    echo "beagle analyse fixtures/events-example: \"$expected\" not recovered" >&2
    exit 1
  fi
done
echo "main job: ok"
