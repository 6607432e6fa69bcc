#!/usr/bin/env bash
# Latency of `beagle lsp` (hover, documentSymbol, diagnostics after didChange/didOpen) against a
# peer language server, vscode-html-language-server from the npm package
# vscode-langservers-extracted (installed into benchmarks/lsp/.work/, gitignored), on the
# fixtures, a generated 10 MB repository and a 3 MB one laid out as extraction tools lay one out
# (with its Java code and link file), idle and while `beagle analyse` runs on the other
# core. Rewrites results/results.jsonl and RESULTS.md beside this file. About 5 minutes on the
# 2-core machine. Needs Node.js/npm (for the peer), Java 17 (for the analysis of fixtures/fileshare)
# and `taskset` (util-linux).
#
#   cargo build --release -p beagle-cli && bash benchmarks/lsp/run.sh
#   HOVERS=1000 SYMBOLS=100 CHANGES=40 bash benchmarks/lsp/run.sh
#
# The 10 MB repository is generated into a temporary directory (removed at the end), never
# committed. Run it on an otherwise idle machine: the "idle" phase means nothing else runs.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
HOVERS="${HOVERS:-500}"
SYMBOLS="${SYMBOLS:-100}"       # documentSymbol requests on the fixtures
SYMBOLS_BIG="${SYMBOLS_BIG:-20}" # ... on the 10 MB file
CHANGES="${CHANGES:-20}"
EDIT_HOVERS="${EDIT_HOVERS:-10}"
OPENS="${OPENS:-5}"
BYTES="${BYTES:-10000000}"
OUT="$HERE/results"
RES="$OUT/results.jsonl"
mkdir -p "$OUT"
step() { echo "=== $* ($(date -u +%H:%M:%S))" >&2; }

TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
BEAGLE="${BEAGLE:-$TARGET/release/beagle}"
if [ ! -x "$BEAGLE" ]; then
  echo "no $BEAGLE: run cargo build --release -p beagle-cli first (or set BEAGLE=path)" >&2
  exit 1
fi
cargo build --release --locked -p beagle-bench-lsp --manifest-path "$ROOT/Cargo.toml"
BIN="$TARGET/release/beagle-bench-lsp"

source "$HERE/peer.sh"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/beagle-bench-lsp.XXXXXX")"
ANALYSIS_PID=""
cleanup() {
  if [ -n "$ANALYSIS_PID" ]; then kill -- -"$ANALYSIS_PID" 2>/dev/null || true; wait "$ANALYSIS_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

step "inputs into $WORK"
WS="$WORK/workspace" # the servers' workspace folder: the three model files, nothing else
mkdir -p "$WS"
cp "$ROOT/fixtures/fileshare/model/fileshare.repository" "$WS/"
cp "$ROOT/fixtures/pcm/mediastore/MediaStore.repository" "$WS/"
GEN_LINE="$("$BIN" generate "$WS/generated.repository" --bytes "$BYTES")"
echo "$GEN_LINE" >&2
GEN_LINE="${GEN_LINE#*: }"
CHECK_LINE="$("$BEAGLE" check "$WS/generated.repository" 2>&1 | tail -1)"
echo "$CHECK_LINE" >&2
CHECK_LINE="${CHECK_LINE##*: }"

# Issue 49's size: a system laid out as extraction tools lay one out (package components,
# class-named interfaces; benchmarks/linking/scale/generate.py), 3 MB of repository against 720
# Java files, in a workspace of its own, with the link file `beagle link --suggest` writes: the
# server checks those links against the code on every open.
EXTRACTED="$WORK/extracted"
EXTRACTED_LINE="$(python3 "$ROOT/benchmarks/linking/scale/generate.py" "$EXTRACTED" --classes "${EXTRACTED_CLASSES:-35}")"
echo "$EXTRACTED_LINE" >&2
EXTRACTED_LINE="${EXTRACTED_LINE#*: }"
"$BEAGLE" link --suggest "$EXTRACTED" > "$EXTRACTED/model/links.toml"
sed -i 's|^repository = .*|&\nlinks = "model/links.toml"|' "$EXTRACTED/beagle.toml"
EXTRACTED_LINKS="$(grep -c '^\[\[link\]\]' "$EXTRACTED/model/links.toml")"

# The machine's load before anything starts (another build on the same cores shows here).
cpu_busy() { # cpu_busy SECONDS: % of all CPUs busy over that time, from /proc/stat
  local a b
  a=($(head -1 /proc/stat)); sleep "$1"; b=($(head -1 /proc/stat))
  awk -v a="${a[*]}" -v b="${b[*]}" 'BEGIN { n = split(a, x, " "); split(b, y, " ");
    for (i = 2; i <= n; i++) { t += y[i] - x[i]; if (i == 5 || i == 6) idle += y[i] - x[i] }
    printf "%.0f", 100 * (t - idle) / t }'
}
BASELINE="$(cpu_busy 5)"
step "machine CPU busy before the run: $BASELINE %"

