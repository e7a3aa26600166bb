package io.rill.util.concurrent;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Runs each task at once on the calling thread. A task submitted from inside a running task is
 * queued and run right after it, so chains of completions cannot overflow the stack. Every thread
 * counts as "in" this executor, and waiting on its futures is allowed from any thread.
 */
public final class ImmediateEventExecutor extends AbstractEventExecutor {

    /** The one instance; it runs every task on the calling thread, queueing nested ones to avoid deep stacks. */
    public static final ImmediateEventExecutor INSTANCE = new ImmediateEventExecutor();

    /** Tasks submitted while this thread is already running one; null when not running. */
    private static final ThreadLocal<ArrayDeque<Runnable>> NESTED = new ThreadLocal<>();

    private final Future<?> terminationFuture = new ImmediatePromise<Void>(this);

    private ImmediateEventExecutor() {
        super(null);
    }

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        ArrayDeque<Runnable> nested = NESTED.get();
        if (nested != null) {
            nested.add(task);
            return;
        }
        nested = new ArrayDeque<>();
        NESTED.set(nested);
        try {
            safeRun(task);
            for (Runnable t = nested.poll(); t != null; t = nested.poll()) {
                safeRun(t);
            }
        } finally {
            NESTED.remove();
        }
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return true;
    }

    @Override
    public <V> Promise<V> newPromise() {
        return new ImmediatePromise<>(this);
    }

    @Override
    public <V> Future<V> newSucceededFuture(V result) {
        return new ImmediatePromise<V>(this).setSuccess(result);
    }

    @Override
    public <V> Future<V> newFailedFuture(Throwable cause) {
        return new ImmediatePromise<V>(this).setFailure(cause);
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    /** The shared instance cannot be shut down; this returns a future that never completes. */
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

    /** Any thread may wait: no thread belongs to this executor, so none can deadlock on it. */
    private static final class ImmediatePromise<V> extends DefaultPromise<V> {
        ImmediatePromise(EventExecutor executor) {
            super(executor);
        }

        @Override
        protected void checkDeadLock() {
        }
    }
}
