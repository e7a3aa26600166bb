#!/usr/bin/env bash
# What one hostile peer costs the example servers (issue 20, item 5). Starts the example jar's
# server, drives one attack against it, and prints the growth of the server's resident memory
# (VmRSS at the end and the peak VmHWM, both from /proc/PID/status, against VmRSS before the
# attack), the CPU seconds it spent meanwhile (utime + stime from /proc/PID/stat), and the Java
# heap still in use after a full GC (jcmd), which tells memory held from garbage not yet collected:
#
#   chat  line-chat-server: one member joins and never reads; another sends ~179 MB of lines.
#   gzip  port-unification: a client sends 1 GB of pipelined "GET /" in ~2.4 MB of gzip and never
#         reads; the server is watched for 15 s (or until it closes the connection).
#   echo  echo-server: a client sends up to 1 GB and never reads; watched for 15 s.
#   http  http-hello: a client pipelines up to 1 GB of "GET /plaintext" and never reads; 15 s.
#
#   mvn -B -q package -DskipTests
#   microbench/scripts/example-limits.sh [jar] [chat|gzip|echo|http|all]     (all: chat and gzip)
#
# The server runs with NIO and default options, plus SERVER_ARGS (e.g. SERVER_ARGS="--max-inflate-ratio 0"
# shows what back-pressure alone does with a bomb); JAVA_OPTS is passed to its JVM. Linux only.
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=${1:-example/target/rill-example.jar}
which=${2:-all}
[ -f "$jar" ] || { echo "example-limits: no $jar (mvn -B -q package -DskipTests)" >&2; exit 1; }
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start() { # example name; sets pid and port
  port=$(free_port)
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -jar "$jar" "$1" --port "$port" --transport nio ${SERVER_ARGS:-} >"$work/$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q "Listening on" "$work/$1.log" 2>/dev/null && return; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  echo "$1 did not start:"; cat "$work/$1.log"; exit 1
}

stop() { # SIGTERM, and SIGKILL if it has not ended 10 s later (a JVM out of memory may not)
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=
}

# The attacks, in Python: each measures the server (its pid) before and after and prints one report.
cat >"$work/attack.py" <<'PY'
import gzip, os, re, select, socket, subprocess, sys, threading, time

TICK = os.sysconf("SC_CLK_TCK")

def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])

def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime: fields 14 and 15 of stat(5)

def connect(port, rcvbuf=0):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)  # before connect: a small window
    s.connect(("127.0.0.1", port))
    return s

def closed_within(s, seconds):
    """Waits for the peer's FIN or reset without reading; returns seconds taken, or None."""
    p = select.poll()
    p.register(s, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
    start = time.monotonic()
    if p.poll(seconds * 1000):
        return time.monotonic() - start
    return None

def live_heap_mib(pid):
    """Heap in use after a full GC, from jcmd; None where jcmd cannot tell."""
    try:
        subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=60, check=True)
        info = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60).stdout
        m = re.search(r"total \d+K, used (\d+)K", info)
        return int(m.group(1)) / 1024 if m else None
    except (OSError, subprocess.SubprocessError):
        return None

def report(name, pid, rss0, cpu0, detail):
    rss, hwm, cpu = status_kib(pid, "VmRSS"), status_kib(pid, "VmHWM"), cpu_seconds(pid)
    live = live_heap_mib(pid)
    print(f"{name}: {detail}\n    server RSS {(rss - rss0) / 1024:+.0f} MiB at the end, peak {(hwm - rss0) / 1024:+.0f} MiB;"
          f" CPU {cpu - cpu0:.1f} s; heap live after a full GC {'?' if live is None else f'{live:.0f} MiB'}")

def sender(s, data_iter, outcome):
    outcome["sent"] = 0
    try:
        for chunk in data_iter:
            s.sendall(chunk)
            outcome["sent"] += len(chunk)
        outcome["error"] = None
    except OSError as e:
        outcome["error"] = e.strerror or str(e)