: > "$RES"
# measure PHASE LABEL FILE SYMBOLS [ROOT]: both servers, one after the other (FILE inside ROOT,
# the workspace folder, by default the one of the three model files).
measure() {
  local phase="$1" label="$2" file="$3" symbols="$4" root="${5:-$WS}"
  local common=(--phase "$phase" --input "$root/$file" --label "$label" --root "$root" --hovers "$HOVERS"
    --symbols "$symbols" --changes "$CHANGES" --edit-hovers "$EDIT_HOVERS" --opens "$OPENS" --out "$RES")
  step "$phase $label: beagle"
  "$BIN" measure --server beagle --server-version "$("$BEAGLE" --version | awk '{print $2}')" "${common[@]}" \
    --open-delay-ms 0 --change-delay-ms 200 --env "BEAGLE_STATE_DIR=$WORK/state" \
    --stderr "$WORK/beagle-$phase-$label.log" -- "$BEAGLE" lsp
  step "$phase $label: vscode-html-language-server"
  "$BIN" measure --server vscode-html-language-server --server-version "$PEER_VERSION" "${common[@]}" \
    --language-id html --init-options "{\"dataPaths\":[\"$HERE/pcm.html-data.json\"]}" \
    --open-delay-ms 500 --change-delay-ms 500 \
    --stderr "$WORK/peer-$phase-$label.log" -- node "$PEER_JS" --stdio
}
all_inputs() {
  measure "$1" fileshare fileshare.repository "$SYMBOLS"
  measure "$1" mediastore MediaStore.repository "$SYMBOLS"
  measure "$1" generated-10MB generated.repository "$SYMBOLS_BIG"
  measure "$1" extracted-3MB model/generated.repository "$SYMBOLS_BIG" "$EXTRACTED"
}

all_inputs idle

# A real analysis on CPU 1 for the whole busy phase: `beagle analyse` of a fresh copy of
# fixtures/fileshare (it compiles, instruments and runs the Java system, then fits), started
# again on a new copy whenever it ends. Its own process group, so cleanup ends all of it.
step "busy: start beagle analyse fixtures/fileshare --threads 1 on CPU 1"
ANALYSES="$WORK/analyses"
: > "$ANALYSES"
setsid bash -c '
  i=0
  while :; do
    i=$((i+1)); rm -rf "$0/fs"; cp -r "$1/fixtures/fileshare" "$0/fs"
    echo "start $i $(date +%s.%N)" >> "$0/analyses"
    BEAGLE_STATE_DIR="$0/analysis-state" taskset -c 1 "$2" analyse "$0/fs" --threads 1 --fresh > "$0/analysis.out" 2> "$0/analysis.err" || true
    echo "end $i $(date +%s.%N)" >> "$0/analyses"
  done' "$WORK" "$ROOT" "$BEAGLE" &
ANALYSIS_PID=$!
sleep 3 # past the copy and the Java compilation's start
all_inputs busy
STARTED="$(grep -c '^start' "$ANALYSES" || true)"
ENDED="$(grep -c '^end' "$ANALYSES" || true)"
kill -- -"$ANALYSIS_PID" 2>/dev/null || true
wait "$ANALYSIS_PID" 2>/dev/null || true
ANALYSIS_PID=""

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
"$BIN" report "$RES" \
  --fact "Date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
  --fact "Machine=$CPU, $(nproc) cores ($(nproc) CPUs online), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)" \
  --fact "Beagle=\`beagle lsp\` $("$BEAGLE" --version | awk '{print $2}') (release build, commit $(git -C "$ROOT" rev-parse --short HEAD)), tower-lsp-server; diagnostics debounced 200 ms after a change, none after an open" \
  --fact "Peer=vscode-html-language-server $PEER_VERSION (npm package $PEER_PACKAGE, Microsoft's HTML language service, Node.js $(node --version)), documents opened as \`html\` with \`benchmarks/lsp/pcm.html-data.json\` as custom data so that it knows the PCM tags (hovers answer with a description); diagnostics 500 ms after an open or a change (its own fixed delay)" \
  --fact "Generated input=$GEN_LINE (\`beagle-bench-lsp generate\`, seed 1; \`beagle check\`: $CHECK_LINE)" \
  --fact "Extracted-style input=$EXTRACTED_LINE (\`benchmarks/linking/scale/generate.py --classes ${EXTRACTED_CLASSES:-35}\`, seed 1), in a workspace of its own with its Java sources and a link file of $EXTRACTED_LINKS links (\`beagle link --suggest\`), which the server checks against the code on every open" \
  --fact "Analysis during the busy phase=\`taskset -c 1 beagle analyse <copy of fixtures/fileshare> --threads 1 --fresh\`, $STARTED started, $ENDED finished during the phase (each about 2 minutes alone)" \
  --fact "Requests=$HOVERS hovers, $SYMBOLS documentSymbol ($SYMBOLS_BIG on each generated file), $CHANGES changes, $EDIT_HOVERS hovers right after a change, $OPENS opens, per server, input and phase" \
  --fact "Machine load=$BASELINE % of both cores busy in the 5 s before the run (0-5 % on an idle machine; more means another program shared the cores, in both phases)" \
  --fact "Command=\`bash benchmarks/lsp/run.sh\`" \
  > "$HERE/RESULTS.md"
step "wrote $HERE/RESULTS.md"
