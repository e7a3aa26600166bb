package io.rill.util.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.rill.util.InternalLogger;
import io.rill.util.RillProperties;

/**
 * An executor that runs every task on one thread, started lazily by the first task.
 *
 * <p>Subclasses write the loop in {@link #run()}: run tasks with {@link #runAllTasks()}, wait for
 * work, and return once {@link #confirmShutdown()} says so. Other threads hand tasks over through
 * a lock-free queue and then call {@link #wakeup(boolean)}; the loop announces that it is about to
 * sleep before its last look at the queue, so a wake-up is never lost (see {@link #waitForWork()}).
 *
 * <p>Life cycle: NOT_STARTED → STARTED → SHUTTING_DOWN (tasks still accepted during the quiet
 * period) → SHUTDOWN (tasks rejected) → TERMINATED.
 */
public abstract class SingleThreadEventExecutor extends AbstractScheduledEventExecutor {

    private static final InternalLogger LOG = InternalLogger.get(SingleThreadEventExecutor.class);

    private static final int NOT_STARTED = 1;
    private static final int STARTED = 2;
    private static final int SHUTTING_DOWN = 3;
    private static final int SHUTDOWN = 4;
    private static final int TERMINATED = 5;

    /** The executor whose loop runs on the calling thread; see {@link #currentExecutor()}. */
    private static final FastThreadLocal<SingleThreadEventExecutor> CURRENT = new FastThreadLocal<>();

    private static final VarHandle STATE;
    private static final VarHandle SLEEPING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(SingleThreadEventExecutor.class, "state", int.class);
            SLEEPING = lookup.findVarHandle(SingleThreadEventExecutor.class, "sleeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ThreadFactory threadFactory;
    private final MpscQueue<Runnable> taskQueue;
    private final Promise<Void> terminationFuture = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    /** The loop thread, set once it starts. */
    private volatile Thread thread;
    /** One of NOT_STARTED .. TERMINATED; only moves forward. */
    private volatile int state = NOT_STARTED;
    /** True while the loop is (about to be) parked in {@link #waitForWork()}. */
    private volatile boolean sleeping;
    private volatile long quietPeriodNanos;
    private volatile long shutdownTimeoutNanos;
    /** Ticker time shutdown was requested; written before the state leaves STARTED. */
    private volatile long shutdownStartNanos;
    /** True once the loop thread has seen the shutdown request. Loop thread only. */
    private boolean shutdownSeen;
    /** Ticker time a task last ran. Loop thread only. */
    private long lastExecutionNanos;

    /**
     * Creates an executor with the system clock and the default task-queue bound from {@code RillProperties}.
     *
     * @param parent the owning group, or null
     * @param threadFactory makes the one thread, on the first task
     */
    protected SingleThreadEventExecutor(EventExecutorGroup parent, ThreadFactory threadFactory) {
        this(parent, threadFactory, Ticker.systemTicker(), RillProperties.MAX_PENDING_TASKS);
    }

    /**
     * An executor with the given clock and task-queue bound.
     *
     * @param threadFactory makes the one thread, on the first task
     * @param ticker        the clock of scheduled tasks and the quiet period
     * @param maxPendingTasks bound of the task queue; beyond it tasks are rejected
     * @param parent the owning group, or null
     */
    protected SingleThreadEventExecutor(EventExecutorGroup parent, ThreadFactory threadFactory, Ticker ticker,
                                        int maxPendingTasks) {
        super(parent, ticker);
        if (threadFactory == null) {
            throw new NullPointerException("threadFactory");
        }
        this.threadFactory = threadFactory;
        this.taskQueue = new MpscQueue<>(maxPendingTasks);
        // No-ops that link the state and sleep VarHandles now, as MpscQueue does its own: their
        // first use (milliseconds in a fresh JVM) would otherwise delay the first task.
        STATE.compareAndSet(this, NOT_STARTED, NOT_STARTED);
        SLEEPING.compareAndSet(this, true, false);
    }

    /** The loop. Returns once {@link #confirmShutdown()} returned true. */
    protected abstract void run();

    /**
     * Hook for a loop that waits somewhere other than {@link #waitForWork()} (an I/O poller): make
     * that wait return. Called after a task was queued from another thread, and on shutdown. A loop
     * parked in {@link #waitForWork()} is unparked without it.
     *
     * @param inEventLoop true when called from this executor's own thread
     */
    protected void wakeup(boolean inEventLoop) {
    }

    private void unparkIfSleeping() {
        if ((boolean) SLEEPING.compareAndSet(this, true, false)) {
            LockSupport.unpark(thread);
        }
    }

    /** Actions to take after the loop stopped, on the loop thread (closing a selector, say). */
    protected void cleanup() {
    }

    // ---------------------------------------------------------------- submission

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        boolean inEventLoop = inEventLoop();
        if (isShutdown()) {
            throw rejected(task);
        }
        if (!taskQueue.offer(TimedTask.wrapIfRecording(task))) {
            throw new RejectedExecutionException("task queue full (" + taskQueue.size() + " tasks pending) in "
                    + this + "; raise rill.eventExecutor.maxPendingTasks or apply back-pressure");
        }
        if (!inEventLoop) {
            startThread();
            unparkIfSleeping();
            wakeup(false);
        }
    }

