package io.rill.channel.embedded;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.util.concurrent.AbstractScheduledEventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.ManualTicker;

/**
 * The event loop of an {@link EmbeddedChannel}: no thread of its own. Whoever drives the
 * channel (the test) is "in" the loop; submitted tasks queue until {@link #runTasks()}, and
 * scheduled tasks fall due only as the test moves the {@link ManualTicker} forward, so
 * timeouts are tested without sleeping.
 */
final class EmbeddedEventLoop extends AbstractScheduledEventExecutor implements EventLoop {

    /** Tasks submitted and not yet run, in submission order. */
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>(2);
    private final ManualTicker ticker;

    EmbeddedEventLoop(ManualTicker ticker) {
        super(null, ticker);
        this.ticker = ticker;
    }

    ManualTicker manualTicker() {
        return ticker;
    }

    @Override
    public EventLoopGroup parent() {
        return null;
    }

    @Override
    public EventLoop next() {
        return this;
    }

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        tasks.add(task);
    }

    /** Runs queued tasks, including those they queue, until none is left. */
    void runTasks() {
        for (Runnable task; (task = tasks.poll()) != null; ) {
            safeRun(task);
        }
    }

    /** Runs every scheduled task due now; returns nanoseconds until the next one, or -1 if none. */
    long runScheduledTasks() {
        long now = ticker.nanoTime();
        for (Runnable task; (task = pollScheduledTask(now)) != null; ) {
            safeRun(task);
        }
        long next = nextScheduledTaskDeadlineNanos();
        return next == -1 ? -1 : Math.max(0, next - now);
    }

    /** Cancels everything scheduled; the channel is finished. */
    void cancelScheduled() {
        cancelScheduledTasks();
    }

    boolean hasPendingTasks() {
        return !tasks.isEmpty();
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return true;
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    /** The loop lives as long as its channel; there is nothing to shut down. */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException("an embedded event loop is not shut down; close the channel");
    }

    @Override
    public Future<?> terminationFuture() {
        throw new UnsupportedOperationException("an embedded event loop does not terminate");
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
