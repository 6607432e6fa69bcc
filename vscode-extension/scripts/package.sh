#!/usr/bin/env bash
# Packages the extension for linux-x64 with the language server inside:
#   scripts/package.sh [path/to/beagle]
# The binary defaults to $BEAGLE_BIN, else <repo>/target/release/beagle. The vsix is written to
# <repo>/target/vscode/beagle-linux-x64.vsix.
set -euo pipefail

ext_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo_dir="$(cd "$ext_dir/.." && pwd)"
binary="${1:-${BEAGLE_BIN:-$repo_dir/target/release/beagle}}"

if [[ ! -f "$binary" ]]; then
  echo "package.sh: no beagle binary at $binary (build it with: cargo build --release -p beagle-cli)" >&2
  exit 1
fi
if [[ ! -x "$binary" ]]; then
  echo "package.sh: $binary is not executable" >&2
  exit 1
fi

cd "$ext_dir"
mkdir -p server/linux-x64
# Release builds keep line tables for profiling (`debug = 1`); users need none of it, and it is
# three quarters of the binary.
if command -v strip >/dev/null; then
  strip --strip-debug -o server/linux-x64/beagle "$binary"
else
  cp "$binary" server/linux-x64/beagle
fi
chmod +x server/linux-x64/beagle

if [[ ! -d node_modules ]]; then
  npm ci
fi
npm run build

out_dir="$repo_dir/target/vscode"
mkdir -p "$out_dir"
npx vsce package --allow-missing-repository --target linux-x64 --out "$out_dir/beagle-linux-x64.vsix"
echo "package.sh: wrote $out_dir/beagle-linux-x64.vsix"
