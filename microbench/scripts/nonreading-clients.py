#!/usr/bin/env python3
"""Clients that pipeline requests and do not read the answers: what do they cost the server?

Usage: nonreading-clients.py PID HOST PORT [--clients 3] [--requests 3000000] [--stall 3] [--timeout 600]

Phase 1: each client sends its requests as fast as the server takes them and reads nothing, until
all are sent or no client made progress for --stall seconds (a server that stops reading when its
answers pile up stalls them). The server's RSS (VmRSS of PID) is sampled meanwhile.
Phase 2: the clients read; every answer must arrive, and no connection may be reset.
Prints the RSS before, the peak in phase 1 and its growth, then PASS or FAIL against the target
of issue 13 (growth under 64 MB, every answer delivered, no reset).
"""
import argparse
import selectors
import socket
import sys
import time

REQUEST = b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"
ANSWER_END = b"Hello, World!"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for pid %d" % pid)


class Client:
    def __init__(self, host, port, requests):
        self.sock = socket.create_connection((host, port))
        self.sock.setblocking(False)
        self.chunk = REQUEST * 1024
        self.to_send = requests * len(REQUEST)
        self.answers = 0
        self.tail = b""
        self.error = None

    def send_some(self):
        if self.to_send == 0:
            return 0
        data = self.chunk if self.to_send >= len(self.chunk) else self.chunk[:self.to_send]
        try:
            n = self.sock.send(data)
        except BlockingIOError:
            return 0
        except ConnectionError as e:
            self.error = repr(e)
            self.to_send = 0
            return 0
        self.to_send -= n
        return n

    def read_some(self):
        try:
            data = self.sock.recv(1 << 20)
        except BlockingIOError:
            return True
        except ConnectionError as e:
            self.error = repr(e)
            return False
        if not data:
            self.error = "closed by the server"
            return False
        buf = self.tail + data
        self.answers += buf.count(ANSWER_END)
        self.tail = buf[-(len(ANSWER_END) - 1):]
        return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pid", type=int)
    p.add_argument("host")
    p.add_argument("port", type=int)
    p.add_argument("--clients", type=int, default=3)
    p.add_argument("--requests", type=int, default=3_000_000)
    p.add_argument("--stall", type=float, default=3.0)
    p.add_argument("--timeout", type=float, default=600.0)
    a = p.parse_args()

    before = rss_kib(a.pid)
    clients = [Client(a.host, a.port, a.requests) for _ in range(a.clients)]
    peak = before
    last_progress = time.monotonic()
    start = time.monotonic()
    sel = selectors.DefaultSelector()
    for c in clients:
        sel.register(c.sock, selectors.EVENT_WRITE, c)
    while any(c.to_send for c in clients) and time.monotonic() - last_progress < a.stall:
        for key, _ in sel.select(timeout=0.2):
            if key.data.send_some() > 0:
                last_progress = time.monotonic()
        peak = max(peak, rss_kib(a.pid))
    sent = sum(a.requests - c.to_send // len(REQUEST) for c in clients)
    phase1 = time.monotonic() - start
    print(f"phase 1: {sent} requests sent in {phase1:.1f} s without reading "
          f"({'all' if sent == a.clients * a.requests else 'stalled: the server stopped reading'})")
    print(f"server RSS before {before // 1024} MB, peak {peak // 1024} MB, growth {(peak - before) // 1024} MB")

    for c in clients:
        sel.modify(c.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, c)
    deadline = time.monotonic() + a.timeout
    while time.monotonic() < deadline and any(c.answers < a.requests and c.error is None for c in clients):
        for key, events in sel.select(timeout=0.5):
            c = key.data
            if events & selectors.EVENT_WRITE:
                c.send_some()
                if c.to_send == 0:
                    sel.modify(c.sock, selectors.EVENT_READ, c)
            if events & selectors.EVENT_READ and c.error is None and not c.read_some():
                sel.unregister(c.sock)
    answers = sum(c.answers for c in clients)
    errors = [c.error for c in clients if c.error]
    print(f"phase 2: {answers} of {a.clients * a.requests} answers received; errors: {errors or 'none'}")
    growth_mb = (peak - before) / 1024
    ok = growth_mb < 64 and answers == a.clients * a.requests and not errors
    print("PASS" if ok else "FAIL", f"(target: growth < 64 MB, every answer, no reset)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
