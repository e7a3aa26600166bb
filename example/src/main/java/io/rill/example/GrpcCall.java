package io.rill.example;

import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http2.Http2DataFrame;
import io.rill.handler.codec.http2.Http2Error;
import io.rill.handler.codec.http2.Http2FrameCodec;
import io.rill.handler.codec.http2.Http2Headers;
import io.rill.handler.codec.http2.Http2HeadersFrame;
import io.rill.handler.codec.http2.Http2ResetFrame;
import io.rill.handler.codec.http2.Http2WindowUpdateFrame;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * One gRPC call of {@link GrpcEchoServer} (the gRPC over HTTP/2 protocol: a request HEADERS with
 * {@code content-type: application/grpc}, length-prefixed messages in DATA, and the status in
 * trailers). Messages are echoed with their 5-byte prefix as received; at most one message is
 * held.
 *
 * <p>Memory (docs/security-cases.md, cases H2-23 and H2-24): a message's flow-control credit goes
 * back to the client only once its echo has been written, so the connection window bounds what a
 * client can make the server hold, whatever it leaves unfinished or does not read. A message whose
 * 5-byte prefix is read reserves its whole length in the connection's {@link MessageBudget}; one
 * that does not fit beside the messages already in flight gets {@code RESOURCE_EXHAUSTED} at once
 * instead of waiting for a window that cannot open. While the stream is not writable (its echoes
 * wait for the client, or the connection is over its budget) no more messages are taken from what
 * arrived: they wait, unconsumed, until it is writable again.
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

    /**
     * The messages in flight on one connection, summed: each message whose prefix was read counts
     * its whole length until its echo is written. The connection window must be at least the
     * budget, so a message that fits it can always arrive whole.
     */
    interface MessageBudget {
        /** Takes {@code bytes} from the budget; false (and nothing taken) if they do not fit. */
        boolean reserve(int bytes);

        /** Gives back {@code bytes} taken with {@link #reserve}. */
        void free(int bytes);

        /** {@return the budget's size, for the error message} */
        long limit();
    }

    /** A budget that never refuses, for a call on its own. */
    static final MessageBudget UNBOUNDED = new MessageBudget() {
        @Override
        public boolean reserve(int bytes) {
            return true;
        }

        @Override
        public void free(int bytes) {
        }

        @Override
        public long limit() {
            return Long.MAX_VALUE;
        }
    };

    private final ChannelHandlerContext ctx;
    private final int streamId;
    private final boolean unary;
    private final Runnable onEnd;
    private final MessageBudget budget;
    /** Whether the stream may take more output; null without a codec below (a test of the call alone). */
    private final Http2FrameCodec codec;
    /** Bytes received and not yet taken as messages (prefix included); their credit is not returned. Null when none. */
    private ByteBuf partial;
    /** The length (prefix included) of the message at the head of {@link #partial}, reserved in the budget; 0 if none. */
    private int reserved;
    /** Whether messages wait in {@link #partial} because the stream is not writable. */
    private boolean paused;
    private int messages;
    private boolean headersSent;
    private boolean clientDone;
    private boolean done;
    private ScheduledFuture<?> deadline;

    private GrpcCall(ChannelHandlerContext ctx, int streamId, boolean unary, Runnable onEnd, MessageBudget budget) {
        this.ctx = ctx;
        this.streamId = streamId;
        this.unary = unary;
        this.onEnd = onEnd;
        this.budget = budget;
        this.codec = ctx.pipeline().get(Http2FrameCodec.class);
    }

    /** Starts a call from its request HEADERS; null when it was answered at once (a refusal). */
    static GrpcCall start(ChannelHandlerContext ctx, Http2HeadersFrame frame, Runnable onEnd, MessageBudget budget) {
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
            GrpcCall refused = new GrpcCall(ctx, id, true, () -> { }, UNBOUNDED);
            refused.finish(UNIMPLEMENTED, "unknown method " + path);
            return null;
        }
        GrpcCall call = new GrpcCall(ctx, id, path.equals(UNARY), onEnd, budget);
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
            call.clientDone = true;
            call.endOfRequest();
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
        if (done) {
            discard(ctx, data);
            return;
        }
        ByteBuf in = data.content();
        if (in.isReadable()) {
            if (partial == null) {
                partial = ctx.alloc().buffer(Math.max(in.readableBytes(), 64));
            }
            partial.writeBytes(in);
        }
        data.release();
        clientDone |= data.endStream();
        readMessages();
        if (clientDone) {
            endOfRequest();
        }
    }

    /** Trailers from the client (gRPC clients send none, but HTTP/2 allows them): the end of its messages. */
    void onTrailers(Http2HeadersFrame frame) {
        clientDone = true;
        endOfRequest();
    }

    /** The stream is writable again: the messages that waited go on. */
    void resume() {
        if (done || !paused) {
            return;
        }
        paused = false;
        readMessages();
        endOfRequest();
    }

    void cancel() {
        done = true;
        release();
    }

    private boolean streamWritable() {
        return codec == null || codec.isStreamWritable(streamId);
    }

    private void readMessages() {
        while (!done && partial != null && partial.readableBytes() >= 5) {
            if (!streamWritable()) {
                paused = true; // the echoes wait for the client, or the connection is over its budget
                return;
            }
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
            int size = 5 + (int) length;
            if (reserved == 0) {
                if (!budget.reserve(size)) {
                    finish(RESOURCE_EXHAUSTED, "a message of " + length + " bytes does not fit beside the messages"
                            + " in flight on this connection (its budget: " + budget.limit() + " bytes)");
                    return;
                }
                reserved = size;
                if (partial.readableBytes() < size && partial.capacity() - partial.readerIndex() < size) {
                    partial = exactly(partial, size); // grown once to the message, not doubled past it
                }
            }
            if (partial.readableBytes() < size) {
                return;
            }
            reserved = 0;
            onMessage(partial.readRetainedSlice(size), size);
        }
        if (partial != null && !partial.isReadable()) {
            partial.release();
            partial = null;
        }
    }

    private ByteBuf exactly(ByteBuf buffer, int size) {
        ByteBuf exact = ctx.alloc().buffer(size);
        exact.writeBytes(buffer);
        buffer.release();
        return exact;
    }

    /** {@code message} of {@code size} bytes, reserved: its credit and its reservation go back once its echo is written. */
    private void onMessage(ByteBuf message, int size) {
        if (unary && ++messages > 1) {
            message.release();
            consumed(size);
            finish(INTERNAL, "a unary call with more than one request message");
            return;
        }
        sendHeaders();
        ctx.write(new Http2DataFrame(streamId, message, false)).addListener(f -> consumed(size));
    }

    /** {@code bytes} received are no longer held: the client may send that much more. */
    private void consumed(int bytes) {
        budget.free(bytes);
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new Http2WindowUpdateFrame(streamId, bytes));
        }
    }

    /** The client sent all it will: the call ends, unless messages still wait for writability. */
    private void endOfRequest() {
        if (done || !clientDone || paused) {
            return;
        }
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
        if (reserved > 0) {
            budget.free(reserved);
            reserved = 0;
        }
        if (partial != null) {
            int unconsumed = partial.readableBytes();
            partial.release();
            partial = null;
            if (unconsumed > 0 && ctx.channel().isActive()) {
                ctx.write(new Http2WindowUpdateFrame(streamId, unconsumed)); // the connection's share of the credit
            }
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
