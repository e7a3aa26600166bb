"""A raw RFC 8441 client (Python's h2 package plus hand-made WebSocket frames) against websocket-echo.

Usage: ws_h2_client.py PORT [tls]

h2c by prior knowledge, or h2 by ALPN with "tls" (the certificate is not verified). Checks that the
server sends SETTINGS_ENABLE_CONNECT_PROTOCOL = 1, opens a WebSocket with an extended CONNECT,
sends masked frames in DATA and reads the echo, closes with 1000 and expects the stream to end
with END_STREAM both ways; then checks that another version is refused with 400. Prints ALL OK.
"""
import os
import socket
import ssl
import struct
import sys

import h2.config
import h2.connection
import h2.events
import h2.settings

PORT = int(sys.argv[1])
TLS = len(sys.argv) > 2 and sys.argv[2] == "tls"


def connect():
    sock = socket.create_connection(("127.0.0.1", PORT), timeout=20)
    if TLS:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["h2"])
        sock = context.wrap_socket(sock, server_hostname="localhost")
        assert sock.selected_alpn_protocol() == "h2", sock.selected_alpn_protocol()
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    return sock, conn


def events(sock, conn):
    data = sock.recv(65536)
    if not data:
        raise AssertionError("the server closed the connection")
    out = conn.receive_data(data)
    pending = conn.data_to_send()
    if pending:
        sock.sendall(pending)
    return out


def wait_for(sock, conn, kind, stream_id=None):
    """Events until one of type kind (on stream_id, when given); returns (that event, those before)."""
    seen = []
    while True:
        for event in events(sock, conn):
            if isinstance(event, kind) and (stream_id is None or getattr(event, "stream_id", None) == stream_id):
                return event, seen
            seen.append(event)


def masked_frame(opcode, payload):
    key = os.urandom(4)
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class FrameReader:
    """Server frames from the stream's DATA: unmasked, as RFC 8441 §5 keeps RFC 6455's rules."""

    def __init__(self):
        self.buf = b""

    def feed(self, data):
        self.buf += data

    def next(self):
        if len(self.buf) < 2:
            return None
        b0, b1 = self.buf[0], self.buf[1]
        assert b1 & 0x80 == 0, "a server frame must not be masked"
        n, at = b1 & 0x7F, 2
        if n == 126:
            if len(self.buf) < 4:
                return None
            n, at = struct.unpack("!H", self.buf[2:4])[0], 4
        elif n == 127:
            if len(self.buf) < 10:
                return None
            n, at = struct.unpack("!Q", self.buf[2:10])[0], 10
        if len(self.buf) < at + n:
            return None
        payload = self.buf[at:at + n]
        self.buf = self.buf[at + n:]
        return b0 & 0x0F, payload


def request(version="13"):
    authority = "127.0.0.1:%d" % PORT
    return [(":method", "CONNECT"), (":protocol", "websocket"), (":scheme", "https" if TLS else "http"),
            (":path", "/"), (":authority", authority), ("sec-websocket-version", version)]


def read_frame(sock, conn, stream_id, reader):
    """The next WebSocket frame of the stream, and whether the stream ended meanwhile."""
    ended = False
    while True:
        frame = reader.next()
        if frame is not None:
            return frame, ended
        for event in events(sock, conn):
            if isinstance(event, h2.events.DataReceived) and event.stream_id == stream_id:
                reader.feed(event.data)
                conn.acknowledge_received_data(event.flow_controlled_length, stream_id)
                sock.sendall(conn.data_to_send())
            elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream_id:
                ended = True
            elif isinstance(event, h2.events.StreamReset):
                raise AssertionError("the stream was reset: %r" % event)


def main():
    sock, conn = connect()
    changed, _ = wait_for(sock, conn, h2.events.RemoteSettingsChanged)
    setting = changed.changed_settings.get(h2.settings.SettingCodes.ENABLE_CONNECT_PROTOCOL)
    assert setting is not None and setting.new_value == 1, "no SETTINGS_ENABLE_CONNECT_PROTOCOL = 1: %r" % changed

    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, request())
    sock.sendall(conn.data_to_send())
    response, _ = wait_for(sock, conn, h2.events.ResponseReceived, stream)
    fields = dict((k.decode(), v.decode()) for k, v in response.headers)
    assert fields[":status"] == "200", fields
    assert "sec-websocket-accept" not in fields, "no Sec-WebSocket-Accept over HTTP/2 (RFC 8441 §5)"

    reader = FrameReader()
    for opcode, payload in [(1, "héllo over h2".encode()), (2, os.urandom(100_000)), (9, b"ping!")]:
        data = masked_frame(opcode, payload)
        while data:  # the stream's window paces us
            window = min(conn.local_flow_control_window(stream), conn.max_outbound_frame_size)
            if window == 0:
                wait_for(sock, conn, h2.events.WindowUpdated)
                continue
            conn.send_data(stream, data[:window])
            data = data[window:]
            sock.sendall(conn.data_to_send())
        (got_opcode, got), ended = read_frame(sock, conn, stream, reader)
        expected = 10 if opcode == 9 else opcode
        assert (got_opcode, got) == (expected, payload), "opcode %d: got %d with %d bytes" % (opcode, got_opcode, len(got))
        assert not ended
    print("echo OK")

    conn.send_data(stream, masked_frame(8, struct.pack("!H", 1000) + b"bye"))
    sock.sendall(conn.data_to_send())
    (opcode, payload), ended = read_frame(sock, conn, stream, reader)
    assert opcode == 8 and struct.unpack("!H", payload[:2])[0] == 1000, (opcode, payload)
    if not ended:
        wait_for(sock, conn, h2.events.StreamEnded, stream)
    conn.end_stream(stream)
    sock.sendall(conn.data_to_send())
    print("close OK: 1000 and END_STREAM")

    refused = conn.get_next_available_stream_id()
    conn.send_headers(refused, request(version="8"))
    sock.sendall(conn.data_to_send())
    response, _ = wait_for(sock, conn, h2.events.ResponseReceived, refused)
    fields = dict((k.decode(), v.decode()) for k, v in response.headers)
    assert fields[":status"] == "400" and fields.get("sec-websocket-version") == "13", fields
    print("version 8 refused OK")

    conn.close_connection()
    sock.sendall(conn.data_to_send())
    sock.close()
    print("ALL OK")


if __name__ == "__main__":
    main()
