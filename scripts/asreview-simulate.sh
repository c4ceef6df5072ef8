#!/usr/bin/env bash
# ASReview's WSS@95 measured here and now, for litrev's screening benchmark to print beside its own.
#
#   scripts/asreview-simulate.sh [--n-stop N] [--keep] DIR [DIR...]
#
# Each DIR holds NAME.csv (record_id,title,abstract,label_included) and NAME.priors
# (`SEED INCLUDED_ROW EXCLUDED_ROW` per line) per dataset; scripts/asreview_simulate.py runs
# `asreview simulate` with ASReview's default model from exactly those priors, prints
# `NAME SEED WSS95 SECONDS` and `NAME mean WSS95 MEANSECONDS`, and writes DIR/asreview.tsv.
#
# ASReview lives in its own virtual environment, outside the repository, at
# ${ASREVIEW_VENV:-~/.cache/litrev/asreview-venv}, made on first use from PyPI with ${PYTHON:-python3}
# (3.10 or newer). The versions are pinned so that a figure measured today can be measured again:
# the model is scikit-learn's TfidfVectorizer and LinearSVC, so scikit-learn is pinned too.
set -euo pipefail

asreview_version=3.0.8
scikit_learn_version=1.9.1
venv="${ASREVIEW_VENV:-$HOME/.cache/litrev/asreview-venv}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [ $# -eq 0 ]; then
  echo "usage: $0 [--n-stop N] [--keep] DIR [DIR...]" >&2
  exit 2
fi

installed() {
  "$venv/bin/python" - "$asreview_version" "$scikit_learn_version" 2>/dev/null <<'PY'
import importlib.metadata as metadata, sys
wanted = {"asreview": sys.argv[1], "scikit-learn": sys.argv[2]}
sys.exit(any(metadata.version(name) != version for name, version in wanted.items()))
PY
}

if ! installed; then
  python="${PYTHON:-python3}"
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "error: ASReview $asreview_version needs Python 3.10 or newer; set PYTHON" >&2
    exit 1
  fi
  echo "installing asreview==$asreview_version into $venv" >&2
  mkdir -p "$(dirname "$venv")"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "asreview==$asreview_version" "scikit-learn==$scikit_learn_version"
  installed || { echo "error: the install in $venv did not give the pinned versions" >&2; exit 1; }
fi

exec "$venv/bin/python" "$here/asreview_simulate.py" "$@"
