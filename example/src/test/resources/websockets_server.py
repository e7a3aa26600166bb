"""Python's websockets library as a server for Rill's websocket-client.

Usage: websockets_server.py
Prints "PORT n" once listening on 127.0.0.1, then serves one connection at a time: echoes text;
answers "frag" with a message in three fragments, "bin" with 300 bytes of binary, "ping" by
pinging the client (a pong must come back) and "bye" with close 4001.
"""
import asyncio
import sys

import websockets


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
        elif message == "bye":
            await ws.close(code=4001, reason="see you")
        else:
            await ws.send("echo: " + message)


async def main():
    async with websockets.serve(handler, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        await asyncio.sleep(120)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
