"""Calls grpc-echo with Python's grpcio, generically with raw bytes (no protoc): GrpcEchoInteropTest.

Usage: python3 grpc_echo_client.py HOST:PORT [--tls PEM]. Prints one line per check, "ALL OK" at the
end, and exits with 1 at the first failure. With --tls it calls over TLS (grpc-echo --tls), trusting
only the certificate in PEM (the self-signed one the server printed), for the name localhost.
"""
import os
import sys

import grpc


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + (": " + detail if detail and not condition else ""), flush=True)
    if not condition:
        sys.exit(1)


def main():
    target = sys.argv[1]
    options = [("grpc.max_receive_message_length", 8 << 20)]
    if len(sys.argv) > 3 and sys.argv[2] == "--tls":
        with open(sys.argv[3], "rb") as pem:
            credentials = grpc.ssl_channel_credentials(root_certificates=pem.read())
        # The certificate names localhost and the loopback addresses; check the name, as a real client does.
        channel = grpc.secure_channel(target, credentials, options=options + [("grpc.ssl_target_name_override", "localhost")])
    else:
        channel = grpc.insecure_channel(target, options=options)
    unary = channel.unary_unary("/rill.echo.Echo/Unary")
    stream = channel.stream_stream("/rill.echo.Echo/Stream")

    for size in (0, 1, 100 * 1024, 1 << 20):
        payload = os.urandom(size)
        check("unary echo of %d bytes" % size, unary(payload, timeout=10) == payload)

    messages = [os.urandom(n * 97 % 20000) for n in range(200)]
    replies = list(stream(iter(messages), timeout=20))
    check("bidi stream echoes 200 messages in order", replies == messages, "%d replies" % len(replies))

    futures = [unary.future(os.urandom(n * 31), timeout=10) for n in range(50)]
    check("50 concurrent unary calls", all(len(f.result()) == n * 31 for n, f in enumerate(futures)))

    try:
        channel.unary_unary("/rill.echo.Echo/Nope")(b"x", timeout=10)
        check("unknown method", False, "no error")
    except grpc.RpcError as e:
        check("unknown method is UNIMPLEMENTED", e.code() == grpc.StatusCode.UNIMPLEMENTED, str(e.code()))

    try:
        unary(os.urandom(5 << 20), timeout=10)
        check("oversized message", False, "no error")
    except grpc.RpcError as e:
        check("a 5 MiB message is RESOURCE_EXHAUSTED", e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, str(e.code()))

    def one_then_wait():
        yield b"first"
        import threading
        threading.Event().wait(5)

    try:
        list(stream(one_then_wait(), timeout=0.5))
        check("deadline", False, "no error")
    except grpc.RpcError as e:
        check("a call past its deadline is DEADLINE_EXCEEDED", e.code() == grpc.StatusCode.DEADLINE_EXCEEDED, str(e.code()))

    check("the connection still serves after the errors", unary(b"again", timeout=10) == b"again")
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
