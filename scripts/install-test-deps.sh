#!/usr/bin/env bash
# Installs what the tests need and the machine may lack: pandoc and Chromium (exports and charts
# are checked by rendering them), the Python readers rispy, bibtexparser, networkx and python-docx
# (exports are checked by parsing them back), the Python MCP SDK (the independent client of
# litrev mcp), pyzotero (reads back an export to Zotero), and the embedding model
# all-MiniLM-L6-v2 (litrev-embed's tests). Safe to run again: it only installs what is missing.
set -euo pipefail

need_apt=()
command -v pandoc >/dev/null 2>&1 || need_apt+=(pandoc)
# Headless Chromium renders the SVG charts in the tests, as a browser would show them.
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)

# Python readers that check the exports the way users' tools read them.
# The MCP SDK for Python (`mcp`, with jsonschema) is the independent client of litrev mcp.
python_packages=(rispy "bibtexparser==2.1.0" networkx python-docx "mcp>=1.20,<2" jsonschema)
if ! python3 -c "import rispy, bibtexparser, networkx, docx, mcp, jsonschema" >/dev/null 2>&1; then
  echo "installing: ${python_packages[*]} (PyPI)" >&2
  python3 -m pip install --quiet --disable-pip-version-check "${python_packages[@]}" >/dev/null 2>&1 \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "${python_packages[@]}"
fi

# pyzotero, the independent client that reads back what `litrev export --zotero` writes: in a
# venv of its own (target/pyzotero-venv), since it needs bibtexparser 1.x and the checks above 2.x.
pyzotero_venv="$(cd "$(dirname "$0")/.." && pwd)/target/pyzotero-venv"
if ! "$pyzotero_venv/bin/python" -c "import pyzotero" >/dev/null 2>&1; then
  echo "installing: pyzotero (PyPI) into $pyzotero_venv" >&2
  python3 -m venv "$pyzotero_venv"
  "$pyzotero_venv/bin/pip" install --quiet --disable-pip-version-check "pyzotero>=1.6,<2" >/dev/null
fi

# The sentence-embedding model (themes are clustered with it; litrev-embed's tests check it).
bash "$(dirname "$0")/install-model.sh"

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
