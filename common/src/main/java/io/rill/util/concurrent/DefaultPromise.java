package io.rill.util.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rill.util.InternalLogger;

/**
 * The standard {@link Promise}.
 *
 * <p>State lives in one {@code result} field, moved forward by compare-and-set only:
 * <pre>
 *   null ──► UNCANCELLABLE ──► SUCCESS | value | Failure
 *     └──────────────────────►  SUCCESS | value | Failure (cancellation is a Failure)
 * </pre>
 * Whoever moves it to a final state publishes that state: it takes this promise's monitor once,
 * wakes every thread waiting on the monitor and collects the listeners. A waiter checks for
 * completion while holding the same monitor before each {@code wait()}, so the wake-up cannot
 * fall between its check and its wait; no count of waiters is needed. Completing a promise
 * nobody observes costs one compare-and-set and one uncontended lock.
 *
 * @param <V> the result type
 */
public class DefaultPromise<V> implements Promise<V> {

    private static final InternalLogger LOG = InternalLogger.get(DefaultPromise.class);
    /** Deeper nested inline notifications go through the executor's queue to bound the stack. */
    private static final int MAX_INLINE_NOTIFY_DEPTH = 8;
    private static final FastThreadLocal<int[]> NOTIFY_DEPTH = new FastThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private static final Object SUCCESS = new Object();
    private static final Object UNCANCELLABLE = new Object();
    private static final VarHandle RESULT;

