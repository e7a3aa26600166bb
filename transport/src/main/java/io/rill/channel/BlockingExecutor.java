package io.rill.channel;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.rill.util.RillProperties;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Runs blocking work (a JDBC call, a file system walk, a legacy client) off the event loop and
 * hands each result back on the channel's event loop, in order: for one channel, the result of a
 * task submitted later is never delivered before the result of one submitted earlier, however
 * long each took. A handler can thus answer pipelined requests from blocking code and write the
 * answers in the order the requests came, without locks:
 * <pre>{@code
 * blocking.submit(ctx.channel(), () -> repository.find(id))
 *         .addListener(f -> ctx.writeAndFlush(toResponse(f)));   // runs on the channel's loop
 * }</pre>
 *
 * <p>Threads: on JDK 21 and later each task runs on a virtual thread of its own, so ten thousand
 * tasks blocked in {@code Thread.sleep} or socket I/O cost ten thousand small stacks, not ten
 * thousand threads. Rill is compiled for Java 17, so this is found at run time. On JDK 17 to 20
 * the tasks run on a fixed pool of {@code rill.blocking.platformThreads} platform threads (64 by
 * default); tasks beyond that wait their turn, and a blocking call holds its thread throughout.
 * {@link #usesVirtualThreads()} says which one this executor got.
 *
 * <p>Bounds: at most {@code rill.blocking.maxPendingTasks} tasks (65,536 by default) are held at
 * once; beyond that {@link #submit} returns a future failed with a
 * {@link RejectedExecutionException}, so a stalled back end slows the server down instead of
 * filling its heap. Code inside a task runs on a virtual thread, where {@code synchronized} blocks
 * that block pin the carrier thread on JDK 21 to 23; prefer {@code java.util.concurrent} locks there.
 *
 * <p>Any thread may call {@link #submit}; order is the order in which the channel's event loop
 * sees the submissions (the order of the calls, when they are made on that loop, as handlers do).
 * Closing the channel does not cancel tasks; their results are delivered to a closed channel's
 * loop like any other, and the handler decides what to do with them.
 */
public final class BlockingExecutor implements AutoCloseable {

    /** Numbers the executors, so that each gets an attribute key of its own (key names must be unique). */
    private static final AtomicLong INSTANCES = new AtomicLong();

    /** Per executor, so two executors on one channel keep their own order. */
    private final AttributeKey<InOrderDeliveries> deliveriesKey =
            AttributeKey.newInstance("rill.blocking.deliveries." + INSTANCES.incrementAndGet());
    private final ExecutorService threads;
    private final boolean virtual;
    private final int maxPendingTasks;
    /** Tasks submitted and not yet finished running. */
    private final AtomicInteger pendingTasks = new AtomicInteger();

    /** An executor with the limits of {@link RillProperties}: virtual threads on JDK 21+, else a pool. */
    public BlockingExecutor() {
        this(RillProperties.BLOCKING_MAX_PENDING_TASKS, RillProperties.BLOCKING_PLATFORM_THREADS);
    }

    /**
     * @param maxPendingTasks most tasks held at once, running or waiting
     * @param platformThreads size of the pool used when this JDK has no virtual threads
     */
    public BlockingExecutor(int maxPendingTasks, int platformThreads) {
        if (maxPendingTasks < 1 || platformThreads < 1) {
            throw new IllegalArgumentException("maxPendingTasks: " + maxPendingTasks + ", platformThreads: "
                    + platformThreads + " (expected: both >= 1)");
        }
        this.maxPendingTasks = maxPendingTasks;
        this.virtual = BlockingThreads.virtualThreadsAvailable();
        this.threads = BlockingThreads.newExecutor(platformThreads);
    }

    /** {@return true if tasks run on virtual threads (JDK 21+), false if on the platform-thread pool} */
    public boolean usesVirtualThreads() {
        return virtual;
    }

    /** {@return tasks submitted and not yet finished running} */
    public int pendingTasks() {
        return pendingTasks.get();
    }

    /**
     * Runs {@code work} on a blocking thread. The returned future completes on {@code channel}'s
     * event loop, with {@code work}'s result or what it threw, after the futures of every task
     * submitted earlier for the same channel. Listeners added to it run on that loop. A buffer
     * the task returns is the caller's to release once delivered.
     *
     * @param <T>     the type of the result
     * @param channel the channel whose loop receives the result, and whose order it keeps
     * @param work    the blocking call
     * @return the result, failed with {@link RejectedExecutionException} when
     *         {@code rill.blocking.maxPendingTasks} tasks are held already or this executor is closed
     */
    public <T> Future<T> submit(Channel channel, Callable<? extends T> work) {
        if (channel == null || work == null) {
            throw new NullPointerException(channel == null ? "channel" : "work");
        }
        EventLoop loop = channel.eventLoop();
        Promise<T> promise = loop.newPromise();
        if (loop.inEventLoop()) {
            start(channel, loop, work, promise);
        } else {
            loop.execute(() -> start(channel, loop, work, promise));
        }
        return promise;
    }

    /** Takes the next slot of the channel's order and starts the task. Event loop only. */
    private <T> void start(Channel channel, EventLoop loop, Callable<? extends T> work, Promise<T> promise) {
        InOrderDeliveries deliveries = channel.attr(deliveriesKey).get();
        if (deliveries == null) {
            deliveries = new InOrderDeliveries();
            channel.attr(deliveriesKey).set(deliveries);
        }
        InOrderDeliveries.Slot<T> slot = deliveries.reserve(promise);
        if (pendingTasks.incrementAndGet() > maxPendingTasks) {
            pendingTasks.decrementAndGet();
            deliveries.finish(slot, null, new RejectedExecutionException(maxPendingTasks
                    + " blocking tasks are pending already (rill.blocking.maxPendingTasks)"));
            return;
        }
        InOrderDeliveries ordered = deliveries;
        try {
            threads.execute(() -> runAndHandBack(loop, ordered, slot, work));
        } catch (RejectedExecutionException e) {
            pendingTasks.decrementAndGet();
            ordered.finish(slot, null, e); // closed
        }
    }

    /** On the blocking thread: runs the task, then queues its result for the loop. */
    private <T> void runAndHandBack(EventLoop loop, InOrderDeliveries deliveries, InOrderDeliveries.Slot<T> slot,
                                    Callable<? extends T> work) {
        T value = null;
        Throwable cause = null;
        try {
            value = work.call();
        } catch (Throwable t) {
            cause = t;
        } finally {
            pendingTasks.decrementAndGet();
        }
        T result = value;
        Throwable failure = cause;
        try {
            loop.execute(() -> deliveries.finish(slot, result, failure));
        } catch (RejectedExecutionException e) {
            // The loop has shut down: nobody is left to read the result in order. Say so to whoever waits.
            InOrderDeliveries.failDirectly(slot, e);
        }
    }

    /**
     * Stops accepting tasks; those running finish, and their results are still delivered. Waits up
     * to {@code timeout} for them.
     *
     * @param timeout how long to wait
     * @param unit    the unit of {@code timeout}
     * @return true if every task finished in time
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean close(long timeout, TimeUnit unit) throws InterruptedException {
        threads.shutdown();
        return threads.awaitTermination(timeout, unit);
    }

    /** Stops accepting tasks without waiting for the running ones. */
    @Override
    public void close() {
        threads.shutdown();
    }

    @Override
    public String toString() {
        return "BlockingExecutor(" + (virtual ? "virtual threads" : "platform threads") + ", pending: "
                + pendingTasks() + ')';
    }
}
