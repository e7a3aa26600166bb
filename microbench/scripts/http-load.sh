#!/usr/bin/env bash
# Load test of the plaintext server (issue 16): Rill's http-hello over NIO and epoll and, when
# microbench was built with -Ppeers, Netty 4.1's NettyHelloServer over NIO and epoll and Netty 4.2's
# over epoll, taking turns within each round with the same JVM options and pinning: the server on
# core 0 with one event loop, wrk on core 1. Two loads: 64 keep-alive connections without
# pipelining, and 256 connections with 16 pipelined requests each. Per server and load it prints
# requests/s, the server's CPU µs per request (utime + stime of the whole process, /proc/PID/stat)
# and the share of its core, bytes allocated per request (all threads of the JVM, through
# AllocationProbe), young GCs and their pause time; then medians over the rounds and the ratios of
# Rill to its peers, and of Rill's epoll transport to its NIO one.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/http-load.sh [seconds] [rounds]      (defaults: 10 s, 3 rounds; needs wrk)
#
# ONLY=REGEX selects the servers (rill-nio, netty-nio, rill-epoll, netty-epoll, netty42-epoll);
# JAVA_OPTS the server JVMs' options (default: ParallelGC with a fixed, pre-touched 1 GiB heap, and -XX:AutoBoxCacheMax=65536).
# Netty 4.2 runs from microbench/target/netty42, which echo-load.sh fills on its first run.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-3}
command -v wrk >/dev/null || { echo "http-load: needs wrk (apt-get install wrk)" >&2; exit 1; }
# AutoBoxCacheMax: the JDK's NIO selector boxes each ready descriptor (README, Tuning).
export JAVA_OPTS=${JAVA_OPTS:--XX:+UseParallelGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:AutoBoxCacheMax=65536}
work=$(mktemp -d)
cat >"$work/pipeline.lua" <<'LUA'
init = function(args)
  local r = {}
  for i = 1, 16 do r[i] = wrk.format(nil, "/plaintext") end
  req = table.concat(r)
end
request = function() return req end
LUA
bench=microbench/target/benchmarks.jar
cp=$bench:example/target/rill-example.jar
netty42=microbench/target/netty42
. microbench/scripts/probe-server.sh # we are at the repository root
. microbench/scripts/loadgen-lib.sh
probed=1

# One measured wrk run: prints "requests/s cpu-µs/request core-% bytes/request young-gcs young-gc-ms".
measure() { # wrk args...
  local p0 p1 c0 c1 out
  p0=$(probe); c0=$(cpu_ticks)
  out=$(taskset -c 1 wrk -t1 -d"${seconds}s" "$@")
  c1=$(cpu_ticks); p1=$(probe)
  echo "$out" | awk -v c="$((c1 - c0))" -v t="$ticks" -v p0="$p0" -v p1="$p1" -v s="$seconds" '
    /requests in/ {n = $1} /Requests\/sec/ {r = $2}
    END { split(p0, a); split(p1, b); cpu = c / t * 1e6 / n
          printf "%.0f %.2f %.0f %.0f %d %d", r, cpu, c / t / s * 100, (b[1] - a[1]) / n, b[2] - a[2], b[3] - a[3] }'
}

run() { # name, main class, args... (the port is appended)
  local name=$1; shift
  [[ "$name" =~ ${ONLY:-.} ]] || return 0
  start_probe_server "$name" "$@"
  local url="http://127.0.0.1:$port/plaintext" plain piped
  taskset -c 1 wrk -t1 -c64 -d8s "$url" >/dev/null 2>&1 # warm-up: the JIT is done with the hot paths by then
  taskset -c 1 wrk -t1 -c256 -d4s -s "$work/pipeline.lua" "$url" >/dev/null 2>&1
  plain=$(measure -c64 "$url")
  piped=$(measure -c256 -s "$work/pipeline.lua" "$url")
  printf '%-14s %-14s %s\n' "$name" 64c "$plain"
  printf '%-14s %-14s %s\n' "$name" 256c-pipe16 "$piped"
  echo "$name" 64c "$plain" >>"$work/results"
  echo "$name" 256c-pipe16 "$piped" >>"$work/results"
  exec 3>&-
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

epoll=; netty=
if unzip -l example/target/rill-example.jar 2>/dev/null | grep "io/rill/channel/epoll/" >/dev/null; then epoll=1; fi
if unzip -l "$bench" 2>/dev/null | grep NettyHelloServer >/dev/null; then netty=1; fi
echo "server         load           req/s CPU-µs/req core-% B/req young-GCs GC-ms"
for round in $(seq 1 "$rounds"); do
  run rill-nio io.rill.example.Main http-hello --threads 1 --transport nio --port
  [ -n "$netty" ] && run netty-nio io.rill.microbench.peers.NettyHelloServer nio
  [ -n "$epoll" ] && run rill-epoll io.rill.example.Main http-hello --threads 1 --transport epoll --port
  if [ -n "$netty" ] && [ -n "$epoll" ]; then run netty-epoll io.rill.microbench.peers.NettyHelloServer epoll; fi
  if [ -n "$netty" ] && [ -n "$epoll" ] && [ -f "$netty42/.done" ]; then
    cp=microbench/target/classes:$netty42/* run netty42-epoll io.rill.microbench.peers.NettyHelloServer epoll
  fi
done
echo "medians of $rounds rounds"
print_medians "{'rill-nio': ['netty-nio'], 'netty-nio': [], 'rill-epoll': ['netty-epoll', 'netty42-epoll', 'rill-nio'],
  'netty-epoll': [], 'netty42-epoll': []}" "req/s,CPU µs/req,core %,B/req,young GCs,GC ms"
