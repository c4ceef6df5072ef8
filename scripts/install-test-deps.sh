#!/usr/bin/env bash
# Installs what the tests need and the machine may lack: pandoc (exports are checked by
# rendering them). Safe to run again: it only installs what is missing.
set -euo pipefail

need_apt=()
command -v pandoc >/dev/null 2>&1 || need_apt+=(pandoc)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
