#!/usr/bin/env bash
# The long fuzz run: every target of crates/litrev-fuzz (or the ones named after CASES) for
# CASES cases each (default 200000), from a random seed printed first so a failure can be
# replayed, built in release mode, one target per core. The test command runs the same targets
# for 2,000 cases from a fixed seed (cargo test -p litrev-fuzz).
#
#   scripts/fuzz.sh [CASES] [TARGET…]
#   LITREV_FUZZ_SEED=123 scripts/fuzz.sh 200000 ris     # replay a run
#   FUZZ_PROFILE=dev scripts/fuzz.sh 5000               # reuse the test build (debug checks on)
#
# A failing input is written to target/fuzz-failures/<target>-<case>.bin; replay or shrink it
# with `cargo run -p litrev-fuzz -- replay|minimize <target> <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

cases="${1:-200000}"
shift || true
export LITREV_TESTDATA="${LITREV_TESTDATA:-$(cd .. && pwd)/shared/data}"
seed="${LITREV_FUZZ_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}"
profile="${FUZZ_PROFILE:-release}"
jobs="${FUZZ_JOBS:-$(nproc)}"

echo "fuzz seed: $seed (replay: LITREV_FUZZ_SEED=$seed scripts/fuzz.sh $cases $*)"
cargo build --profile "$profile" -p litrev-fuzz --bin litrev-fuzz
dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
exec "${CARGO_TARGET_DIR:-target}/$dir/litrev-fuzz" --cases "$cases" --seed "$seed" --jobs "$jobs" "$@"
