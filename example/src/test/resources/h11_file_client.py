"""Checks every byte of http-file-server's answers with h11, a strict independent HTTP/1.1 parser.

Usage: h11_file_client.py PORT IF_MODIFIED_SINCE
Sends, on one keep-alive connection: GET, ranged GET, HEAD, conditional GET, unsatisfiable range,
the listing. Prints one line per response: method, target, status, body length, Content-Range.
h11 raises (exit status 1) on any framing error: a body after HEAD or 304, a bad length, etc.
"""
import socket
import sys

import h11

port, since = int(sys.argv[1]), sys.argv[2]
requests = [
    ("GET", "/big.txt", []),
    ("GET", "/big.txt", [("Range", "bytes=5-9")]),
    ("HEAD", "/big.txt", []),
    ("GET", "/big.txt", [("If-Modified-Since", since)]),
    ("GET", "/big.txt", [("Range", "bytes=999999-")]),
    ("GET", "/", []),
]
sock = socket.create_connection(("127.0.0.1", port), timeout=10)
conn = h11.Connection(h11.CLIENT)
for method, target, headers in requests:
    sock.sendall(conn.send(h11.Request(method=method, target=target, headers=[("Host", "t")] + headers)))
    sock.sendall(conn.send(h11.EndOfMessage()))
    status, length, content_range = None, 0, "-"
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(sock.recv(65536))
        elif isinstance(event, h11.Response):
            status = event.status_code
            content_range = dict(event.headers).get(b"content-range", b"-").decode()
        elif isinstance(event, h11.Data):
            length += len(event.data)
        elif isinstance(event, h11.EndOfMessage):
            break
    print(method, target, status, length, content_range)
    conn.start_next_cycle()
sock.close()
