#!/usr/bin/env bash
# Does pooled memory go back? Starts http-hello (-Xmx512m), warms it up, records its RSS (VmRSS
# from /proc/PID/status), then drives a burst that makes the pool grow by hundreds of MB: CONNS
# connections each POST ROUNDS bodies of ~1 MB to /echo and read every echo back. In each round
# every connection first sends all but the last 1000 bytes of its body, and only once all have
# done so the rest: the server then holds CONNS bodies being joined at once (a whole body sent in
# one go would sit in the kernel's socket buffers and pass through the server one at a time).
# The clients read everything, so the memory is the server's working set, not a backlog of unread
# responses. It then samples RSS every 2 s for 40 s and prints before, peak and 30 s after the
# burst ended, PASS or FAIL against the target: within 64 MB of before.
#
#   mvn -B -q package -DskipTests
#   microbench/scripts/pool-rss.sh [conns] [rounds] [-- extra JVM options]
#
# JAVA picks the JVM (default: java on PATH), JAR the example jar (to compare builds). Pooled direct memory is returned at once from JDK 22
# (java.lang.foreign); before that it waits for a GC, which an idle server may never run, so on
# JDK 17-21 the pool asks for one collection once it freed 64 MiB (rill.allocator.gcAfterDirectRelease;
# "-- -Drill.allocator.gcAfterDirectRelease=0" shows the JVM without it).
set -euo pipefail
cd "$(dirname "$0")/../.."
conns=${1:-300}
rounds=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
java=${JAVA:-java}
jar=${JAR:-example/target/rill-example.jar}
[ -f "$jar" ] || { echo "pool-rss: build first: mvn -B -q package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$java" -Xmx512m "$@" -jar "$jar" http-hello --port "$port" >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do grep -q "Listening on" "$work/log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
grep -q "Listening on" "$work/log" || { echo "http-hello did not start:"; cat "$work/log"; exit 1; }

rss() { awk '/^VmRSS:/ {printf "%d", $2 / 1024}' "/proc/$pid/status"; }

# The client: asyncio, CONNS connections at once, each POSTs ROUNDS bodies one after the other and
# checks that every byte comes back.
cat >"$work/burst.py" <<'PY'
import asyncio, sys, time
port, conns, rounds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
body = bytes(range(256)) * 3900  # 998,400 bytes: under http-hello's 1 MiB echo limit
head = (f"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
        f"Content-Length: {len(body)}\r\n\r\n").encode()

async def client(barrier):
    r, w = await asyncio.open_connection("127.0.0.1", port, limit=1 << 21)
    for _ in range(rounds):
        w.write(head + body[:-1000])
        await w.drain()
        await barrier.wait()
        await asyncio.sleep(1)  # lets the server read what every connection sent so far
        w.write(body[-1000:])
        status = await r.readline()
        length = None
        while (line := await r.readline()) not in (b"\r\n", b""):
            k, _, v = line.decode().partition(":")
            if k.lower() == "content-length":
                length = int(v)
        if not status.startswith(b"HTTP/1.1 200") or length != len(body):
            raise RuntimeError(f"bad response: {status!r} length {length}")
        if await r.readexactly(length) != body:
            raise RuntimeError("echo differs from the body sent")
    w.close()
    await w.wait_closed()

async def main():
    start = time.monotonic()
    barrier = asyncio.Barrier(conns)
    await asyncio.gather(*(client(barrier) for _ in range(conns)))
    mb = 2 * conns * rounds * len(body) / 1e6
    print(f"burst: {conns} connections x {rounds} bodies of {len(body)} B echoed, {mb:.0f} MB moved "
          f"in {time.monotonic() - start:.1f} s")

asyncio.run(main())
PY

python3 "$work/burst.py" "$port" 20 2 >/dev/null  # warm-up: classes loaded, hot paths compiled
sleep 5
before=$(rss)
peak=$before
python3 "$work/burst.py" "$port" "$conns" "$rounds" >"$work/burst.out" 2>&1 &
client=$!
while kill -0 "$client" 2>/dev/null; do
  r=$(rss); [ "$r" -gt "$peak" ] && peak=$r
  sleep 0.5
done
wait "$client" || { echo "burst failed:"; cat "$work/burst.out"; exit 1; }
cat "$work/burst.out"
echo "RSS before the burst: $before MB; at its end: $(rss) MB"
after=
for t in $(seq 2 2 40); do
  sleep 2
  r=$(rss); [ "$r" -gt "$peak" ] && peak=$r
  printf '  +%2ds %5d MB\n' "$t" "$r"
  [ "$t" -eq 30 ] && after=$r
done
kill -0 "$pid" 2>/dev/null || { echo "the server died:"; cat "$work/log"; exit 1; }
grown=$((after - before))
verdict=FAIL; [ "$grown" -le 64 ] && verdict=PASS
echo "$("$java" -version 2>&1 | head -1): before $before MB, peak $peak MB, 30 s after $after MB" \
     "($(printf "%+d" "$grown") MB): $verdict (target: within 64 MB of before)"
[ "$verdict" = PASS ]
