#!/usr/bin/env bash
# Fuzzes every cargo-fuzz target of every server/*/fuzz project for a bounded
# time and fails if any of them crashes (panic, sanitizer report, timeout).
#
#   scripts/fuzz.sh                 # 30 s per target
#   FUZZ_SECONDS=300 scripts/fuzz.sh
#
# cargo-fuzz needs nightly-only rustc flags (-Zsanitizer=address and the
# sancov passes). This machine has only a stable toolchain, so the script sets
# RUSTC_BOOTSTRAP=1, which lets stable rustc accept them; stable ships the
# ASan runtime, so the default address sanitizer works. Installs cargo-fuzz
# from crates.io if it is missing. FUZZ_SECONDS counts fuzzing time only; the
# first build of each project takes a minute or two more.
#
# Per target <t> in <crate>/fuzz:
#   corpus/<t>/  the growing corpus (git-ignored), seeded from seeds/<t>/ (committed)
#   <t>.dict     an optional libFuzzer dictionary
#   artifacts/<t>/  crashing inputs (git-ignored); reproduce one with
#                   (cd <crate> && RUSTC_BOOTSTRAP=1 cargo fuzz run <t> fuzz/artifacts/<t>/<file>)
set -euo pipefail

seconds="${FUZZ_SECONDS:-30}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1

passed=0
failed=0
failures=()
shopt -s nullglob
for fuzz_dir in "$root"/server/*/fuzz; do
    [ -f "$fuzz_dir/Cargo.toml" ] || continue
    crate_dir="$(dirname "$fuzz_dir")"
    cd "$crate_dir"
    mapfile -t targets < <(cargo fuzz list)
    for target in "${targets[@]}"; do
        echo "fuzz: ${crate_dir#"$root"/} :: $target for ${seconds}s"
        mkdir -p "fuzz/corpus/$target"
        corpora=("fuzz/corpus/$target")
        [ -d "fuzz/seeds/$target" ] && corpora+=("fuzz/seeds/$target")
        flags=("-max_total_time=$seconds" "-timeout=10" "-print_final_stats=1")
        [ -f "fuzz/$target.dict" ] && flags+=("-dict=fuzz/$target.dict")
        log="$(mktemp)"
        if cargo fuzz run "$target" "${corpora[@]}" -- "${flags[@]}" >"$log" 2>&1; then
            passed=$((passed + 1))
            grep -E '^(Done|stat::number_of_executed_units)' "$log" || true
        else
            failed=$((failed + 1))
            failures+=("${crate_dir#"$root"/}::$target")
            # The crash report and the artifact path are at the end.
            tail -n 60 "$log"
        fi
        rm -f "$log"
    done
done

if [ "$failed" -gt 0 ]; then
    echo "fuzz: crashed: ${failures[*]}"
fi
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
