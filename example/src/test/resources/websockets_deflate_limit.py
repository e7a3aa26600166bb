"""Python's websockets with permessage-deflate against websocket-echo at its default message limit.

Usage: websockets_deflate_limit.py PORT LIMIT
Random bytes do not compress: DEFLATE makes them a few bytes longer on the wire. A random message
of exactly LIMIT bytes must come back, sent whole and in fragments, as must one of LIMIT bytes of
text; one byte more must end the connection with 1009. One line per check; ALL OK at the end
(exit 0).
"""
import asyncio
import os
import sys

import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory


async def connect(url):
    return await websockets.connect(url, extensions=[ClientPerMessageDeflateFactory()], compression=None,
                                    max_size=None)


async def main(port, limit):
    url = f"ws://127.0.0.1:{port}/"
    ws = await connect(url)
    assert ws.response.headers.get("Sec-WebSocket-Extensions", "").startswith("permessage-deflate")
    noise = os.urandom(limit)
    await ws.send(noise)
    assert await ws.recv() == noise, "random message of the limit, one frame"
    print(f"random {limit} bytes in one frame ok", flush=True)
    for cut in (1, limit // 2, limit - 1):
        await ws.send([noise[:cut], noise[cut:]])
        assert await ws.recv() == noise, f"random message of the limit cut at {cut}"
    await ws.send([noise[i:i + 1000] for i in range(0, limit, 1000)])
    assert await ws.recv() == noise, "random message of the limit in 1000-byte fragments"
    print(f"random {limit} bytes in fragments ok", flush=True)
    text = ("a line of text that repeats " * (limit // 28 + 1))[:limit]
    await ws.send(text)
    assert await ws.recv() == text, "text message of the limit"
    print(f"text {limit} bytes ok", flush=True)
    await ws.close()

    for name, message in (("random", os.urandom(limit + 1)), ("zeros", bytes(limit + 1))):
        ws = await connect(url)
        try:
            await ws.send(message)
            await asyncio.wait_for(ws.recv(), 10)
            raise AssertionError(f"{name} message of the limit + 1 was echoed")
        except websockets.exceptions.ConnectionClosed:
            pass
        assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 1009, ws.protocol.close_rcvd
        print(f"{name} {limit + 1} bytes 1009 ok", flush=True)
    print("ALL OK")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
