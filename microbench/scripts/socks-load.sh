#!/usr/bin/env bash
# SOCKS5 relay under load (issue 33): the C load generator on core 1 (microbench/load/loadgen.c in
# its socks5 mode: each connection asks the proxy to CONNECT to a C echo server, then keeps one
# message in flight through the tunnel) against one proxy on core 0 with one event loop: Rill's
# socks-proxy example over NIO and epoll and, when microbench was built with -Ppeers, Netty 4.1's
# SOCKS5 relay in the shape of Netty's own example (NettySocksProxy) over both. The echo server
# (microbench/load/echo-server.c) shares core 1 with the generator, so the proxy's core does the
# proxy's work only. Each round trip costs the proxy two reads and two writes. The proxies take
# turns within each round. Per proxy: round trips/s, the proxy's CPU µs per round trip and the
# share of its core, bytes allocated per round trip (all threads of its JVM), young GCs and their
# pause time, RSS and heap per idle tunnel (two sockets); then medians and Rill's ratios to Netty.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/socks-load.sh [seconds] [rounds] [connections]   (defaults: 10 s, 3 rounds, 256)
#
# SIZE (256) sets the message size, WARMUP (5 s) the warm-up before each measured run, RATE=N paces
# the generator (as in echo-load.sh), ONLY=REGEX the proxies (rill-nio, netty-nio, rill-epoll,
# netty-epoll), JAVA_OPTS the proxy JVMs' options (default: ParallelGC with a fixed, pre-touched
# 1 GiB heap and -XX:AutoBoxCacheMax=65536, as in the other load scripts). Needs gcc and taskset.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-3}
conns=${3:-256}
size=${SIZE:-256}
warmup=${WARMUP:-5}
export JAVA_OPTS=${JAVA_OPTS:--XX:+UseParallelGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:AutoBoxCacheMax=65536}
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
bench=microbench/target/benchmarks.jar
cp=$bench:example/target/rill-example.jar
. microbench/scripts/probe-server.sh
. microbench/scripts/loadgen-lib.sh
build_load_tools

netty=; epoll=
if unzip -l "$bench" 2>/dev/null | grep NettySocksProxy >/dev/null; then netty=1; fi
if unzip -l example/target/rill-example.jar 2>/dev/null | grep "io/rill/channel/epoll/" >/dev/null; then epoll=1; fi

# The destination every tunnel leads to, for the whole run.
echo_port=$(free_port)
taskset -c 1 "$tools/echo-server" "$echo_port" >"$work/echo.log" 2>&1 &
echo_pid=$!
trap 'kill $echo_pid 2>/dev/null; cleanup' EXIT
for _ in $(seq 1 50); do grep -q "Listening on" "$work/echo.log" && break; sleep 0.1; done
export SOCKS_TARGET=$echo_port

run() { # name, then "java MAIN ARGS..."
  local name=$1; shift
  [[ "$name" =~ ${ONLY:-.} ]] || return 0
  shift; probed=1
  start_probe_server "$name" "$@"
  local figures
  figures=$(measure_load socks5 "$conns" "$size" "$seconds" "$warmup")
  printf '%-7s %-12s %s\n' "$conns" "$name" "$figures"
  echo "$name" "$conns" "$figures" >>"$work/results"
  exec 3>&-
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

[ -n "${RATE:-}" ] && echo "paced: $RATE round trips/s in all"
echo "conns   proxy        rt/s CPU-µs/rt core-% B/rt young-GCs GC-ms RSS-B/conn heap-B/conn"
for round in $(seq 1 "$rounds"); do
  run rill-nio java io.rill.example.Main socks-proxy --threads 1 --transport nio --port
  [ -n "$netty" ] && run netty-nio java io.rill.microbench.peers.NettySocksProxy nio
  [ -n "$epoll" ] && run rill-epoll java io.rill.example.Main socks-proxy --threads 1 --transport epoll --port
  [ -n "$netty" ] && run netty-epoll java io.rill.microbench.peers.NettySocksProxy epoll
done
echo "medians of $rounds rounds"
print_medians "{'rill-nio': ['netty-nio'], 'netty-nio': [], 'rill-epoll': ['netty-epoll'], 'netty-epoll': []}"
