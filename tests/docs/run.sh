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
# LinkChecker run as root drops to the user `nobody` (os.seteuid, in drop_privileges(); 10.x has
# no option to keep root: its old --allow-root is gone), and `nobody` cannot read a clone whose
# folder others may not enter (a `mktemp -d` is mode 700): every page then fails with "Permission
# denied". So LinkChecker's own entry point runs here with that step turned off; it checks the
# same file:// URLs as the `linkchecker` command, whoever runs it and wherever the clone sits.
# Not a copy of the book in a world-readable folder (that folder's parents must let `nobody` in,
# which $TMPDIR need not), nor an HTTP server on loopback (a port, a process to stop, and http://
# answers that differ from the files'). Keeping root adds no risk worth the drop: the pages are
# the book built a moment ago by the same user, and links to the web are not fetched
# (linkcheckerrc). Through the venv's python, not its `linkchecker` script, whose #! line names
# the folder the venv was made in.
"$here/.venv/bin/python" -c '
import importlib, sys
cli = importlib.import_module("linkcheck.command.linkchecker")
if not callable(getattr(cli, "drop_privileges", None)):
    sys.exit("tests/docs: this LinkChecker has no drop_privileges() to turn off (see tests/docs/run.sh)")
cli.drop_privileges = lambda: None
sys.argv[0] = "linkchecker"
sys.exit(cli.linkchecker())
' --config "$here/linkcheckerrc" --no-robots "$root/docs/book/index.html"

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
