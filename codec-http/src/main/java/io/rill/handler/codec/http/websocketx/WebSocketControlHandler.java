package io.rill.handler.codec.http.websocketx;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.http.HttpObject;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * What both protocol handlers install after the handshake, in front of the application: answers
 * pings, completes the close handshake and keeps control frames away from the application.
 *
 * <ul>
 *   <li>A ping is answered with a pong carrying its payload (RFC 6455 §5.5.2), flushed at the end
 *       of the read. At most {@value #PONGS_PER_READ} pongs are written per read burst; past that,
 *       only the latest ping's answer is kept and written when the burst ends (§5.5.3 allows
 *       answering just the most recent one), so one read full of pings costs a bounded number of
 *       pongs whatever its size. While the channel is not writable only the latest answer is kept,
 *       so a ping flood from a peer that does not read costs one pong, not a queue.
 *   <li>Pongs are dropped.
 *   <li>The peer's close frame is answered with the same status (§5.5.1), {@link WebSocketCloseReceived}
 *       is fired and the channel closes once the answer is written; after our own close frame,
 *       the channel closes when the peer's arrives or after the close timeout.
 *   <li>A {@link CorruptedWebSocketFrameException} ends here: the decoder has already sent its close.
 * </ul>
 *
 * One instance per connection; event loop only.
 */
final class WebSocketControlHandler implements ChannelHandler {

    private static final InternalLogger LOG = InternalLogger.get(WebSocketControlHandler.class);

    /** Pongs written per read burst before only the latest ping is answered; a handful of pings get each an answer. */
    static final int PONGS_PER_READ = 16;

    private final long closeTimeoutNanos;
    /** Pongs written since the last read burst ended. */
    private int pongsThisRead;
    /** We wrote a close frame; the peer's answer, or the timer, ends the connection. */
    private boolean closeSent;
    /** A pong is written and waits for the flush at the end of this read. */
    private boolean flushPending;
    /** The answer to the latest ping that arrived while the channel was not writable; owned here. */
    private PongWebSocketFrame heldPong;
    private ScheduledFuture<?> closeTimer;

    WebSocketControlHandler(Duration closeTimeout) {
        this.closeTimeoutNanos = closeTimeout.toNanos();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof PingWebSocketFrame ping) {
            answer(ctx, new PongWebSocketFrame(ping.content()));
        } else if (msg instanceof PongWebSocketFrame || msg instanceof HttpObject) {
            ReferenceCountUtil.release(msg); // pongs, and the end of the upgrade request or 101 decoded with it
        } else if (msg instanceof CloseWebSocketFrame close) {
            closeReceived(ctx, close);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void answer(ChannelHandlerContext ctx, PongWebSocketFrame pong) {
        if (closeSent) {
            pong.release(); // no frame may follow our close (§5.5.1)
            return;
        }
        if (!ctx.channel().isWritable() || pongsThisRead >= PONGS_PER_READ) {
            if (heldPong != null) {
                heldPong.release();
            }
            heldPong = pong;
            return;
        }
        pongsThisRead++;
        ctx.write(pong);
        flushPending = true;
    }

    private void closeReceived(ChannelHandlerContext ctx, CloseWebSocketFrame close) {
        int status = close.statusCode();
        String reason = close.reasonText();
        close.release();
        ctx.fireUserEventTriggered(new WebSocketCloseReceived(status, reason));
        if (closeSent) {
            ctx.close();
            return;
        }
        closeSent = true;
        CloseWebSocketFrame answer = status == CloseWebSocketFrame.NO_STATUS
                ? new CloseWebSocketFrame() : new CloseWebSocketFrame(status, null);
        ctx.writeAndFlush(answer).addListener(f -> ctx.close());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        pongsThisRead = 0;
        if (heldPong != null && ctx.channel().isWritable() && !closeSent) {
            ctx.write(heldPong); // the latest ping of a long burst
            heldPong = null;
            flushPending = true;
        }
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable() && heldPong != null) {
            PongWebSocketFrame pong = heldPong;
            heldPong = null;
            ctx.writeAndFlush(pong);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (msg instanceof CloseWebSocketFrame && !closeSent) {
            closeSent = true;
            closeTimer = ctx.executor().schedule(() -> {
                LOG.debug("{}: no close frame from the peer within {} ms", ctx.channel(), closeTimeoutNanos / 1_000_000);
                ctx.close();
            }, closeTimeoutNanos, TimeUnit.NANOSECONDS);
        } else if (closeSent && msg instanceof WebSocketFrame) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalStateException("no frame may follow a close frame (RFC 6455 §5.5.1)"));
            return;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof CorruptedWebSocketFrameException e) {
            LOG.debug("{}: closed with {}: {}", ctx.channel(), e.closeStatus(), e.getMessage());
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cleanUp();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cleanUp();
    }

    private void cleanUp() {
        if (closeTimer != null) {
            closeTimer.cancel(false);
            closeTimer = null;
        }
        if (heldPong != null) {
            heldPong.release();
            heldPong = null;
        }
    }
}
