#!/usr/bin/env bash
# The yardstick of issue 35: thread CPU time per call of a fixture's top service, uninstrumented
# and JIT warm (README.md next to this script).
#
#   yardstick.sh FIXTURE_DIR [POINTS_FILE|-] [--main CLASS] [--calls N] [--min-cpu-ms MS]
#                [--max-calls N] [--warmup N] [--warmup-cpu-ms MS] [--warmup-ms MS] [--json] [--per-call]
#   yardstick.sh --self-test [--warmup-cpu-ms MS] [--min-cpu-ms MS]
#
# WARMUP_CPU_MS and MIN_CPU_MS in the environment set --warmup-cpu-ms (default 2000: each point
# warmed for at least 2 s of thread CPU time, issue 51) and --min-cpu-ms (default 500: each
# point's measured calls add up to at least that much CPU time) unless the options are given.
#
# Copies the fixture's Java sources ([java] sources of its beagle.toml, default src/) to a scratch
# folder, compiles them with plain javac (no Beagle probe anywhere on the class path), and runs
# Yardstick.java in one JVM over the points (one line of launch arguments each; standard input by
# default). The main class is the first [[launch]]'s `main` unless --main says otherwise; the
# launch's jvm_args are passed to the JVM (JAVA_OPTS adds more). TSV (or JSON) on standard output.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/yardstick.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

compile_yardstick() {
  mkdir -p "$scratch/yardstick"
  javac -nowarn --release 17 -d "$scratch/yardstick" "$here/Yardstick.java"
}

# Settings from the environment; options given on the command line come later and win.
env_opts=()
[ -z "${WARMUP_CPU_MS:-}" ] || env_opts+=(--warmup-cpu-ms "$WARMUP_CPU_MS")
[ -z "${MIN_CPU_MS:-}" ] || env_opts+=(--min-cpu-ms "$MIN_CPU_MS")

if [ "${1:-}" = "--self-test" ]; then
  shift
  compile_yardstick
  # shellcheck disable=SC2086 # JAVA_OPTS is a word list
  java ${JAVA_OPTS:-} -cp "$scratch/yardstick" Yardstick --self-test ${env_opts[@]+"${env_opts[@]}"} "$@"
  exit $?
fi

if [ $# -lt 1 ] || [ ! -f "$1/beagle.toml" ]; then
  echo "usage: yardstick.sh FIXTURE_DIR [POINTS_FILE|-] [--main CLASS] [--calls N] [--min-cpu-ms MS] [--max-calls N]" >&2
  echo "                    [--warmup N] [--warmup-cpu-ms MS] [--warmup-ms MS] [--json] [--per-call]" >&2
  echo "       yardstick.sh --self-test [--warmup-cpu-ms MS] [--min-cpu-ms MS]" >&2
  exit 2
fi
fixture="$(cd "$1" && pwd)"; shift
points="-"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then points="$1"; shift; fi
main=""
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --main) main="$2"; shift 2 ;;
    --calls|--warmup|--warmup-ms|--warmup-cpu-ms|--min-cpu-ms|--max-calls) pass+=("$1" "$2"); shift 2 ;;
    --json|--per-call) pass+=("$1"); shift ;;
    *) echo "yardstick.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$points" != "-" ]; then points="$(cd "$(dirname "$points")" && pwd)/$(basename "$points")"; fi

# What beagle.toml says: source roots, extra class path, the first launch's main and JVM options
# (one per line, in that order, NUL-free; python3's tomllib reads TOML properly).
config="$(python3 - "$fixture/beagle.toml" <<'PY'
import sys, tomllib
c = tomllib.load(open(sys.argv[1], "rb"))
java = c.get("java", {})
launch = (c.get("launch") or [{}])[0]
print(" ".join(java.get("sources", ["src"])))
print(" ".join(java.get("classpath", [])))
print(launch.get("main", ""))
print(" ".join(launch.get("jvm_args", [])))
PY
)"
sources="$(sed -n 1p <<<"$config")"
extra_cp="$(sed -n 2p <<<"$config")"
[ -n "$main" ] || main="$(sed -n 3p <<<"$config")"
jvm_args="$(sed -n 4p <<<"$config")"
[ -n "$main" ] || { echo "yardstick.sh: no [[launch]] main in $fixture/beagle.toml; give --main" >&2; exit 2; }

# A copy, so nothing is compiled into (or written beside) the user's sources.
mkdir -p "$scratch/src" "$scratch/classes"
cp_entries=""
for root in $sources; do
  mkdir -p "$scratch/src/$root"
  cp -r "$fixture/$root/." "$scratch/src/$root/"
done
for entry in $extra_cp; do cp_entries="$cp_entries:$fixture/$entry"; done
find "$scratch/src" -name '*.java' > "$scratch/files.txt"
javac -nowarn -encoding UTF-8 -d "$scratch/classes" ${cp_entries:+-cp "${cp_entries#:}"} @"$scratch/files.txt"
compile_yardstick

cd "$scratch"  # whatever the service writes lands in the scratch folder
# shellcheck disable=SC2086 # jvm_args and JAVA_OPTS are word lists
java $jvm_args ${JAVA_OPTS:-} -cp "$scratch/classes:$scratch/yardstick$cp_entries" Yardstick \
  --main "$main" --points "$points" ${env_opts[@]+"${env_opts[@]}"} ${pass[@]+"${pass[@]}"}
