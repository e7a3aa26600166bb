#!/usr/bin/env bash
# HTTP/2 load test: Rill's http2-hello (NIO, and epoll when the jar has it) and, when microbench was
# built with -Ppeers, Netty 4.1's NettyHttp2HelloServer, one after the other with the same JVM and
# pinning: the server on core 0 with one event loop, h2load on core 1, h2c by prior knowledge,
# 64 connections with up to 100 concurrent streams each (h2load -c 64 -m 100). Per server it prints:
# - requests/s;
# - the server's CPU time per request (utime + stime of the whole JVM, from /proc/PID/stat) and the
#   share of its core that makes (below ~90%, h2load and not the server set the pace);
# - the bytes the server's JVM allocated per request (all threads, through AllocationProbe, as
#   http-load.sh does);
# - the heap one idle HTTP/2 connection holds: after the load, IDLE connections (default 2000)
#   finish their SETTINGS exchange and go quiet (h2-idle-clients.py); the live heap (jcmd
#   GC.class_histogram, which collects first) minus the same figure before they opened, over IDLE.
# With several rounds the servers take turns in each round, and the medians and the ratios
# Rill / Netty on the same transport are printed at the end.
#
#   mvn -B -q package -DskipTests && mvn -B -q -pl microbench -am package -DskipTests -Ppeers
#   microbench/scripts/h2-load.sh [seconds] [rounds]      (needs h2load: apt-get install nghttp2-client)
#
# IDLE=0 skips the idle-connection figure; ONLY=REGEX runs only the servers whose name matches
# (rill-nio, netty-nio, rill-epoll, netty-epoll); NETTY_API=frame runs Netty's Http2FrameCodec with a
# frame handler instead of its default (and faster) connection handler with a frame listener. CP
# replaces the class path (benchmarks.jar, which bundles Rill, comes first), to compare two builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-1}
idle=${IDLE:-2000}
netty_api=${NETTY_API:-listener}
command -v h2load >/dev/null || { echo "h2-load: needs h2load (apt-get install nghttp2-client)" >&2; exit 1; }
work=$(mktemp -d)
cp=${CP:-microbench/target/benchmarks.jar:example/target/rill-example.jar}
. microbench/scripts/probe-server.sh # we are at the repository root
ticks=$(getconf CLK_TCK)

# The server's CPU time so far in clock ticks: utime + stime, fields 14 and 15 of /proc/PID/stat
# (counted after the command name, which is in parentheses and may hold spaces).
cpu_ticks() { sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}'; }

# Live heap bytes: the class histogram collects first (a full GC) and counts what survives, exactly.
used_heap() {
  jcmd "$pid" GC.class_histogram | awk '$1 == "Total" {print $3}'
}

# One measured h2load run: prints "requests/s cpu-µs/request core-% bytes/request". The share of its
# core the server used tells whether it or h2load set the pace: below ~90%, the client did.
measure() { # url
  local a0 a1 c0 c1 out
  a0=$(allocated); c0=$(cpu_ticks)
  out=$(taskset -c 1 h2load -c 64 -m 100 -D "$seconds" "$1")
  c1=$(cpu_ticks); a1=$(allocated)
  echo "$out" | grep -q ', 0 failed, 0 errored' || { echo "h2load reported failures:" >&2; echo "$out" >&2; exit 1; }
  echo "$out" | awk -v a="$((a1 - a0))" -v c="$((c1 - c0))" -v t="$ticks" '
    /^finished in/ {r = $4} /^requests:/ {n = $8}
    END {printf "%.0f %.2f %.0f %.0f", r, c / t * 1e6 / n, c / t * 1e6 / n * r / 1e4, a / n}'
}

# Heap per idle connection in bytes: IDLE quiet connections against the baseline without them.
idle_heap() { # port
  local base used open
  [ "$idle" -gt 0 ] || { echo "-"; return; }
  base=$(used_heap)
  rm -f "$work/idle-in"; mkfifo "$work/idle-in"
  taskset -c 1 python3 microbench/scripts/h2-idle-clients.py "$1" "$idle" <"$work/idle-in" >"$work/idle-log" 2>&1 &
  local client=$!
  exec 4>"$work/idle-in"
  for _ in $(seq 1 600); do grep -q '^ready' "$work/idle-log" && break; kill -0 "$client" 2>/dev/null || break; sleep 0.1; done
  grep -q '^ready' "$work/idle-log" || { echo "idle clients failed:" >&2; cat "$work/idle-log" >&2; exit 1; }
  used=$(used_heap)
  open=$(ss -Htn state established "( sport = :$1 )" | wc -l)
  [ "$open" -ge "$idle" ] || { echo "only $open of $idle idle connections still open" >&2; exit 1; }
  exec 4>&-; wait "$client" 2>/dev/null || true
  echo $(( (used - base) / idle ))
}

run() { # name, main class, args... (the port is appended)
  local name=$1; shift
  [[ "$name" =~ ${ONLY:-.} ]] || return 0
  local port
  start_probe_server "$name" "$@"
  local url="http://127.0.0.1:$port/"
  taskset -c 1 h2load -c 64 -m 100 -D 8 "$url" >/dev/null 2>&1 # warm-up: the JIT is done with the hot paths by then
  local load heap
  load=$(measure "$url")
  heap=$(idle_heap "$port")
  printf '%-14s %10s %12s %8s %8s %14s\n' "$name" $load "$heap"
  echo "$name" $load "$heap" >>"$work/results"
  exec 3>&-
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
}

epoll=; netty=
if unzip -l example/target/rill-example.jar 2>/dev/null | grep "io/rill/channel/epoll/" >/dev/null; then epoll=1; fi
if unzip -l microbench/target/benchmarks.jar 2>/dev/null | grep NettyHttp2HelloServer >/dev/null; then netty=1; fi
netty_main="io.rill.microbench.peers.NettyHttp2HelloServer --api $netty_api --threads 1"
printf '%-14s %10s %12s %8s %8s %14s\n' server "req/s" "CPU µs/req" "core %" "B/req" "heap B/idle"
for round in $(seq 1 "$rounds"); do
  run "rill-nio" io.rill.example.Main http2-hello --threads 1 --transport nio --port
  if [ -n "$netty" ]; then run "netty-nio" $netty_main --transport nio --port; fi
  if [ -n "$epoll" ]; then run "rill-epoll" io.rill.example.Main http2-hello --threads 1 --transport epoll --port; fi
  if [ -n "$netty" ] && [ -n "$epoll" ]; then run "netty-epoll" $netty_main --transport epoll --port; fi
done
if [ "$rounds" -gt 1 ]; then
  echo "medians of $rounds rounds (ratio: rill / netty on the same transport, for each column)"
  python3 - "$work/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, *v = line.split()
    rows.setdefault(name, []).append([float(x) if x != "-" else float("nan") for x in v])
med = {n: [statistics.median(c) for c in zip(*r)] for n, r in rows.items()}
for n, m in med.items():
    peer = med.get(n.replace("rill", "netty")) if n.startswith("rill") else None
    ratio = "  " + " ".join(f"x{a / b:.2f}" if b else "-" for a, b in zip(m, peer)) if peer else ""
    print(f"{n:14} {m[0]:10.0f} {m[1]:12.2f} {m[2]:8.0f} {m[3]:8.0f} {m[4]:14.0f}{ratio}")
PY
fi
