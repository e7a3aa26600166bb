#!/usr/bin/env bash
# Paired A/B of echo servers (issue 16): where echo-load.sh starts a fresh server per run, this keeps
# every contender up, pinned to core 0, and alternates short loads from the C load generator on core 1
# between them, round after round. On a machine whose speed drifts by 10-25% from minute to minute,
# the ratio of two servers measured in the same round is far steadier than either figure, so it
# prints each server's CPU µs per round trip (utime + stime, and utime alone) per round, their
# medians, and the median, minimum and maximum of the per-round ratios to the first server.
# Rotate the order between runs: the first place in a round is not quite like the others.
#
#   microbench/scripts/ab-load.sh CONNECTIONS ROUNDS SECONDS NAME=COMMAND...
#   e.g. ab-load.sh 4096 10 4 "new=java -cp example/target/rill-example.jar io.rill.example.Main echo-server --threads 1 --transport epoll --port" \
#                            "old=java -cp /tmp/old.jar io.rill.example.Main echo-server --threads 1 --transport epoll --port"
#
# Each COMMAND gets a free port appended and must print nothing it needs answered. MODE (echo) and
# SIZE (256) are passed to the load generator, and RATE (round trips/s in all; unset: as fast as the
# server answers) paces it, which measures every server at the same throughput (README, "Saturated
# and paced"); WARMUP (5 s) warms every server up once before the first round, and each run has 1 s
# of its own. Each round's line shows the round trips/s reached, which tells a server that could
# not keep the pace, and the TCP segments per round trip (2 when every ACK rides on data; more when
# a delayed-ACK timer fired, see README), counted for the whole machine by nstat.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 4 ] || { sed -n '2,20p' "$0"; exit 2; }
conns=$1 rounds=$2 seconds=$3; shift 3
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
. microbench/scripts/probe-server.sh
. microbench/scripts/loadgen-lib.sh
build_load_tools
names=() pids=() ports=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
for spec in "$@"; do
  port=$(free_port)
  # shellcheck disable=SC2086 # the command is split into words on purpose
  taskset -c 0 ${spec#*=} "$port" >"$work/${spec%%=*}.log" 2>&1 &
  pids+=($!) names+=("${spec%%=*}") ports+=("$port")
  for _ in $(seq 1 100); do ss -Htln "( sport = :$port )" | grep -q . && break; sleep 0.1; done
done

# TCP segments sent on the machine so far (nstat, absolute): both ends of every connection are here.
segments() {
  nstat -az TcpOutSegs 2>/dev/null | awk '$1 == "TcpOutSegs" {print $2}'
}

# One load on server $1 after $2 s of warm-up: prints "CPU-µs/rt user-µs/rt rt/s segments/rt".
load() {
  local pid=${pids[$1]} port=${ports[$1]} line u0 c0 u1 c1 s0 s1
  coproc GEN { taskset -c 1 "$tools/loadgen" "${MODE:-echo}" 127.0.0.1 "$port" "$conns" "${SIZE:-256}" "$seconds" "$2" 2>&1; }
  read -r line <&"${GEN[0]}"
  read -r u0 c0 < <(sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12, $12 + $13}')
  s0=$(segments)
  echo go >&"${GEN[1]}"
  read -r line <&"${GEN[0]}"
  read -r u1 c1 < <(sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12, $12 + $13}')
  s1=$(segments)
  echo exit >&"${GEN[1]}"; wait "$GEN_PID" 2>/dev/null || true
  for _ in $(seq 1 100); do [ "$(open_connections)" -eq 0 ] && break; sleep 0.1; done
  echo "$line" | awk -v c=$((c1 - c0)) -v u=$((u1 - u0)) -v t="$ticks" -v s=$((s1 - s0)) \
    '{printf "%.3f %.3f %d %.2f\n", c / t * 1e6 / $2, u / t * 1e6 / $2, $4, s / $2}'
}

for i in "${!names[@]}"; do load "$i" "${WARMUP:-5}" >/dev/null; done
for round in $(seq 1 "$rounds"); do
  line="round $round:"
  for i in "${!names[@]}"; do
    read -r cpu user rate segs < <(load "$i" 1)
    echo "$round ${names[$i]} $cpu $user" >>"$work/results"
    line="$line ${names[$i]} $cpu ($user user, $rate/s, $segs seg/rt)"
  done
  echo "$line"
done
python3 - "$work/results" "${names[@]}" <<'PY'
import statistics as st, sys
cpu, user = {}, {}
for line in open(sys.argv[1]):
    r, name, c, u = line.split()
    cpu.setdefault(name, {})[r] = float(c)
    user.setdefault(name, {})[r] = float(u)
names = sys.argv[2:]
first = names[0]
for name in names:
    for label, d in (("CPU", cpu), ("user", user)):
        text = f"{name:12} {label:4} median {st.median(d[name].values()):6.3f} µs/rt"
        if name != first:
            ratios = [d[name][r] / d[first][r] for r in d[first] if r in d[name]]
            text += f"   x{st.median(ratios):.3f} of {first} (min {min(ratios):.3f}, max {max(ratios):.3f})"
        print(text)
PY
