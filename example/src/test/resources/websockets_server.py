"""Python's websockets library as a server for Rill's websocket-client.

Usage: websockets_server.py [deflate [PARAM=VALUE ...]]
Prints "PORT n" once listening on 127.0.0.1, then serves one connection at a time: echoes text;
answers "frag" with a message in three fragments, "bin" with 300 bytes of binary, "ping" by
pinging the client (a pong must come back), "ext" with the Sec-WebSocket-Extensions answer it
sent, "big" with 200,000 bytes of text in two fragments, and "bye" with close 4001.
With "deflate" it accepts permessage-deflate, with the ServerPerMessageDeflateFactory arguments
given after it (server_no_context_takeover=1, server_max_window_bits=10, ...).
"""
import asyncio
import sys

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

BIG = ("a line of text that repeats " * 8000)[:200_000]


async def handler(ws):
    async for message in ws:
        if message == "frag":
            await ws.send(["fr", "ag", "ments"])
        elif message == "bin":
            await ws.send(bytes(300))
        elif message == "ping":
            pong = await ws.ping(b"x")
            await asyncio.wait_for(pong, 10)
            await ws.send("pong came back")
        elif message == "ext":
            await ws.send("ext: " + ws.response.headers.get("Sec-WebSocket-Extensions", "none"))
        elif message == "big":
            await ws.send([BIG[:100_000], BIG[100_000:]])
        elif message == "bye":
            await ws.close(code=4001, reason="see you")
        else:
            await ws.send("echo: " + message)


async def main():
    options = {"compression": None}
    if len(sys.argv) > 1 and sys.argv[1] == "deflate":
        params = {}
        for arg in sys.argv[2:]:
            key, value = arg.split("=")
            params[key] = int(value) if key.endswith("bits") else bool(int(value))
        options["extensions"] = [ServerPerMessageDeflateFactory(**params)]
    async with websockets.serve(handler, "127.0.0.1", 0, **options) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        await asyncio.sleep(120)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
