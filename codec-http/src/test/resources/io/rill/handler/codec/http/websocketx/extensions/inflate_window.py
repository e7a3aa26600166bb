"""Inflates raw DEFLATE files with zlib and a given window, one output byte at a time.

Usage: inflate_window.py BITS COMPRESSED EXPECTED [BITS COMPRESSED EXPECTED ...]
Each COMPRESSED file is one permessage-deflate message (tail already dropped). zlib checks a
back-reference against the bytes it still holds: asking for one byte of output per call leaves it
nothing but its 2^BITS window, so a reference that reaches further fails ("invalid distance too
far back"). Prints "ok BITS" or "fail BITS: reason" per triple.
"""
import sys
import zlib


def inflate(bits, data):
    d = zlib.decompressobj(-bits)
    out = bytearray()
    pending = data + b"\x00\x00\xff\xff"
    while True:
        chunk = d.decompress(pending, 1)
        out += chunk
        pending = d.unconsumed_tail
        if not chunk and not pending:
            return bytes(out)


args = sys.argv[1:]
for i in range(0, len(args), 3):
    bits = int(args[i])
    compressed = open(args[i + 1], "rb").read()
    expected = open(args[i + 2], "rb").read()
    try:
        got = inflate(bits, compressed)
        print(f"ok {bits}" if got == expected else f"fail {bits}: different bytes", flush=True)
    except zlib.error as e:
        print(f"fail {bits}: {e}", flush=True)
