package io.rill.handler.codec.haproxy;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ByteBuf;
import io.rill.channel.AttributeKey;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Reads the PROXY protocol header (version 1 or 2, told apart by the first byte) that opens a
 * connection from a load balancer, then leaves the pipeline. What it learned is stored in
 * {@link #MESSAGE} and fired as a user event before any byte after the header goes on;
 * {@code Channel.remoteAddress()} is unchanged (it is the proxy).
 *
 * <p>Bounds: a version 1 line is at most 107 bytes, CRLF included (spec §2.1); a version 2 header at
 * most {@code maxHeaderLength} bytes, refused as soon as its length field says more; the whole header
 * must arrive within {@code headerTimeoutMillis} of the connection becoming active, or the connection
 * closes (a slowloris that sends the header a byte at a time, or never, holds it for that long at most).
 * Any failure closes the connection after passing the exception on.
 */
public final class HAProxyMessageDecoder extends ByteToMessageDecoder {

    /** The channel attribute holding the header, once decoded. */
    public static final AttributeKey<HAProxyMessage> MESSAGE = AttributeKey.valueOf("io.rill.haproxy.message");

    /** The default deadline for the whole header, from channelActive. */
    public static final long DEFAULT_HEADER_TIMEOUT_MILLIS = 5_000;

    /** The default bound on a version 2 header, its 16 fixed bytes included. */
    public static final int DEFAULT_MAX_HEADER_LENGTH = 4096;

    /** The longest a version 2 header can be: 16 fixed bytes and a 16-bit length. */
    public static final int MAX_V2_HEADER_LENGTH = 16 + 0xFFFF;

    private final long headerTimeoutMillis;
    private final int maxHeaderLength;
    private ScheduledFuture<?> deadline;
    /** The header failed (or timed out); every later byte is dropped. */
    private boolean failed;

    /** A decoder with the defaults: 5 s for the header, version 2 headers up to 4096 bytes. */
    public HAProxyMessageDecoder() {
        this(DEFAULT_HEADER_TIMEOUT_MILLIS, DEFAULT_MAX_HEADER_LENGTH);
    }

    /**
     * A decoder with the given bounds.
     *
     * @param headerTimeoutMillis how long the whole header may take, from channelActive; 0 for no limit
     * @param maxHeaderLength     the longest version 2 header accepted, 16 fixed bytes included: 232 (room for
     *                            Unix addresses) to {@link #MAX_V2_HEADER_LENGTH}
     */
    public HAProxyMessageDecoder(long headerTimeoutMillis, int maxHeaderLength) {
        if (headerTimeoutMillis < 0) {
            throw new IllegalArgumentException("headerTimeoutMillis: " + headerTimeoutMillis + " (expected: >= 0)");
        }
        if (maxHeaderLength < 16 + 216 || maxHeaderLength > MAX_V2_HEADER_LENGTH) {
            throw new IllegalArgumentException("maxHeaderLength: " + maxHeaderLength + " (expected: 232.."
                    + MAX_V2_HEADER_LENGTH + ")");
        }
        this.headerTimeoutMillis = headerTimeoutMillis;
        this.maxHeaderLength = maxHeaderLength;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            startDeadline(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        startDeadline(ctx);
        ctx.fireChannelActive();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        cancelDeadline();
    }

    private void startDeadline(ChannelHandlerContext ctx) {
        if (headerTimeoutMillis == 0 || deadline != null) {
            return;
        }
        deadline = ctx.executor().schedule(() -> {
            if (!failed && !ctx.isRemoved()) {
                failed = true;
                ctx.fireExceptionCaught(new HAProxyHeaderTimeoutException("no complete PROXY protocol header within "
                        + headerTimeoutMillis + " ms (headerTimeoutMillis)"));
                ctx.close();
            }
        }, headerTimeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        HAProxyMessage message;
        try {
            message = HAProxyParser.tryParse(in, maxHeaderLength);
        } catch (HAProxyProtocolException e) {
            failed = true;
            cancelDeadline();
            in.skipBytes(in.readableBytes());
            ctx.close();
            throw e;
        }
        if (message != null) {
            cancelDeadline();
            ctx.channel().attr(MESSAGE).set(message);
            ctx.fireUserEventTriggered(message);
            ctx.pipeline().remove(this);
        }
    }
}
