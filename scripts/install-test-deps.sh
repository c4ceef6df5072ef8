#!/usr/bin/env bash
# Installs what the tests need and the machine may lack: pandoc (exports are checked by
# rendering them) and the Python readers rispy, bibtexparser and networkx (exports are checked by parsing
# them back). Safe to run again: it only installs what is missing.
set -euo pipefail

need_apt=()
command -v pandoc >/dev/null 2>&1 || need_apt+=(pandoc)

# Python readers that check the exports the way users' tools read them.
if ! python3 -c "import rispy, bibtexparser, networkx" >/dev/null 2>&1; then
  echo "installing: rispy bibtexparser networkx (PyPI)" >&2
  python3 -m pip install --quiet --disable-pip-version-check rispy "bibtexparser==2.1.0" networkx >/dev/null 2>&1 \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages rispy "bibtexparser==2.1.0" networkx
fi

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
