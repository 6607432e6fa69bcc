#!/usr/bin/env bash
# Installs and starts what the tests need that a fresh machine lacks (run it as root).
# Idempotent: what is there is kept. Prints each part's wall time.
#
#   bash tests/setup.sh           everything
#   bash tests/setup.sh system    Debian's packages, the runner services, the Python venvs: what
#                                 the Rust tests and the LSP clients need (.ci/run: in the
#                                 background while the workspace compiles)
#   bash tests/setup.sh clients   mdbook (compiled from crates.io) and code-server with its native
#                                 modules: what only the manual's check and the real-VS-Code test
#                                 need, 7 minutes of both cores on a fresh machine (tests/run.sh
#                                 runs it beside the measurements when BEAGLE_SETUP_CLIENTS=1, as
#                                 .ci/run sets: during the build it slowed the build by 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
t() { local s=$SECONDS; "$@"; echo "setup: $((SECONDS - s)) s: $*"; }
part="${1:-all}"
case "$part" in all | system | clients) ;; *) echo "tests/setup.sh: no part '$part' (all, system, clients)" >&2; exit 2 ;; esac

system() {

# Debian's packages, all in one apt run (one index update, one dpkg pass):
# - Java 17 (javac, java) for the Java measurement tool, ASM (libasm-java) for its counting agent;
# - python3-venv for the end-to-end tests' clients, Neovim for the Neovim one;
# - Chromium, libkrb5-dev and pkg-config for the real-VS-Code test (tests/vscode/setup.sh);
# - openssh-server, slurm-wlm and munge for the runner tests' sshd and Slurm cluster.
packages=()
if ! command -v javac >/dev/null || ! javac -version 2>&1 | grep -qE 'javac (1[7-9]|2[0-9])'; then
  packages+=(openjdk-17-jdk-headless)
fi
[ -f /usr/share/java/asm-tree.jar ] || packages+=(libasm-java)
{ python3 -m venv --help >/dev/null 2>&1 && python3 -c 'import ensurepip' 2>/dev/null; } || packages+=(python3-venv)
command -v nvim >/dev/null || packages+=(neovim)
[ -x /usr/bin/chromium ] || packages+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || packages+=(libkrb5-dev)
command -v pkg-config >/dev/null || packages+=(pkg-config)
{ command -v sshd >/dev/null || [ -x /usr/sbin/sshd ]; } || packages+=(openssh-server)
{ command -v slurmctld >/dev/null || [ -x /usr/sbin/slurmctld ]; } || packages+=(slurm-wlm)
{ command -v munged >/dev/null || [ -x /usr/sbin/munged ]; } || packages+=(munge)
if [ ${#packages[@]} -gt 0 ]; then
  t apt-get update -qq
  t env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# The runner tests' sshd and Slurm cluster on loopback (issue 40): started first, as the Rust
# tests need them as soon as the build is done.
t bash tests/services/runners.sh

# The Python clients of the end-to-end tests, each in its venv (PyPI, pinned): pytest-lsp,
# LinkChecker for the manual, the OpenTelemetry SDK.
venv() {
  local dir=$1 requirements=$2 probe=$3
  if ! "$dir/bin/python" -c "import $probe" 2>/dev/null; then
    python3 -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  fi
}
t venv tests/lsp/.venv tests/lsp/requirements.txt 'pytest_lsp, pytest_timeout, xdist'
t venv tests/docs/.venv tests/docs/requirements.txt 'linkcheck'
t venv tests/otel/.venv tests/otel/requirements.txt 'opentelemetry.sdk, opentelemetry.exporter.otlp.proto.common'
}

clients() {

# The manual's builder (docs/, an mdBook): mdbook from crates.io, pinned, without its server and
# file watcher (only `mdbook build` is used; ~1.5 min to compile on 2 cores).
if ! mdbook --version 2>/dev/null | grep -q 'v0.5.4'; then
  t cargo install --quiet --locked mdbook --version 0.5.4 --no-default-features --features search
fi

# The real-VS-Code end-to-end test (tests/vscode): Node 24, code-server and playwright-core (npm),
# pinned, into $BEAGLE_VSCODE_WORK or tests/vscode/.work. ~5 min on a fresh machine, 0.3 s when there.
t bash tests/vscode/setup.sh
}

case "$part" in
  all) system; clients ;;
  system) system ;;
  clients) clients ;;
esac
echo "setup: $part: ready"
