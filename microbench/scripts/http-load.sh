#!/usr/bin/env bash
# Load test of the plaintext server: Rill's http-hello (NIO, and epoll when the jar has it) and, when
# microbench was built with -Ppeers, Netty 4.1's NettyHelloServer, one after the other with the same
# JVM and pinning: the server on core 0 with one event loop, wrk on core 1. For 64 connections
# without pipelining and 256 connections with 16 pipelined requests each, prints requests/s and the
# bytes the server's JVM allocated per request (all threads, read through AllocationProbe). With
# several rounds, the servers take turns in each round and the medians and the ratios to Netty on
# the same transport are printed at the end: on a small shared machine one run proves little.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/http-load.sh [seconds] [rounds]      (needs wrk: apt-get install wrk)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-1}
command -v wrk >/dev/null || { echo "http-load: needs wrk (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d)
cat >"$work/pipeline.lua" <<'LUA'
init = function(args)
  local r = {}
  for i = 1, 16 do r[i] = wrk.format(nil, "/plaintext") end
  req = table.concat(r)
end
request = function() return req end
LUA
cp="microbench/target/benchmarks.jar:example/target/rill-example.jar"
. microbench/scripts/probe-server.sh # we are at the repository root

# One measured wrk run: prints "requests/s bytes/request".
measure() { # wrk args...
  local a0 a1 out
  a0=$(allocated)
  out=$(taskset -c 1 wrk -t1 -d"${seconds}s" "$@")
  a1=$(allocated)
  echo "$out" | awk -v a="$((a1 - a0))" '/requests in/ {n=$1} /Requests\/sec/ {r=$2} END {printf "%s %.0f", r, a / n}'
}

run() { # name, main class, args... (the port is appended)
  local name=$1; shift
  local port
  start_probe_server "$name" "$@"
  local url="http://127.0.0.1:$port/plaintext"
  taskset -c 1 wrk -t1 -c64 -d8s "$url" >/dev/null 2>&1 # warm-up: the JIT is done with the hot paths by then
  taskset -c 1 wrk -t1 -c256 -d4s -s "$work/pipeline.lua" "$url" >/dev/null 2>&1
  local plain piped
  plain=$(measure -c64 "$url")
  piped=$(measure -c256 -s "$work/pipeline.lua" "$url")
  printf '%-22s %12s %8s %14s %8s\n' "$name" $plain $piped
  echo "$name" $plain $piped >>"$work/results"
  exec 3>&-
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

epoll=; netty=
if unzip -l example/target/rill-example.jar 2>/dev/null | grep "io/rill/channel/epoll/" >/dev/null; then epoll=1; fi
if unzip -l microbench/target/benchmarks.jar 2>/dev/null | grep NettyHelloServer >/dev/null; then netty=1; fi
printf '%-22s %12s %8s %14s %8s\n' server "64 conn r/s" "B/req" "pipe 16 r/s" "B/req"
for round in $(seq 1 "$rounds"); do
  run "rill-nio" io.rill.example.Main http-hello --threads 1 --transport nio --port
  if [ -n "$netty" ]; then run "netty-nio" io.rill.microbench.peers.NettyHelloServer nio; fi
  if [ -n "$epoll" ]; then run "rill-epoll" io.rill.example.Main http-hello --threads 1 --transport epoll --port; fi
  if [ -n "$netty" ] && [ -n "$epoll" ]; then run "netty-epoll" io.rill.microbench.peers.NettyHelloServer epoll; fi
done
if [ "$rounds" -gt 1 ]; then
  echo "medians of $rounds rounds (ratio: rill / netty on the same transport)"
  python3 - "$work/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, *v = line.split()
    rows.setdefault(name, []).append([float(x) for x in v])
med = {n: [statistics.median(c) for c in zip(*r)] for n, r in rows.items()}
for n, m in med.items():
    peer = med.get(n.replace("rill", "netty")) if n.startswith("rill") else None
    ratio = f"  x{m[0] / peer[0]:.2f} / x{m[2] / peer[2]:.2f}" if peer else ""
    print(f"{n:22} {m[0]:12.0f} {m[1]:8.0f} {m[2]:14.0f} {m[3]:8.0f}{ratio}")
PY
fi
