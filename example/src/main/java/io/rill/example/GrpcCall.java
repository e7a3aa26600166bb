package io.rill.example;

import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2Error;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * One gRPC call of {@link GrpcEchoServer} (the gRPC over HTTP/2 protocol: a request HEADERS with
 * {@code content-type: application/grpc}, length-prefixed messages in DATA, and the status in
 * trailers). Messages are echoed with their 5-byte prefix as received; at most one message is
 * held, and credit goes back to the client as each one is parsed.
 */
final class GrpcCall {

    static final int MAX_MESSAGE = 4 << 20;
    static final String UNARY = "/rill.echo.Echo/Unary";
    static final String STREAM = "/rill.echo.Echo/Stream";

    // The gRPC status codes used here.
    static final int OK = 0;
    static final int DEADLINE_EXCEEDED = 4;
    static final int RESOURCE_EXHAUSTED = 8;
    static final int UNIMPLEMENTED = 12;
    static final int INTERNAL = 13;

    private final ChannelHandlerContext ctx;
    private final int streamId;
    private final boolean unary;
    private final Runnable onEnd;
    /** Bytes of a message not yet complete (prefix included); null when none. */
    private ByteBuf partial;
    private int messages;
    private boolean headersSent;
    private boolean clientDone;
    private boolean done;
    private ScheduledFuture<?> deadline;

    private GrpcCall(ChannelHandlerContext ctx, int streamId, boolean unary, Runnable onEnd) {
        this.ctx = ctx;
        this.streamId = streamId;
        this.unary = unary;
        this.onEnd = onEnd;
    }

    /** Starts a call from its request HEADERS; null when it was answered at once (a refusal). */
    static GrpcCall start(ChannelHandlerContext ctx, Http2HeadersFrame frame, Runnable onEnd) {
        Http2Headers headers = frame.headers();
        int id = frame.streamId();
        if (!"POST".contentEquals(String.valueOf(headers.method()))) {
            ctx.write(new Http2HeadersFrame(id, ServerFields.add(new Http2Headers().status("405").add("allow", "POST")),
                    true));
            return null;
        }
        CharSequence type = headers.get("content-type");
        if (type == null || !type.toString().startsWith("application/grpc")) {
            ctx.write(new Http2HeadersFrame(id, ServerFields.add(new Http2Headers().status("415")), true));
            return null;
        }
        String path = String.valueOf(headers.path());
        if (!path.equals(UNARY) && !path.equals(STREAM)) {
            GrpcCall refused = new GrpcCall(ctx, id, true, () -> { });
            refused.finish(UNIMPLEMENTED, "unknown method " + path);
            return null;
        }
        GrpcCall call = new GrpcCall(ctx, id, path.equals(UNARY), onEnd);
        CharSequence encoding = headers.get("grpc-encoding");
        if (encoding != null && !"identity".contentEquals(encoding.toString())) {
            call.finish(UNIMPLEMENTED, "grpc-encoding " + encoding + " is not supported");
            return call;
        }
        CharSequence timeout = headers.get("grpc-timeout");
        if (timeout != null) {
            long nanos = timeoutNanos(timeout.toString());
            if (nanos < 0) {
                call.finish(INTERNAL, "malformed grpc-timeout " + timeout);
                return call;
            }
            call.deadline = ctx.executor().schedule(call::deadlineExceeded, nanos, TimeUnit.NANOSECONDS);
        }
        if (frame.endStream()) {
            call.clientDone();
        }
        return call;
    }

    /** Content for a call that is over: dropped, and its credit returned. */
    static void discard(ChannelHandlerContext ctx, Http2DataFrame data) {
        int credit = data.flowControlled();
        data.release();
        ctx.write(new Http2WindowUpdateFrame(data.streamId(), credit));
    }

    boolean isDone() {
        return done;
    }

    void onData(Http2DataFrame data) {
        int credit = data.flowControlled();
        boolean end = data.endStream();
        if (done) {
            discard(ctx, data);
            return;
        }
        ByteBuf in = data.content();
        if (partial == null) {
            partial = ctx.alloc().buffer(Math.max(in.readableBytes(), 64));
        }
        partial.writeBytes(in);
        data.release();
        ctx.write(new Http2WindowUpdateFrame(streamId, credit));
        readMessages();
        if (end && !done) {
            clientDone();
        }
    }

