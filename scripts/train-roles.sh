#!/usr/bin/env bash
# Trains the sentence-role model on the structured abstracts of the shared data and writes it
# where the build ships it from (crates/litrev-text/src/roles/roles.model), then rebuilds.
# Deterministic: the same data gives the same file byte for byte (a test checks it).
# Usage: scripts/train-roles.sh [--works FILE…]   (default: every data file of LITREV_TESTDATA)
set -euo pipefail
cd "$(dirname "$0")/.."
export LITREV_TESTDATA="${LITREV_TESTDATA:-$(cd .. && pwd)/shared/data}"
cargo build --release -p litrev-cli
target/release/litrev bench roles --train --out crates/litrev-text/src/roles/roles.model "$@"
cargo build --release -p litrev-cli
