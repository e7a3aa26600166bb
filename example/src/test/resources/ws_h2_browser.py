"""Headless Chromium, driven over the DevTools protocol, opens a WebSocket to websocket-echo --tls.

Usage: ws_h2_browser.py PORT

Loads https://127.0.0.1:PORT/ (the echo server's 404 page, over h2 by ALPN; the self-signed
certificate is accepted), then runs `new WebSocket("wss://127.0.0.1:PORT/")` in that page, sends a
message and waits for its echo. Chromium puts a WebSocket on an existing HTTP/2 connection whose
server sent SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441); the handshake it reports then has status
200 (an extended CONNECT) rather than 101 (an HTTP/1.1 upgrade), which this script checks. Prints
ALL OK and exits 0 on success; exits 1 with the reason otherwise.
"""
import asyncio
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile

import websockets


class DevTools:
    """One connection to the browser's DevTools endpoint; replies awaited by id, events kept by name."""

    def __init__(self, ws):
        self.ws = ws
        self.ids = itertools.count(1)
        self.events = []

    async def call(self, method, params=None, session=None):
        message = {"id": next(self.ids), "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        await self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(await self.ws.recv())
            if reply.get("id") == message["id"]:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            if "method" in reply:
                self.events.append(reply)


async def wait_for_port_file(directory, process):
    path = os.path.join(directory, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(path):
            with open(path) as f:
                lines = f.read().split()
            if len(lines) >= 2:
                return int(lines[0]), lines[1]
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with {process.returncode}")
        await asyncio.sleep(0.1)
    raise RuntimeError("chromium did not open its DevTools port")


ECHO = """new Promise((resolve, reject) => {
    const ws = new WebSocket("wss://127.0.0.1:%d/");
    const timer = setTimeout(() => reject(new Error("no echo within 15 s")), 15000);
    ws.onopen = () => ws.send("hello over h2, \\u00e9t\\u00e9");
    ws.onmessage = (e) => { clearTimeout(timer); ws.close(1000, "done"); resolve(e.data); };
    ws.onerror = () => { clearTimeout(timer); reject(new Error("WebSocket error")); };
})"""


async def main(port):
    profile = tempfile.mkdtemp(prefix="rill-ws-h2-chromium-")
    browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                "--disable-background-networking", "--no-first-run", "--disable-dev-shm-usage",
                                "--ignore-certificate-errors", f"--user-data-dir={profile}",
                                "--remote-debugging-port=0", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        devtools_port, browser_path = await wait_for_port_file(profile, browser)
        async with websockets.connect(f"ws://127.0.0.1:{devtools_port}{browser_path}", max_size=None) as ws:
            dt = DevTools(ws)
            target = await dt.call("Target.createTarget", {"url": "about:blank"})
            attached = await dt.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
            tab = attached["sessionId"]
            await dt.call("Network.enable", {}, tab)
            await dt.call("Page.enable", {}, tab)
            await dt.call("Page.navigate", {"url": f"https://127.0.0.1:{port}/"}, tab)
            for _ in range(150):
                if any(e["method"] == "Page.loadEventFired" for e in dt.events):
                    break
                await dt.call("Runtime.evaluate", {"expression": "1"}, tab)  # also collects events
                await asyncio.sleep(0.1)
            protocols = [e["params"]["response"].get("protocol") for e in dt.events
                         if e["method"] == "Network.responseReceived"]
            if "h2" not in protocols:
                raise RuntimeError(f"the page did not come over h2: {protocols}")
            result = await dt.call("Runtime.evaluate", {"expression": ECHO % port, "awaitPromise": True,
                                                        "returnByValue": True}, tab)
            if "exceptionDetails" in result:
                raise RuntimeError(f"echo failed: {result['exceptionDetails']}")
            echoed = result["result"].get("value")
            if echoed != "hello over h2, \u00e9t\u00e9":
                raise RuntimeError(f"echo was {echoed!r}")
            print("echo ok", flush=True)
            statuses = [e["params"]["response"]["status"] for e in dt.events
                        if e["method"] == "Network.webSocketHandshakeResponseReceived"]
            if statuses != [200]:
                raise RuntimeError(f"the WebSocket handshake statuses were {statuses}, not [200] (RFC 8441)")
            print("handshake over HTTP/2 ok: status 200", flush=True)
        print("ALL OK")
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        asyncio.run(main(int(sys.argv[1])))
    except Exception as e:  # the reason goes to the test's message
        print(f"FAILED: {e}")
        sys.exit(1)
