#!/usr/bin/env bash
# WebSocket echo under load (issue 15): a C load generator on core 1 (microbench/load/loadgen.c in
# its ws mode: an HTTP/1.1 upgrade, then one masked binary message in flight per connection, no
# compression offered) against one server on core 0 with one event loop: Rill's websocket-echo
# over NIO and epoll and, when microbench was built with -Ppeers, Netty 4.1's WebSocket echo
# (NettyWebSocketEchoServer) over both; and two floors with nothing in the way: a C epoll WebSocket
# echo server (microbench/load/ws-echo-server.c), the physical limit, and the same loop over plain
# JDK NIO (BareNioWebSocketEchoServer), the limit of any server over java.nio. Message sizes 64 B
# and 16 KiB; the servers take turns within each round. Per server and size: messages/s (round
# trips), the server's CPU µs per message and the share of its core, bytes allocated per message
# (all threads of the JVM), young GCs and their pause time, RSS and heap per idle connection; then
# medians and Rill's ratios to Netty and to the floors.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/ws-load.sh [seconds] [rounds] [connections]   (defaults: 10 s, 3 rounds, 256)
#
# SIZES ("64 16384") sets the message sizes, WARMUP (5 s) the warm-up before each measured run,
# ONLY=REGEX the servers (rill-nio, netty-nio, bare-nio, rill-epoll, netty-epoll, c-epoll), JAVA_OPTS the server
# JVMs' options (default: ParallelGC with a fixed, pre-touched 1 GiB heap, so that RSS grows only with what the server holds, and -XX:AutoBoxCacheMax=65536). Needs gcc and taskset.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-3}
conns=${3:-256}
read -r -a sizes <<<"${SIZES:-64 16384}"
warmup=${WARMUP:-5}
# AutoBoxCacheMax: the JDK's NIO selector boxes each ready descriptor (README, Tuning).
export JAVA_OPTS=${JAVA_OPTS:--XX:+UseParallelGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:AutoBoxCacheMax=65536}
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
bench=microbench/target/benchmarks.jar
cp=$bench:example/target/rill-example.jar
. microbench/scripts/probe-server.sh
. microbench/scripts/loadgen-lib.sh
build_load_tools

netty=; epoll=
if unzip -l "$bench" 2>/dev/null | grep NettyWebSocketEchoServer >/dev/null; then netty=1; fi
if unzip -l example/target/rill-example.jar 2>/dev/null | grep "io/rill/channel/epoll/" >/dev/null; then epoll=1; fi

run() { # name, size, then "c" or main class, args... (the port is appended)
  local name=$1 size=$2; shift 2
  [[ "$name" =~ ${ONLY:-.} ]] || return 0
  if [ "$1" = c ]; then
    port=$(free_port); probed=
    taskset -c 0 "$tools/ws-echo-server" "$port" >"$work/log" 2>&1 &
    pid=$!
    for _ in $(seq 1 50); do grep -q "Listening on" "$work/log" && break; sleep 0.1; done
  else
    probed=1
    start_probe_server "$name" "$@"
  fi
  local figures
  figures=$(measure_load ws "$conns" "$size" "$seconds" "$warmup")
  printf '%-7s %-14s %s\n' "$size" "$name" "$figures"
  echo "$name" "${size}B" "$figures" >>"$work/results"
  [ -n "$probed" ] && exec 3>&-
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

echo "size    server         msg/s CPU-µs/msg core-% B/msg young-GCs GC-ms RSS-B/conn heap-B/conn ($conns connections)"
for round in $(seq 1 "$rounds"); do
  for size in "${sizes[@]}"; do
    run rill-nio "$size" io.rill.example.Main websocket-echo --threads 1 --transport nio --port
    [ -n "$netty" ] && run netty-nio "$size" io.rill.microbench.peers.NettyWebSocketEchoServer nio
    run bare-nio "$size" io.rill.microbench.load.BareNioWebSocketEchoServer
    [ -n "$epoll" ] && run rill-epoll "$size" io.rill.example.Main websocket-echo --threads 1 --transport epoll --port
    if [ -n "$netty" ] && [ -n "$epoll" ]; then run netty-epoll "$size" io.rill.microbench.peers.NettyWebSocketEchoServer epoll; fi
    run c-epoll "$size" c
  done
done
echo "medians of $rounds rounds (rt = one message echoed)"
print_medians "{'rill-nio': ['netty-nio', 'bare-nio'], 'netty-nio': [], 'bare-nio': ['netty-nio', 'c-epoll'], 'rill-epoll': ['netty-epoll', 'c-epoll'], 'netty-epoll': ['c-epoll'],
  'c-epoll': []}"
