"""Talks HTTP/1.1 to a Rill server through h11, a strict independent parser: any byte Rill sends
that breaks RFC 9112 raises h11.RemoteProtocolError. Prints one line per exchange, then OK.

usage: h11_check.py tcp HOST PORT | unix PATH
"""
import socket
import sys

import h11


def connect(argv):
    if argv[1] == "unix":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(argv[2])
        host = "localhost"
    else:
        s = socket.create_connection((argv[2], int(argv[3])))
        host = argv[2]
    s.settimeout(10)
    return s, host


def send(sock, data):
    # Never send zero bytes: once a server has answered "Connection: close" and closed, even an
    # empty send on a Unix-domain socket fails with EPIPE.
    if data:
        sock.sendall(data)


def exchange(sock, conn, request, body=b""):
    send(sock, conn.send(request))
    if body:
        send(sock, conn.send(h11.Data(data=body)))
    send(sock, conn.send(h11.EndOfMessage()))
    status, received = None, b""
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            data = sock.recv(65536)
            conn.receive_data(data)
            continue
        if isinstance(event, h11.InformationalResponse):
            continue
        if isinstance(event, h11.Response):
            status = event.status_code
        elif isinstance(event, h11.Data):
            received += event.data
        elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
            return status, received


def main(argv):
    sock, host = connect(argv)
    conn = h11.Connection(our_role=h11.CLIENT)
    h = [("Host", host)]
    checks = [
        (h11.Request(method="GET", target="/plaintext", headers=h), b"", 200, b"Hello, World!"),
        (h11.Request(method="HEAD", target="/", headers=h), b"", 200, b""),
        (h11.Request(method="POST", target="/echo", headers=h + [("Content-Length", "11")]), b"hello world", 200, b"hello world"),
        (h11.Request(method="POST", target="/echo", headers=h + [("Transfer-Encoding", "chunked")]), b"x" * 70000, 200, b"x" * 70000),
        (h11.Request(method="GET", target="/missing?q=%20", headers=h), b"", 200, b"Hello, World!"),
        (h11.Request(method="PUT", target="/", headers=h + [("Content-Length", "0")]), b"", 405, b""),
        (h11.Request(method="GET", target="/last", headers=h + [("Connection", "close")]), b"", 200, b"Hello, World!"),
    ]
    for request, body, want_status, want_body in checks:
        status, received = exchange(sock, conn, request, body)
        if status != want_status or (want_body and received != want_body):
            print("MISMATCH", request.method, request.target, status, len(received))
            return 1
        print(request.method.decode(), request.target.decode(), status, len(received))
        if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
            break
        conn.start_next_cycle()
    # The server must close after Connection: close (a timeout here raises).
    if sock.recv(1) != b"":
        print("bytes after the last response")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
