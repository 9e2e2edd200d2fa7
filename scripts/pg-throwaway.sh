#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL cluster on 127.0.0.1 for the test suites.
#   scripts/pg-throwaway.sh start DIR PORT   -> prints the DATABASE_URL
#   scripts/pg-throwaway.sh stop DIR
#   scripts/pg-throwaway.sh pause DIR / resume DIR PORT   -> stops and starts the server, keeping its data (fault suites)
# With PG_PASSWORD set, the cluster asks for that password (scram-sha-256) instead of trusting every local client.
# initdb and postgres refuse to run as root, so as root they run as the postgres user.
# Data checksums are on (--data-checksums; PostgreSQL 15's initdb leaves them off): a page garbled on disk fails its
# checksum when read, which the integrity pass (simulator/server/integrity/) reports.
set -euo pipefail
cmd=$1 dir=$2 port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_pg() { if [ "$(id -u)" = "0" ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

case "$cmd" in
  start)
    rm -rf "$dir" && mkdir -p "$dir"
    [ "$(id -u)" = "0" ] && chown postgres "$dir"
    if [ -n "${PG_PASSWORD:-}" ]; then
      printf '%s\n' "$PG_PASSWORD" > "$dir/pw" && { [ "$(id -u)" = "0" ] && chown postgres "$dir/pw" || true; }
      as_pg "'$bin/initdb' -D '$dir/data' -U postgres -A scram-sha-256 --pwfile='$dir/pw' --no-sync --data-checksums -E UTF8" >/dev/null
      rm -f "$dir/pw"
    else
      as_pg "'$bin/initdb' -D '$dir/data' -U postgres -A trust --no-sync --data-checksums -E UTF8" >/dev/null
    fi
    as_pg "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null
    echo "postgres://postgres${PG_PASSWORD:+:$PG_PASSWORD}@127.0.0.1:$port/postgres"
    ;;
  pause)
    as_pg "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" >/dev/null
    ;;
  resume)
    as_pg "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null
    ;;
  stop)
    [ -d "$dir/data" ] && as_pg "'$bin/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
esac
