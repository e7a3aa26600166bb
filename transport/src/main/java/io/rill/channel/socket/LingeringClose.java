package io.rill.channel.socket;

import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Ends a connection so that the last thing written (an HTTP refusal, a TLS alert) reaches the peer
 * even while the peer is still sending: output is shut down (FIN after everything written), then input is read and thrown
 * away until the peer ends it, for at most a time and a number of bytes, and only then is the
 * socket closed.
 *
 * <p>Why: closing a TCP socket whose receive queue holds unread bytes makes the kernel send a
 * reset, and a reset lets the peer's kernel drop data it has received but its application has
 * not read yet, such as the {@code 400} explaining why the connection ends (RFC 9112 §9.6) or the
 * alert saying why a TLS handshake failed. The bounds keep a peer that never stops sending from
 * holding the connection. The final close starts at this handler, first in the pipeline, so a
 * handler that would hold a close back (a TLS handler that is itself lingering) cannot hold it.
 */
public final class LingeringClose implements ChannelHandler {

    /** How long a closing connection keeps draining a peer that is still sending. */
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How much a closing connection drains before it gives up on the peer reading the last response. */
    static final long MAX_BYTES = 1 << 20;

    private final long maxBytes;
    private long discarded;
    private ScheduledFuture<?> deadline;
    /** This handler's context, first in the pipeline; set when added. */
    private ChannelHandlerContext ctx;

    private LingeringClose(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Once {@code lastWrite} is done, closes lingering with the default bounds (5 s, 1 MiB); at once
     * if it failed, or if the channel cannot shut one direction down or its peer already ended its input.
     *
     * @param lastWrite the write that must reach the peer
     * @param ctx the context of the handler that ends the connection
     */
    public static void closeAfter(Future<?> lastWrite, ChannelHandlerContext ctx) {
        lastWrite.addListener(f -> {
            Channel ch = ctx.channel();
            if (f.isSuccess() && ch instanceof DuplexChannel duplex && ch.isActive() && !duplex.isInputShutdown()) {
                linger(duplex, TIMEOUT_NANOS, MAX_BYTES);
            } else {
                ctx.close();
            }
        });
    }

    /** Shuts output, drains input within the bounds, then closes. On the channel's loop. */
    private static void linger(DuplexChannel channel, long timeoutNanos, long maxBytes) {
        LingeringClose lingering = new LingeringClose(maxBytes);
        channel.pipeline().addFirst(lingering);
        lingering.deadline = channel.eventLoop().schedule(lingering::closeNow, timeoutNanos, TimeUnit.NANOSECONDS);
        channel.shutdownOutput().addListener(f -> {
            if (!f.isSuccess()) {
                lingering.closeNow();
            }
        });
        channel.config().setAutoRead(true);
        channel.read();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    private void closeNow() {
        ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        discarded += msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
        ReferenceCountUtil.release(msg);
        if (discarded > maxBytes) {
            ctx.close(); // a peer that keeps sending this much is not waiting for an answer
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.read(); // whatever else paused reading, this handler wants the input drained
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ChannelInputShutdownEvent.INSTANCE) {
            ctx.close(); // the peer is done: nothing more can be lost
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
        }
        ctx.fireChannelInactive();
    }
}
