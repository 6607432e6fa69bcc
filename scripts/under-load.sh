#!/usr/bin/env bash
# The timing-heavy test suites, RUNS times in a row (default 5), each while stress-ng keeps one of
# the two cores busy, as a user's build or browser would (issue 48: no test may hold only on a
# quiet machine). The suites: the Java tests (server/cli/tests/java.rs), the runner tests over the
# real sshd and Slurm (server/cli/tests/runners.rs, server/java/tests/runners.rs) and calibrate
# (server/cli/tests/calibrate.rs), and the laws by form of real code as it is written
# (server/cli/tests/strategies.rs, server/cli/tests/extracted.rs), under nextest with the
# project's own rules of what may run side by side (.config/nextest.toml), without its retry. Needs what .ci/run sets up (Java, the runner services). Prints
# each run's time and result; exits non-zero if any run failed.
#
#   bash scripts/under-load.sh [RUNS]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
command -v stress-ng >/dev/null || { echo "scripts/under-load.sh: stress-ng is missing (apt-get install stress-ng)" >&2; exit 2; }
export BEAGLE_TEST_SSH_KEY=${BEAGLE_TEST_SSH_KEY:-/tmp/beagle-ssh-key} BEAGLE_E2E_REQUIRE_RUNNERS=1
filter='(package(beagle-cli) & (binary(java) | binary(runners) | binary(calibrate) | binary(strategies) | binary(extracted))) | (package(beagle-java) & binary(runners))'
# The build tests/run.sh makes (clippy-driver wrapping rustc): found, not made again.
# shellcheck source=tests/build-env.sh
source tests/build-env.sh || exit 2
cargo nextest run --workspace --release --locked --no-run >/dev/null || exit 2
mkdir -p target/under-load
failed=0
for i in $(seq 1 "$runs"); do
  # The tests' shared analysis of the main job fits the main job's store where tests/run.sh left
  # one (server/cli/tests/common/shared.rs): here it measures, beside the hog.
  rm -rf fixtures/fileshare/.beagle
  stress-ng --cpu 1 --timeout 3600s --quiet &
  hog=$!
  started=$SECONDS
  # --retries 0: CI's one retry of a measuring test (.config/nextest.toml) is a reported safety
  # net; here a test must pass the first time.
  if cargo nextest run --workspace --release --locked --retries 0 -E "$filter" > "target/under-load/run-$i.log" 2>&1; then
    result=passed
  else
    result=FAILED
    failed=$((failed + 1))
  fi
  kill "$hog"; wait "$hog" 2>/dev/null
  summary=$(grep -E '^ *Summary' "target/under-load/run-$i.log" | tail -1 | sed 's/^ *//')
  echo "run $i of $runs beside stress-ng --cpu 1: $result in $((SECONDS - started)) s ($summary; log target/under-load/run-$i.log)"
done
echo "$((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]
