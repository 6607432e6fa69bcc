#!/usr/bin/env bash
# Hover latency and memory of `beagle lsp` while it analyses fixtures/hotloop itself (a service
# looping up to 100,000 times per call: issue 16), the way the editor's "Analyse" starts it
# (`beagle.analyseRepository`), beside the peer vscode-html-language-server while the same
# analysis runs as a separate `beagle analyse` process, and (with BEFORE=path) an older Beagle
# server doing the same. Both servers hold the hotloop repository and a generated 10 MB
# repository open and are hovered on throughout. Rewrites results/during-analysis.jsonl and
# DURING-ANALYSIS.md beside this file. About 4 minutes (7 with BEFORE) on the 2-core machine.
# Needs Java 17, Node.js/npm (the peer, installed by peer.sh into .work/).
#
#   cargo build --release -p beagle-cli && bash benchmarks/lsp/during-analysis.sh
#   BEFORE=/path/to/old/beagle BEFORE_NAME=8df9627 bash benchmarks/lsp/during-analysis.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
GAP_MS="${GAP_MS:-20}"
RSS_LIMIT_MB="${RSS_LIMIT_MB:-4000}"
OUT="$HERE/results"
RES="$OUT/during-analysis.jsonl"
mkdir -p "$OUT"
step() { echo "=== $* ($(date -u +%H:%M:%S))" >&2; }

TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
BEAGLE="${BEAGLE:-$TARGET/release/beagle}"
[ -x "$BEAGLE" ] || { echo "no $BEAGLE: run cargo build --release -p beagle-cli first (or set BEAGLE=path)" >&2; exit 1; }
cargo build --release --locked -p beagle-bench-lsp --manifest-path "$ROOT/Cargo.toml"
BIN="$TARGET/release/beagle-bench-lsp"

source "$HERE/peer.sh"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/beagle-bench-during.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/gen"
GEN_LINE="$("$BIN" generate "$WORK/gen/generated.repository" --bytes 10000000)"
GEN_LINE="${GEN_LINE#*: }"

: > "$RES"
# run NAME MODE BINARY|peer EXTRA...: a fresh copy of fixtures/hotloop, both documents open.
run() {
  local name="$1" mode="$2" server="$3"; shift 3
  local hl="$WORK/hotloop-$name"
  rm -rf "$hl"; cp -r "$ROOT/fixtures/hotloop" "$hl"; rm -rf "$hl/.beagle"
  local common=(--mode "$mode" --folder "$hl" --folder "$WORK/gen"
    --input "hotloop=$hl/model/hotloop.repository" --input "generated-10MB=$WORK/gen/generated.repository"
    --gap-ms "$GAP_MS" --rss-limit-mb "$RSS_LIMIT_MB" --out "$RES" --stderr "$WORK/$name.log")
  step "$name ($mode)"
  if [ "$server" = peer ]; then
    "$BIN" during --server vscode-html-language-server --server-version "$PEER_VERSION" "${common[@]}" \
      --language-id html --init-options "{\"dataPaths\":[\"$HERE/pcm.html-data.json\"]}" \
      --beside-cmd "$BEAGLE analyse $hl --threads 1" --beside-log "$WORK/$name-beside.log" \
      -- node "$PEER_JS" --stdio
    tail -3 "$WORK/$name-beside.log" >&2
  else
    "$BIN" during --server "$name" --server-version "$("$server" --version | awk '{print $2}')" "${common[@]}" \
      --analyse "$hl/model/hotloop.repository" --init-options '{"launchPolicy":"allow"}' \
      --env "BEAGLE_STATE_DIR=$WORK/state" -- "$server" lsp
  fi
}

BASE_CPU="$(awk '{print $1}' /proc/loadavg)"
run beagle in-server "$BEAGLE"
run peer beside peer
if [ -n "${BEFORE:-}" ]; then
  cp "$BEFORE" "$WORK/beagle-before"
  run "beagle-${BEFORE_NAME:-before}" in-server "$WORK/beagle-before"
fi

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
"$BIN" report-during "$RES" \
  --fact "Date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
  --fact "Machine=$CPU, $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); load average before the run $BASE_CPU" \
  --fact "Beagle=\`beagle lsp\` (release build, commit $(git -C "$ROOT" rev-parse --short HEAD)); it analyses \`fixtures/hotloop\` itself: \`beagle.analyseRepository\` on its model, one analysis thread (the server keeps the other core for the editor), the fixture's launches (1,000 to 100,000 items, 100 to 2,000 rounds) in JVMs it starts${BEFORE:+; beagle-${BEFORE_NAME:-before}: the same with the server built at ${BEFORE_NAME:-before} (killed when it passes $RSS_LIMIT_MB MB)}" \
  --fact "Peer=vscode-html-language-server $PEER_VERSION (npm package $PEER_PACKAGE, Node.js $(node --version)), the same documents as \`html\` with \`pcm.html-data.json\`; beside it \`beagle analyse <copy of fixtures/hotloop> --threads 1\`, the same analysis as a separate process" \
  --fact "Documents open in both=\`fixtures/hotloop/model/hotloop.repository\` (the one analysed) and a generated 10 MB repository ($GEN_LINE)" \
  --fact "Hovers=100 per document before the analysis, then round-robin over both until it ends, ${GAP_MS} ms pause after each; status polled once a second (Beagle)" \
  --fact "Command=\`bash benchmarks/lsp/during-analysis.sh\`${BEFORE:+ with BEFORE=<beagle built at ${BEFORE_NAME:-before}>}" \
  > "$HERE/DURING-ANALYSIS.md"
step "wrote $HERE/DURING-ANALYSIS.md"
