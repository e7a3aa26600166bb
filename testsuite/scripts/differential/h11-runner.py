"""h11's side of the HTTP/1.1 differential run (HttpDifferential in testsuite/).

Reads a corpus file (one "METHOD BASE64" entry a line, METHOD "-" for a request) and prints one
verdict line per entry in the canonical form RillHttpRunner documents. A request entry is read by an
h11 server connection, which answers each request with an empty 200 so that it reads the next one;
a response entry by a client connection that sent METHOD first (and a GET for each later response).
"""
import base64
import hashlib
import sys

import h11


def fields(items):
    return "+".join(bytes(n).lower().hex() + "=" + bytes(v).strip(b" \t").hex() for n, v in items)


def finish(current, body, trailers):
    return current + str(len(body)) + ":" + hashlib.sha256(body).hexdigest() + "," + fields(trailers)


def run(method, data):
    request = method == "-"
    conn = h11.Connection(h11.SERVER if request else h11.CLIENT)
    if not request:
        send_request(conn, method)
    conn.receive_data(data)
    conn.receive_data(b"")
    messages = []
    current = None
    body = b""
    while True:
        try:
            event = conn.next_event()
        except h11.RemoteProtocolError as e:
            return "R " + str(e).replace("\n", " ")
        if isinstance(event, h11.Request):
            current = "%s,%s.%s,%s," % (event.http_version.decode(), event.method.hex(), event.target.hex(),
                                        fields(event.headers.raw_items()))
            body = b""
        elif isinstance(event, h11.InformationalResponse):
            messages.append(finish("%s,%d,%s," % (event.http_version.decode(), event.status_code,
                                                 fields(event.headers.raw_items())), b"", []))
        elif isinstance(event, h11.Response):
            current = "%s,%d,%s," % (event.http_version.decode(), event.status_code, fields(event.headers.raw_items()))
            body = b""
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            messages.append(finish(current, body, event.headers.raw_items()))
            current = None
            if not next_cycle(conn, request):
                break
        elif isinstance(event, h11.ConnectionClosed):
            break
        elif event is h11.PAUSED:
            if conn.their_state is h11.SWITCHED_PROTOCOL or conn.our_state is h11.SWITCHED_PROTOCOL:
                return "A " + " ".join(messages) + " ^"
            return "R paused in " + str(conn.their_state)
        else:  # NEED_DATA after the end of the input
            return "R input ended inside a message"
    if current is not None:
        return "R input ended inside a message"
    if not messages:
        return "R no message"
    data_left, closed = conn.trailing_data
    if data_left:
        return "R %d bytes after the last message that h11 will not read" % len(data_left)
    return "A " + " ".join(messages)


def send_request(conn, method):
    headers = [("Host", "example.com")]
    if method == "POST":
        headers.append(("Content-Length", "0"))
    conn.send(h11.Request(method=method, target="/", headers=headers))
    conn.send(h11.EndOfMessage())


def next_cycle(conn, request):
    """Gets the connection ready for the next message; False if it cannot carry one."""
    if request:
        if conn.our_state is not h11.SEND_RESPONSE:
            return False
        conn.send(h11.Response(status_code=200, headers=[("Content-Length", "0")]))
        conn.send(h11.EndOfMessage())
    if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
        data_left, _ = conn.trailing_data
        conn.start_next_cycle()
        if not request and data_left:
            send_request(conn, "GET")
        return True
    return conn.their_state is not h11.MUST_CLOSE and conn.their_state is not h11.CLOSED


def main():
    out = []
    with open(sys.argv[1], "rb") as f:
        for line in f:
            line = line.rstrip(b"\n")
            if not line:
                continue
            method, _, b64 = line.partition(b" ")
            try:
                verdict = run(method.decode(), base64.b64decode(b64))
            except Exception as e:  # h11's LocalProtocolError and others: a verdict, not a crash of the run
                verdict = "R exception " + type(e).__name__ + " " + str(e).replace("\n", " ")
            out.append(verdict)
            if len(out) >= 4096:
                sys.stdout.write("\n".join(out) + "\n")
                out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
