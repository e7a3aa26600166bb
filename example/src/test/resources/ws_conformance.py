"""A raw-socket conformance run against websocket-echo, one group per Autobahn|Testsuite section.

Usage: ws_conformance.py PORT
The server must run with its default 64 KiB limit. Sections: 1 framing, 2 pings and pongs, 3
reserved bits, 4 opcodes, 5 fragmentation, 6 UTF-8, 7 close handling, 9 limits (10 is covered by
the unit tests), 12 and 13 permessage-deflate (RFC 7692) with its parameters and error cases. Every case speaks raw bytes
over its own connection and checks what comes back, frame by frame: an echo, a pong, or a close
with the expected status followed by the end of the stream. Prints one line per failed case and
a summary; exit 0 and ALL OK when nothing failed.
"""
import base64
import os
import socket
import struct
import sys
import zlib

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
TIMEOUT = 10
results = []


class Peer:
    def __init__(self, offer=None):
        self.sock = socket.create_connection(("127.0.0.1", PORT), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        extensions = f"Sec-WebSocket-Extensions: {offer}\r\n" if offer else ""
        self.sock.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"{extensions}\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise AssertionError("closed during the handshake")
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        self.agreed = None  # the server's permessage-deflate answer, as {param: value}
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.strip().lower() == "sec-websocket-extensions":
                element = [part.strip() for part in value.split(";")]
                assert element[0] == "permessage-deflate", value
                self.agreed = dict((kv.split("=") + [None])[:2] for kv in element[1:])
        self.inflater = None

    def send(self, data, chop=None):
        if chop:
            for i in range(0, len(data), chop):
                self.sock.sendall(data[i:i + chop])
        else:
            self.sock.sendall(data)

    def read_exact(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise EOFError(f"end of stream after {len(out)} of {n} bytes")
            out += chunk
        return out

    def frame(self):
        """The next frame from the server: (fin, rsv, opcode, payload); the server never masks."""
        b0, b1 = self.read_exact(2)
        assert b1 & 0x80 == 0, "the server masked a frame"
        length = b1 & 0x7F
        if length == 126:
            length = struct.unpack(">H", self.read_exact(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self.read_exact(8))[0]
        return bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 0x0F, self.read_exact(length)

    def message(self):
        """The next data message, joined from its fragments (control frames before it are returned as is)."""
        fin, rsv, opcode, payload = self.frame()
        if opcode >= 8:
            return opcode, payload
        kind = opcode
        while not fin:
            fin, rsv, opcode, more = self.frame()
            assert opcode == 0, f"opcode {opcode} inside a fragmented message"
            payload += more
        return kind, payload

    def expect_close(self, status):
        """Frames until a close: its status must be {status} (None: no status), then the end of the stream."""
        while True:
            fin, rsv, opcode, payload = self.frame()
            if opcode == 8:
                break
        got = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
        assert got == status, f"close {got}, expected {status}"
        self.sock.settimeout(TIMEOUT)
        try:
            rest = self.sock.recv(1)
            assert rest == b"", f"bytes after the close: {rest!r}"
        except ConnectionResetError:
            pass

    def close(self):
        self.sock.close()


def frame(opcode, payload=b"", fin=True, rsv=0, mask=True, length=None):
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    m = 0x80 if mask else 0
    if n <= 125:
        head += bytes([m | n])
    elif n <= 0xFFFF:
        head += bytes([m | 126]) + struct.pack(">H", n)
    else:
        head += bytes([m | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def case(section, name, offer=None):
    def register(fn):
        results.append((section, name, fn, offer))
        return fn
    return register


def run():
    failed = 0
    for section, name, fn, offer in results:
        peer = None
        try:
            peer = Peer(offer)
            fn(peer)
        except Exception as e:  # report and go on: one line per failed case
            failed += 1
            print(f"FAIL {section} {name}: {type(e).__name__}: {e}", flush=True)
        finally:
            if peer:
                peer.close()
    print(f"{len(results)} cases, {failed} failed")
    if failed == 0:
        print("ALL OK")
    return failed


def echo_case(section, name, opcode, payload, chop=None, fin_frames=None):
    @case(section, name)
    def _(p):
        p.send(frame(opcode, payload), chop)
        assert p.message() == (opcode, payload)


# 1: framing
for size in (0, 125, 126, 127, 128, 65535, 65536):
    echo_case("1.1", f"text {size} bytes", 1, b"*" * size)
    echo_case("1.2", f"binary {size} bytes", 2, os.urandom(size))
echo_case("1.1", "text 65535 bytes in pieces of 997", 1, b"*" * 65535, chop=997)
echo_case("1.2", "binary 1000 bytes byte by byte", 2, os.urandom(1000), chop=1)


# 2: pings and pongs
@case("2.1", "empty ping")
def _(p):
    p.send(frame(9))
    assert p.frame() == (True, 0, 10, b"")


@case("2.3", "ping with 125 bytes of binary")
def _(p):
    data = os.urandom(125)
    p.send(frame(9, data))
    assert p.frame() == (True, 0, 10, data)


@case("2.5", "ping with 126 bytes")
def _(p):
    p.send(frame(9, b"x" * 126))
    p.expect_close(1002)


@case("2.6", "ping sent byte by byte")
def _(p):
    p.send(frame(9, b"hello"), chop=1)
    assert p.frame() == (True, 0, 10, b"hello")


@case("2.7", "unsolicited pong")
def _(p):
    p.send(frame(10, b"unsolicited") + frame(1, b"after"))
    assert p.message() == (1, b"after")


@case("2.10", "ten pings")
def _(p):
    p.send(b"".join(frame(9, str(i).encode()) for i in range(10)))
    pongs = [p.frame() for _ in range(10)]
    assert all(f[2] == 10 for f in pongs), pongs
    assert pongs[-1][3] == b"9"


# 3: reserved bits
for rsv, opcode in ((1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 9), (7, 9)):
    @case("3", f"rsv {rsv} on opcode {opcode}")
    def _(p, rsv=rsv, opcode=opcode):
        p.send(frame(1, b"before") + frame(opcode, b"x", rsv=rsv) + frame(9))
        assert p.message() == (1, b"before")
        p.expect_close(1002)

# 4: opcodes
for opcode in (3, 4, 5, 6, 7, 11, 12, 13, 14, 15):
    @case("4", f"reserved opcode {opcode}")
    def _(p, opcode=opcode):
        p.send(frame(1, b"before") + frame(opcode, b"x") + frame(9))
        assert p.message() == (1, b"before")
        p.expect_close(1002)


# 5: fragmentation
@case("5.1", "fragmented ping")
def _(p):
    p.send(frame(9, b"a", fin=False) + frame(0, b"b"))
    p.expect_close(1002)


@case("5.3", "text in two fragments")
def _(p):
    p.send(frame(1, b"frag", fin=False) + frame(0, b"ment"))
    assert p.message() == (1, b"fragment")


@case("5.6", "fragments with a ping between them")
def _(p):
    p.send(frame(1, b"frag", fin=False) + frame(9, b"p") + frame(0, b"ment"))
    first = p.frame()
    assert first == (False, 0, 1, b"frag"), first
    assert p.frame() == (True, 0, 10, b"p")
    assert p.frame() == (True, 0, 0, b"ment")


@case("5.9", "continuation without a start")
def _(p):
    p.send(frame(0, b"x"))
    p.expect_close(1002)


@case("5.17", "new text inside a fragmented message")
def _(p):
    p.send(frame(1, b"a", fin=False) + frame(1, b"b"))
    assert p.frame()[3] == b"a"
    p.expect_close(1002)


@case("5.19", "text in 50 fragments, a ping after every tenth, byte by byte")
def _(p):
    parts = [frame(1 if i == 0 else 0, bytes([65 + i % 26]), fin=i == 49) + (frame(9) if i % 10 == 9 else b"")
             for i in range(50)]
    p.send(b"".join(parts), chop=1)
    joined, pongs = b"", 0
    while True:
        fin, rsv, opcode, payload = p.frame()
        if opcode == 10:
            pongs += 1
            continue
        joined += payload
        if fin:
            break
    assert joined == bytes(65 + i % 26 for i in range(50))


# 6: UTF-8
for text in ("", "Hello-µ@ßöäüàá-UTF-8!!", "κόσμε", "\U0010FFFF", "\uFFFD", "\u0800\uD7FF\uE000"):
    echo_case("6.valid", f"text {text.encode()!r}", 1, text.encode())
for bad in ("ce bae1 bdb9 cf83 ceb5 eda080 65 64 69 74 65 64", "c0 af", "e0 80 af", "ed a0 80", "ed bf bf",
            "f8 88 80 80 80", "fe", "ff", "f4 90 80 80", "80", "c2", "e0 a0"):
    @case("6.invalid", bad)
    def _(p, bad=bad):
        p.send(frame(1, bytes.fromhex(bad.replace(" ", ""))))
        p.expect_close(1007)


@case("6.invalid", "split across fragments")
def _(p):
    p.send(frame(1, b"\xed", fin=False) + frame(0, b"\xa0\x80"))
    assert p.frame()[3] == b"\xed"
    p.expect_close(1007)


@case("6.4", "fail fast: the bad byte is answered before the rest of the frame is sent")
def _(p):
    whole = frame(1, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xb5\xed\xa0\x80" + b"x" * 100)
    p.send(whole[:6 + 12])  # header, mask and the payload up to and including the bad sequence
    p.expect_close(1007)


# 7: close handling
@case("7.1", "empty close")
def _(p):
    p.send(frame(8))
    p.expect_close(None)


@case("7.1", "data after the close is ignored")
def _(p):
    p.send(frame(8, struct.pack(">H", 1000)) + frame(1, b"late"))
    p.expect_close(1000)


@case("7.3", "close with one byte")
def _(p):
    p.send(frame(8, b"\x03"))
    p.expect_close(1002)


@case("7.3", "close with a 123-byte reason")
def _(p):
    p.send(frame(8, struct.pack(">H", 1000) + b"r" * 123))
    p.expect_close(1000)


@case("7.3", "close with a 124-byte reason")
def _(p):
    p.send(frame(8, struct.pack(">H", 1000) + b"r" * 124))
    p.expect_close(1002)


for code in (1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999):
    @case("7.7", f"valid close code {code}")
    def _(p, code=code):
        p.send(frame(8, struct.pack(">H", code)))
        p.expect_close(code)
for code in (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535):
    @case("7.9", f"invalid close code {code}")
    def _(p, code=code):
        p.send(frame(8, struct.pack(">H", code)))
        p.expect_close(1002)


@case("7.5", "close reason that is not UTF-8")
def _(p):
    p.send(frame(8, struct.pack(">H", 1000) + b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xb5\xed\xa0\x80"))
    p.expect_close(1007)


# 9: limits (the server's default is 64 KiB per frame and per message)
echo_case("9.1", "text of exactly 64 KiB", 1, b"*" * 65536)


@case("9.1", "text of 64 KiB + 1")
def _(p):
    p.send(frame(2, b"", length=65537)[:14])  # only the header: refused from the length alone
    p.expect_close(1009)


@case("9.2", "binary of 64 KiB in 64 fragments of 1 KiB")
def _(p):
    data = os.urandom(65536)
    p.send(b"".join(frame(2 if i == 0 else 0, data[i * 1024:(i + 1) * 1024], fin=i == 63) for i in range(64)))
    assert p.message() == (2, data)


@case("9.2", "fragments summing to 64 KiB + 1")
def _(p):
    p.send(frame(2, b"x" * 65536, fin=False) + frame(0, b"x"))
    assert len(p.frame()[3]) == 65536
    p.expect_close(1009)


# 12 and 13: permessage-deflate. The client compresses with zlib (sync flush, tail dropped, RFC
# 7692 §7.2.1) and inflates the server's answers with its own window of the agreed size.
PMD = "permessage-deflate"


def server_message(p):
    """The next data message, inflated: its first frame must carry RSV1."""
    fin, rsv, opcode, payload = p.frame()
    assert opcode in (1, 2), f"opcode {opcode}"
    assert rsv == 4, f"rsv {rsv}: the echo is not compressed"
    while not fin:
        fin, more_rsv, more_opcode, more = p.frame()
        assert more_opcode == 0 and more_rsv == 0, (more_opcode, more_rsv)
        payload += more
    bits = int(p.agreed.get("server_max_window_bits") or 15)
    if p.inflater is None or "server_no_context_takeover" in p.agreed:
        p.inflater = zlib.decompressobj(-bits)
    return opcode, p.inflater.decompress(payload + b"\x00\x00\xff\xff")


class Compressor:
    def __init__(self, bits=15, context=True):
        self.bits, self.context, self.z = bits, context, None

    def message(self, data):
        if self.z is None or not self.context:
            self.z = zlib.compressobj(6, zlib.DEFLATED, -self.bits)
        out = self.z.compress(data) + self.z.flush(zlib.Z_SYNC_FLUSH)
        assert out.endswith(b"\x00\x00\xff\xff")
        return out[:-4]


def deflate_echo_case(section, name, offer, sizes, bits=15, context=True, opcode=1, pieces=1, expect=None):
    @case(section, name, offer)
    def _(p):
        assert p.agreed is not None, "permessage-deflate declined"
        for param in expect or []:
            assert param in p.agreed, f"{param} missing from {p.agreed}"
        c = Compressor(bits, context)
        for size in sizes:
            data = (b"compress me, " * (size // 13 + 1))[:size] if opcode == 1 else os.urandom(size // 4) * 4
            payload = c.message(data)
            step = max(1, -(-len(payload) // pieces))
            chunks = [payload[i:i + step] for i in range(0, len(payload), step)] or [b""]
            p.send(b"".join(frame(opcode if i == 0 else 0, chunk, fin=i == len(chunks) - 1, rsv=4 if i == 0 else 0)
                            for i, chunk in enumerate(chunks)))
            assert server_message(p) == (opcode, data), f"echo of {size} bytes"


for size in (0, 16, 64, 256, 1024, 4096, 16384, 65536):
    deflate_echo_case("12.1", f"compressed text {size} bytes, 5 messages", PMD, [size] * 5)
    deflate_echo_case("12.2", f"compressed binary {size} bytes, 5 messages", PMD, [size] * 5, opcode=2)


@case("12.2", "incompressible binary of exactly 64 KiB, longer than that compressed", PMD)
def _(p):
    data = os.urandom(65536)
    payload = Compressor().message(data)
    assert len(payload) > len(data), len(payload)
    p.send(frame(2, payload, rsv=4))
    assert server_message(p) == (2, data), "echo of 65536 random bytes"


deflate_echo_case("12.3", "compressed text in 7 fragments", PMD, [20000, 300, 20000], pieces=7)
deflate_echo_case("12.3", "compressed binary in 50 fragments", PMD, [30000], opcode=2, pieces=50)
deflate_echo_case("13.1", "server_no_context_takeover", PMD + "; server_no_context_takeover", [2000] * 5,
                  expect=["server_no_context_takeover"])
deflate_echo_case("13.2", "client_no_context_takeover", PMD + "; client_no_context_takeover", [2000] * 5,
                  context=False, expect=["client_no_context_takeover"])
deflate_echo_case("13.2", "both no_context_takeover", PMD + "; server_no_context_takeover; client_no_context_takeover",
                  [2000] * 5, context=False, expect=["server_no_context_takeover", "client_no_context_takeover"])
for bits in range(8, 16):
    deflate_echo_case("13.3", f"server_max_window_bits={bits}", f"{PMD}; server_max_window_bits={bits}",
                      [300, 5000, 40000], expect=["server_max_window_bits"])
for bits in range(9, 16):  # zlib does not compress with a window of 2^8
    deflate_echo_case("13.4", f"client_max_window_bits={bits}", f'{PMD}; client_max_window_bits="{bits}"',
                      [300, 5000, 40000], bits=bits, expect=["client_max_window_bits"])
deflate_echo_case("13.5", "first offer declined, second taken", f"{PMD}; server_max_window_bits=7, {PMD}", [1000])


@case("13.6", "no offer: nothing agreed")
def _(p):
    assert p.agreed is None, p.agreed


@case("13.7", "an uncompressed message in a compressed session", PMD)
def _(p):
    p.send(frame(1, b"plain"))
    assert server_message(p) == (1, b"plain")


@case("12.4", "RSV1 without permessage-deflate")
def _(p):
    p.send(frame(1, Compressor().message(b"Hello"), rsv=4))
    p.expect_close(1002)


@case("12.4", "RSV1 on a continuation frame", PMD)
def _(p):
    payload = Compressor().message(b"Hello, Hello")
    p.send(frame(1, payload[:3], fin=False, rsv=4) + frame(0, payload[3:], rsv=4))
    p.expect_close(1002)


@case("12.4", "RSV1 on a ping", PMD)
def _(p):
    p.send(frame(9, b"x", rsv=4))
    p.expect_close(1002)


@case("12.5", "data that is not DEFLATE", PMD)
def _(p):
    p.send(frame(2, b"\x07\xff\xff", rsv=4))  # BTYPE 11 is reserved (RFC 1951 §3.2.3)
    p.expect_close(1007)


@case("12.5", "compressed text that is not UTF-8", PMD)
def _(p):
    p.send(frame(1, Compressor().message(b"ok \xed\xa0\x80"), rsv=4))
    p.expect_close(1007)


@case("12.6", "a bomb: 1 MiB of zeros in about 1 KiB", PMD)
def _(p):
    bomb = Compressor().message(bytes(1 << 20))
    assert len(bomb) < 2048, len(bomb)
    p.send(frame(2, bomb, rsv=4))
    p.expect_close(1009)


@case("12.6", "compressed fragments inflating past 64 KiB", PMD)
def _(p):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    first = c.compress(bytes(40000)) + c.flush(zlib.Z_SYNC_FLUSH)
    second = c.compress(bytes(40000)) + c.flush(zlib.Z_SYNC_FLUSH)
    p.send(frame(2, first, fin=False, rsv=4) + frame(0, second[:-4]))
    p.expect_close(1009)


@case("12.6", "incompressible binary of 64 KiB + 1", PMD)
def _(p):
    p.send(frame(2, Compressor().message(os.urandom(65537)), rsv=4))
    p.expect_close(1009)


if __name__ == "__main__":
    sys.exit(1 if run() else 0)
