#!/usr/bin/env bash
# The manual (docs/, an mdBook): built with mdbook, then every link, image and #anchor inside the
# built HTML checked with LinkChecker (tests/docs/linkcheckerrc), and the README's links to files
# checked to exist. Needs `mdbook` on PATH (.ci/run installs it with cargo install) and Python 3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
command -v mdbook >/dev/null || { echo "tests/docs: mdbook is not installed (cargo install --locked mdbook)" >&2; exit 1; }
if ! "$here/.venv/bin/python" -c 'import linkcheck' 2>/dev/null; then
  python3 -m venv "$here/.venv"
  "$here/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
fi

rm -rf "$root/docs/book"; mkdir -p "$root/target"
mdbook build "$root/docs" 2>&1 | tee "$root/target/mdbook.log"
if grep -qiE '\b(warn|error)\b' "$root/target/mdbook.log"; then
  echo "tests/docs: mdbook warned (above)" >&2
  exit 1
fi
[ -f "$root/docs/book/index.html" ] || { echo "tests/docs: no docs/book/index.html" >&2; exit 1; }
"$here/.venv/bin/linkchecker" --config "$here/linkcheckerrc" --no-robots "$root/docs/book/index.html"

# The README sits outside the book: its relative links must name files that exist.
python3 - "$root" <<'PY'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
text = (root / "README.md").read_text()
broken = []
for target in re.findall(r"\]\(([^)\s]+)\)", text):
    if re.match(r"[a-z]+:", target) or target.startswith("#"):
        continue
    path = target.split("#")[0]
    if not (root / path).exists():
        broken.append(target)
if broken:
    sys.exit(f"README.md links to files that do not exist: {broken}")
print(f"README.md: {len(text.encode())} bytes, its file links resolve")
PY
