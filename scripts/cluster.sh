#!/usr/bin/env bash
# cluster.sh — a local PostgreSQL and three `asobi serve` nodes on it, for trying several nodes (docs/server.md, "Several nodes").
# Usage: scripts/cluster.sh [BASE_PORT]   (default 8081: nodes on 8081, 8082, 8083; Ctrl-C stops everything)
# The database lives in a temporary folder (tests/support/pg_fixture.py: initdb, a unix socket only, run as
# `nobody` when we are root) and is removed on exit. Kill a node (kill -9 PID) and watch another take its
# tables within the lease (--lease 3 here); every node answers the lobby for every table.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-8081}
build=${ASOBI_BUILD_DIR:-build}
echo "cluster.sh: checking the packages and building the server" >&2
ASOBI_TARGET=asobi scripts/setup.sh "$build"
exec /usr/bin/python3 tests/support/pg_fixture.py bash -c '
  base=$1 build=$2
  pids=()
  trap "kill \${pids[*]} 2>/dev/null; wait" EXIT INT TERM
  for i in 0 1 2; do
    port=$((base + i))
    "$build/asobi" serve --db "$ASOBI_TEST_PG" --port $port --node node$i --lease 3 \
      --public-url http://127.0.0.1:$port --workers 2 &
    pids+=($!)
    echo "cluster.sh: node$i (pid $!) on http://127.0.0.1:$port" >&2
  done
  echo "cluster.sh: the database is $ASOBI_TEST_PG (psql \"$ASOBI_TEST_PG\")" >&2
  wait
' cluster "$base" "$build"
