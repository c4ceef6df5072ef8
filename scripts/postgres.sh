#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the store and worker tests, on loopback.
#
#   scripts/postgres.sh start DIR   installs Debian's postgresql when missing, creates a cluster
#                                   in DIR (initdb, trust auth on 127.0.0.1 only), starts it on a
#                                   free port and prints its URL (postgres://litrev@127.0.0.1:PORT/postgres)
#   scripts/postgres.sh stop DIR    stops it (DIR can then be removed)
#
# Run as root, the server runs as the `postgres` user the Debian package creates (PostgreSQL
# refuses to run as root). To use an existing server instead, set LITREV_TEST_POSTGRES to a URL
# of a role that may create databases: the tests make one database each.
set -euo pipefail
action="${1:?usage: postgres.sh start|stop DIR}"
dir="${2:?usage: postgres.sh start|stop DIR}"

bindir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$found" ] && [ -x "$found/initdb" ] && echo "$found"
}

as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$action" in
  start)
    if [ -z "$(bindir)" ]; then
      echo "installing: postgresql (Debian)" >&2
      sudo_cmd=""
      [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
      $sudo_cmd apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    fi
    bin=$(bindir) || { echo "postgres.sh: no initdb after installing postgresql" >&2; exit 1; }
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_server_user "$bin/initdb" -D "$dir/data" -U litrev -A trust --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://litrev@127.0.0.1:$port/postgres"
    ;;
  stop)
    bin=$(bindir) || exit 0
    [ -d "$dir/data" ] && as_server_user "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: postgres.sh start|stop DIR" >&2
    exit 2
    ;;
esac
