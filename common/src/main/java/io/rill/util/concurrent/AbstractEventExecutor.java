package io.rill.util.concurrent;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;

import io.rill.util.InternalLogger;

/**
 * Base of Rill's executors: submissions return Rill {@link Future}s; scheduling is refused unless
 * a subclass supports it.
 */
public abstract class AbstractEventExecutor extends AbstractExecutorService implements EventExecutor {

    private static final InternalLogger LOG = InternalLogger.get(AbstractEventExecutor.class);

    private final EventExecutorGroup parent;

    /**
     * Creates an executor belonging to {@code parent}.
     *
     * @param parent the owning group, or null for a stand-alone executor
     */
    protected AbstractEventExecutor(EventExecutorGroup parent) {
        this.parent = parent;
    }

    @Override
    public EventExecutorGroup parent() {
        return parent;
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return List.<EventExecutor>of(this).iterator();
    }

    @Override
    @SuppressWarnings("deprecation")
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (inEventLoop()) {
            throw new BlockingOperationException("an executor cannot await its own termination: " + this);
        }
        return terminationFuture().await(timeout, unit);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new PromiseTask<>(this, runnable, value);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new PromiseTask<>(this, callable);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return (Future<?>) super.submit(task);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return (Future<T>) super.submit(task, result);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return (Future<T>) super.submit(task);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not schedule tasks");
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not schedule tasks");
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not schedule tasks");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                     TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not schedule tasks");
    }

    /**
     * Runs {@code task}, logging instead of propagating what it throws, so one task cannot kill a loop.
     *
     * @param task the task to run on the calling thread
     */
    protected static void safeRun(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            LOG.warn("A task raised an exception. Task: {}", task, t); // {}: the task's toString() may throw too
        }
    }
}