    private RejectedExecutionException rejected(Runnable task) {
        return new RejectedExecutionException("executor " + this + " has shut down; rejected " + task);
    }

    private void startThread() {
        if (state == NOT_STARTED && STATE.compareAndSet(this, NOT_STARTED, STARTED)) {
            launchThread();
        }
    }

    /**
     * The loop thread's task. A class, not {@code this::loop}: the first task of a program waits
     * for the loop thread, and linking a method reference spins a class at run time, where this one
     * is loaded like any other.
     */
    private record LoopRunner(SingleThreadEventExecutor executor) implements Runnable {
        @Override
        public void run() {
            executor.loop();
        }
    }

    /** Makes and starts the loop thread; a factory that fails terminates this executor with its cause. */
    private void launchThread() {
        try {
            Thread t = threadFactory.newThread(new LoopRunner(this));
            if (t == null) {
                throw new IllegalStateException("thread factory " + threadFactory + " returned null");
            }
            thread = t;
            t.start();
        } catch (Throwable t) {
            STATE.setVolatile(this, TERMINATED);
            terminationFuture.tryFailure(t);
            throw t;
        }
    }

    @Override
    public boolean inEventLoop(Thread t) {
        return t == thread;
    }

    /**
     * The executor whose loop thread is the calling thread, or null on any other thread. Lets
     * per-thread state (a buffer pool's thread cache, say) hand work back to its own thread later,
     * as a task, instead of touching it from a foreign one.
     *
     * @return the current thread's executor, or null
     */
    public static EventExecutor currentExecutor() {
        return CURRENT.isSet() ? CURRENT.get() : null;
    }

    /** {@return the number of tasks queued and not yet run (approximate when read from another thread)} */
    public int pendingTasks() {
        return taskQueue.size();
    }

    /** {@return true if tasks are queued or in flight} Event-loop thread only. */
    protected final boolean hasTasks() {
        return !taskQueue.isEmpty();
    }

    // ---------------------------------------------------------------- running tasks

    /**
     * Runs scheduled tasks that are due, then queued tasks, until none is left. Event-loop thread only.
     *
     * @return true if any task ran
     */
    protected final boolean runAllTasks() {
        return runAllTasks(Long.MAX_VALUE);
    }

    /**
     * Runs due scheduled tasks and queued tasks until none is left or {@code maxNanos} has passed
     * (checked every 64 tasks: reading the clock costs more than most tasks). Returns whether any ran.
     *
     * @param maxNanos the time budget on {@link #ticker()}
     * @return true if any task ran
     */
    protected final boolean runAllTasks(long maxNanos) {
        Ticker ticker = ticker();
        long start = ticker.nanoTime();
        long deadline = maxNanos == Long.MAX_VALUE ? Long.MAX_VALUE : start + maxNanos;
        long ran = 0;
        for (Runnable t = pollScheduledTask(start); t != null; t = pollScheduledTask(start)) {
            safeRun(t);
            ran++;
        }
        for (;;) {
            Runnable t = taskQueue.poll();
            if (t == null) {
                if (taskQueue.isEmpty()) {
                    break;
                }
                Thread.onSpinWait(); // a producer is linking its node: it shows up within a few instructions
                continue;
            }
            safeRun(t);
            ran++;
            // Every 8th task reads the clock (~20 ns): cheap beside tasks, yet a run of costly ones
            // (a channel's deferred read burst is one) overshoots the quantum by at most 7 of them.
            if ((ran & 7) == 0 && deadline != Long.MAX_VALUE && ticker.nanoTime() - deadline >= 0) {
                break;
            }
        }
        if (ran > 0) {
            lastExecutionNanos = ticker.nanoTime();
        }
        return ran > 0;
    }

    /**
     * Parks the loop thread until a task arrives, the next scheduled task is due, or shutdown
     * begins. Announcing sleep before the final check pairs with {@link #wakeup}: a producer that
     * queued after the check sees {@code sleeping} and unparks; one that queued before is seen by it.
     */
    protected final void waitForWork() {
        sleeping = true;
        try {
            if (!taskQueue.isEmpty() || isShuttingDown()) {
                return;
            }
            long deadline = nextScheduledTaskDeadlineNanos();
            if (deadline == -1) {
                LockSupport.park(this);
            } else {
                ticker().parkUntil(deadline);
            }
        } finally {
            sleeping = false;
        }
    }

    // ---------------------------------------------------------------- shutdown

    @Override
    public boolean isShuttingDown() {
        return state >= SHUTTING_DOWN;
    }