    static {
        try {
            RESULT = MethodHandles.lookup().findVarHandle(DefaultPromise.class, "result", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final EventExecutor executor;
    /** null while pending; see the class comment for the transitions. */
    private volatile Object result;
    /** A FutureListener, or a Listeners array; null when none is waiting to be notified. */
    private Object listeners;
    /** True while some thread runs the listeners, so later additions keep their order. */
    private boolean notifying;

    /**
     * An incomplete promise whose listeners run on {@code executor}.
     *
     * @param executor runs the listeners of this promise; must not be null
     */
    public DefaultPromise(EventExecutor executor) {
        if (executor == null) {
            throw new NullPointerException("executor");
        }
        this.executor = executor;
    }

    @Override
    public EventExecutor executor() {
        return executor;
    }

    // ---------------------------------------------------------------- completion

    @Override
    public Promise<V> setSuccess(V value) {
        if (!trySuccess(value)) {
            throw new IllegalStateException("complete already: " + this);
        }
        return this;
    }

    @Override
    public boolean trySuccess(V value) {
        return complete(value == null ? SUCCESS : value);
    }

    @Override
    public Promise<V> setFailure(Throwable cause) {
        if (!tryFailure(cause)) {
            throw new IllegalStateException("complete already: " + this, cause);
        }
        return this;
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        if (cause == null) {
            throw new NullPointerException("cause");
        }
        return complete(new Failure(cause));
    }

    @Override
    public boolean setUncancellable() {
        if (RESULT.compareAndSet(this, null, UNCANCELLABLE)) {
            return true;
        }
        Object r = result;
        return !isDone(r) || !isCancelled(r);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        // Only from pending: setUncancellable() is a promise that nobody cancels any more.
        return settle(new Failure(new LeanCancellationException()), false);
    }

    private boolean complete(Object outcome) {
        return settle(outcome, true);
    }

    /**
     * Moves the result from pending (or, if {@code evenIfUncancellable}, from uncancellable) to
     * {@code outcome}; false if another outcome got there first. The winner alone publishes.
     */
    private boolean settle(Object outcome, boolean evenIfUncancellable) {
        Object seen = null;
        for (;;) {
            Object witness = RESULT.compareAndExchange(this, seen, outcome);
            if (witness == seen) {
                publish();
                return true;
            }
            if (witness != UNCANCELLABLE || !evenIfUncancellable) {
                return false; // final already, or uncancellable and this is a cancellation
            }
            seen = witness;
        }
    }

    /** Wakes every waiter and notifies the listeners; runs once, in the thread that settled. */
    private void publish() {
        boolean listening;
        synchronized (this) {
            notifyAll();
            listening = listeners != null;
        }
        if (listening) {
            notifyListeners();
        }
    }

    // ---------------------------------------------------------------- state

    @Override
    public boolean isDone() {
        return isDone(result);
    }

    private static boolean isDone(Object r) {
        return r != null && r != UNCANCELLABLE;
    }

    @Override
    public boolean isSuccess() {
        Object r = result;
        return isDone(r) && !(r instanceof Failure);
    }

    @Override
    public boolean isCancellable() {
        return result == null;
    }

    @Override
    public boolean isCancelled() {
        return isCancelled(result);
    }

    private static boolean isCancelled(Object r) {
        return r instanceof Failure && ((Failure) r).cause instanceof CancellationException;
    }

    @Override
    public Throwable cause() {
        Object r = result;
        return r instanceof Failure ? ((Failure) r).cause : null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V getNow() {
        Object r = result;
        if (!isDone(r) || r instanceof Failure || r == SUCCESS) {
            return null;
        }
        return (V) r;
    }

    // ---------------------------------------------------------------- listeners

    @Override
    public Promise<V> addListener(FutureListener<? super V> listener) {
        if (listener == null) {
            throw new NullPointerException("listener");
        }
        synchronized (this) {
            if (listeners == null) {
                listeners = listener;
            } else if (listeners instanceof Listeners) {
                ((Listeners) listeners).add(listener);
            } else {
                listeners = new Listeners((FutureListener<?>) listeners, listener);
            }
        }
        if (isDone()) {
            notifyListeners();
        }
        return this;
    }

    @Override
    public Promise<V> removeListener(FutureListener<? super V> listener) {
        synchronized (this) {
            if (listeners == listener) {
                listeners = null;
            } else if (listeners instanceof Listeners) {
                ((Listeners) listeners).remove(listener);
            }
        }
        return this;
    }

    private void notifyListeners() {
        if (executor.inEventLoop()) {
            int[] depth = NOTIFY_DEPTH.get();
            if (depth[0] < MAX_INLINE_NOTIFY_DEPTH) {
                depth[0]++;
                try {
                    notifyListenersNow();
                } finally {
                    depth[0]--;
                }
                return;
            }
        }
        try {
            executor.execute(this::notifyListenersNow);
        } catch (Throwable t) {
            LOG.error("Could not hand listener notification of {} to {} (shut down?); notifying on the calling thread",
                    this, executor, t);
            notifyListenersNow();
        }
    }

    /**
     * Runs the listeners added so far, then those added while they ran, in order of addition.
     * One thread at a time: a thread that finds another one at it leaves, since that one keeps
     * claiming until none are left.
     */
    private void notifyListenersNow() {
        for (Object batch = claimListeners(true); batch != null; batch = claimListeners(false)) {
            if (batch instanceof Listeners all) {
                for (int i = 0; i < all.size; i++) {
                    notifyListener(all.array[i]);
                }
            } else {
                notifyListener((FutureListener<?>) batch);
            }
        }
    }

    /**
     * Takes the listeners waiting to run, or null if there are none; {@code notifying} is true
     * exactly while a thread holds a batch. A thread just {@code starting} gets null if another
     * is already notifying.
     */
    private synchronized Object claimListeners(boolean starting) {
        if (starting && notifying) {
            return null;
        }
        Object batch = listeners;
        listeners = null;
        notifying = batch != null;
        return batch;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void notifyListener(FutureListener listener) {
        try {
            listener.operationComplete(this);
        } catch (Throwable t) {
            // {} rather than +: this promise's toString() shows its result, whose toString() may throw too.
            LOG.warn("Listener {} of {} threw", listener.getClass().getName(), this, t);
        }
    }

    // ---------------------------------------------------------------- waiting

    @Override
    public Promise<V> await() throws InterruptedException {
        waitUntilDone(-1, true);
        return this;
    }

    @Override
    public Promise<V> awaitUninterruptibly() {
        waitUninterruptibly(-1);
        return this;
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return waitUntilDone(Math.max(0, unit.toNanos(timeout)), true);
    }

    @Override
    public boolean awaitUninterruptibly(long timeout, TimeUnit unit) {
        return waitUninterruptibly(Math.max(0, unit.toNanos(timeout)));
    }

    private boolean waitUninterruptibly(long nanos) {
        try {
            return waitUntilDone(nanos, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * Blocks until this promise is done or {@code nanos} have passed (no limit when negative);
     * returns whether it is done. An uninterruptible wait remembers an interrupt and sets the
     * thread's flag again on the way out.
     */
    private boolean waitUntilDone(long nanos, boolean interruptible) throws InterruptedException {
        if (isDone()) {
            return true;
        }
        if (nanos == 0) {
            return false;
        }
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException(toString());
        }
        checkDeadLock();
        long deadline = nanos < 0 ? 0 : System.nanoTime() + nanos;
        boolean interruptedMeanwhile = false;
        synchronized (this) {
            try {
                // isDone() is read under the monitor publish() takes, so no wake-up is lost between it and wait().
                while (!isDone()) {
                    long left = nanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    try {
                        if (nanos < 0) {
                            wait();
                        } else {
                            TimeUnit.NANOSECONDS.timedWait(this, left);
                        }
                    } catch (InterruptedException e) {
                        if (interruptible) {
                            throw e;
                        }
                        interruptedMeanwhile = true;
                    }
                }
                return true;
            } finally {
                if (interruptedMeanwhile) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Refuses to block the executor's own thread: it would have to complete this promise. */
    protected void checkDeadLock() {
        if (executor.inEventLoop()) {
            throw new BlockingOperationException(
                    "blocking wait for " + this + " on its own event loop thread " + Thread.currentThread().getName()
                            + "; add a listener instead");
        }
    }

    @Override
    public Promise<V> sync() throws InterruptedException {
        await();
        rethrowIfFailed();
        return this;
    }

    @Override
    public Promise<V> syncUninterruptibly() {
        awaitUninterruptibly();
        rethrowIfFailed();
        return this;
    }

    private void rethrowIfFailed() {
        Throwable cause = cause();
        if (cause != null) {
            throwUnchecked(cause);
        }
    }

    /** Rethrows {@code t} as it is, checked or not, so callers of sync() see the real cause. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
        throw (T) t;
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        await();
        return resultOrThrow();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!await(timeout, unit)) {
            throw new TimeoutException("not complete after " + timeout + " " + unit + ": " + this);
        }
        return resultOrThrow();
    }

    private V resultOrThrow() throws ExecutionException {
        Throwable cause = cause();
        if (cause == null) {
            return getNow();
        }
        if (cause instanceof CancellationException) {
            throw (CancellationException) cause;
        }
        throw new ExecutionException(cause);
    }

    @Override
    public String toString() {
        Object r = result;
        String state;
        if (r == null) {
            state = "incomplete";
        } else if (r == UNCANCELLABLE) {
            state = "uncancellable";
        } else if (r instanceof Failure) {
            state = "failure: " + ((Failure) r).cause;
        } else {
            state = "success" + (r == SUCCESS ? "" : ": " + r);
        }
        return getClass().getSimpleName() + '@' + Integer.toHexString(hashCode()) + '(' + state + ')';
    }

    /** A failed outcome; wrapping keeps a Throwable result value distinct from a failure. */
    private static final class Failure {
        final Throwable cause;

        Failure(Throwable cause) {
            this.cause = cause;
        }
    }

    /** Cancellation carries no useful stack, so skip the cost of capturing one. */
    private static final class LeanCancellationException extends CancellationException {
        private static final long serialVersionUID = 1L;

        LeanCancellationException() {
            super("cancelled");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /** Two or more listeners, in order of addition. */
    private static final class Listeners {
        FutureListener<?>[] array;
        int size;

        Listeners(FutureListener<?> first, FutureListener<?> second) {
            array = new FutureListener<?>[] {first, second, null, null};
            size = 2;
        }

        void add(FutureListener<?> l) {
            if (size == array.length) {
                array = Arrays.copyOf(array, size << 1);
            }
            array[size++] = l;
        }

        void remove(FutureListener<?> l) {
            for (int i = 0; i < size; i++) {
                if (array[i] == l) {
                    System.arraycopy(array, i + 1, array, i, size - i - 1);
                    array[--size] = null;
                    return;
                }
            }
        }
    }
}
