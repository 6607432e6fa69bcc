#!/usr/bin/env bash
# End-to-end tests of `beagle lsp` through pytest-lsp. Needs the release binary
# (target/release/beagle, or $BEAGLE_BIN) and python3 with venv; installs the pinned client
# into tests/lsp/.venv (or $BEAGLE_E2E_VENV) from PyPI when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export BEAGLE_BIN="${BEAGLE_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/beagle}"
venv="${BEAGLE_E2E_VENV:-$here/.venv}"
if ! "$venv/bin/python" -c 'import pytest_lsp, pytest_timeout, xdist' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
fi
cd "$here"
# pytest-timeout limits each test; the outer timeout is the last resort against a hang.
# Two workers (BEAGLE_E2E_WORKERS; tests/run.sh runs one, beside the measurements); the tests that
# measure stay together on one (conftest.py: MEASURING_MODULES).
exec timeout 1500 "$venv/bin/python" -m pytest -q -p no:cacheprovider --durations=5 -n "${BEAGLE_E2E_WORKERS:-2}" --dist loadgroup "$@"