    @Override
    public boolean isShutdown() {
        return state >= SHUTDOWN;
    }

    @Override
    public boolean isTerminated() {
        return state == TERMINATED;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        if (quietPeriod < 0) {
            throw new IllegalArgumentException("quietPeriod: " + quietPeriod + " (expected >= 0)");
        }
        if (timeout < quietPeriod) {
            throw new IllegalArgumentException(
                    "timeout: " + timeout + " (expected >= quietPeriod (" + quietPeriod + "))");
        }
        if (isShuttingDown()) {
            return terminationFuture;
        }
        quietPeriodNanos = unit.toNanos(quietPeriod);
        shutdownTimeoutNanos = unit.toNanos(timeout);
        shutdownStartNanos = ticker().nanoTime();
        for (;;) {
            int old = state;
            if (old >= SHUTTING_DOWN) {
                return terminationFuture;
            }
            if (STATE.compareAndSet(this, old, SHUTTING_DOWN)) {
                if (old == NOT_STARTED) {
                    launchThread(); // never started: a thread only to go through the shutdown steps
                }
                break;
            }
        }
        boolean inEventLoop = inEventLoop();
        if (!inEventLoop) {
            unparkIfSleeping();
        }
        wakeup(inEventLoop);
        return terminationFuture;
    }

    /**
     * Called by the loop on every turn. Before shutdown it returns false at once. While shutting down
     * it cancels scheduled tasks, runs queued tasks, and returns true once no task ran for the quiet
     * period or the shutdown timeout passed; otherwise it waits a little and returns false.
     *
     * @return true once the loop may stop
     */
    protected final boolean confirmShutdown() {
        if (!isShuttingDown()) {
            return false;
        }
        if (!inEventLoop()) {
            throw new IllegalStateException("confirmShutdown() must be called from the event loop");
        }
        cancelScheduledTasks();
        Ticker ticker = ticker();
        if (!shutdownSeen) {
            shutdownSeen = true;
            lastExecutionNanos = ticker.nanoTime(); // the quiet period counts from now
        }
        if (runAllTasks()) {
            return isShutdown() || quietPeriodNanos == 0;
        }
        long now = ticker.nanoTime();
        if (isShutdown() || now - shutdownStartNanos >= shutdownTimeoutNanos) {
            return true;
        }
        long quietEnd = lastExecutionNanos + quietPeriodNanos;
        if (now - quietEnd < 0) {
            sleeping = true;
            try {
                if (taskQueue.isEmpty()) {
                    ticker.parkUntil(Math.min(quietEnd, shutdownStartNanos + shutdownTimeoutNanos));
                }
            } finally {
                sleeping = false;
            }
            return false;
        }
        return true;
    }

    private void loop() {
        thread = Thread.currentThread();
        CURRENT.set(this);
        lastExecutionNanos = ticker().nanoTime();
        try {
            run();
        } catch (Throwable t) {
            // run() is written to survive everything short of a VirtualMachineError; if it did not,
            // say so loudly, then go through the shutdown steps so nobody waits for this loop forever.
            LOG.error("The loop of " + this + " ended unexpectedly; it shuts down", t);
        } finally {
            terminate();
        }
    }

    private void terminate() {
        if (state < SHUTTING_DOWN) {
            shutdownStartNanos = ticker().nanoTime();
        }
        for (int s = state; s < SHUTTING_DOWN && !STATE.compareAndSet(this, s, SHUTTING_DOWN); s = state) {
            // run() returned without a shutdown request: go through the shutdown steps anyway
        }
        try {
            while (!confirmShutdown()) {
                // drain until quiet
            }
            for (int s = state; s < SHUTDOWN && !STATE.compareAndSet(this, s, SHUTDOWN); s = state) {
                // from now on execute() rejects
            }
            confirmShutdown(); // run what slipped in before the state flipped
        } catch (Throwable t) {
            LOG.error("Exception while shutting down " + this, t);
        } finally {
            try {
                cleanup();
            } catch (Throwable t) {
                LOG.warn("Exception from cleanup() of " + this, t);
            } finally {
                STATE.setVolatile(this, TERMINATED);
                int dropped = 0;
                for (Runnable queued = taskQueue.poll(); queued != null; queued = taskQueue.poll()) {
                    Runnable t = TimedTask.unwrap(queued);
                    dropped++;
                    if (t instanceof java.util.concurrent.Future) {
                        ((java.util.concurrent.Future<?>) t).cancel(false); // its submitter must not wait forever
                    }
                }
                if (dropped > 0) {
                    LOG.warn(dropped + " task(s) dropped by terminated " + this);
                }
                terminationFuture.setSuccess(null);
            }
        }
    }

    @Override
    public String toString() {
        Thread t = thread;
        return getClass().getSimpleName() + '(' + (t == null ? "not started" : t.getName()) + ')';
    }
}
