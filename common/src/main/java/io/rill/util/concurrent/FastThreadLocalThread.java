package io.rill.util.concurrent;

/**
 * A thread that carries a slot for {@link FastThreadLocal} values, so reading one is an
 * array index instead of a {@code ThreadLocal} hash lookup. Rill's executors create these.
 *
 * <p>A thread constructed with a task runs {@link FastThreadLocal#removeAll()} when the task
 * returns; one constructed with a null task (a subclass overriding {@link #run()}) does not,
 * see {@link #willCleanupFastThreadLocals(Thread)}.
 */
public class FastThreadLocalThread extends Thread {

    /** Indexed thread-local values of this thread; null until first used. Only touched by this thread. */
    private InternalThreadLocalMap threadLocalMap;
    /** True if the task given to the constructor was wrapped to clean up thread-locals on exit. */
    private final boolean cleansUp;

    /**
     * A thread that runs {@code task} and then removes its {@link FastThreadLocal} values.
     *
     * @param task the work, may be null
     */
    public FastThreadLocalThread(Runnable task) {
        super(wrap(task));
        cleansUp = task != null;
    }

    /**
     * A named thread that runs {@code task} and then removes its {@link FastThreadLocal} values.
     *
     * @param task the work, may be null
     * @param name the thread's name
     */
    public FastThreadLocalThread(Runnable task, String name) {
        super(wrap(task), name);
        cleansUp = task != null;
    }

    /**
     * A named thread in {@code group} that runs {@code task} and then removes its {@link FastThreadLocal}
     * values.
     *
     * @param group the thread group, or null for the current one
     * @param task the work, may be null
     * @param name the thread's name
     */
    public FastThreadLocalThread(ThreadGroup group, Runnable task, String name) {
        super(group, wrap(task), name);
        cleansUp = task != null;
    }

    /**
     * Whether {@code thread} removes its {@link FastThreadLocal} values when it finishes on its
     * own. An executor that gets false should wrap its run loop with
     * {@link FastThreadLocal#runWithCleanup(Runnable)}.
     *
     * @param thread the thread to ask about
     * @return true if it clears its values itself
     */
    public static boolean willCleanupFastThreadLocals(Thread thread) {
        return thread instanceof FastThreadLocalThread fast && fast.cleansUp;
    }

    InternalThreadLocalMap threadLocalMap() {
        return threadLocalMap;
    }

    void setThreadLocalMap(InternalThreadLocalMap map) {
        this.threadLocalMap = map;
    }

    private static Runnable wrap(Runnable task) {
        return task == null ? null : FastThreadLocal.runWithCleanup(task);
    }
}
