package io.rill.handler.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * The base of the proxy handlers: turns the channel's connect into a connect to the proxy followed
 * by the proxy's handshake, and completes the connect only when the tunnel is up.
 *
 * <pre>
 *   connect(destination) ─► connect(proxy) ─► channelActive (kept from the handlers after this one)
 *     ─► add codecs, send the first message, start the handshake timer
 *     ─► channelRead(answer) ─► handleResponse ─► more messages, or done
 *   done: remove codecs ─► fire channelActive and ProxyConnectionEvent ─► send the writes that waited
 *         ─► complete the connect ─► remove this handler (bytes already received pass on)
 *   failed: fail the connect and the waiting writes with a ProxyConnectException ─► close
 * </pre>
 *
 * <p>A subclass supplies the protocol: its codecs, its first message and what to do with each
 * answer. Every method runs on the channel's event loop. A handler serves one connection.
 */
public abstract class ProxyHandler implements ChannelHandler {

    /** How long the handshake may take by default, from the connection to the proxy being up. */
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;

    /** How many writes may wait for the tunnel by default. */
    public static final int DEFAULT_MAX_PENDING_WRITES = 1024;

    private final SocketAddress proxyAddress;
    private long handshakeTimeoutMillis = DEFAULT_HANDSHAKE_TIMEOUT_MILLIS;
    private int maxPendingWrites = DEFAULT_MAX_PENDING_WRITES;

    /** Set in handlerAdded; the context of this handler. */
    private ChannelHandlerContext ctx;
    /** Completed with the channel when the tunnel is up; created in handlerAdded. */
    private Promise<Channel> connectFuture;
    /** The promise of the channel's connect: completed with the tunnel, not with the TCP connection. */
    private Promise<Void> connectPromise;
    /** The destination given to connect; null until then. */
    private SocketAddress destinationAddress;
    /** Writes made before the tunnel was up, in order; released or failed if it never is. */
    private final ArrayDeque<PendingWrite> pendingWrites = new ArrayDeque<>();
    /** A flush was asked for while writes waited. */
    private boolean flushPending;
    private ScheduledFuture<?> timeout;
    /** The handshake ended, one way or the other; from then on events pass through. */
    private boolean finished;
    /** The tunnel is up. */
    private boolean succeeded;

    private record PendingWrite(Object message, Promise<Void> promise) {
    }

    /**
     * Creates a handler that connects through the proxy at {@code proxyAddress}.
     *
     * @param proxyAddress the proxy's address
     */
    protected ProxyHandler(SocketAddress proxyAddress) {
        if (proxyAddress == null) {
            throw new NullPointerException("proxyAddress");
        }
        this.proxyAddress = proxyAddress;
    }

    /** {@return the protocol name used in messages and events, such as {@code "SOCKS5"}} */
    public abstract String protocol();

    /** {@return the authentication scheme used: {@code "none"}, {@code "password"} or {@code "basic"}} */
    public abstract String authScheme();

    /** {@return the proxy's address} */
    public final SocketAddress proxyAddress() {
        return proxyAddress;
    }

    /** {@return the destination given to connect, or null before it} */
    public final SocketAddress destinationAddress() {
        return destinationAddress;
    }

    /**
     * The future of the tunnel: completed with the channel when the handshake succeeded, failed with
     * a {@link ProxyConnectException} when it did not. The channel's connect future ends the same way.
     *
     * @return the future; available once this handler is in a pipeline
     */
    public final Future<Channel> connectFuture() {
        if (connectFuture == null) {
            throw new IllegalStateException("not in a pipeline yet");
        }
        return connectFuture;
    }

    /** {@return true when the tunnel is up} */
    public final boolean isConnected() {
        return succeeded;
    }

    /** {@return how long the handshake may take, in milliseconds; 0 means no limit} */
    public final long handshakeTimeoutMillis() {
        return handshakeTimeoutMillis;
    }

