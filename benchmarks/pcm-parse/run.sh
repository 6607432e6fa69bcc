#!/usr/bin/env bash
# Runs the beagle-pcm parse benchmark in release mode and rewrites RESULTS.md beside this file.
# Exits non-zero when the 10 MiB targets (< 100 ms, peak memory < 5x the file size) are missed.
# Extra arguments go to the benchmark: `--breakdown` shows where time and memory go instead.
# Run it on an otherwise idle machine: the timings are wall-clock medians.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
exec cargo run --release -p bench-pcm-parse -- "$@"
