package io.rill.util.concurrent;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A shared single-thread executor for work that belongs to no event loop (notifying termination
 * futures, for one). Its daemon thread starts on demand and stops after a second with nothing to
 * do, so an idle JVM keeps no thread for it. It cannot be shut down.
 */
public final class GlobalEventExecutor extends AbstractScheduledEventExecutor {

    /** The one instance; its thread starts on the first task and stops after a second without work. */
    public static final GlobalEventExecutor INSTANCE = new GlobalEventExecutor();

    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private final ThreadFactory threadFactory = new DefaultThreadFactory("globalEventExecutor", true);
    private final Future<?> terminationFuture = new DefaultPromise<Void>(ImmediateEventExecutor.INSTANCE);
    private volatile Thread thread;

    private GlobalEventExecutor() {
        super(null, Ticker.systemTicker());
    }

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        tasks.add(task);
        if (!inEventLoop() && running.compareAndSet(false, true)) {
            Thread t = threadFactory.newThread(this::loop);
            thread = t;
            t.start();
        }
    }

    private void loop() {
        for (;;) {
            Runnable task = takeTask();
            if (task != null) {
                safeRun(task);
                continue;
            }
            if (nextScheduledTaskDeadlineNanos() != -1) {
                continue; // scheduled work keeps the thread alive
            }
            running.set(false);
            // A task added after our last poll saw running == true and started no thread: take it on.
            if (tasks.isEmpty() || !running.compareAndSet(false, true)) {
                return;
            }
        }
    }

    /** The next due scheduled or queued task; null after the keep-alive passed idle. */
    private Runnable takeTask() {
        long now = ticker().nanoTime();
        Runnable due = pollScheduledTask(now);
        if (due != null) {
            return due;
        }
        long deadline = nextScheduledTaskDeadlineNanos();
        long wait = deadline == -1 ? KEEP_ALIVE_NANOS : Math.max(0, deadline - now);
        try {
            Runnable t = tasks.poll(wait, TimeUnit.NANOSECONDS);
            return t != null ? t : pollScheduledTask(ticker().nanoTime());
        } catch (InterruptedException e) {
            return null; // nobody interrupts this thread on purpose: treat it as idle
        }
    }

    @Override
    public boolean inEventLoop(Thread t) {
        return t == thread && running.get();
    }

    /** {@return the number of tasks waiting to run} */
    public int pendingTasks() {
        return tasks.size();
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    /** The global executor cannot be shut down; this returns a future that never completes. */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        return terminationFuture;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