    /** Trailers from the client (gRPC clients send none, but HTTP/2 allows them): the end of its messages. */
    void onTrailers(Http2HeadersFrame frame) {
        if (!done) {
            clientDone();
        }
    }

    void cancel() {
        done = true;
        release();
    }

    private void readMessages() {
        while (!done && partial.readableBytes() >= 5) {
            int flag = partial.getUnsignedByte(partial.readerIndex());
            long length = partial.getUnsignedInt(partial.readerIndex() + 1);
            if (flag != 0) {
                finish(INTERNAL, "a compressed message without grpc-encoding");
                return;
            }
            if (length > MAX_MESSAGE) {
                finish(RESOURCE_EXHAUSTED, "a message of " + length + " bytes is over the limit of " + MAX_MESSAGE);
                return;
            }
            if (partial.readableBytes() < 5 + length) {
                break;
            }
            onMessage(partial.readRetainedSlice(5 + (int) length));
        }
        if (partial != null && !partial.isReadable()) {
            partial.release();
            partial = null;
        }
    }

    private void onMessage(ByteBuf message) {
        if (unary && ++messages > 1) {
            message.release();
            finish(INTERNAL, "a unary call with more than one request message");
            return;
        }
        sendHeaders();
        ctx.write(new Http2DataFrame(streamId, message, false));
    }

    private void clientDone() {
        clientDone = true;
        if (partial != null && partial.isReadable()) {
            finish(INTERNAL, "the request ended inside a message");
        } else if (unary && messages == 0) {
            finish(INTERNAL, "a unary call without a request message");
        } else {
            finish(OK, null);
        }
    }

    private void deadlineExceeded() {
        if (done) {
            return;
        }
        finish(DEADLINE_EXCEEDED, "deadline exceeded");
        ctx.flush();
    }

    private void sendHeaders() {
        if (!headersSent) {
            headersSent = true;
            ctx.write(new Http2HeadersFrame(streamId, ServerFields.add(new Http2Headers().status("200")
                    .add("content-type", "application/grpc")), false));
        }
    }

    /** Ends the call with its status: trailers after the messages, or a trailers-only response. */
    private void finish(int status, String message) {
        if (done) {
            return;
        }
        done = true;
        Http2Headers trailers = headersSent ? new Http2Headers()
                : ServerFields.add(new Http2Headers().status("200").add("content-type", "application/grpc"));
        trailers.add("grpc-status", Integer.toString(status));
        if (message != null) {
            trailers.add("grpc-message", message);
        }
        ctx.write(new Http2HeadersFrame(streamId, trailers, true));
        if (!clientDone) {
            // The answer is complete; the client need not finish sending (RFC 9113 §8.1).
            ctx.write(new Http2ResetFrame(streamId, status == DEADLINE_EXCEEDED ? Http2Error.CANCEL : Http2Error.NO_ERROR));
        }
        release();
    }

    private void release() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
        if (partial != null) {
            partial.release();
            partial = null;
        }
        onEnd.run();
    }

    /** {@code grpc-timeout}: up to 8 digits and a unit (H, M, S, m, u, n); -1 when malformed. */
    static long timeoutNanos(String value) {
        if (value.length() < 2 || value.length() > 9) {
            return -1;
        }
        long amount = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            amount = amount * 10 + (c - '0');
        }
        return switch (value.charAt(value.length() - 1)) {
            case 'H' -> TimeUnit.HOURS.toNanos(amount);
            case 'M' -> TimeUnit.MINUTES.toNanos(amount);
            case 'S' -> TimeUnit.SECONDS.toNanos(amount);
            case 'm' -> TimeUnit.MILLISECONDS.toNanos(amount);
            case 'u' -> TimeUnit.MICROSECONDS.toNanos(amount);
            case 'n' -> amount;
            default -> -1;
        };
    }
}
