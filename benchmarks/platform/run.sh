#!/usr/bin/env bash
# Platform prediction (issue 39): each fixture analysed and counted under the default JVM, with
# a calibration of the default JVM as the measuring platform; then, for each JVM configuration
# standing for another platform (-Xint; -XX:-UseSHA -XX:UseAVX=0; -XX:TieredStopAtLevel=1), a
# calibration under it and `beagle validate --platform <it> --jvm-args <it>`: the services
# predicted from the counts, beside the model as measured (naive: the same milliseconds) and a
# single scalar (the ratio of the two calibrations' suite totals), against runs under those
# flags that no fit saw.
#
#   bash benchmarks/platform/run.sh [FIXTURE ...]     (default: fileshare hotloop finegrained)
#
# BEAGLE (default: target/release/beagle), POINTS (fresh points per launch, default 6), SEED (1),
# FLAGS (only the flag sets whose names are listed: default,xint,nosimd,c1; default is the
# measuring platform itself, the floor: the model's error where it was measured).
# Writes results/<UTC stamp>/ (profiles, validation JSON, RESULTS.md) and prints RESULTS.md.
set -euo pipefail
exec python3 "$(cd "$(dirname "$0")" && pwd)/run.py" "$@"
