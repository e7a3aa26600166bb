package io.rill.util.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A task in an executor's {@link ScheduledTaskQueue}. It knows its own index in the heap, so
 * cancelling it removes it in O(log n) wherever it sits.
 */
final class ScheduledFutureTask<V> extends PromiseTask<V> implements ScheduledFuture<V> {

    private final AbstractScheduledEventExecutor owner;
    /** Tie-breaker keeping FIFO order among tasks with the same deadline. */
    private final long sequence;
    /** 0: runs once; &gt; 0: fixed rate; &lt; 0: fixed delay of {@code -period}. */
    private final long periodNanos;
    /** When the task is due, on the owner's ticker. */
    private long deadlineNanos;
    /** Position in the owner's heap, or -1 when not queued. Owner thread only. */
    int heapIndex = -1;

    ScheduledFutureTask(AbstractScheduledEventExecutor owner, Callable<V> task, long deadlineNanos,
                        long periodNanos, long sequence) {
        super(owner, task);
        this.owner = owner;
        this.deadlineNanos = deadlineNanos;
        this.periodNanos = periodNanos;
        this.sequence = sequence;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public void run() {
        if (periodNanos == 0) {
            super.run();
            return;
        }
        if (isDone() || !hasWork() || !runAgain() || isDone()) {
            return;
        }
        if (owner.isShutdown()) {
            return; // a terminating executor drops its schedule
        }
        deadlineNanos = periodNanos > 0 ? deadlineNanos + periodNanos : owner.ticker().nanoTime() - periodNanos;
        owner.scheduledTaskQueue().add(this);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            owner.removeScheduled(this);
        }
        return cancelled;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(deadlineNanos - owner.ticker().nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
        if (this == o) {
            return 0;
        }
        if (o instanceof ScheduledFutureTask) {
            ScheduledFutureTask<?> that = (ScheduledFutureTask<?>) o;
            long d = deadlineNanos - that.deadlineNanos;
            if (d != 0) {
                return d < 0 ? -1 : 1;
            }
            return Long.compare(sequence, that.sequence);
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }
}
