package io.rill.handler.codec.http.websocketx;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.rill.channel.ChannelHandlerContext;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A client's wait for a WebSocket handshake, the same over HTTP/1.1 and HTTP/2: the future the
 * user sees, the request sent once (when the channel is or becomes active), the timeout, and a
 * failure that closes the channel. The two client handlers differ only in what they send and how
 * they read the answer.
 */
final class ClientHandshakeWait {

    private static final InternalLogger LOG = InternalLogger.get(ClientHandshakeWait.class);

    private final Duration timeout;
    /** What is awaited, for messages: "the WebSocket upgrade", "the extended CONNECT". */
    private final String awaited;
    private Promise<Void> promise;
    private boolean requested;
    private ScheduledFuture<?> timer;

    ClientHandshakeWait(Duration timeout, String awaited) {
        this.timeout = timeout;
        this.awaited = awaited;
    }

    /** The handler was added: the future exists from now on, and an active channel is asked at once. */
    void added(ChannelHandlerContext ctx, Supplier<Object> request) {
        promise = ctx.executor().newPromise();
        if (ctx.channel().isActive()) {
            request(ctx, request);
        }
    }

    /** Sends the request, once, and starts the timeout. */
    void request(ChannelHandlerContext ctx, Supplier<Object> request) {
        if (requested) {
            return;
        }
        requested = true;
        ctx.writeAndFlush(request.get());
        timer = ctx.executor().schedule(() -> fail(ctx, new WebSocketHandshakeException(
                "no answer to " + awaited + " within " + timeout)), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    Future<Void> future() {
        if (promise == null) {
            throw new IllegalStateException("not added to a pipeline yet");
        }
        return promise;
    }

    void succeed() {
        cancelTimer();
        promise.trySuccess(null);
    }

    /** Fails the handshake (once: later failures are dropped) and closes the channel. */
    void fail(ChannelHandlerContext ctx, WebSocketHandshakeException e) {
        cancelTimer();
        if (promise.tryFailure(e)) {
            LOG.debug("{}: {} failed: {}", ctx.channel(), awaited, e.getMessage());
            ctx.fireExceptionCaught(e);
            ctx.close();
        }
    }

    void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
