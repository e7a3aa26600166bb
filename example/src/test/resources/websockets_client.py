"""Python's websockets library as a client of Rill's websocket-echo server.

Usage: websockets_client.py PORT [tls]
With "tls" it connects to wss:// and accepts the server's self-signed certificate.
Each check prints one line; the last line is ALL OK when every check passed (exit 0), otherwise
the script stops at the first failure with a traceback (exit 1).
"""
import asyncio
import os
import ssl
import sys

import websockets
from websockets.exceptions import ConnectionClosed


async def main(port, tls):
    url = f"{'wss' if tls else 'ws'}://127.0.0.1:{port}/"
    options = {"max_size": None, "compression": None}
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the example's certificate is self-signed
        options["ssl"] = context
    async with websockets.connect(url, **options) as ws:
        await ws.send("hello")
        assert await ws.recv() == "hello"
        print("text ok")

        await ws.send("h\u00e9llo \u20ac \U0001F600")
        assert await ws.recv() == "h\u00e9llo \u20ac \U0001F600"
        print("utf-8 text ok")

        data = os.urandom(1000)
        await ws.send(data)
        assert await ws.recv() == data
        print("binary ok")

        await ws.send(["frag", "mented ", "message"])
        assert await ws.recv() == "fragmented message"
        print("fragmented ok")

        big = os.urandom(1 << 20)
        await ws.send(big)
        assert await ws.recv() == big
        print("large ok")

        pong = await ws.ping(b"are you there")
        await asyncio.wait_for(pong, 10)
        print("ping ok")

        await ws.close(code=4000, reason="done here")
        assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 4000, ws.protocol.close_rcvd
        assert ws.protocol.close_rcvd.reason == "", ws.protocol.close_rcvd
        print("close 4000 ok")

    async with websockets.connect(url, **options) as ws:
        await ws.close()
        assert ws.protocol.close_rcvd.code == 1000, ws.protocol.close_rcvd
        print("close 1000 ok")

    async with websockets.connect(url, **options) as ws:
        try:
            await ws.send(os.urandom((1 << 20) + 1))
            await asyncio.wait_for(ws.recv(), 10)
            raise AssertionError("a message over the limit was echoed")
        except ConnectionClosed:
            pass
        assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 1009, ws.protocol.close_rcvd
        print("too big 1009 ok")

    print("ALL OK")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), len(sys.argv) > 2 and sys.argv[2] == "tls"))
