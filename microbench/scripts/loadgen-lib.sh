# Sourced by echo-load.sh and ws-load.sh, after probe-server.sh: builds the C load generator and
# the C echo servers (microbench/load/*.c) into microbench/target/load, and measures one load run
# against a server already started ($pid, $port; $probed is empty for the C server, which has no
# allocation probe). The generator sits on core 1, the server on core 0.
tools=microbench/target/load
ticks=$(getconf CLK_TCK)

build_load_tools() {
  mkdir -p "$tools"
  for t in loadgen echo-server ws-echo-server; do
    if [ ! "$tools/$t" -nt "microbench/load/$t.c" ] || [ ! "$tools/$t" -nt microbench/load/write-all.h ]; then
      gcc -O2 -Wall -Wextra -D_GNU_SOURCE -o "$tools/$t" "microbench/load/$t.c"
    fi
  done
}

# The server's CPU time so far in clock ticks: utime + stime, fields 14 and 15 of /proc/PID/stat
# (counted after the command name, which is in parentheses and may hold spaces).
cpu_ticks() { sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}'; }
rss_bytes() { awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$pid/status"; }
# Live heap bytes: the class histogram collects first (a full GC) and counts what survives.
used_heap() { jcmd "$pid" GC.class_histogram | awk '$1 == "Total" {print $3}'; }
counters() { if [ -n "$probed" ]; then probe; else echo "0 0 0"; fi; }

open_connections() { ss -Htn state established "( sport = :$port )" | wc -l; }

# One measured run: MODE (echo|ws), CONNECTIONS, SIZE, SECONDS, WARMUP. Prints
# "round-trips/s cpu-µs/round-trip core-% bytes/round-trip young-gcs young-gc-ms rss-B/conn heap-B/conn"
# ("-" where a figure does not apply). A first generator warms the server up with the same
# connections for WARMUP seconds and goes (the JIT and the buffer pools reach their steady state);
# the baseline memory is read once its connections are gone. The measured generator then reads
# the counters while it holds its load (between its "paused" and "done"), so they cover exactly the
# round trips it counts, and the memory with all its connections open and idle after the load:
# what an idle connection holds beyond the server's steady state.
measure_load() {
  local mode=$1 conns=$2 size=$3 seconds=$4 warmup=$5 line rss0 heap0=- c0 c1 p0 p1 rss1 heap1=-
  taskset -c 1 "$tools/loadgen" "$mode" 127.0.0.1 "$port" "$conns" "$size" 1 "$warmup" </dev/null >/dev/null
  for _ in $(seq 1 300); do [ "$(open_connections)" -eq 0 ] && break; sleep 0.1; done
  # The heap count first: its full collection touches the collector's own tables (the mark bitmap),
  # which would otherwise show up in the next RSS reading as memory the connections hold.
  [ -n "$probed" ] && heap0=$(used_heap)
  rss0=$(rss_bytes)
  coproc LOADGEN { taskset -c 1 "$tools/loadgen" "$mode" 127.0.0.1 "$port" "$conns" "$size" "$seconds" 1 2>&1; }
  local out=${LOADGEN[0]} in=${LOADGEN[1]} gen=$LOADGEN_PID
  read -r -t 300 line <&"$out" || line="(no answer)"
  [ "$line" = paused ] || { echo "loadgen: $line" >&2; exit 1; }
  p0=$(counters); c0=$(cpu_ticks)
  echo go >&"$in"
  read -r -t $((seconds + 120)) line <&"$out" || line="(no answer)"
  [[ "$line" == done* ]] || { echo "loadgen: $line" >&2; exit 1; }
  c1=$(cpu_ticks); p1=$(counters)
  rss1=$(rss_bytes); [ -n "$probed" ] && heap1=$(used_heap)
  echo exit >&"$in"; wait "$gen" 2>/dev/null || true
  echo "$line" | awk -v c="$((c1 - c0))" -v t="$ticks" -v p0="$p0" -v p1="$p1" -v probed="$probed" \
      -v r0="$rss0" -v r1="$rss1" -v h0="$heap0" -v h1="$heap1" -v conns="$conns" '
    { n = $2; rate = $4
      split(p0, a); split(p1, b)
      cpu = c / t * 1e6 / n
      printf "%.0f %.2f %.0f ", rate, cpu, cpu * rate / 1e4
      if (probed) printf "%.0f %d %d ", (b[1] - a[1]) / n, b[2] - a[2], b[3] - a[3]; else printf "- - - "
      printf "%.0f ", (r1 - r0) / conns
      if (probed) printf "%.0f", (h1 - h0) / conns; else printf "-" }'
}

# Medians over the rounds of $work/results (lines "NAME LOAD FIGURES..."), each row followed by its
# ratios to its peers. $1: a Python dict literal from every server name, in the order to print, to
# the names it is compared with (empty for the peers themselves); $2, optionally: the column heads,
# separated by commas (the second column is printed with two decimals).
print_medians() {
  python3 - "$work/results" "$1" "${2:-rt/s,CPU µs/rt,core %,B/rt,young GCs,GC ms,RSS B/conn,heap B/conn}" <<'PY'
import ast, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, load, *v = line.split()
    rows.setdefault((load, name), []).append([float(x) if x != "-" else float("nan") for x in v])
peers = ast.literal_eval(sys.argv[2])
med = {k: [statistics.median(c) for c in zip(*r)] for k, r in rows.items()}
heads = sys.argv[3].split(",")
print(f"{'load':12} {'server':14} " + " ".join(f"{h:>11}" for h in heads))
for (load, name), m in sorted(med.items(), key=lambda kv: (kv[0][0], list(peers).index(kv[0][1]) if kv[0][1] in peers else 99)):
    cells = " ".join(f"{x:11.2f}" if i == 1 else ("          -" if x != x else f"{x:11.0f}") for i, x in enumerate(m))
    print(f"{load:12} {name:14} {cells}")
    for peer in peers.get(name, []):
        p = med.get((load, peer))
        if p:
            ratio = " ".join(f"{'x%.2f' % (a / b) if b and a == a and b == b else '-':>11}" for a, b in zip(m, p))
            print(f"{'':12} {'  / ' + peer:14} {ratio}")
PY
}
