"""Python's websockets with permessage-deflate as a client of Rill's websocket-echo server.

Usage: websockets_deflate_client.py PORT
The server must accept messages of 1 MiB. One connection per parameter set: plain
permessage-deflate, server_no_context_takeover, client_no_context_takeover, and each of
server_max_window_bits from 8 to 15 and client_max_window_bits from 9 to 15. On each, the negotiated
answer is checked, then repeated, UTF-8, large, incompressible and fragmented messages must come
back intact. One line per connection; ALL OK at the end when every check passed (exit 0).
"""
import asyncio
import os
import sys

import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory


def variants():
    yield "plain", {}, []
    yield "server_no_context_takeover", {"server_no_context_takeover": True}, ["server_no_context_takeover"]
    yield "client_no_context_takeover", {"client_no_context_takeover": True}, ["client_no_context_takeover"]
    for bits in range(8, 16):
        yield f"server_max_window_bits={bits}", {"server_max_window_bits": bits}, [f"server_max_window_bits={bits}"]
    # websockets compresses with zlib, which cannot use a window of 2^8: it offers 9 and above.
    for bits in range(9, 16):
        yield f"client_max_window_bits={bits}", {"client_max_window_bits": bits}, [f"client_max_window_bits={bits}"]


async def check(url, name, params, expected):
    factory = ClientPerMessageDeflateFactory(**params)
    async with websockets.connect(url, extensions=[factory], compression=None, max_size=None) as ws:
        answer = ws.response.headers.get("Sec-WebSocket-Extensions", "")
        assert answer.startswith("permessage-deflate"), (name, answer)
        for param in expected:
            assert param in answer, (name, param, answer)
        assert ws.protocol.extensions, (name, "no extension in effect")
        for _ in range(3):  # the same message again: with context takeover it refers back
            await ws.send("Hello")
            assert await ws.recv() == "Hello", name
        text = "h\u00e9llo \u20ac \U0001F600 " * 50
        await ws.send(text)
        assert await ws.recv() == text, name
        large = ("the quick brown fox jumps over the lazy dog " * 30000)[: 1 << 20]
        await ws.send(large)
        assert await ws.recv() == large, name
        noise = os.urandom(300_000)
        await ws.send(noise)
        assert await ws.recv() == noise, name
        parts = ["frag", "mented " * 2000, "message"]
        await ws.send(parts)
        assert await ws.recv() == "".join(parts), name
        await ws.send(b"")
        assert await ws.recv() == b"", name
        await ws.close()
    print(f"{name} ok ({answer})", flush=True)


async def main(port):
    url = f"ws://127.0.0.1:{port}/"
    for name, params, expected in variants():
        await check(url, name, params, expected)
    # A message that inflates past the server's limit ends the connection with 1009.
    factory = ClientPerMessageDeflateFactory()
    async with websockets.connect(url, extensions=[factory], compression=None, max_size=None) as ws:
        try:
            await ws.send(bytes((1 << 20) + 1))
            await asyncio.wait_for(ws.recv(), 10)
            raise AssertionError("a message inflating past the limit was echoed")
        except websockets.exceptions.ConnectionClosed:
            pass
        assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 1009, ws.protocol.close_rcvd
        print("inflated past the limit 1009 ok", flush=True)
    print("ALL OK")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
