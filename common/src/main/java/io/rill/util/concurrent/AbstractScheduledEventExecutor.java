package io.rill.util.concurrent;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Adds scheduling to a single-threaded executor. The heap of scheduled tasks belongs to the
 * executor thread: work from other threads reaches it as a task through {@link #execute}.
 */
public abstract class AbstractScheduledEventExecutor extends AbstractEventExecutor {

    static {
        // Loaded with the executor, not by the first schedule(): that may come from an error path
        // (the pause after accept ran out of descriptors), when a class file cannot be opened.
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            lookup.ensureInitialized(ScheduledFutureTask.class);
            lookup.ensureInitialized(ScheduledTaskQueue.class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Ticker ticker;
    private ScheduledTaskQueue scheduledTasks;
    /** Next task sequence number; executor thread and scheduling threads both draw from it. */
    private final java.util.concurrent.atomic.AtomicLong nextSequence = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Creates an executor whose scheduled tasks follow {@code ticker}.
     *
     * @param parent the owning group, or null
     * @param ticker the clock that deadlines and delays are measured with
     * @throws NullPointerException if {@code ticker} is null
     */
    protected AbstractScheduledEventExecutor(EventExecutorGroup parent, Ticker ticker) {
        super(parent);
        if (ticker == null) {
            throw new NullPointerException("ticker");
        }
        this.ticker = ticker;
    }

    /** {@return the clock deadlines are measured with} */
    public final Ticker ticker() {
        return ticker;
    }

    final ScheduledTaskQueue scheduledTaskQueue() {
        if (scheduledTasks == null) {
            scheduledTasks = new ScheduledTaskQueue();
        }
        return scheduledTasks;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return schedule(Executors.callable(command, null), delay, 0, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return schedule(callable, delay, 0, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        if (period <= 0) {
            throw new IllegalArgumentException("period: " + period + " (expected: > 0)");
        }
        return schedule(Executors.callable(command, null), initialDelay, unit.toNanos(period), unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                     TimeUnit unit) {
        if (delay <= 0) {
            throw new IllegalArgumentException("delay: " + delay + " (expected: > 0)");
        }
        return schedule(Executors.callable(command, null), initialDelay, -unit.toNanos(delay), unit);
    }

    private <V> ScheduledFuture<V> schedule(Callable<V> task, long delay, long periodNanos, TimeUnit unit) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        long deadline = ticker.nanoTime() + Math.max(0, unit.toNanos(delay));
        ScheduledFutureTask<V> scheduled =
                new ScheduledFutureTask<>(this, task, deadline, periodNanos, nextSequence.getAndIncrement());
        if (inEventLoop()) {
            scheduledTaskQueue().add(scheduled);
        } else {
            execute(new AddScheduled(this, scheduled));
        }
        return scheduled;
    }

    /**
     * Puts a task scheduled from another thread into the loop's heap. A class, not a lambda: it is
     * on the path of a program's first scheduled task, and linking a lambda spins classes at run
     * time (several milliseconds in a fresh JVM).
     */
    private record AddScheduled(AbstractScheduledEventExecutor executor, ScheduledFutureTask<?> task) implements Runnable {
        @Override
        public void run() {
            if (!task.isDone()) {
                executor.scheduledTaskQueue().add(task);
            }
        }
    }

    final void removeScheduled(ScheduledFutureTask<?> task) {
        if (inEventLoop()) {
            scheduledTaskQueue().remove(task);
        } else if (!isShutdown()) {
            // The heap is the loop thread's; a failed hand-off only means the task is dropped at shutdown anyway.
            try {
                execute(() -> scheduledTaskQueue().remove(task));
            } catch (java.util.concurrent.RejectedExecutionException ignored) {
                // terminating: the heap is cleared by cancelScheduledTasks()
            }
        }
    }

    /**
     * The first scheduled task due at {@code nanoTime}, removed from the heap; null if none is due.
     *
     * @param nanoTime the current time on {@link #ticker()}
     * @return the task, or null when none is due; event-loop thread only
     */
    protected final Runnable pollScheduledTask(long nanoTime) {
        ScheduledTaskQueue q = scheduledTasks;
        ScheduledFutureTask<?> first = q == null ? null : q.peek();
        if (first == null || first.deadlineNanos() - nanoTime > 0) {
            return null;
        }
        return q.poll();
    }

    /** {@return the deadline of the next scheduled task on {@link #ticker()}, or -1 when none is scheduled} */
    protected final long nextScheduledTaskDeadlineNanos() {
        ScheduledTaskQueue q = scheduledTasks;
        ScheduledFutureTask<?> first = q == null ? null : q.peek();
        return first == null ? -1 : first.deadlineNanos();
    }

    /**
     * {@return true if some scheduled task is due now} Reads the clock only when a task is scheduled:
     * an event loop asks before every wait, and most turns of a busy server have none.
     */
    protected final boolean hasScheduledTaskDue() {
        long deadline = nextScheduledTaskDeadlineNanos();
        return deadline != -1 && deadline - ticker().nanoTime() <= 0;
    }

    /** {@return true if a task is scheduled, due or not} Event-loop thread only. */
    protected final boolean hasScheduledTasks() {
        return nextScheduledTaskDeadlineNanos() != -1;
    }

    /** Cancels every scheduled task; called by the executor thread while shutting down. */
    protected final void cancelScheduledTasks() {
        ScheduledTaskQueue q = scheduledTasks;
        if (q == null || q.isEmpty()) {
            return;
        }
        for (ScheduledFutureTask<?> task : q.drain()) {
            task.cancel(false);
        }
    }
}
