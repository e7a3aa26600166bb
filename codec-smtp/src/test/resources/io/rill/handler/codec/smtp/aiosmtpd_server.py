# An SMTP server for SmtpInteropTest: Python's aiosmtpd on 127.0.0.1 and a port the kernel picks,
# printed as "port N"; each message it receives is printed by aiosmtpd's Debugging handler.
import asyncio
import sys

from aiosmtpd.handlers import Debugging
from aiosmtpd.smtp import SMTP


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(Debugging(sys.stdout)), "127.0.0.1", 0)
    print("port", server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


asyncio.run(main())
