#!/usr/bin/env bash
# TCP echo at scale (issue 16): N connections, each keeping one 256-byte message in flight, from a
# C load generator on core 1 (microbench/load/loadgen.c) against one server on core 0 with one
# event loop: Rill's echo-server over NIO and epoll, Netty 4.1 over NIO and epoll and Netty 4.2 over
# epoll (when microbench was built with -Ppeers), and a C epoll echo server
# (microbench/load/echo-server.c), the physical limit. Servers take turns within each round, at
# each connection count. Per server and count it prints round trips/s, the server's CPU µs per
# round trip (utime + stime of the whole process, /proc/PID/stat) and the share of its core, bytes
# allocated per round trip (all threads of the JVM), young GCs and their pause time during the
# measured run, and RSS and live heap per connection (all connections open and idle, against the
# figures before they opened); then medians over the rounds and Rill's ratios to its peers.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/echo-load.sh [seconds] [rounds] [connection counts...]
#     (defaults: 10 s, 3 rounds, 256 4096 16384)
#
# RATE=N paces the load generator to N round trips/s in all, so that every server is measured at the
# same throughput rather than each at its own saturation (README, "Saturated and paced"); a server
# that cannot keep the pace shows it in its rt/s.
# SIZE (256) sets the message size, WARMUP (5 s) the warm-up before each measured run, ONLY=REGEX
# the servers (rill-nio, rill-epoll, netty-nio, netty-epoll, netty42-epoll, c-epoll), JAVA_OPTS
# the server JVMs' options (default: ParallelGC with a fixed, pre-touched 1 GiB heap, so that RSS grows only with what the server holds, and -XX:AutoBoxCacheMax=65536). Netty 4.2 is fetched
# from Maven Central into microbench/target/netty42 the first time. Needs gcc and taskset, and a
# descriptor limit above the largest count (the script raises its soft limit to the hard one).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-3}
shift $(( $# > 2 ? 2 : $# ))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(256 4096 16384)
size=${SIZE:-256}
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
if unzip -l "$bench" 2>/dev/null | grep NettyEchoServer >/dev/null; then netty=1; fi
if unzip -l example/target/rill-example.jar 2>/dev/null | grep "io/rill/channel/epoll/" >/dev/null; then epoll=1; fi

# Netty 4.2 beside 4.1 cannot share a class path: its jars go to their own folder, and the peer
# class runs from microbench's compiled classes (which hold no Netty) with them.
netty42=microbench/target/netty42
if [ -n "$netty" ] && [ ! -f "$netty42/.done" ]; then
  mkdir -p "$netty42"
  cat >"$work/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>io.rill.load</groupId><artifactId>netty42</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.netty</groupId><artifactId>netty-all</artifactId><version>4.2.18.Final</version></dependency>
  </dependencies>
</project>
POM
  mvn -B -q -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$(pwd)/$netty42" && touch "$netty42/.done"
fi

run() { # name, connections, then how to start: "java MAIN ARGS..." or "c"
  local name=$1 conns=$2; shift 2
  [[ "$name" =~ ${ONLY:-.} ]] || return 0
  if [ "$1" = c ]; then
    port=$(free_port); probed=
    taskset -c 0 "$tools/echo-server" "$port" >"$work/log" 2>&1 &
    pid=$!
    for _ in $(seq 1 50); do grep -q "Listening on" "$work/log" && break; sleep 0.1; done
  else
    shift; probed=1
    start_probe_server "$name" "$@"
  fi
  local figures
  figures=$(measure_load echo "$conns" "$size" "$seconds" "$warmup")
  printf '%-7s %-14s %s\n' "$conns" "$name" "$figures"
  echo "$name" "$conns" "$figures" >>"$work/results"
  [ -n "$probed" ] && exec 3>&-
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

[ -n "${RATE:-}" ] && echo "paced: $RATE round trips/s in all"
echo "conns   server         rt/s CPU-µs/rt core-% B/rt young-GCs GC-ms RSS-B/conn heap-B/conn"
for round in $(seq 1 "$rounds"); do
  for conns in "${counts[@]}"; do
    run rill-nio "$conns" java io.rill.example.Main echo-server --threads 1 --transport nio --port
    [ -n "$netty" ] && run netty-nio "$conns" java io.rill.microbench.peers.NettyEchoServer nio
    [ -n "$epoll" ] && run rill-epoll "$conns" java io.rill.example.Main echo-server --threads 1 --transport epoll --port
    [ -n "$netty" ] && run netty-epoll "$conns" java io.rill.microbench.peers.NettyEchoServer epoll
    if [ -n "$netty" ] && [ -f "$netty42/.done" ]; then
      cp=microbench/target/classes:$netty42/* run netty42-epoll "$conns" java io.rill.microbench.peers.NettyEchoServer epoll
    fi
    run c-epoll "$conns" c
  done
done
echo "medians of $rounds rounds"
print_medians "{'rill-nio': ['netty-nio'], 'netty-nio': [], 'rill-epoll': ['netty-epoll', 'netty42-epoll', 'c-epoll'],
  'netty-epoll': [], 'netty42-epoll': [], 'c-epoll': []}"
