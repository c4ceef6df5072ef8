#!/usr/bin/env bash
# Fetches real web pages that a registry package ships as test data, to test the page reader
# and `litrev review --url` on real-world HTML: the sdist of trafilatura 2.3.1 (PyPI, Apache-2.0)
# is downloaded into a cache folder (${LITREV_REGISTRY_PAGE_CACHE:-~/.cache/litrev/registry-pages}),
# its sha256 checked, and four pages of its tests/resources copied into the output folder ($1,
# default target/web-pages relative to the repo root), each checked against the sha256 below,
# with PROVENANCE.md beside them. Safe to run again: pages already there are kept.
# The pages keep their publishers' copyright (FiveThirtyEight, Mozilla); keep them out of commits.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

out="${1:-target/web-pages}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PAGE_CACHE:-$HOME/.cache/litrev/registry-pages}"
package=trafilatura
version=2.3.1
archive="trafilatura-2.3.1.tar.gz"
archive_sha=2e5557aeab32d33b9da7ff0debbb677a676c5b648a927e50d91b8277011e1105

# path inside the archive | output name | sha256 | what it is
pages=(
  "trafilatura-2.3.1/tests/resources/webpage.html.gz|fivethirtyeight-manchin.html.gz|27737169bc5abde121324d278bc4d2d8f180711571f5866654534952e3019f3d|a FiveThirtyEight article: Could Manchin Actually Leave The Democratic Party?"
  "trafilatura-2.3.1/tests/resources/mozilla.org.firefox.developer.html|mozilla-firefox-developer.html|ce00909003b411d82b2142061e3f64d90bc78e699b7361e56dc614d0863cea94|Mozilla's page Welcome to Firefox Developer Edition"
  "trafilatura-2.3.1/tests/resources/utf8.html|utf8-demo.html|3192db6a4a509a28def0ce3d6c97f5a6050eb9060cde339b57aacd1452755461|Markus Kuhn's UTF-8 demo as HTML"
  "trafilatura-2.3.1/tests/resources/http_sample.html|http-sample.html|28f5adf1ccf7b5703be9888d082ed1ae57e97e5803c016ab7ec584d3a2d9e84b|a small page with a heading and paragraphs"
)

die() { echo "fetch-web-pages: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"

mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"
missing=0
for page in "${pages[@]}"; do
  IFS='|' read -r _ name sha _ <<<"$page"
  if [ ! -s "$out/$name" ] || [ "$(sha_of "$out/$name")" != "$sha" ]; then missing=1; fi
done
if [ "$missing" = 1 ]; then
  sdist="$(bash scripts/fetch-sdist.sh "$package" "$version" "$archive" "$archive_sha" "$cache")"
  for page in "${pages[@]}"; do
    IFS='|' read -r inner name sha _ <<<"$page"
    tar -xzf "$sdist" -O "$inner" > "$out/$name.part"
    [ "$(sha_of "$out/$name.part")" = "$sha" ] || die "$inner in $archive has another sha256 than $sha"
    mv "$out/$name.part" "$out/$name"
  done
fi
{
  echo "# Web pages for the page reader's tests"
  echo
  echo "From the sdist of $package $version on PyPI (Apache-2.0; sha256 $archive_sha), tests/resources."
  echo "The pages keep their publishers' copyright."
  echo
  for page in "${pages[@]}"; do
    IFS='|' read -r inner name sha what <<<"$page"
    echo "- \`$name\`: $what (\`$inner\`, sha256 $sha)"
  done
} > "$out/PROVENANCE.md"
