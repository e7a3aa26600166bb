#!/usr/bin/env bash
# Issue 20 items 3 and 4 on the real example servers, over each transport: a client that
# half-closes after three GETs of a 40 MB file gets all 120 MB (http-file-server); a refusal
# reaches a client that is still sending and ends in a clean end of stream, not a reset; a head
# or a body sent a byte every half second is answered 408 at the 5 s limit (http-hello with
# --header-timeout 5 --body-timeout 5). See delivery.py for what each case prints.
#
#   mvn -B -q package -DskipTests && microbench/scripts/delivery.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=example/target/rill-example.jar
[ -f "$jar" ] || { echo "build first: mvn -B -q package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
size=$((40 << 20))
truncate -s "$size" "$work/big.bin"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start() { # log, args...
  local log=$1; shift
  java -jar "$jar" "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do grep -q Listening "$log" && return; sleep 0.1; done
  echo "did not start: $*"; cat "$log"; exit 1
}
status=0
for transport in nio epoll; do
  fport=$(free_port); hport=$(free_port)
  start "$work/file.log" http-file-server --dir "$work" --port "$fport" --transport "$transport"
  start "$work/hello.log" http-hello --port "$hport" --transport "$transport" --header-timeout 5 --body-timeout 5
  echo "== $transport"
  python3 microbench/scripts/delivery.py "$fport" "$hport" "$size" || status=1
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  pids=()
done
exit $status
