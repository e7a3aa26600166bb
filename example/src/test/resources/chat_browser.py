"""Headless Chromium, driven over the DevTools protocol, in two tabs of websocket-chat.

Usage: chat_browser.py PORT
Opens http://127.0.0.1:PORT/ in two tabs, types a message in each and checks that it appears in
the other. Prints ALL OK and exits 0 on success; exits 1 with the reason otherwise.
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

WAIT_MS = 15000


class DevTools:
    """One connection to the browser's DevTools endpoint; commands awaited by id, events ignored."""

    def __init__(self, ws):
        self.ws = ws
        self.ids = itertools.count(1)

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

    async def evaluate(self, session, expression):
        result = await self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                      "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def until(self, session, condition, what):
        """Polls {condition} inside the page (every 50 ms, for at most WAIT_MS) until it holds."""
        for attempt in range(20):
            try:
                return await self._until(session, condition, what)
            except RuntimeError as e:
                # The tab may still be leaving about:blank for the chat page: try in the new document.
                if "context" not in str(e) or attempt == 19:
                    raise

    async def _until(self, session, condition, what):
        await self.evaluate(session, f"""new Promise((resolve, reject) => {{
            const start = Date.now();
            (function poll() {{
                let ok = false;
                try {{ ok = {condition}; }} catch (e) {{ }}
                if (ok) resolve(true);
                else if (Date.now() - start > {WAIT_MS}) reject(new Error({json.dumps(what)} + ": " + document.body.innerText));
                else setTimeout(poll, 50);
            }})();
        }})""")


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


async def main(port):
    profile = tempfile.mkdtemp(prefix="rill-chat-chromium-")
    browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                "--disable-background-networking", "--no-first-run", "--disable-dev-shm-usage",
                                f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        devtools_port, browser_path = await wait_for_port_file(profile, browser)
        async with websockets.connect(f"ws://127.0.0.1:{devtools_port}{browser_path}", max_size=None) as ws:
            dt = DevTools(ws)
            url = f"http://127.0.0.1:{port}/"
            tabs = []
            for _ in range(2):
                target = await dt.call("Target.createTarget", {"url": url})
                attached = await dt.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
                tabs.append(attached["sessionId"])
            for tab in tabs:
                await dt.until(tab, "document.getElementById('status').textContent === 'connected'", "never connected")
            for i, (sender, receiver) in enumerate([(tabs[0], tabs[1]), (tabs[1], tabs[0])]):
                text = f"hello from tab {i + 1}, \u00e9t\u00e9 \u2603"
                await dt.evaluate(sender, f"""(() => {{
                    document.getElementById('text').value = {json.dumps(text)};
                    document.getElementById('say').requestSubmit();
                    return true;
                }})()""")
                await dt.until(receiver, f"document.getElementById('log').innerText.includes({json.dumps(text)})",
                               f"tab {2 - i} never showed the message of tab {i + 1}")
                print(f"tab {i + 1} -> tab {2 - i} ok", flush=True)
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
    except Exception as e:  # one line for the Java test's assertion message
        print(f"FAILED: {e}", flush=True)
        sys.exit(1)
