package io.rill.handler.ssl;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.channel.ChannelHandlerContext;
import io.rill.handler.codec.ByteToMessageDecoder;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * Chooses a server's {@link SslContext} by the host name in the client's ClientHello (SNI,
 * RFC 6066 §3), then replaces itself with that context's {@link SslHandler}, which receives the
 * hello unconsumed.
 *
 * <p>Every constructor applies a cap on the ClientHello's size ({@value #DEFAULT_MAX_CLIENT_HELLO_LENGTH}
 * bytes by default) and a timeout for receiving it (10 s by default): a record announcing
 * megabytes closes the connection without allocating them, and a client that sends a few
 * bytes then nothing is closed at the timeout (T-03, T-04). A hello split across any number of
 * records is reassembled in linear time (T-05). A hello that cannot be read closes the
 * connection: the default context is only for clients that send no server name (T-06).
 *
 * <p>An {@link SniCompletionEvent} reports the name (or the failure) before the handshake starts.
 *
 * <p>Case IDs such as T-07 in this file are those of docs/security-cases.md.
 */
public class SniHandler extends ByteToMessageDecoder {

    /** The default cap on a ClientHello's size, in bytes: far above any real hello. */
    public static final int DEFAULT_MAX_CLIENT_HELLO_LENGTH = 64 * 1024;
    /** The default time a client has to send its whole ClientHello, in milliseconds. */
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;

    private final Function<String, SslContext> mapping;
    private final long handshakeTimeoutMillis;
    private final ClientHelloParser parser;
    private ScheduledFuture<?> timer;
    private boolean done;

    /**
     * With the default cap and timeout; {@code mapping} is typically an {@link SslContextMapping}.
     *
     * @param mapping the context for a server name (null when the client sent none); not null itself
     * @throws NullPointerException if {@code mapping} is null
     */
    public SniHandler(Function<String, SslContext> mapping) {
        this(mapping, DEFAULT_MAX_CLIENT_HELLO_LENGTH, DEFAULT_HANDSHAKE_TIMEOUT_MILLIS);
    }

    /**
     * Chooses a context by the server name, with the given cap and timeout.
     *
     * @param mapping                the context for a server name (null when the client sent none); not null
     *                itself
     * @param maxClientHelloLength   the largest ClientHello accepted, in bytes (&gt; 0)
     * @param handshakeTimeoutMillis how long the whole hello may take to arrive (&gt; 0)
     * @throws IllegalArgumentException if the cap or the timeout is not positive
     */
    public SniHandler(Function<String, SslContext> mapping, int maxClientHelloLength, long handshakeTimeoutMillis) {
        if (mapping == null) {
            throw new NullPointerException("mapping");
        }
        if (maxClientHelloLength <= 0 || handshakeTimeoutMillis <= 0) {
            throw new IllegalArgumentException("maxClientHelloLength (" + maxClientHelloLength
                    + ") and handshakeTimeoutMillis (" + handshakeTimeoutMillis + ") must be > 0");
        }
        this.mapping = mapping;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
        this.parser = new ClientHelloParser(maxClientHelloLength);
    }

    /**
     * How long a client has to send its whole ClientHello.
     *
     * @return the timeout in milliseconds
     */
    public long handshakeTimeoutMillis() {
        return handshakeTimeoutMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            startTimer(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        startTimer(ctx);
        ctx.fireChannelActive();
    }

    private void startTimer(ChannelHandlerContext ctx) {
        if (timer == null && !done) {
            timer = ctx.executor().schedule(() -> {
                if (!done) {
                    fail(ctx, new SslHandshakeTimeoutException("no complete ClientHello within "
                            + handshakeTimeoutMillis + " ms"));
                }
            }, handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (done) {
            in.skipBytes(in.readableBytes());
            return;
        }
        String hostname;
        SslContext context;
        try {
            if (!parser.offer(in)) {
                return;
            }
            hostname = parser.serverName();
            context = mapping.apply(hostname);
            if (context == null) {
                throw new javax.net.ssl.SSLHandshakeException("no SslContext for server name " + hostname);
            }
        } catch (Exception e) {
            in.skipBytes(in.readableBytes());
            fail(ctx, e);
            throw e;
        }
        done = true;
        cancelTimer();
        ctx.fireUserEventTriggered(new SniCompletionEvent(hostname));
        SslHandler handler = newSslHandler(context, hostname, ctx.alloc());
        // The unconsumed hello goes on to the new handler when this one leaves the pipeline.
        ctx.pipeline().replace(this, SslHandler.class.getName(), handler);
    }

    /**
     * The handler that takes over for {@code hostname} (null without SNI); override to configure
     * it before its handshake starts, e.g. {@link SslHandler#setOcspResponse(byte[])} to staple the
     * OCSP response of that host's certificate.
     *
     * @param context  the context {@code mapping} chose
     * @param hostname the server name the client asked for, lower case; null if none
     * @param alloc    the channel's allocator
     * @return a new handler, which replaces this one in the pipeline
     */
    protected SslHandler newSslHandler(SslContext context, String hostname, ByteBufAllocator alloc) {
        return context.newHandler(alloc);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        done = true;
        cancelTimer();
        ctx.fireUserEventTriggered(new SniCompletionEvent(null, cause));
        if (cause instanceof SslHandshakeTimeoutException) {
            ctx.fireExceptionCaught(cause);
        }
        ctx.close();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        cancelTimer();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