def chat(pid, port, total=179 << 20):
    sleeper = connect(port, rcvbuf=4096)
    sleeper.recv(200)  # its welcome line; then it never reads again
    talker = connect(port)
    talker.recv(200)
    rss0, cpu0 = status_kib(pid, "VmRSS"), cpu_seconds(pid)
    line = b"x" * 99 + b"\n"
    block = line * 10000
    outcome = {}
    start = time.monotonic()
    t = threading.Thread(target=sender, args=(talker, (block for _ in range(total // len(block))), outcome), daemon=True)
    t.start()
    t.join(120)
    took = time.monotonic() - start
    report("chat  line-chat-server", pid, rss0, cpu0,
           f"{outcome.get('sent', 0) / 1e6:.0f} MB of lines sent in {took:.1f} s"
           f"{' (' + outcome['error'] + ')' if outcome.get('error') else '' if not t.is_alive() else ' (still sending after 120 s)'}"
           f" while another member never read")
    # Only now does the sleeper read: what its kernel buffers held, then the end of the stream if it was dropped.
    sleeper.settimeout(5)
    got = 0
    try:
        while (n := len(sleeper.recv(1 << 20))) > 0:
            got += n
        state = f"was disconnected (it then read {got / 1e6:.1f} MB and the end of the stream)"
    except socket.timeout:
        state = f"was still connected ({got / 1e6:.0f} MB were waiting for it)"
    except OSError as e:
        state = f"was disconnected ({e.strerror} after {got / 1e6:.1f} MB)"
    print(f"    the member that never read {state}")

def gzip_bomb(pid, port, total=1 << 30, watch=15):
    block = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n" * 2400
    path = os.path.join(os.environ.get("WORK", "/tmp"), "bomb.gz")
    if not os.path.exists(path):
        with gzip.open(path, "wb", compresslevel=9) as gz:
            for _ in range(total // len(block)):
                gz.write(block)
    with open(path, "rb") as f:
        bomb = f.read()
    s = connect(port)
    rss0, cpu0 = status_kib(pid, "VmRSS"), cpu_seconds(pid)
    outcome = {}
    t = threading.Thread(target=sender, args=(s, (bomb[i:i + 65536] for i in range(0, len(bomb), 65536)), outcome),
                         daemon=True)
    t.start()
    closed = closed_within(s, watch)
    t.join(1)
    state = f"closed by the server after {closed:.1f} s" if closed is not None else f"still open after {watch} s"
    sent = outcome.get("sent")
    report("gzip  port-unification", pid, rss0, cpu0,
           f"{len(bomb) / 1e6:.1f} MB of gzip ({total / 1e9:.1f} GB of GETs),"
           f" {'all' if sent == len(bomb) else 'part'} sent, never read; connection {state}")

def flood(name, block, pid, port, total=1 << 30, watch=15):
    s = connect(port)
    rss0, cpu0 = status_kib(pid, "VmRSS"), cpu_seconds(pid)
    outcome = {}
    t = threading.Thread(target=sender, args=(s, (block for _ in range(total // len(block))), outcome), daemon=True)
    t.start()
    closed = closed_within(s, watch)
    state = f"closed by the server after {closed:.1f} s" if closed is not None else f"still open after {watch} s"
    report(name, pid, rss0, cpu0, f"{outcome.get('sent', 0) / 1e6:.0f} MB of {total / 1e6:.0f} MB sent"
           f" in {watch} s, never read; connection {state}")

def echo(pid, port):
    flood("echo  echo-server", os.urandom(65536), pid, port)

def http(pid, port):
    flood("http  http-hello", b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n" * 1000, pid, port)

{"chat": chat, "gzip": gzip_bomb, "echo": echo, "http": http}[sys.argv[1]](int(sys.argv[2]), int(sys.argv[3]))
PY

echo "jar: $jar ($(java -version 2>&1 | head -1))${JAVA_OPTS:+ JAVA_OPTS=$JAVA_OPTS}${SERVER_ARGS:+ SERVER_ARGS=$SERVER_ARGS}"
if [ "$which" = all ] || [ "$which" = chat ]; then
  start line-chat-server; WORK=$work python3 "$work/attack.py" chat "$pid" "$port"; stop
fi
if [ "$which" = all ] || [ "$which" = gzip ]; then
  start port-unification; WORK=$work python3 "$work/attack.py" gzip "$pid" "$port"; stop
  grep -h "WARNING\|Closing" "$work/port-unification.log" | sed 's/^/  server log: /' | head -3 || true
fi
if [ "$which" = echo ]; then start echo-server; WORK=$work python3 "$work/attack.py" echo "$pid" "$port"; stop; fi
if [ "$which" = http ]; then start http-hello; WORK=$work python3 "$work/attack.py" http "$pid" "$port"; stop; fi
