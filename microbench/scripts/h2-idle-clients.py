#!/usr/bin/env python3
"""Opens N idle HTTP/2 connections (h2c by prior knowledge) and holds them, for h2-load.sh.

Each connection sends the client preface and an empty SETTINGS frame, reads frames until it has
both the server's SETTINGS and the acknowledgement of its own, acknowledges the server's SETTINGS,
and then stays silent: a connection set up and doing nothing, what a server pays to keep one open.
Prints "ready N" once all are set up, then holds them until standard input closes.

    h2-idle-clients.py PORT N
"""
import resource
import socket
import struct
import sys

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS, ACK = 0x4, 0x1


def frame(kind, flags, stream, payload=b""):
    # RFC 9113 §4.1: 24-bit length, 8-bit type, 8-bit flags, reserved bit and 31-bit stream id.
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("server closed the connection during the handshake")
        data += chunk
    return data


def handshake(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(PREFACE + frame(SETTINGS, 0, 0))
    got_settings = got_ack = False
    while not (got_settings and got_ack):
        head = read_exactly(sock, 9)
        length = int.from_bytes(head[:3], "big")
        kind, flags = head[3], head[4]
        read_exactly(sock, length)
        if kind == SETTINGS and flags & ACK:
            got_ack = True
        elif kind == SETTINGS:
            got_settings = True
            sock.sendall(frame(SETTINGS, ACK, 0))
    return sock


def main():
    port, count = int(sys.argv[1]), int(sys.argv[2])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 64)), hard))
    held = [handshake(port) for _ in range(count)]
    print(f"ready {len(held)}", flush=True)
    sys.stdin.read()
    for sock in held:
        sock.close()


if __name__ == "__main__":
    main()
