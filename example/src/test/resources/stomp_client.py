# The STOMP client of StompInteropTest: Python's stomp.py against stomp-broker on 127.0.0.1:PORT.
# Subscribes, sends three messages (a header that needs escaping, a multi-line body, UTF-8 with a
# content-type), prints what comes back, waits for two of the broker's heart-beats (both sides offer
# and want every HEARTBEAT_MS), then disconnects waiting for the broker's receipt.
import sys
import threading

import stomp

port = int(sys.argv[1])
heartbeat_ms = int(sys.argv[2])
received = []
all_in = threading.Event()
beats = []
two_beats = threading.Event()


class Listener(stomp.ConnectionListener):
    def on_message(self, frame):
        received.append(frame)
        if len(received) == 3:
            all_in.set()

    def on_connected(self, frame):
        print("CONNECTED heart-beat", frame.headers.get("heart-beat"), flush=True)

    def on_heartbeat(self):
        beats.append(1)
        if len(beats) == 2:
            two_beats.set()

    def on_error(self, frame):
        print("ERROR", frame.headers, frame.body, flush=True)


conn = stomp.Connection12([("127.0.0.1", port)], heartbeats=(heartbeat_ms, heartbeat_ms))
conn.set_listener("", Listener())
conn.connect(wait=True)
conn.subscribe("/queue/test", id="sub-1", ack="auto")
conn.send("/queue/test", "hello", headers={"note": "a:b\nc"})
conn.send("/queue/test", "line one\nline two")
conn.send("/queue/test", "grüße", content_type="text/plain")
if not all_in.wait(20):
    print("only", len(received), "messages arrived", flush=True)
    sys.exit(1)
for f in received:
    print("MESSAGE", f.headers.get("subscription"), f.headers.get("destination"), repr(f.headers.get("note")),
          f.headers.get("content-type"), repr(f.body), flush=True)
if not two_beats.wait(20):
    print("only", len(beats), "heart-beats arrived", flush=True)
    sys.exit(1)
print("heart-beats arrived", flush=True)
conn.disconnect(receipt="bye")
print("disconnected", flush=True)
