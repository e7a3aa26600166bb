"""Reads compressed responses with h11 (a strict independent HTTP/1.1 parser) and inflates them.

Usage: h11_compressed_client.py PORT PATH...
GETs each path on one keep-alive connection with Accept-Encoding: gzip and prints one line per
response: status, Content-Encoding, Transfer-Encoding, wire body length, decompressed length.
h11 raises (exit status 1) on a framing error; zlib on a corrupt or truncated stream.
"""
import socket
import sys
import zlib

import h11

port = int(sys.argv[1])
sock = socket.create_connection(("127.0.0.1", port), timeout=10)
conn = h11.Connection(h11.CLIENT)
for path in sys.argv[2:]:
    request = h11.Request(method="GET", target=path, headers=[("Host", "t"), ("Accept-Encoding", "gzip")])
    sock.sendall(conn.send(request) + conn.send(h11.EndOfMessage()))
    head, body = None, b""
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(sock.recv(65536))
        elif isinstance(event, h11.Response):
            head = dict(event.headers)
            status = event.status_code
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            break
    coding = head.get(b"content-encoding", b"-").decode()
    plain = zlib.decompress(body, 16 + zlib.MAX_WBITS) if coding == "gzip" else body
    print(status, coding, head.get(b"transfer-encoding", b"-").decode(), len(body), len(plain))
    conn.start_next_cycle()
sock.close()
