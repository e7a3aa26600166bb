package io.rill.channel.pool;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rill.bootstrap.Bootstrap;
import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelInitializer;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A pool without a bound: an acquire takes an idle channel if one passes the health check, and
 * connects a new one otherwise. Idle channels are kept last-in-first-out by default, so a quiet
 * period lets the least recently used ones reach the idle timeout and close while the busy few
 * stay warm; {@link Builder#lifo(boolean) lifo(false)} spreads use over all of them instead.
 *
 * <pre>{@code
 * SimpleChannelPool pool = SimpleChannelPool.builder(bootstrap.remoteAddress(host, port), group.next(), handler)
 *         .idleTimeout(Duration.ofSeconds(30)).build();
 * Channel ch = pool.acquire().sync().getNow();
 * ... use ch ...
 * pool.release(ch);
 * }</pre>
 *
 * <p>Threading: the idle queue, the timers and the closed flag belong to the executor given to the
 * builder; every public method hands its work to it. The pool uses its own clone of the bootstrap
 * (connecting to the bootstrap's {@code remoteAddress}) whose handler calls
 * {@link ChannelPoolHandler#channelCreated}.
 */
public final class SimpleChannelPool implements ChannelPool {

    /** Marks a channel as made by a pool; its value is that channel's bookkeeping. */
    private static final AttributeKey<Member> MEMBER = AttributeKey.valueOf("io.rill.channel.pool.member");
    private static final AtomicInteger IDS = new AtomicInteger();

    private final Bootstrap bootstrap;
    private final EventExecutor executor;
    private final ChannelPoolHandler handler;
    private final ChannelHealthChecker healthChecker;
    private final boolean healthCheckOnRelease;
    private final boolean lifo;
    /** 0: idle channels stay until they close. */
    private final long idleTimeoutNanos;
    private final String name;
    /** Idle channels, most recently released last; only touched on {@link #executor}. */
    private final ArrayDeque<Channel> idle = new ArrayDeque<>();
    /** Set once by closeAsync, on {@link #executor}. */
    private boolean closed;

    /** One pooled channel's state; fields only touched on the pool's executor. */
    private static final class Member {
        final SimpleChannelPool pool;
        /** True while in the idle queue; guards against double release. */
        boolean idle;
        /** Closes the channel once it has been idle for the idle timeout; null when not idle. */
        ScheduledFuture<?> eviction;

        Member(SimpleChannelPool pool) {
            this.pool = pool;
        }
    }

    private SimpleChannelPool(Builder b) {
        this.executor = b.executor;
        this.handler = b.handler;
        this.healthChecker = b.healthChecker;
        this.healthCheckOnRelease = b.healthCheckOnRelease;
        this.lifo = b.lifo;
        this.idleTimeoutNanos = b.idleTimeout.toNanos();
        this.name = "SimpleChannelPool-" + IDS.incrementAndGet();
        this.bootstrap = b.bootstrap.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) throws Exception {
                ch.attr(MEMBER).set(member(ch));
                handler.channelCreated(ch);
            }
        });
    }

    /** A Member per channel: the initializer is shared, the bookkeeping is not. */
    private Member member(Channel ch) {
        Member m = new Member(this);
        // A channel that closes while idle leaves the queue at once rather than at its next health check.
        ch.closeFuture().addListener(f -> onExecutor(() -> removeIdle(ch, m)));
        return m;
    }

    /**
     * Starts a builder.
     *
     * @param bootstrap connects new channels to its {@code remoteAddress}; cloned, so later changes do not matter
     * @param executor owns the pool's state and runs its callbacks, usually {@code group.next()}
     * @param handler sets up new channels and hears of acquires and releases
     * @return a builder with LIFO order, the {@link ChannelHealthChecker#ACTIVE} check on acquire and no idle timeout
     */
    public static Builder builder(Bootstrap bootstrap, EventExecutor executor, ChannelPoolHandler handler) {
        return new Builder(bootstrap, executor, handler);
    }

    /**
     * The executor that owns this pool's state.
     *
     * @return the executor given to the builder
     */
    public EventExecutor executor() {
        return executor;
    }

    @Override
    public Future<Channel> acquire() {
        return acquire(executor.newPromise());
    }

    @Override
    public Future<Channel> acquire(Promise<Channel> promise) {
        onExecutor(() -> acquire0(promise));
        return promise;
    }

    private void acquire0(Promise<Channel> promise) {
        if (closed) {
            promise.tryFailure(new ChannelPoolClosedException(name + " is closed"));
            return;
        }
        Channel ch = lifo ? idle.pollLast() : idle.pollFirst();
        if (ch == null) {
            connect(promise);
            return;
        }
        Member m = ch.attr(MEMBER).get();
        leaveIdle(m);
        healthy(ch).addListener(f -> onExecutor(() -> {
            if (f.isSuccess() && Boolean.TRUE.equals(f.getNow())) {
                lend(ch, promise);
            } else {
                ch.close();
                acquire0(promise); // try the next idle channel, or connect
            }
        }));
    }

    private void connect(Promise<Channel> promise) {
        Future<Channel> connect;
        try {
            connect = bootstrap.connect();
        } catch (Throwable t) { // remoteAddress missing, bootstrap invalid
            promise.tryFailure(t);
            return;
        }
        connect.addListener(f -> onExecutor(() -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
                return;
            }
            Channel ch = f.getNow();
            if (closed) {
                ch.close();
                promise.tryFailure(new ChannelPoolClosedException(name + " was closed while connecting"));
                return;
            }
            lend(ch, promise);
        }));
    }

    private void lend(Channel ch, Promise<Channel> promise) {
        try {
            handler.channelAcquired(ch);
        } catch (Throwable t) {
            ch.close();
            promise.tryFailure(t);
            return;
        }
        if (!promise.trySuccess(ch)) {
            release0(ch, executor.newPromise()); // the acquirer gave up (cancelled, timed out)
        }
    }

    @Override
    public Future<Void> release(Channel channel) {
        Promise<Void> promise = executor.newPromise();
        onExecutor(() -> release0(channel, promise));
        return promise;
    }

    private void release0(Channel ch, Promise<Void> promise) {
        Member m = ch.attr(MEMBER).get();
        if (m == null || m.pool != this) {
            promise.tryFailure(new IllegalArgumentException(ch + " was not acquired from " + name));
            return;
        }
        if (m.idle) {
            promise.tryFailure(new IllegalArgumentException(ch + " was released to " + name + " twice"));
            return;
        }
        if (closed) {
            ch.close();
            promise.trySuccess(null);
            return;
        }
        if (!healthCheckOnRelease) {
            enterIdle(ch, m, promise);
            return;
        }
        healthy(ch).addListener(f -> onExecutor(() -> {
            if (f.isSuccess() && Boolean.TRUE.equals(f.getNow()) && !closed) {
                enterIdle(ch, m, promise);
            } else {
                ch.close();
                promise.trySuccess(null);
            }
        }));
    }

    private void enterIdle(Channel ch, Member m, Promise<Void> promise) {
        try {
            handler.channelReleased(ch);
        } catch (Throwable t) {
            ch.close();
            promise.tryFailure(t);
            return;
        }
        m.idle = true;
        idle.addLast(ch);
        if (idleTimeoutNanos > 0) {
            m.eviction = executor.schedule(() -> {
                if (removeIdle(ch, m)) {
                    ch.close();
                }
            }, idleTimeoutNanos, TimeUnit.NANOSECONDS);
        }
        promise.trySuccess(null);
    }

    /** Takes {@code ch} out of the idle queue if it is there. */
    private boolean removeIdle(Channel ch, Member m) {
        if (!m.idle) {
            return false;
        }
        leaveIdle(m);
        idle.remove(ch);
        return true;
    }

    private static void leaveIdle(Member m) {
        m.idle = false;
        if (m.eviction != null) {
            m.eviction.cancel(false);
            m.eviction = null;
        }
    }

    private Future<Boolean> healthy(Channel ch) {
        try {
            return healthChecker.isHealthy(ch);
        } catch (Throwable t) {
            return executor.newFailedFuture(t);
        }
    }

    @Override
    public Future<Void> closeAsync() {
        Promise<Void> done = executor.newPromise();
        onExecutor(() -> {
            closed = true;
            List<Future<Void>> closes = new ArrayList<>(idle.size());
            for (Channel ch; (ch = idle.pollFirst()) != null; ) {
                leaveIdle(ch.attr(MEMBER).get());
                closes.add(ch.close());
            }
            completeWhenAll(closes, done);
        });
        return done;
    }

    /**
     * The number of idle channels.
     *
     * @return a future of the count, taken on the pool's executor
     */
    public Future<Integer> idleCount() {
        Promise<Integer> p = executor.newPromise();
        onExecutor(() -> p.trySuccess(idle.size()));
        return p;
    }

    private static void completeWhenAll(List<Future<Void>> futures, Promise<Void> done) {
        if (futures.isEmpty()) {
            done.trySuccess(null);
            return;
        }
        AtomicInteger left = new AtomicInteger(futures.size());
        for (Future<Void> f : futures) {
            f.addListener(x -> {
                if (left.decrementAndGet() == 0) {
                    done.trySuccess(null);
                }
            });
        }
    }

    private void onExecutor(Runnable task) {
        if (executor.inEventLoop()) {
            task.run();
        } else {
            executor.execute(task);
        }
    }

    @Override
    public String toString() {
        return name + "(" + bootstrap + ')';
    }

    /** Settings of a {@link SimpleChannelPool}; not thread-safe, used once. */
    public static final class Builder {
        private final Bootstrap bootstrap;
        private final EventExecutor executor;
        private final ChannelPoolHandler handler;
        private ChannelHealthChecker healthChecker = ChannelHealthChecker.ACTIVE;
        private boolean healthCheckOnRelease;
        private boolean lifo = true;
        private Duration idleTimeout = Duration.ZERO;

        private Builder(Bootstrap bootstrap, EventExecutor executor, ChannelPoolHandler handler) {
            if (bootstrap == null || executor == null || handler == null) {
                throw new NullPointerException("bootstrap, executor and handler are required");
            }
            this.bootstrap = bootstrap;
            this.executor = executor;
            this.handler = handler;
        }

        /**
         * How an idle channel is checked before it is lent.
         *
         * @param checker the check
         * @return this builder
         */
        public Builder healthChecker(ChannelHealthChecker checker) {
            if (checker == null) {
                throw new NullPointerException("healthChecker");
            }
            this.healthChecker = checker;
            return this;
        }

        /**
         * Also check a channel when it is released, closing it rather than keeping it if unhealthy.
         *
         * @param check true to check on release (default false)
         * @return this builder
         */
        public Builder healthCheckOnRelease(boolean check) {
            this.healthCheckOnRelease = check;
            return this;
        }

        /**
         * Which idle channel an acquire takes: the most recently released (true, default) or the oldest.
         *
         * @param lifo true for last-in-first-out
         * @return this builder
         */
        public Builder lifo(boolean lifo) {
            this.lifo = lifo;
            return this;
        }

        /**
         * Closes a channel that stayed idle this long; zero (default) keeps idle channels until they close.
         *
         * @param timeout the idle timeout, not negative
         * @return this builder
         */
        public Builder idleTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative()) {
                throw new IllegalArgumentException("idleTimeout must be zero or positive: " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /** The pool's executor, for pools built on top of this one. */
        EventExecutor executor() {
            return executor;
        }

        /**
         * Builds the pool.
         *
         * @return a new, empty pool
         */
        public SimpleChannelPool build() {
            return new SimpleChannelPool(this);
        }
    }
}
