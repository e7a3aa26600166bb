#!/usr/bin/env bash
# Load test of the plaintext server: Rill's http-hello (NIO, and epoll when the jar has it) and, when
# microbench was built with -Ppeers, Netty 4.1's NettyHelloServer, one after the other with the same
# JVM and pinning: the server on core 0 with one event loop, wrk on core 1. Prints requests/s for
# 64 connections without pipelining and 256 connections with 16 pipelined requests each.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/http-load.sh [seconds]        (needs wrk: apt-get install wrk)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
command -v wrk >/dev/null || { echo "http-load: needs wrk (apt-get install wrk)" >&2; exit 1; }
lua=$(mktemp --suffix=.lua)
cat >"$lua" <<'LUA'
init = function(args)
  local r = {}
  for i = 1, 16 do r[i] = wrk.format(nil, "/plaintext") end
  req = table.concat(r)
end
request = function() return req end
LUA
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -f "$lua"; }
trap cleanup EXIT

run() { # name, command...
  local name=$1; shift
  local port=$((20000 + RANDOM % 20000))
  local log; log=$(mktemp)
  taskset -c 0 "$@" "$port" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q "Listening on" "$log" && break; sleep 0.1; done
  grep -q "Listening on" "$log" || { echo "$name did not start:"; cat "$log"; exit 1; }
  local url="http://127.0.0.1:$port/plaintext"
  taskset -c 1 wrk -t1 -c64 -d2s "$url" >/dev/null 2>&1 # warm-up
  taskset -c 1 wrk -t1 -c256 -d2s -s "$lua" "$url" >/dev/null 2>&1
  local plain piped
  plain=$(taskset -c 1 wrk -t1 -c64 -d"${seconds}s" "$url" | awk '/Requests\/sec/ {print $2}')
  piped=$(taskset -c 1 wrk -t1 -c256 -d"${seconds}s" -s "$lua" "$url" | awk '/Requests\/sec/ {print $2}')
  printf '%-22s %14s %22s\n' "$name" "$plain" "$piped"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  rm -f "$log"
}

printf '%-22s %14s %22s\n' server "req/s (64 conn)" "req/s (256 conn, pipe 16)"
jar=example/target/rill-example.jar
run "rill http-hello nio" java -jar "$jar" http-hello --threads 1 --transport nio --port
if jar tf "$jar" 2>/dev/null | grep 'io/rill/channel/epoll/' >/dev/null; then
  run "rill http-hello epoll" java -jar "$jar" http-hello --threads 1 --transport epoll --port
fi
if jar tf microbench/target/benchmarks.jar 2>/dev/null | grep NettyHelloServer >/dev/null; then
  run "netty 4.1 nio" java -cp microbench/target/benchmarks.jar io.rill.microbench.peers.NettyHelloServer
fi
