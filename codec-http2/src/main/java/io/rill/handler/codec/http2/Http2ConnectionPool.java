package io.rill.handler.codec.http2;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.EventLoop;
import io.rill.channel.pool.AcquireTimeoutException;
import io.rill.channel.pool.ChannelPoolClosedException;
import io.rill.channel.pool.PendingAcquireLimitException;
import io.rill.handler.ssl.SslHandshakeCompletionEvent;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * HTTP/2 connections to one peer, lent out stream by stream: {@link #acquire} opens an
 * {@link Http2StreamChannel} on a connection that has room below the peer's
 * SETTINGS_MAX_CONCURRENT_STREAMS; closing the stream (it ends, is reset, or the caller closes it)
 * frees its slot. When every connection is full, another is opened, up to {@code maxConnections};
 * beyond that an acquire waits, FIFO, in a queue of at most {@code maxPendingAcquires}
 * (one more fails with {@link PendingAcquireLimitException}), for at most {@code acquireTimeout}
 * when one is set (then it fails with {@link AcquireTimeoutException}); a cancelled acquire leaves
 * the queue. One connection is opened at a time: acquires that arrive while it connects wait for it
 * rather than each opening their own. With an {@code idleTimeout}, a connection that carried no
 * stream for that long is closed.
 *
 * <p>The caller's bootstrap sets up each connection: {@link Http2FrameCodec#forClient()} and an
 * {@link Http2MultiplexHandler} at once for h2c with prior knowledge, or an
 * {@link io.rill.handler.ssl.SslHandler} and {@link HttpAlpnNegotiationHandler} that add them once
 * ALPN chose h2. A connection is used once both are in its pipeline and the peer's first SETTINGS
 * arrived; a TLS connection whose handshake ended without them (the peer chose http/1.1) fails the
 * waiting acquires and is closed. A connection that receives GOAWAY, or closes, takes no new streams
 * (streams the GOAWAY refused, and all of them when the connection closes, are closed by the
 * multiplexer, so their owners see {@code closeFuture()} complete); a GOAWAY'd connection is closed
 * by the pool once its last stream ends.
 *
 * <p>Stream ids are numbered at {@link #acquire}, and the peer must see them in increasing order:
 * write each stream's first HEADERS in the order the acquires completed, e.g. from the acquire's
 * listener, which runs on the pool's loop in that order.
 *
 * <p>Threading: the pool pins its connections to one event loop, given to the builder, which also
 * owns the pool's state; every method may be called from any thread and hands its work to it.
 */
public final class Http2ConnectionPool implements AutoCloseable {

    private static final AtomicInteger IDS = new AtomicInteger();

    private final Bootstrap bootstrap;
    private final EventLoop loop;
    private final int maxConnections;
    private final int maxPendingAcquires;
    private final long acquireTimeoutNanos;
    private final long idleTimeoutNanos;
    private final String name;
    /** Connections ready or connecting, oldest first. */
    private final List<Connection> connections = new ArrayList<>();
    /** Acquires waiting for room, oldest first; at most maxPendingAcquires. */
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** True while a connection is being opened: at most one at a time. */
    private boolean connecting;
    private boolean closed;

    private static final class Waiter {
        final ChannelHandler handler;
        final Promise<Http2StreamChannel> promise;
        ScheduledFuture<?> timeout;

        Waiter(ChannelHandler handler, Promise<Http2StreamChannel> promise) {
            this.handler = handler;
            this.promise = promise;
        }

        /** Out of the queue, served or failed: its timer has nothing left to do. */
        void leftQueue() {
            if (timeout != null) {
                timeout.cancel(false);
            }
        }
    }

    /** One connection's bookkeeping, on the pool's loop. */
    private static final class Connection {
        final Channel channel;
        Http2FrameCodec codec;
        /** Streams lent and not yet closed. */
        int streams;
        /** Set by GOAWAY or when stream ids run out: no new streams. */
        boolean draining;
        /** Armed while the connection has no stream and an idle timeout is set. */
        ScheduledFuture<?> idleClose;

        Connection(Channel channel) {
            this.channel = channel;
        }

        boolean hasRoom() {
            return codec != null && !draining && channel.isActive() && streams < codec.peerMaxConcurrentStreams();
        }
    }

    private Http2ConnectionPool(Builder b) {
        this.loop = b.loop;
        this.bootstrap = b.bootstrap.clone().group(loop);
        this.maxConnections = b.maxConnections;
        this.maxPendingAcquires = b.maxPendingAcquires;
        this.acquireTimeoutNanos = b.acquireTimeout.toNanos();
        this.idleTimeoutNanos = b.idleTimeout.toNanos();
        this.name = "Http2ConnectionPool-" + IDS.incrementAndGet();
    }

    /**
     * Starts a builder.
     *
     * @param bootstrap connects to the peer (its {@code remoteAddress}) and sets up the HTTP/2 pipeline; cloned
     * @param loop the event loop every connection of the pool runs on and that owns the pool's state
     * @return a builder with {@code maxConnections} 4, {@code maxPendingAcquires} 1024, no acquire timeout
     *         and no idle timeout
     */
    public static Builder builder(Bootstrap bootstrap, EventLoop loop) {
        return new Builder(bootstrap, loop);
    }

    /**
     * Opens a stream with {@code handler} in its pipeline.
     *
     * @param handler the stream's handler (reads the response)
     * @return the stream, or a failure: {@link ChannelPoolClosedException}, {@link PendingAcquireLimitException},
     *         {@link AcquireTimeoutException}, or why the connection could not be made
     */
    public Future<Http2StreamChannel> acquire(ChannelHandler handler) {
        if (handler == null) {
            throw new NullPointerException("handler");
        }
        Promise<Http2StreamChannel> promise = loop.newPromise();
        onLoop(() -> {
            if (closed) {
                promise.tryFailure(new ChannelPoolClosedException(name + " is closed"));
            } else if (!waiters.isEmpty() || !tryOpen(handler, promise)) {
                enqueue(new Waiter(handler, promise));
            }
        });
        return promise;
    }

    /**
     * Gives a stream back: closes it (an HTTP/2 stream is never reused), which frees its slot.
     *
     * @param stream a stream from {@link #acquire}
     * @return the stream's close future
     */
    public Future<Void> release(Http2StreamChannel stream) {
        return stream.close();
    }

    private void enqueue(Waiter w) {
        if (waiters.size() >= maxPendingAcquires) {
            w.promise.tryFailure(new PendingAcquireLimitException("maxPendingAcquires (" + maxPendingAcquires
                    + ") acquires already wait for a stream on one of maxConnections (" + maxConnections
                    + ") connections of " + name));
            return;
        }
        waiters.addLast(w);
        if (acquireTimeoutNanos > 0) {
            w.timeout = loop.schedule(() -> {
                if (waiters.remove(w)) {
                    w.promise.tryFailure(new AcquireTimeoutException("no stream free within acquireTimeout ("
                            + TimeUnit.NANOSECONDS.toMillis(acquireTimeoutNanos) + " ms) on the maxConnections ("
                            + maxConnections + ") connections of " + name));
                }
            }, acquireTimeoutNanos, TimeUnit.NANOSECONDS);
        }
        w.promise.addListener(f -> {
            if (f.isCancelled()) {
                onLoop(() -> {
                    if (waiters.remove(w)) {
                        w.leftQueue();
                    }
                });
            }
        });
        growIfNeeded();
    }

    /** Opens a stream on the first connection with room; false if none has any. */
    private boolean tryOpen(ChannelHandler handler, Promise<Http2StreamChannel> promise) {
        // A copy: a connection found unusable is closed, and a close may run its listeners inline.
        for (Connection c : List.copyOf(connections)) {
            if (!c.hasRoom()) {
                continue;
            }
            Future<Http2StreamChannel> open = new Http2StreamChannelBootstrap(c.channel).handler(handler).open();
            if (!open.isSuccess()) { // on the connection's loop, so done: ids exhausted or the connection went away
                c.draining = true;
                closeIfDrained(c);
                continue;
            }
            Http2StreamChannel stream = open.getNow();
            c.streams++;
            if (c.idleClose != null) {
                c.idleClose.cancel(false);
                c.idleClose = null;
            }
            stream.closeFuture().addListener(f -> onLoop(() -> {
                c.streams--;
                closeIfDrained(c);
                serveWaiters();
                armIdleClose(c);
            }));
            if (!promise.trySuccess(stream)) {
                stream.close(); // the acquirer gave up
            }
            return true;
        }
        return false;
    }

    private void serveWaiters() {
        while (!waiters.isEmpty()) {
            Waiter w = waiters.peekFirst();
            if (w.promise.isDone()) {
                waiters.pollFirst();
                w.leftQueue();
                continue;
            }
            if (!tryOpen(w.handler, w.promise)) {
                break;
            }
            waiters.pollFirst();
            w.leftQueue();
        }
        growIfNeeded();
    }

    /** A connection left without streams closes after idleTimeout unless a stream comes first. */
    private void armIdleClose(Connection c) {
        if (idleTimeoutNanos == 0 || c.streams > 0 || c.draining || c.idleClose != null || !c.channel.isActive()) {
            return;
        }
        c.idleClose = loop.schedule(() -> {
            c.idleClose = null;
            if (c.streams == 0) {
                c.draining = true;
                c.channel.close();
            }
        }, idleTimeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Opens another connection when acquires wait, none is connecting and the limit allows. */
    private void growIfNeeded() {
        if (waiters.isEmpty() || connecting || closed || connections.size() >= maxConnections) {
            return;
        }
        connecting = true;
        Future<Channel> connect;
        try {
            connect = bootstrap.connect();
        } catch (Throwable t) {
            connectFailed(t);
            return;
        }
        connect.addListener(f -> onLoop(() -> {
            if (!f.isSuccess()) {
                connectFailed(f.cause());
                return;
            }
            Connection c = new Connection(f.getNow());
            connections.add(c);
            c.channel.closeFuture().addListener(x -> onLoop(() -> {
                connections.remove(c);
                if (c.codec == null) {
                    connectFailed(new Http2ConnectionNotReadyException(c.channel
                            + " closed before it was ready for HTTP/2 streams"));
                } else {
                    serveWaiters();
                }
            }));
            if (closed) {
                c.channel.close();
                return;
            }
            c.channel.pipeline().addLast(new Watcher(c));
        }));
    }

    /** The connection attempt ended without a usable connection: the waiters it was for fail with why. */
    private void connectFailed(Throwable cause) {
        if (!connecting) {
            return;
        }
        connecting = false;
        for (Waiter w; (w = waiters.pollFirst()) != null; ) {
            w.leftQueue();
            w.promise.tryFailure(cause);
        }
    }

    /** A connection became usable: it takes what waits. */
    private void ready(Connection c) {
        connecting = false;
        serveWaiters();
        armIdleClose(c);
    }

    private void closeIfDrained(Connection c) {
        if (c.draining && c.streams == 0) {
            c.channel.close();
        }
    }

    /**
     * Closes every connection (their streams with them) and fails waiting and later acquires with
     * {@link ChannelPoolClosedException}.
     *
     * @return a future completed once every connection is closed
     */
    public Future<Void> closeAsync() {
        Promise<Void> done = loop.newPromise();
        onLoop(() -> {
            closed = true;
            for (Waiter w; (w = waiters.pollFirst()) != null; ) {
                w.leftQueue();
                w.promise.tryFailure(new ChannelPoolClosedException(name + " was closed while the acquire waited"));
            }
            List<Connection> all = new ArrayList<>(connections);
            if (all.isEmpty()) {
                done.trySuccess(null);
                return;
            }
            AtomicInteger left = new AtomicInteger(all.size());
            for (Connection c : all) {
                c.channel.close().addListener(f -> {
                    if (left.decrementAndGet() == 0) {
                        done.trySuccess(null);
                    }
                });
            }
        });
        return done;
    }

    /** Starts {@link #closeAsync()} without waiting. */
    @Override
    public void close() {
        closeAsync();
    }

    /**
     * The number of open connections.
     *
     * @return a future of the count, taken on the pool's loop
     */
    public Future<Integer> connectionCount() {
        Promise<Integer> p = loop.newPromise();
        onLoop(() -> p.trySuccess(connections.size()));
        return p;
    }

    private void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Last in each connection's pipeline: finds out when HTTP/2 is ready (at once for h2c, after
     * ALPN for TLS) and hears the connection-level GOAWAY the multiplexer passes on.
     */
    private final class Watcher implements ChannelHandler {
        private final Connection c;
        private boolean waiting;

        Watcher(Connection c) {
            this.c = c;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            checkReady(ctx);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            checkReady(ctx);
            if (evt instanceof SslHandshakeCompletionEvent && c.codec == null && !waiting) {
                ctx.close(); // TLS done and no HTTP/2: the peer chose another protocol, or the handshake failed
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2GoAwayFrame) {
                c.draining = true;
                closeIfDrained(c);
            }
            ctx.fireChannelRead(msg);
        }

        private void checkReady(ChannelHandlerContext ctx) {
            if (waiting || c.codec != null) {
                return;
            }
            Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
            if (codec == null || ctx.pipeline().get(Http2MultiplexHandler.class) == null) {
                return;
            }
            waiting = true;
            codec.peerSettingsReceived().addListener(f -> {
                if (f.isSuccess()) {
                    c.codec = codec;
                    ready(c);
                } else {
                    ctx.close();
                }
            });
        }
    }

    /** Settings of an {@link Http2ConnectionPool}; not thread-safe, used once. */
    public static final class Builder {
        private final Bootstrap bootstrap;
        private final EventLoop loop;
        private int maxConnections = 4;
        private int maxPendingAcquires = 1024;
        private Duration acquireTimeout = Duration.ZERO;
        private Duration idleTimeout = Duration.ZERO;

        private Builder(Bootstrap bootstrap, EventLoop loop) {
            if (bootstrap == null || loop == null) {
                throw new NullPointerException("bootstrap and loop are required");
            }
            this.bootstrap = bootstrap;
            this.loop = loop;
        }

        /**
         * How many connections the pool may open to the peer.
         *
         * @param max at least 1
         * @return this builder
         */
        public Builder maxConnections(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConnections must be at least 1: " + max);
            }
            this.maxConnections = max;
            return this;
        }

        /**
         * How many acquires may wait for a stream when every connection is full.
         *
         * @param max zero or more
         * @return this builder
         */
        public Builder maxPendingAcquires(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("maxPendingAcquires must not be negative: " + max);
            }
            this.maxPendingAcquires = max;
            return this;
        }

        /**
         * How long an acquire may wait for a stream when every connection is full; then it fails
         * with {@link AcquireTimeoutException}.
         *
         * @param timeout positive, or zero to wait without a limit (default)
         * @return this builder
         */
        public Builder acquireTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative()) {
                throw new IllegalArgumentException("acquireTimeout must be zero or positive: " + timeout);
            }
            this.acquireTimeout = timeout;
            return this;
        }

        /**
         * How long a connection may stay without streams before the pool closes it.
         *
         * @param timeout positive, or zero to keep idle connections open (default)
         * @return this builder
         */
        public Builder idleTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative()) {
                throw new IllegalArgumentException("idleTimeout must be zero or positive: " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /**
         * Builds the pool; it connects on the first acquire.
         *
         * @return a new pool
         */
        public Http2ConnectionPool build() {
            return new Http2ConnectionPool(this);
        }
    }
}
