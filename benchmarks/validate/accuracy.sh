#!/usr/bin/env bash
# Does the analysed model predict the REAL system (issue 35)? For a fixture: `beagle analyse
# --write` on a scratch copy, `beagle predict` at fresh seeded points inside the launch ranges
# beside the yardstick (yardstick/: the uninstrumented system, JIT warm, thread CPU time per
# call), then `beagle validate` at its own points beside the yardstick there. The launch's
# arguments are mapped to the service's inputs by fixtures/<name>.toml next to this script.
#
#   bash benchmarks/validate/accuracy.sh FIXTURE [POINTS=10] [SEED=1]
#
# FIXTURE: a name under fixtures/ or a folder with a beagle.toml. POINTS and SEED also as plain
# numbers or in the environment; BEAGLE (default: target/release/beagle), CALLS and WARMUP (the
# yardstick's least measured and warm-up calls per point, default 30 each), WARMUP_CPU_MS (the
# least thread CPU time each point is warmed for, default 2000) and MIN_CPU_MS (the least CPU time
# of each point's measured calls, default 500), MAPPING (another mapping file), KEEP=1 (keep the scratch copy),
# CALIBRATE=1 and UNMODELLED=1 (write what a validation at points of its own finds first).
# Writes results/accuracy-<fixture>-<UTC stamp>.txt (what it prints) and .json (everything raw).
set -euo pipefail
exec python3 "$(cd "$(dirname "$0")" && pwd)/accuracy.py" "$@"
