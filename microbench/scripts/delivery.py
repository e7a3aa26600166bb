#!/usr/bin/env python3
"""What reaches a client of the real HTTP example servers when it half-closes, is refused while
still sending, or sends too slowly (issue 20, items 3 and 4).

Usage: delivery.py FILE_SERVER_PORT HELLO_PORT FILE_SIZE
  FILE_SERVER_PORT: http-file-server serving a directory holding big.bin of FILE_SIZE bytes
  HELLO_PORT: http-hello started with --header-timeout 5 --body-timeout 5
Prints one line per case, then PASS or FAIL.
"""
import socket
import sys
import time


def read_all(s):
    chunks = []
    try:
        while True:
            data = s.recv(1 << 20)
            if not data:
                return b"".join(chunks), "clean end of stream"
            chunks.append(data)
    except ConnectionResetError:
        return b"".join(chunks), "RESET"
    except socket.timeout:
        return b"".join(chunks), "still open after the client's read timeout"


def half_close(port, size):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: a\r\n\r\n" * 3)
    s.shutdown(socket.SHUT_WR)
    data, end = read_all(s)
    bodies = data.count(b"\0")
    ok = data.count(b"HTTP/1.1 200 OK") == 3 and bodies == 3 * size
    print(f"half-close: 3 GETs of {size >> 20} MB then SHUT_WR: {bodies / 1e6:.1f} MB of body delivered"
          f" of {3 * size / 1e6:.1f} MB; {end}")
    return ok


def refusal(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    s.sendall(b"BLAH\r\n\r\n" + b"x" * 200_000)
    data, end = read_all(s)
    ok = data.startswith(b"HTTP/1.1 400 ") and end == "clean end of stream"
    status = data.split(b"\r\n")[0].decode() if data else "nothing"
    print(f"refusal while sending 200 kB: got {status!r}; {end}")
    return ok


def trickle(port, head, body, label, limit):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(0.5)
    start = time.monotonic()
    s.sendall(head)
    answer = b""
    for b in body:
        try:
            s.sendall(bytes([b]))
        except (BrokenPipeError, ConnectionResetError):
            break
        try:
            data = s.recv(4096)
            answer += data
            if not data:
                break
        except socket.timeout:
            pass
        if time.monotonic() - start > 60:
            break
    held = time.monotonic() - start
    status = answer.split(b"\r\n")[0].decode() if answer else "nothing"
    ok = held < limit + 3 and answer.startswith(b"HTTP/1.1 408 ")
    print(f"{label}, a byte every 0.5 s: held {held:.1f} s, answered {status!r}")
    return ok


def main():
    file_port, hello_port, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    results = [
        half_close(file_port, size),
        refusal(hello_port),
        trickle(hello_port, b"", b"GET / HTTP/1.1\r\nHost: a\r\n" + b"X-Slow: y\r\n" * 200, "slow head", 5),
        trickle(hello_port, b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n", b"z" * 100000,
                "slow body", 5),
    ]
    print("PASS" if all(results) else "FAIL")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
