# The peer language server, pinned, installed into benchmarks/lsp/.work/peer (its own
# package.json, so nothing leaks into the repository). Sourced by run.sh and during-analysis.sh.
PEER_PACKAGE="vscode-langservers-extracted"
PEER_VERSION="4.10.0"
PEER_DIR="$HERE/.work/peer"
PEER_JS="$PEER_DIR/node_modules/$PEER_PACKAGE/bin/vscode-html-language-server"
if ! grep -qs "\"version\": \"$PEER_VERSION\"" "$PEER_DIR/node_modules/$PEER_PACKAGE/package.json"; then
  echo "=== install the peer: $PEER_PACKAGE@$PEER_VERSION" >&2
  mkdir -p "$PEER_DIR"
  [ -f "$PEER_DIR/package.json" ] || printf '{"name":"beagle-bench-lsp-peer","private":true}\n' > "$PEER_DIR/package.json"
  (cd "$PEER_DIR" && npm install --no-audit --no-fund --save-exact "$PEER_PACKAGE@$PEER_VERSION" >&2)
fi
