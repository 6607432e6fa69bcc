# Sourced by .ci/run and tests/run.sh: how the workspace is compiled, the same for every cargo
# command of a run, so that each finds the one build (cargo's fingerprints include these).
#
# Clippy lints as the workspace compiles (issue 48): clippy-driver wraps rustc for the workspace's
# own crates (dependencies are compiled by rustc alone), exactly as `cargo clippy` runs it, but in
# the release build that the tests run rather than in a check build of its own, which compiled
# every crate and target a second time (4-5 minutes of CI's two cores). Its warnings are cargo's
# like any other: replayed on each later build, where tests/run.sh's lint step reads them.
if ! command -v clippy-driver >/dev/null; then
  echo "tests/build-env.sh: clippy-driver is missing: rustup component add clippy" >&2
  return 1
fi
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
