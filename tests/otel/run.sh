#!/usr/bin/env bash
# End to end with a real OpenTelemetry SDK: tests/otel/app.py (a Python service traced with the
# pinned opentelemetry-sdk, spans exported as OTLP/JSON by the SDK's own encoder) writes its trace
# into a copy of fixtures/otel-example, `beagle analyse` reads it, and check.py asserts the
# documented laws. Needs the release binary (target/release/beagle or $BEAGLE_BIN) and python3
# with venv; installs the SDK into tests/otel/.venv (or $BEAGLE_OTEL_VENV) from PyPI when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${BEAGLE_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/beagle}"
venv="${BEAGLE_OTEL_VENV:-$here/.venv}"
if ! "$venv/bin/python" -c 'import opentelemetry.sdk, opentelemetry.exporter.otlp.proto.common' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$root/fixtures/otel-example" "$work/ws"
rm -rf "$work/ws/.beagle" "$work/ws/traces.jsonl"
"$venv/bin/python" "$here/app.py" "$work/ws/traces.jsonl" 200
"$bin" analyse "$work/ws" --json > "$work/report.json"
python3 "$here/check.py" "$work/report.json"
