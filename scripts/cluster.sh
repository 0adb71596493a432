#!/usr/bin/env bash
# cluster.sh — a local PostgreSQL, three `asobi serve` nodes on it and an nginx front before them, for trying several nodes (docs/server.md, "Several nodes").
# Usage: scripts/cluster.sh [FRONT_PORT]   (default 8080: open http://127.0.0.1:8080/; the nodes listen on
# FRONT_PORT+1..+3; Ctrl-C stops everything)
# The database lives in a temporary folder (tests/support/pg_fixture.py: initdb, a unix socket only, run as
# `nobody` when we are root) and is removed on exit. The front is docs/deploy.md's on one origin: /n/nodeK/
# reaches node K, every other path any live node (a page may follow a table only to its own origin: the
# nodes' --public-url are the front's paths). Kill a node (kill -9 PID) and watch another take its tables
# within the lease (--lease 3 here); every node answers the lobby for every table.
set -euo pipefail
cd "$(dirname "$0")/.."
front=${1:-8080}
build=${ASOBI_BUILD_DIR:-build}
echo "cluster.sh: checking the packages and building the server" >&2
ASOBI_TARGET=asobi scripts/setup.sh "$build"
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "cluster.sh: nginx is needed (scripts/setup.sh installs it)" >&2; exit 1; }
exec /usr/bin/python3 tests/support/pg_fixture.py bash -c '
  front=$1 build=$2 nginx=$3
  dir=$(mktemp -d)
  pids=()
  trap "kill \${pids[*]} 2>/dev/null; wait; rm -rf \"$dir\"" EXIT INT TERM
  servers="" locations=""
  for i in 0 1 2; do
    port=$((front + 1 + i))
    "$build/asobi" serve --db "$ASOBI_TEST_PG" --port $port --node node$i --lease 3 --workers 2 \
      --public-url "http://127.0.0.1:$front/n/node$i" --trusted-proxy 127.0.0.1 &
    pids+=($!)
    echo "cluster.sh: node$i (pid $!) on port $port, reached at http://127.0.0.1:$front/n/node$i/" >&2
    servers+="        server 127.0.0.1:$port max_fails=1 fail_timeout=2s;
"
    locations+="        location /n/node$i/ { proxy_pass http://127.0.0.1:$port/; }
"
  done
  mkdir -p "$dir/logs"
  cat > "$dir/nginx.conf" <<EOF
daemon off;
master_process off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    map \$http_upgrade \$connection_upgrade { default upgrade; "" close; }
    upstream asobi_any {
$servers    }
    server {
        listen 127.0.0.1:$front;
        proxy_http_version 1.1;
        proxy_set_header Upgrade \$http_upgrade;
        proxy_set_header Connection \$connection_upgrade;
        proxy_set_header Host \$host;
        proxy_set_header X-Forwarded-For \$remote_addr;
        proxy_read_timeout 1h;
$locations        location / { proxy_pass http://asobi_any; proxy_next_upstream error timeout http_502; }
    }
}
EOF
  "$nginx" -e "$dir/logs/error.log" -p "$dir" -c "$dir/nginx.conf" &
  pids+=($!)
  echo "cluster.sh: the front (nginx, pid $!) on http://127.0.0.1:$front/: open it in a browser" >&2
  echo "cluster.sh: the database is $ASOBI_TEST_PG (psql \"$ASOBI_TEST_PG\")" >&2
  wait
' cluster "$front" "$build" "$nginx"
