package io.rill.util.concurrent;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.rill.util.RillProperties;

/**
 * A fixed set of executors, each on its own thread, handed out round-robin. Submitting to the group
 * submits to {@link #next()}.
 */
public abstract class MultiThreadEventExecutorGroup implements EventExecutorGroup {

    private final EventExecutor[] children;
    private final List<EventExecutor> readOnlyChildren;
    private final Promise<Void> terminationFuture = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final Chooser chooser;

    /**
     * Creates the group's executors at once, each through {@link #newChild}.
     *
     * @param nThreads      number of executors; 0 means {@link RillProperties#EVENT_LOOP_THREADS}
     * @param threadFactory makes each executor's thread; null means a {@link DefaultThreadFactory}
     *                      named after this class
     * @param args          passed to {@link #newChild}
     */
    protected MultiThreadEventExecutorGroup(int nThreads, ThreadFactory threadFactory, Object... args) {
        if (nThreads < 0) {
            throw new IllegalArgumentException("nThreads: " + nThreads + " (expected: >= 0)");
        }
        int n = nThreads == 0 ? RillProperties.EVENT_LOOP_THREADS : nThreads;
        ThreadFactory factory = threadFactory != null ? threadFactory : new DefaultThreadFactory(getClass());
        children = new EventExecutor[n];
        for (int i = 0; i < n; i++) {
            try {
                children[i] = newChild(factory, args);
            } catch (Throwable t) {
                for (int j = 0; j < i; j++) {
                    children[j].shutdownGracefully(0, 0, TimeUnit.SECONDS);
                }
                throw new IllegalStateException("failed to create executor " + i + " of " + n, t);
            }
        }
        readOnlyChildren = Collections.unmodifiableList(Arrays.asList(children));
        chooser = Chooser.of(children);
        AtomicInteger terminated = new AtomicInteger();
        for (EventExecutor child : children) {
            child.terminationFuture().addListener(f -> {
                if (terminated.incrementAndGet() == children.length) {
                    terminationFuture.trySuccess(null);
                }
            });
        }
    }

    /**
     * Creates one executor of the group.
     *
     * @param threadFactory makes the executor's thread
     * @param args the extra arguments given to the group's constructor
     * @return the new executor
     * @throws Exception if the executor cannot be created; the group then shuts down the ones made so far
     */
    protected abstract EventExecutor newChild(ThreadFactory threadFactory, Object... args) throws Exception;

    @Override
    public EventExecutor next() {
        return chooser.next();
    }

    /** {@return the number of executors in the group} */
    public final int executorCount() {
        return children.length;
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return readOnlyChildren.iterator();
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        for (EventExecutor child : children) {
            child.shutdownGracefully(quietPeriod, timeout, unit);
        }
        return terminationFuture;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    @SuppressWarnings("deprecation")
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Override
    public boolean isShuttingDown() {
        return Arrays.stream(children).allMatch(EventExecutor::isShuttingDown);
    }

    @Override
    public boolean isShutdown() {
        return Arrays.stream(children).allMatch(EventExecutor::isShutdown);
    }

    @Override
    public boolean isTerminated() {
        return Arrays.stream(children).allMatch(EventExecutor::isTerminated);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminationFuture.await(timeout, unit);
    }

    @Override
    public void execute(Runnable command) {
        next().execute(command);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return next().submit(task);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return next().submit(task, result);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return next().submit(task);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return next().schedule(command, delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return next().schedule(callable, delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return next().scheduleAtFixedRate(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                     TimeUnit unit) {
        return next().scheduleWithFixedDelay(command, initialDelay, delay, unit);
    }

    @Override
    public <T> List<java.util.concurrent.Future<T>> invokeAll(java.util.Collection<? extends Callable<T>> tasks)
            throws InterruptedException {
        return next().invokeAll(tasks);
    }

    @Override
    public <T> List<java.util.concurrent.Future<T>> invokeAll(java.util.Collection<? extends Callable<T>> tasks,
                                                              long timeout, TimeUnit unit)
            throws InterruptedException {
        return next().invokeAll(tasks, timeout, unit);
    }

    @Override
    public <T> T invokeAny(java.util.Collection<? extends Callable<T>> tasks)
            throws InterruptedException, java.util.concurrent.ExecutionException {
        return next().invokeAny(tasks);
    }

    @Override
    public <T> T invokeAny(java.util.Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, java.util.concurrent.ExecutionException,
            java.util.concurrent.TimeoutException {
        return next().invokeAny(tasks, timeout, unit);
    }

    /** Round-robin over the executors; a mask instead of a modulo when their count is a power of two. */
    abstract static class Chooser {
        static Chooser of(EventExecutor[] executors) {
            int n = executors.length;
            if ((n & (n - 1)) == 0) {
                AtomicInteger idx = new AtomicInteger();
                int mask = n - 1;
                return new Chooser() {
                    @Override
                    EventExecutor next() {
                        return executors[idx.getAndIncrement() & mask];
                    }
                };
            }
            AtomicLong idx = new AtomicLong(); // a long never wraps to a negative index in practice
            return new Chooser() {
                @Override
                EventExecutor next() {
                    return executors[(int) (idx.getAndIncrement() % n)];
                }
            };
        }

        abstract EventExecutor next();
    }
}
