#!/usr/bin/env bash
# Neovim headless end-to-end test of `beagle lsp` (tests/nvim/e2e.lua) on a copy of
# fixtures/fileshare. Needs nvim (0.7+) and the release binary (target/release/beagle or $BEAGLE_BIN).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export BEAGLE_BIN="${BEAGLE_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/beagle}"
[ -x "$BEAGLE_BIN" ] || { echo "tests/nvim: no beagle binary at $BEAGLE_BIN" >&2; exit 1; }
command -v nvim >/dev/null || { echo "tests/nvim: nvim is missing (apt-get install neovim)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/fixtures/fileshare" "$tmp/fileshare"
rm -rf "$tmp/fileshare/.beagle" "$tmp/fileshare/out"
export BEAGLE_WS="$tmp/fileshare" BEAGLE_STATE_DIR="$tmp/state" RUST_LOG=warn
# HOME and XDG folders in the temp dir: no user config, shada or swap files.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" XDG_STATE_HOME="$tmp/home/.local/state"
mkdir -p "$HOME"
cd "$tmp"
timeout 300 nvim --headless --clean -n -i NONE -c "luafile $here/e2e.lua" 2>"$tmp/nvim-stderr.log" </dev/null || {
  status=$?
  echo "tests/nvim: nvim failed (status $status); its stderr:" >&2
  tail -20 "$tmp/nvim-stderr.log" >&2
  exit 1
}
