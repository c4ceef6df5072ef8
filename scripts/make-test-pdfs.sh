#!/usr/bin/env bash
# Makes the test PDFs from the shared PMC JATS articles with real engines: pandoc reads the JATS
# and writes HTML, headless Chromium prints it to PDF. Writes to $1 (default target/test-pdfs);
# a PDF already there is kept. Needs pandoc and chromium (scripts/install-test-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${LITREV_TESTDATA:-$(cd .. && pwd)/shared/data}"
out="${1:-target/test-pdfs}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
for article in "$data"/pmc-jats-and-medline/pmc_oa_nxml/*.nxml.gz; do
  name="$(basename "$article" .nxml.gz)"
  [ -s "$out/$name.pdf" ] && continue
  work="$(mktemp -d)"
  zcat "$article" > "$work/$name.xml"
  pandoc -f jats -t html -s "$work/$name.xml" -o "$work/$name.html"
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
    --user-data-dir="$work/profile" --print-to-pdf="$out/$name.pdf" "file://$work/$name.html" \
    >/dev/null 2>&1
  rm -rf "$work"
  [ -s "$out/$name.pdf" ] || { echo "make-test-pdfs: chromium printed no $name.pdf" >&2; exit 1; }
done
