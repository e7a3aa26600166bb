package io.rill.handler.codec.http.websocketx.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A client's wait for a WebSocket handshake, the same over HTTP/1.1 and HTTP/2: the future the
 * user sees, the request sent once (when the channel is or becomes active), the timeout, and a
 * failure that closes the channel. The two client handlers differ only in what they send and how
 * they read the answer; the HTTP/2 one lives in Rill's HTTP/2 module, hence this package.
 *
 * <p>Event loop only, but for {@link #future()} once the handler was added.
 */
public final class ClientHandshakeWait {

    private static final InternalLogger LOG = InternalLogger.get(ClientHandshakeWait.class);

    private final Duration timeout;
    /** What is awaited, for messages: "the WebSocket upgrade", "the extended CONNECT". */
    private final String awaited;
    private Promise<Void> promise;
    private boolean requested;
    private ScheduledFuture<?> timer;

    /**
     * @param timeout how long the answer may take once the request was sent
     * @param awaited what is awaited, for the messages of failures
     */
    public ClientHandshakeWait(Duration timeout, String awaited) {
        this.timeout = timeout;
        this.awaited = awaited;
    }

    /**
     * The handler was added: the future exists from now on, and an active channel is asked at once.
     *
     * @param ctx the context of the handler that waits
     * @param request makes the request to send
     */
    public void added(ChannelHandlerContext ctx, Supplier<Object> request) {
        promise = ctx.executor().newPromise();
        if (ctx.channel().isActive()) {
            request(ctx, request);
        }
    }

    /**
     * Sends the request, once, and starts the timeout.
     *
     * @param ctx the context of the handler that waits
     * @param request makes the request to send
     */
    public void request(ChannelHandlerContext ctx, Supplier<Object> request) {
        if (requested) {
            return;
        }
        requested = true;
        ctx.writeAndFlush(request.get());
        timer = ctx.executor().schedule(() -> fail(ctx, new WebSocketHandshakeException(
                "no answer to " + awaited + " within " + timeout)), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** @return succeeds once the handshake completed, fails if it did not */
    public Future<Void> future() {
        if (promise == null) {
            throw new IllegalStateException("not added to a pipeline yet");
        }
        return promise;
    }

    /** The handshake completed: cancels the timeout and succeeds the future. */
    public void succeed() {
        cancelTimer();
        promise.trySuccess(null);
    }

    /**
     * Fails the handshake (once: later failures are dropped) and closes the channel.
     *
     * @param ctx the context of the handler that waits
     * @param e why it failed, also fired down the pipeline
     */
    public void fail(ChannelHandlerContext ctx, WebSocketHandshakeException e) {
        cancelTimer();
        if (promise.tryFailure(e)) {
            LOG.debug("{}: {} failed: {}", ctx.channel(), awaited, e.getMessage());
            ctx.fireExceptionCaught(e);
            ctx.close();
        }
    }

    /** Stops the timeout: the answer arrived, or the handler leaves. */
    public void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
