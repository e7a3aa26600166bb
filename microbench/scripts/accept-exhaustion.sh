#!/usr/bin/env bash
# Issue 20, item 1, measured: http-hello under a descriptor limit of 256 (nio, then epoll when the
# jar has it), flooded with 600 connections (non-blocking connects, so the flood itself never
# waits), held for 2 s, all closed; then GET /plaintext is retried until it is answered or 2 s
# pass. Prints per transport whether and how soon the server answered, and the server's lines about
# accept() and any exception or error it logged. On 697ff05 no request was ever answered again.
#
#   mvn -B -q package -DskipTests && microbench/scripts/accept-exhaustion.sh [limit] [connections] [jar]
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-256}
connections=${2:-600}
jar=${3:-example/target/rill-example.jar}
[ -f "$jar" ] || { echo "accept-exhaustion: build first: mvn -B -q package -DskipTests" >&2; exit 1; }
command -v prlimit >/dev/null || { echo "accept-exhaustion: needs util-linux prlimit" >&2; exit 1; }
command -v python3 >/dev/null || { echo "accept-exhaustion: needs python3" >&2; exit 1; }

for transport in nio epoll; do
  python3 - "$jar" "$transport" "$limit" "$connections" <<'PY'
import re, socket, subprocess, sys, threading, time, urllib.request
jar, transport, limit, connections = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
server = subprocess.Popen(["prlimit", "--nofile=%d:%d" % (limit, limit), "java", "-jar", jar, "http-hello",
                           "--port", "0", "--transport", transport],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
lines, port = [], None
for line in server.stdout:
    lines.append(line)
    m = re.search(r"Listening on [\d.]+:(\d+)", line)
    if m:
        port = int(m.group(1))
        break
if port is None:
    print("%-5s did not start:\n%s" % (transport, "".join(lines)))
    sys.exit(0)
threading.Thread(target=lambda: lines.extend(server.stdout), daemon=True).start()
flood = []
for _ in range(connections):
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    flood.append(s)
time.sleep(2)  # a measurement window: the server meets the limit meanwhile
for s in flood:
    s.close()
released = time.time()
answered = None
while time.time() - released < 2:
    try:
        urllib.request.urlopen("http://127.0.0.1:%d/plaintext" % port, timeout=0.5).read()
        answered = time.time() - released
        break
    except Exception:
        pass
server.terminate()
server.wait(timeout=10)
print("%-5s limit %d, %d connections: %s" % (transport, limit, connections,
      "answered %.2f s after the release" % answered if answered is not None else "NOT answered within 2 s"))
for line in lines:
    if "accept()" in line or "Exception" in line or "Error" in line:
        print("      " + line.rstrip()[:220])
PY
done
