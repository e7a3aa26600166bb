#!/usr/bin/env bash
# Issue 37's HTTP/2 memory campaign (docs/security-cases.md, cases H2-21 and H2-23 to H2-25) against the
# real example jar at -Xmx512m, one fresh server per attack: gRPC message hoarding on 1 and 2
# connections and a /Stream client that never reads (grpc-echo), then 400 zero-window /echo
# connections, and 50 such connections that PINGs and 1-byte WINDOW_UPDATEs try to keep from looking
# stalled for 65 s (http2-hello). For each, h2_attacks.py prints the server's peak RSS growth, a
# legitimate client's worst latency and errors meanwhile, the descriptors still open 5 s after the
# attack ended and, for the zero-window attacks, how many of their connections the server closed.
# Targets: < +64 MB, < 100 ms, no error, +0 descriptors, and no LEAK line in the server's log.
# Before the two zero-window attacks the server first serves 40,000 legitimate POST /echo of 10 KB
# on 40 connections (h2load, unmeasured), as a server that has been serving would have: the JIT's
# one-off compilation (some 20 MB of compiler memory, code and metaspace), the heap's first-touched
# pages and the pool's first chunks, together +60-70 MB on a fresh JVM whoever sends the requests,
# are then not counted as the attack's cost. COLD=1 measures a fresh server instead.
#
#   mvn -B -q package -DskipTests
#   microbench/scripts/h2-attacks.sh [transport] [jar]        (defaults: nio, example/target/rill-example.jar)
#
# ATTACKS picks some of them (default: all), e.g. ATTACKS="grpc-hoard zero-window-echo".
# JAR may be another build of the examples (main's, to compare). PEER=netty runs the same campaign
# against Netty instead: gRPC Java on Netty for grpc-echo, Netty's HTTP/2 handler for http2-hello
# (io.rill.microbench.peers.NettyAttackPeer, built by
#   mvn -B -q -pl microbench -am package -DskipTests -Ppeers).
# EXAMPLE_CMD replaces the whole `java -Xmx512m -jar JAR` for any other server, which must take
# `grpc-echo|http2-hello --port P --transport T` and speak the same two services.
set -euo pipefail
cd "$(dirname "$0")/../.."
transport=${1:-nio}
jar=${2:-example/target/rill-example.jar}
if [ "${PEER:-}" = netty ]; then
  unzip -l microbench/target/benchmarks.jar 2>/dev/null | grep NettyAttackPeer >/dev/null \
      || { echo "build first: mvn -B -q -pl microbench -am package -DskipTests -Ppeers" >&2; exit 1; }
  EXAMPLE_CMD="java -Xmx512m -cp microbench/target/benchmarks.jar io.rill.microbench.peers.NettyAttackPeer"
fi
[ -n "${EXAMPLE_CMD:-}" ] || [ -f "$jar" ] || { echo "build first: mvn -B -q package -DskipTests" >&2; exit 1; }
attacks=${ATTACKS:-grpc-hoard grpc-hoard-2 grpc-stream zero-window-echo zero-window-keepalive}
log=$(mktemp)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -f "$log"; }
trap cleanup EXIT
status=0

run() { # example attack conns seconds
  local example=$1 attack=$2 conns=$3 seconds=$4 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  ${EXAMPLE_CMD:-java -Xmx512m -Drill.leakDetection.level=simple -jar "$jar"} "$example" --port "$port" \
      --transport "$transport" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q Listening "$log" && break; sleep 0.1; done
  grep -q Listening "$log" || { echo "$example: the server did not start:"; cat "$log"; exit 1; }
  echo -n "$example --transport $transport: "
  python3 microbench/scripts/h2_attacks.py "$pid" "$port" "$attack" --conns "$conns" --seconds "$seconds" \
      $([ -n "${COLD:-}" ] || echo --warmup) || status=1
  if grep -q LEAK "$log"; then echo "  LEAK reported:"; grep -A3 LEAK "$log" | head -20; status=1; fi
  if grep -q 'Http2ServerBudget' "$log"; then
    echo "  server budget: $(grep -c 'Http2ServerBudget' "$log") log line(s) (one a second at most), e.g. $(grep -m1 'Http2ServerBudget' "$log" | cut -c1-220)"
  fi
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

for attack in $attacks; do
  case $attack in
    grpc-hoard) run grpc-echo grpc-hoard 1 8 ;;
    grpc-hoard-2) run grpc-echo grpc-hoard 2 8 ;;
    grpc-stream) run grpc-echo grpc-stream 1 8 ;;
    zero-window-echo) run http2-hello zero-window-echo 400 10 ;;
    zero-window-keepalive) run http2-hello zero-window-keepalive 50 65 ;;
    *) echo "unknown attack $attack" >&2; exit 2 ;;
  esac
done
exit $status
