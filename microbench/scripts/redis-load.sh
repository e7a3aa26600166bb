#!/usr/bin/env bash
# Redis under redis-benchmark (issue 35): Rill's redis-server example over NIO and over epoll, one
# event loop, against Debian's redis-server, each pinned to core 0, with redis-benchmark on core 1:
#
#   redis-benchmark -P 16 -c 50 -t get,set -n REQUESTS -q --csv
#
# Servers take turns within each round (rill-nio, rill-epoll, redis-server), each after a warm-up
# that is not counted: WARMUPS runs (default 4) of the same load with 1,000,000 requests. The JVM
# shares its core with its JIT compiler threads: after a single warm-up run C2 was still compiling
# during the measured run in about one run of three, taking up to a fifth of the core. Per server and round it prints
# requests/s of SET and GET and the server's CPU µs per request (utime + stime of the whole process
# over the measured run, /proc/PID/stat); then medians over the rounds and Rill's ratios to
# redis-server (the goal: match redis-server's requests/s per core).
#
#   mvn -B -q -pl example -am package -DskipTests
#   microbench/scripts/redis-load.sh [requests] [rounds]     (defaults: 2000000, 3)
#
# JAVA_OPTS sets the Rill servers' JVM options (default: ParallelGC, fixed pre-touched 1 GiB heap).
# Needs redis-server and redis-tools (redis-benchmark), taskset and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
requests=${1:-2000000}
warmups=${WARMUPS:-4}
rounds=${2:-3}
java_opts=${JAVA_OPTS:--XX:+UseParallelGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch}
jar=example/target/rill-example.jar
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
ticks=$(getconf CLK_TCK)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cpu_ticks() { sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}'; }

wait_listening() { # port
  for _ in $(seq 1 100); do
    redis-cli -p "$1" PING >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server did not listen on $1: $(cat "$work/server.log")" >&2
  return 1
}

bench() { # port [requests] -> "set_rps get_rps"
  taskset -c 1 redis-benchmark -p "$1" -P 16 -c 50 -t get,set -n "${2:-$requests}" -q --csv 2>/dev/null | python3 -c '
import csv, sys
rps = {row[0]: float(row[1]) for row in csv.reader(sys.stdin) if len(row) > 1 and row[0] in ("SET", "GET")}
print("%.0f %.0f" % (rps.get("SET", 0), rps.get("GET", 0)))'
}

run() { # name, then the command that starts the server with its port as last argument
  local name=$1; shift
  local port; port=$(free_port)
  taskset -c 0 "$@" "$port" >"$work/server.log" 2>&1 &
  pid=$!
  wait_listening "$port"
  for _ in $(seq 1 "$warmups"); do bench "$port" 1000000 >/dev/null; done
  local before after figures
  before=$(cpu_ticks)
  figures=$(bench "$port")
  after=$(cpu_ticks)
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  # redis-benchmark -t get,set makes 2 x requests requests.
  local us; us=$(python3 -c "print('%.2f' % (($after - $before) / $ticks * 1e6 / (2 * $requests)))")
  printf '%-13s %10s %10s %8s\n' "$name" $figures "$us"
  echo "$name $figures $us" >>"$work/results"
}

echo "redis-benchmark -P 16 -c 50 -t get,set -n $requests; server on core 0, redis-benchmark on core 1"
echo "server          SET-rps    GET-rps  CPU-µs/req"
for round in $(seq 1 "$rounds"); do
  run rill-nio java $java_opts --enable-native-access=ALL-UNNAMED -jar "$jar" redis-server --threads 1 --transport nio --port
  run rill-epoll java $java_opts --enable-native-access=ALL-UNNAMED -jar "$jar" redis-server --threads 1 --transport epoll --port
  run redis-server redis-server --save '' --appendonly no --bind 127.0.0.1 --dir "$work" --port
done
echo "medians of $rounds rounds"
python3 - "$work/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, *values = line.split()
    rows.setdefault(name, []).append([float(v) for v in values])
med = {n: [statistics.median(col) for col in zip(*r)] for n, r in rows.items()}
for n, (s, g, us) in med.items():
    print("%-13s %10.0f %10.0f %8.2f" % (n, s, g, us))
base = med.get("redis-server")
if base:
    for n in ("rill-nio", "rill-epoll"):
        if n in med:
            s, g, us = med[n]
            print("%s / redis-server: SET %.2f, GET %.2f, CPU per request %.2f" % (n, s / base[0], g / base[1], us / base[2]))
PY
