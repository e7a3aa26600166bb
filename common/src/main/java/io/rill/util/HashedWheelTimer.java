package io.rill.util;

import io.rill.util.concurrent.FastThreadLocalThread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Timer} that trades precision for O(1) scheduling and cancellation, after Varghese
 * and Lauck's "hashed timing wheel".
 *
 * <pre>
 *   wheel (ticksPerWheel buckets, a power of two)      one tick = tickDuration
 *   +----+----+----+----+----+----+----+----+
 *   | b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7 |   bucket = (deadline / tick) &amp; (buckets - 1)
 *   +----+----+----+----+----+----+----+----+
 *            ^ the worker visits one bucket per tick; a timeout due more than one turn
 *              away waits there with remainingRounds &gt; 0, decremented at each visit
 * </pre>
 *
 * A single worker thread, started by the first {@link #newTimeout}, owns the wheel. Other
 * threads never touch it: new timeouts and cancellations travel through two lock-free queues
 * that the worker drains at each tick, so a cancellation costs a CAS and a queue offer, and
 * the worker unlinks the timeout from its bucket (a doubly linked list) in O(1).
 *
 * <p>A task runs at the first tick after its deadline: up to one tick late, never early.
 * Tasks run on the worker and must not block. Each timer holds a thread, so share one.
 */
public final class HashedWheelTimer implements Timer {

    private static final InternalLogger logger = InternalLogger.get(HashedWheelTimer.class);
    private static final AtomicInteger liveInstances = new AtomicInteger();
    private static final AtomicBoolean warnedAboutInstances = new AtomicBoolean();
    private static final AtomicInteger threadIds = new AtomicInteger();
    /** Most new timeouts moved into the wheel per tick, so a flood can't stall expiry. */
    private static final int MAX_TRANSFERS_PER_TICK = 100_000;
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int MAX_BUCKETS = 1 << 30;

    private static final int INIT = 0;
    private static final int STARTED = 1;
    private static final int STOPPED = 2;

    private final AtomicInteger state = new AtomicInteger(INIT);
    private final long tickNanos;
    private final Bucket[] wheel;
    private final int mask;
    /** Bound on {@link #pending}; 0 or less means unbounded. */
    private final long maxPendingTimeouts;
    /** Timeouts accepted and not yet expired or dropped by the worker (cancelled ones count until dropped). */
    private final AtomicLong pending = new AtomicLong();
    private final Queue<WheelTimeout> added = new ConcurrentLinkedQueue<>();
    private final Queue<WheelTimeout> cancelled = new ConcurrentLinkedQueue<>();
    private final Thread worker;
    /** Counted down once {@link #startTime} is set (or the worker could not start). */
    private final CountDownLatch started = new CountDownLatch(1);
    /** {@code System.nanoTime()} when the worker started; deadlines are relative to it. */
    private volatile long startTime;
    /** Filled by the worker as it exits; read by {@link #stop()} after joining it. */
    private final Set<Timeout> unprocessed = new HashSet<>();

    /** A timer with 100 ms ticks and 512 buckets. */
    public HashedWheelTimer() {
        this(100, TimeUnit.MILLISECONDS);
    }

    /**
     * A timer of 512 ticks per wheel with a default thread factory and no bound on pending timeouts.
     *
     * @param tickDuration precision of the timer
     * @param unit the unit of {@code tickDuration}
     */
    public HashedWheelTimer(long tickDuration, TimeUnit unit) {
        this(tickDuration, unit, 512);
    }

    /**
     * A timer with a default thread factory and no bound on pending timeouts.
     *
     * @param tickDuration precision of the timer
     * @param unit the unit of {@code tickDuration}
     * @param ticksPerWheel buckets, rounded up to a power of two
     */
    public HashedWheelTimer(long tickDuration, TimeUnit unit, int ticksPerWheel) {
        this(defaultThreadFactory(), tickDuration, unit, ticksPerWheel, 0);
    }

    /**
     * A timer with every setting given.
     *
     * @param tickDuration precision of the timer; values under 1 ms are raised to 1 ms, below
     *        which parking the worker is no longer reliable and only burns CPU
     * @param ticksPerWheel buckets, rounded up to a power of two; more buckets mean shorter lists
     * @param maxPendingTimeouts beyond this many pending timeouts {@link #newTimeout} throws
     *        {@link RejectedExecutionException}; 0 or less means unbounded
     * @param threadFactory makes the worker thread, started on the first timeout
     * @param unit the unit of {@code tickDuration}
     */
    public HashedWheelTimer(ThreadFactory threadFactory, long tickDuration, TimeUnit unit, int ticksPerWheel,
                            long maxPendingTimeouts) {
        Objects.requireNonNull(threadFactory, "threadFactory");
        Objects.requireNonNull(unit, "unit");
        if (tickDuration <= 0) {
            throw new IllegalArgumentException("tickDuration must be positive: " + tickDuration + ' ' + unit);
        }
        this.tickNanos = Math.max(unit.toNanos(tickDuration), MIN_TICK_NANOS);
        this.wheel = new Bucket[bucketCount(ticksPerWheel, tickNanos)];
        Arrays.setAll(wheel, i -> new Bucket());
        this.mask = wheel.length - 1;
        this.maxPendingTimeouts = maxPendingTimeouts;
        // Made now so a failing factory fails the constructor; started by the first timeout.
        this.worker = threadFactory.newThread(this::runWorker);
        if (liveInstances.incrementAndGet() > RillProperties.TIMER_INSTANCE_WARNING_THRESHOLD
                && warnedAboutInstances.compareAndSet(false, true)) {
            logger.warn("More than {} HashedWheelTimer instances are alive; each holds a thread. Share one "
                    + "timer across the application (rill.timer.instanceWarningThreshold).",
                    RillProperties.TIMER_INSTANCE_WARNING_THRESHOLD);
        }
    }

    /**
     * {@code ticksPerWheel} rounded up to a power of two, so the worker finds a tick's bucket with
     * a mask; one turn of that many ticks must fit in a long of nanoseconds, or deadlines could not
     * be placed.
     */
    private static int bucketCount(int ticksPerWheel, long tickNanos) {
        if (ticksPerWheel < 1 || ticksPerWheel > MAX_BUCKETS) {
            throw new IllegalArgumentException("ticksPerWheel must be in [1, 2^30]: " + ticksPerWheel);
        }
        int buckets = 1 << (Integer.SIZE - Integer.numberOfLeadingZeros(ticksPerWheel - 1));
        try {
            Math.multiplyExact(tickNanos, buckets);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("a tick of " + tickNanos + " ns times " + buckets
                    + " buckets overflows a long of nanoseconds");
        }
        return buckets;
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        reservePending();
        try {
            start();
        } catch (RuntimeException | Error e) {
            pending.decrementAndGet();
            throw e;
        }
        WheelTimeout timeout = new WheelTimeout(this, task, deadlineAfter(unit.toNanos(delay)));
        added.add(timeout);
        return timeout;
    }

    /**
     * Counts one more pending timeout, or throws if that would pass {@link #maxPendingTimeouts}.
     * Compare-and-set rather than add-then-undo, so the count never shows more than the bound.
     */
    private void reservePending() {
        if (maxPendingTimeouts <= 0) {
            pending.incrementAndGet();
            return;
        }
        long count;
        do {
            count = pending.get();
            if (count >= maxPendingTimeouts) {
                throw new RejectedExecutionException("pending timeouts (" + count
                        + ") already at maxPendingTimeouts (" + maxPendingTimeouts + ')');
            }
        } while (!pending.compareAndSet(count, count + 1));
    }

    /**
     * The deadline {@code delayNanos} from now on the worker's clock (nanoseconds since it started).
     * A delay too long to add saturates to "never" rather than wrapping round into the past.
     */
    private long deadlineAfter(long delayNanos) {
        long sinceStart = System.nanoTime() - startTime;
        return delayNanos > Long.MAX_VALUE - sinceStart ? Long.MAX_VALUE : sinceStart + delayNanos;
    }

    @Override
    public Set<Timeout> stop() {
        if (Thread.currentThread() == worker) {
            throw new IllegalStateException("HashedWheelTimer.stop() called from one of its own tasks");
        }
        int previous = state.getAndSet(STOPPED);
        if (previous == STOPPED) {
            return Collections.emptySet();
        }
        liveInstances.decrementAndGet();
        if (previous == INIT) {
            return Collections.emptySet();
        }
        awaitUninterruptibly(started);
        LockSupport.unpark(worker);
        boolean interrupted = false;
        while (worker.isAlive()) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return Collections.unmodifiableSet(unprocessed);
    }

    /** {@return the timeouts accepted and not yet run or forgotten; cancelled ones count until the next tick} */
    public long pendingTimeouts() {
        return pending.get();
    }

    private void start() {
        for (;;) {
            int s = state.get();
            if (s == STOPPED) {
                throw new IllegalStateException("HashedWheelTimer was stopped");
            }
            if (s == STARTED) {
                break;
            }
            if (state.compareAndSet(INIT, STARTED)) {
                try {
                    worker.start();
                } catch (RuntimeException | Error e) {
                    state.set(STOPPED);
                    liveInstances.decrementAndGet(); // stop() will not count a timer that never ran
                    started.countDown();
                    throw e;
                }
                break;
            }
        }
        awaitUninterruptibly(started);
    }

    private void runWorker() {
        long now = System.nanoTime();
        startTime = now == 0 ? 1 : now; // 0 would read as "not started" in a debugger; harmless either way
        started.countDown();
        long tick = 0;
        while (state.get() == STARTED) {
            long elapsed = awaitTick(tick);
            if (elapsed < 0) {
                break;
            }
            dropCancelled();
            transferAdded(tick);
            wheel[(int) (tick & mask)].expire(elapsed);
            tick++;
        }
        for (Bucket bucket : wheel) {
            bucket.drainTo(unprocessed);
        }
        WheelTimeout timeout;
        while ((timeout = added.poll()) != null) {
            if (!timeout.isCancelled()) {
                unprocessed.add(timeout);
            }
        }
    }

    /** Parks until the end of {@code tick}; returns nanoseconds since start, or -1 when stopping. */
    private long awaitTick(long tick) {
        long deadline = tickNanos * (tick + 1);
        for (;;) {
            long elapsed = System.nanoTime() - startTime;
            if (elapsed >= deadline) {
                return elapsed;
            }
            if (state.get() != STARTED) {
                return -1;
            }
            LockSupport.parkNanos(this, deadline - elapsed);
        }
    }

    private void transferAdded(long tick) {
        WheelTimeout timeout;
        for (int i = 0; i < MAX_TRANSFERS_PER_TICK && (timeout = added.poll()) != null; i++) {
            if (timeout.isCancelled()) {
                pending.decrementAndGet();
                continue;
            }
            long dueTick = timeout.deadline / tickNanos;
            timeout.remainingRounds = (dueTick - tick) / wheel.length;
            // Already overdue: the current bucket, which is expired right after this.
            wheel[(int) (Math.max(dueTick, tick) & mask)].add(timeout);
        }
    }

    private void dropCancelled() {
        WheelTimeout timeout;
        while ((timeout = cancelled.poll()) != null) {
            if (timeout.bucket != null) {
                timeout.bucket.remove(timeout);
            }
            // else: still in 'added' (skipped by transferAdded) or already unlinked by expire.
        }
    }

    private static ThreadFactory defaultThreadFactory() {
        return task -> {
            Thread thread = new FastThreadLocalThread(task, "rill-timer-" + threadIds.incrementAndGet());
            // A forgotten timer must not keep the JVM alive.
            thread.setDaemon(true);
            return thread;
        };
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The timeouts of one wheel slot, a doubly linked list touched only by the worker. */
    private final class Bucket {
        private WheelTimeout head;
        private WheelTimeout tail;

        void add(WheelTimeout timeout) {
            timeout.bucket = this;
            timeout.prev = tail;
            if (tail == null) {
                head = timeout;
            } else {
                tail.next = timeout;
            }
            tail = timeout;
        }

        void remove(WheelTimeout timeout) {
            if (timeout.prev == null) {
                head = timeout.next;
            } else {
                timeout.prev.next = timeout.next;
            }
            if (timeout.next == null) {
                tail = timeout.prev;
            } else {
                timeout.next.prev = timeout.prev;
            }
            timeout.prev = timeout.next = null;
            timeout.bucket = null;
            pending.decrementAndGet();
        }

        /** Runs the timeouts of this turn whose deadline passed; the others wait another round. */
        void expire(long elapsed) {
            WheelTimeout timeout = head;
            while (timeout != null) {
                WheelTimeout next = timeout.next;
                if (timeout.isCancelled()) {
                    remove(timeout);
                } else if (timeout.remainingRounds <= 0 && timeout.deadline <= elapsed) {
                    // The placement in transferAdded makes the deadline check always true here;
                    // it stays as the guarantee that nothing ever runs early.
                    remove(timeout);
                    timeout.expire();
                } else {
                    timeout.remainingRounds--;
                }
                timeout = next;
            }
        }

        void drainTo(Set<Timeout> out) {
            for (WheelTimeout timeout = head; timeout != null; timeout = timeout.next) {
                if (!timeout.isCancelled() && !timeout.isExpired()) {
                    out.add(timeout);
                }
            }
            head = tail = null;
        }
    }

    private static final class WheelTimeout implements Timeout {
        private static final int WAITING = 0;
        private static final int CANCELLED = 1;
        private static final int EXPIRED = 2;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(WheelTimeout.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final HashedWheelTimer timer;
        private final TimerTask task;
        /** Nanoseconds after the timer's start time. */
        final long deadline;
        @SuppressWarnings("unused") // accessed through STATE
        private volatile int state = WAITING;

        // Worker-thread only:
        long remainingRounds;
        WheelTimeout prev;
        WheelTimeout next;
        HashedWheelTimer.Bucket bucket;

        WheelTimeout(HashedWheelTimer timer, TimerTask task, long deadline) {
            this.timer = timer;
            this.task = task;
            this.deadline = deadline;
        }

        @Override
        public Timer timer() {
            return timer;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return (int) STATE.getAcquire(this) == EXPIRED;
        }

        @Override
        public boolean isCancelled() {
            return (int) STATE.getAcquire(this) == CANCELLED;
        }

        @Override
        public boolean cancel() {
            if (!STATE.compareAndSet(this, WAITING, CANCELLED)) {
                return false;
            }
            timer.cancelled.add(this);
            return true;
        }

        void expire() {
            if (!STATE.compareAndSet(this, WAITING, EXPIRED)) {
                return;
            }
            try {
                task.run(this);
            } catch (Throwable t) {
                logger.warn("TimerTask {} threw", task, t); // {}: the task's toString() may throw too
            }
        }

        @Override
        public String toString() {
            return "Timeout(" + task + ", " + (isExpired() ? "expired" : isCancelled() ? "cancelled" : "waiting")
                    + ')';
        }
    }
}
