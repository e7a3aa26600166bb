#!/usr/bin/env bash
# Issue 13's back-pressure target, measured on the real example server: http-hello (-Xmx512m, one
# event loop) on each transport, and CLIENTS connections that each pipeline REQUESTS plaintext
# GETs without reading an answer (nonreading-clients.py). Prints the server's RSS growth while
# they do not read, then checks every answer arrives once they do, and that no connection is reset.
#
#   mvn -B -q package -DskipTests
#   microbench/scripts/nonreading-clients.sh [clients] [requests]     (defaults: 3 3000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
clients=${1:-3}
requests=${2:-3000000}
jar=example/target/rill-example.jar
[ -f "$jar" ] || { echo "build first: mvn -B -q package -DskipTests" >&2; exit 1; }
log=$(mktemp)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -f "$log"; }
trap cleanup EXIT
status=0
for transport in nio epoll; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  java -Xmx512m -jar "$jar" http-hello --port "$port" --threads 1 --transport "$transport" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q Listening "$log" && break; sleep 0.1; done
  grep -q Listening "$log" || { echo "$transport: the server did not start:"; cat "$log"; exit 1; }
  echo "== http-hello --transport $transport: $clients clients x $requests pipelined GETs, not reading"
  python3 microbench/scripts/nonreading-clients.py "$pid" 127.0.0.1 "$port" \
      --clients "$clients" --requests "$requests" || status=1
  if grep -q . <(grep -v '^Listening' "$log"); then echo "server log:"; grep -v '^Listening' "$log"; fi
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
done
exit $status
