package io.rill.channel.pool;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.rill.channel.Channel;
import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;
import io.rill.util.concurrent.ScheduledFuture;

/**
 * A pool of at most {@code maxConnections} lent channels on top of a {@link SimpleChannelPool}.
 * An acquire beyond the limit waits in a FIFO queue of at most {@code maxPendingAcquires} entries
 * (beyond it: {@link PendingAcquireLimitException}); each release, and each acquire that failed to
 * connect, hands its slot to the oldest waiter. With an {@code acquireTimeout}, a waiter that waited
 * that long either fails with {@link AcquireTimeoutException} ({@link AcquireTimeoutAction#FAIL}) or
 * gets a connection beyond the limit ({@link AcquireTimeoutAction#NEW}).
 *
 * <pre>{@code
 * FixedChannelPool pool = FixedChannelPool.builder(SimpleChannelPool.builder(bootstrap, group.next(), handler))
 *         .maxConnections(8).maxPendingAcquires(1024)
 *         .acquireTimeout(Duration.ofSeconds(5), FixedChannelPool.AcquireTimeoutAction.FAIL).build();
 * }</pre>
 *
 * <p>Threading: the slot count, the queue and the set of lent channels belong to the same
 * executor as the underlying simple pool; every public method hands its work to it.
 */
public final class FixedChannelPool implements ChannelPool {

    /** What happens to an acquire that waited {@code acquireTimeout}. */
    public enum AcquireTimeoutAction {
        /** Fail it with {@link AcquireTimeoutException}. */
        FAIL,
        /** Connect a channel for it even though that exceeds {@code maxConnections}. */
        NEW
    }

    private final SimpleChannelPool pool;
    private final EventExecutor executor;
    private final int maxConnections;
    private final int maxPendingAcquires;
    private final long acquireTimeoutNanos;
    private final AcquireTimeoutAction timeoutAction;
    /** Slots in use: lent channels plus acquires connecting; may exceed maxConnections only through NEW. */
    private int inUse;
    /** Acquires waiting for a slot, oldest first; never more than maxPendingAcquires. */
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** Channels lent and not yet released; a release of anything else is refused. */
    private final Set<Channel> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    private static final class Waiter {
        final Promise<Channel> promise;
        ScheduledFuture<?> timeout;

        Waiter(Promise<Channel> promise) {
            this.promise = promise;
        }
    }

    private FixedChannelPool(Builder b) {
        this.pool = b.simple.build();
        this.executor = pool.executor();
        this.maxConnections = b.maxConnections;
        this.maxPendingAcquires = b.maxPendingAcquires;
        this.acquireTimeoutNanos = b.acquireTimeout.toNanos();
        this.timeoutAction = b.timeoutAction;
    }