    /**
     * Sets how long the handshake may take, from the connection to the proxy being up to the
     * tunnel being open; past it the connect fails with a {@link ProxyHandshakeTimeoutException}.
     *
     * @param millis the limit, in milliseconds; 0 for none
     * @return this handler
     */
    public final ProxyHandler setHandshakeTimeoutMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("handshakeTimeoutMillis: " + millis + " (expected: >= 0)");
        }
        this.handshakeTimeoutMillis = millis;
        return this;
    }

    /**
     * Sets how many writes may wait for the tunnel; a write past it fails at once (naming this setting)
     * and the ones before it still wait.
     *
     * @param max the bound, at least 1
     * @return this handler
     */
    public final ProxyHandler setMaxPendingWrites(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxPendingWrites: " + max + " (expected: >= 1)");
        }
        this.maxPendingWrites = max;
        return this;
    }

    // ---------------------------------------------------------------- the protocol, for subclasses

    /**
     * Adds the protocol's codecs before this handler ({@code ctx.pipeline().addBefore(ctx.name(), ...)}).
     *
     * @param ctx this handler's context
     * @throws Exception if they cannot be added
     */
    protected abstract void addCodecs(ChannelHandlerContext ctx) throws Exception;

    /**
     * Removes every codec this handler added that is still in the pipeline.
     *
     * @param ctx this handler's context
     * @throws Exception if one cannot be removed
     */
    protected abstract void removeCodecs(ChannelHandlerContext ctx) throws Exception;

    /**
     * The message that opens the handshake, sent once the connection to the proxy is up.
     *
     * @param ctx this handler's context
     * @return the message
     * @throws Exception if it cannot be made
     */
    protected abstract Object newInitialMessage(ChannelHandlerContext ctx) throws Exception;

    /**
     * Handles one answer of the proxy; may {@link #sendToProxy send} the next message. Reference-counted
     * answers are released by the caller after this returns.
     *
     * @param ctx      this handler's context
     * @param response what the codecs decoded
     * @return true when the tunnel is up
     * @throws Exception a {@link ProxyConnectException} (made with {@link #refused}, {@link #authenticationFailed}
     *                   or {@link #malformed}) when the proxy said no or answered nonsense
     */
    protected abstract boolean handleResponse(ChannelHandlerContext ctx, Object response) throws Exception;

    /**
     * Sends a handshake message to the proxy; a failed write fails the handshake.
     *
     * @param message the message
     */
    protected final void sendToProxy(Object message) {
        ctx.writeAndFlush(message).addListener(f -> {
            if (!f.isSuccess()) {
                fail(new ProxyConnectException(prefix() + ": could not send the handshake: " + f.cause(), protocol(),
                        proxyAddress, f.cause()));
            }
        });
    }

    /**
     * A refusal to throw from {@link #handleResponse}.
     *
     * @param answer what the proxy answered, in words and with its code
     * @return the exception
     */
    protected final ProxyRefusedException refused(String answer) {
        return new ProxyRefusedException(prefix() + " refused: " + answer, protocol(), proxyAddress);
    }

    /**
     * A failed authentication to throw from {@link #handleResponse}.
     *
     * @param answer what the proxy answered
     * @return the exception
     */
    protected final ProxyAuthenticationException authenticationFailed(String answer) {
        return new ProxyAuthenticationException(prefix() + " " + answer, protocol(), proxyAddress);
    }

    /**
     * A malformed or unexpected answer to throw from {@link #handleResponse}.
     *
     * @param what what was wrong with it
     * @return the exception
     */
    protected final ProxyConnectException malformed(String what) {
        return new ProxyConnectException(prefix() + " answered out of protocol: " + what, protocol(), proxyAddress,
                null);
    }

    /** {@return "SOCKS5 proxy 127.0.0.1:1080": how messages name the proxy} */
    protected final String prefix() {
        return protocol() + " proxy " + format(proxyAddress);
    }

    /**
     * Formats an address as {@code host:port}, without a resolved address's leading slash.
     *
     * @param address the address
     * @return its text
     */
    protected static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getHostString();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    // ---------------------------------------------------------------- events

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.connectFuture = new DefaultPromise<>(ctx.executor());
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!finished) {
            fail(new ProxyConnectException(prefix() + ": the proxy handler was removed before the tunnel was up",
                    protocol(), proxyAddress, null));
        }
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                        Promise<Void> promise) {
        if (destinationAddress != null) {
            promise.tryFailure(new IllegalStateException(prefix() + ": connect was already called"));
            return;
        }
        destinationAddress = remoteAddress;
        connectPromise = promise;
        Promise<Void> toProxy = ctx.newPromise();
        toProxy.addListener(f -> {
            if (!f.isSuccess()) {
                fail(new ProxyConnectException(prefix() + ": could not connect to the proxy: " + f.cause(),
                        protocol(), proxyAddress, f.cause()));
            }
        });
        ctx.connect(proxyAddress, localAddress, toProxy);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        // The handlers after this one see an active channel only once the tunnel is up.
        if (handshakeTimeoutMillis > 0) {
            timeout = ctx.executor().schedule(() -> fail(new ProxyHandshakeTimeoutException(prefix()
                    + " did not finish the handshake within " + handshakeTimeoutMillis + " ms (handshakeTimeoutMillis)",
                    protocol(), proxyAddress)), handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        }
        try {
            addCodecs(ctx);
            sendToProxy(newInitialMessage(ctx));
        } catch (Exception e) {
            fail(e);
        }
        readIfNeeded(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (finished) {
            if (succeeded) {
                ctx.fireChannelRead(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
            return;
        }
        boolean done;
        try {
            done = handleResponse(ctx, msg);
        } catch (Exception e) {
            fail(e);
            return;
        } finally {
            ReferenceCountUtil.release(msg);
        }
        if (done) {
            succeed(ctx);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (succeeded) {
            ctx.fireChannelReadComplete();
        } else if (!finished) {
            readIfNeeded(ctx);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!finished) {
            fail(new ProxyClosedException(prefix() + " closed the connection before the tunnel was up", protocol(),
                    proxyAddress));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (finished) {
            ctx.fireExceptionCaught(cause);
        } else {
            fail(cause);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, Promise<Void> promise) throws Exception {
        if (succeeded) {
            ctx.write(msg, promise);
        } else if (finished) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(connectFuture.cause());
        } else if (pendingWrites.size() >= maxPendingWrites) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new IllegalStateException(prefix() + ": more than " + maxPendingWrites
                    + " writes made before the tunnel was up (maxPendingWrites)"));
        } else {
            pendingWrites.add(new PendingWrite(msg, promise));
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        if (succeeded) {
            ctx.flush();
        } else {
            flushPending = true;
        }
    }

    // ---------------------------------------------------------------- outcome

    private void succeed(ChannelHandlerContext ctx) throws Exception {
        finished = true;
        succeeded = true;
        cancelTimeout();
        // Codecs go first, so the first bytes the handlers after this one write pass no SOCKS or HTTP encoder.
        removeCodecs(ctx);
        ctx.fireChannelActive();
        ctx.fireUserEventTriggered(new ProxyConnectionEvent(protocol(), authScheme(), proxyAddress, destinationAddress));
        boolean wrote = !pendingWrites.isEmpty();
        for (PendingWrite w; (w = pendingWrites.poll()) != null; ) {
            ctx.write(w.message(), w.promise());
        }
        if (wrote || flushPending) {
            ctx.flush();
        }
        connectPromise.trySuccess(null);
        connectFuture.trySuccess(ctx.channel());
        ctx.pipeline().remove(this);
    }

    private void fail(Throwable cause) {
        if (finished) {
            return;
        }
        finished = true;
        cancelTimeout();
        ProxyConnectException failure = cause instanceof ProxyConnectException p ? p
                : new ProxyConnectException(prefix() + " failed the handshake: " + cause, protocol(), proxyAddress, cause);
        for (PendingWrite w; (w = pendingWrites.poll()) != null; ) {
            ReferenceCountUtil.release(w.message());
            w.promise().tryFailure(failure);
        }
        if (connectPromise != null) {
            connectPromise.tryFailure(failure);
        }
        connectFuture.tryFailure(failure);
        try {
            removeCodecs(ctx);
        } catch (Exception ignored) {
            // The channel closes below; a codec left behind goes with it.
        }
        ctx.close();
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    /** With AUTO_READ off nobody else asks for the proxy's answer, so this handler does. */
    private static void readIfNeeded(ChannelHandlerContext ctx) {
        if (!ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
    }
}
