# Sourced by http-load.sh, h2-load.sh, echo-load.sh and ws-load.sh: a server JVM run under AllocationProbe, which reports the
# bytes the whole JVM allocated each time a line reaches its stdin. The caller sets $work (a
# temporary folder) and $cp (the class path); this file keeps $pid (the server) and fd 3 (its stdin).
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; exec 3>&- 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Asks the probe for the JVM's counters so far: "BYTES_ALLOCATED YOUNG_GCS YOUNG_GC_MS".
probe() {
  local before; before=$(grep -c '^allocated ' "$work/log" || true)
  echo mark >&3
  for _ in $(seq 1 100); do
    [ "$(grep -c '^allocated ' "$work/log" || true)" -gt "$before" ] && break
    sleep 0.05
  done
  grep '^allocated ' "$work/log" | tail -1 | awk '{print $2, $4, $6}'
}

# The JVM's allocated bytes so far.
allocated() { probe | awk '{print $1}'; }

# Starts main class $2 with args ${@:3} and a free port, pinned to core 0, until it prints
# "Listening on" (three tries, for a port taken meanwhile); sets $port and $pid, exits on failure.
start_probe_server() { # name, main class, args...
  local name=$1; shift
  local started=
  for _ in 1 2 3; do
    port=$(free_port)
    rm -f "$work/in"; mkfifo "$work/in"
    taskset -c 0 java ${JAVA_OPTS:-} -cp "$cp" io.rill.microbench.load.AllocationProbe "$@" "$port" <"$work/in" >"$work/log" 2>&1 &
    pid=$!
    exec 3>"$work/in"
    for _ in $(seq 1 100); do grep -q "Listening on" "$work/log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if grep -q "Listening on" "$work/log"; then started=1; break; fi
    exec 3>&-; kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=
  done
  [ -n "$started" ] || { echo "$name did not start:"; cat "$work/log"; exit 1; }
}