    /**
     * Starts a builder.
     *
     * @param simple the settings of the underlying pool (bootstrap, executor, handler, health, idle timeout)
     * @return a builder with {@code maxConnections} 1, {@code maxPendingAcquires} 1024 and no acquire timeout
     */
    public static Builder builder(SimpleChannelPool.Builder simple) {
        return new Builder(simple);
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
            promise.tryFailure(new ChannelPoolClosedException(this + " is closed"));
        } else if (inUse < maxConnections) {
            inUse++;
            take(promise);
        } else if (waiters.size() >= maxPendingAcquires) {
            promise.tryFailure(new PendingAcquireLimitException("maxPendingAcquires (" + maxPendingAcquires
                    + ") acquires already wait for one of maxConnections (" + maxConnections + ") channels"));
        } else {
            Waiter w = new Waiter(promise);
            waiters.addLast(w);
            if (acquireTimeoutNanos > 0) {
                w.timeout = executor.schedule(() -> timedOut(w), acquireTimeoutNanos, TimeUnit.NANOSECONDS);
            }
            // A cancelled acquire leaves the queue at once, so it counts against maxPendingAcquires no longer.
            promise.addListener(f -> {
                if (f.isCancelled()) {
                    onExecutor(() -> {
                        if (waiters.remove(w) && w.timeout != null) {
                            w.timeout.cancel(false);
                        }
                    });
                }
            });
        }
    }

    private void timedOut(Waiter w) {
        if (!waiters.remove(w)) {
            return;
        }
        if (timeoutAction == AcquireTimeoutAction.NEW) {
            inUse++;
            take(w.promise);
        } else {
            w.promise.tryFailure(new AcquireTimeoutException("no channel free within acquireTimeout ("
                    + TimeUnit.NANOSECONDS.toMillis(acquireTimeoutNanos) + " ms, maxConnections " + maxConnections
                    + ")"));
        }
    }

    /** Fills {@code promise} from the underlying pool with a slot already counted in {@link #inUse}. */
    private void take(Promise<Channel> promise) {
        pool.acquire().addListener(f -> onExecutor(() -> {
            if (!f.isSuccess()) {
                promise.tryFailure(f.cause());
                freeSlot();
                return;
            }
            Channel ch = f.getNow();
            lent.add(ch);
            if (!promise.trySuccess(ch)) {
                release0(ch, executor.newPromise()); // the acquirer gave up
            }
        }));
    }

    @Override
    public Future<Void> release(Channel channel) {
        Promise<Void> promise = executor.newPromise();
        onExecutor(() -> release0(channel, promise));
        return promise;
    }

    private void release0(Channel ch, Promise<Void> promise) {
        if (!lent.remove(ch)) {
            promise.tryFailure(new IllegalArgumentException(ch + " is not lent by " + this
                    + " (never acquired from it, or already released)"));
            return;
        }
        pool.release(ch).addListener(f -> onExecutor(() -> {
            freeSlot();
            if (f.isSuccess()) {
                promise.trySuccess(null);
            } else {
                promise.tryFailure(f.cause());
            }
        }));
    }

    /** A slot came free: the oldest waiter still waiting gets it. */
    private void freeSlot() {
        inUse--;
        while (inUse < maxConnections && !closed) {
            Waiter w = waiters.pollFirst();
            if (w == null) {
                return;
            }
            if (w.timeout != null) {
                w.timeout.cancel(false);
            }
            if (!w.promise.isDone()) { // a cancelled waiter gives its turn to the next
                inUse++;
                take(w.promise);
            }
        }
    }

    /**
     * Lent channels plus acquires connecting.
     *
     * @return a future of the count, taken on the pool's executor
     */
    public Future<Integer> acquiredCount() {
        Promise<Integer> p = executor.newPromise();
        onExecutor(() -> p.trySuccess(inUse));
        return p;
    }

    /**
     * Acquires waiting for a slot.
     *
     * @return a future of the count, taken on the pool's executor
     */
    public Future<Integer> pendingAcquireCount() {
        Promise<Integer> p = executor.newPromise();
        onExecutor(() -> p.trySuccess(waiters.size()));
        return p;
    }

    @Override
    public Future<Void> closeAsync() {
        Promise<Void> done = executor.newPromise();
        onExecutor(() -> {
            closed = true;
            for (Waiter w; (w = waiters.pollFirst()) != null; ) {
                if (w.timeout != null) {
                    w.timeout.cancel(false);
                }
                w.promise.tryFailure(new ChannelPoolClosedException(this + " was closed while the acquire waited"));
            }
            pool.closeAsync().addListener(f -> done.trySuccess(null));
        });
        return done;
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
        return "FixedChannelPool(max " + maxConnections + ", " + pool + ')';
    }

    /** Settings of a {@link FixedChannelPool}; not thread-safe, used once. */
    public static final class Builder {
        private final SimpleChannelPool.Builder simple;
        private int maxConnections = 1;
        /** Bounded by default: a peer that stalls must not let waiting acquires grow without limit. */
        private int maxPendingAcquires = 1024;
        private Duration acquireTimeout = Duration.ZERO;
        private AcquireTimeoutAction timeoutAction = AcquireTimeoutAction.FAIL;

        private Builder(SimpleChannelPool.Builder simple) {
            if (simple == null) {
                throw new NullPointerException("simple");
            }
            this.simple = simple;
        }

        /**
         * How many channels may be lent at once.
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
         * How many acquires may wait for a slot; one more fails with {@link PendingAcquireLimitException}.
         *
         * @param max zero or more (zero: an acquire beyond maxConnections fails at once)
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
         * How long an acquire may wait for a slot, and what happens then.
         *
         * @param timeout positive, or zero to wait without a limit (default)
         * @param action fail the acquire, or connect beyond the limit
         * @return this builder
         */
        public Builder acquireTimeout(Duration timeout, AcquireTimeoutAction action) {
            if (timeout == null || timeout.isNegative() || action == null) {
                throw new IllegalArgumentException("acquireTimeout needs a non-negative duration and an action: "
                        + timeout + ", " + action);
            }
            this.acquireTimeout = timeout;
            this.timeoutAction = action;
            return this;
        }

        /**
         * Builds the pool.
         *
         * @return a new, empty pool
         */
        public FixedChannelPool build() {
            return new FixedChannelPool(this);
        }
    }
}
