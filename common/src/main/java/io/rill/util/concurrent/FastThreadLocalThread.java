package io.rill.util.concurrent;

/**
 * A thread that carries a slot for {@link FastThreadLocal} values, so reading one is an
 * array index instead of a {@code ThreadLocal} hash lookup. Rill's executors create these.
 */
public class FastThreadLocalThread extends Thread {

    /** Indexed thread-local values of this thread; null until first used. Only touched by this thread. */
    private InternalThreadLocalMap threadLocalMap;

    public FastThreadLocalThread(Runnable task) {
        super(task);
    }

    public FastThreadLocalThread(Runnable task, String name) {
        super(task, name);
    }

    public FastThreadLocalThread(ThreadGroup group, Runnable task, String name) {
        super(group, task, name);
    }

    InternalThreadLocalMap threadLocalMap() {
        return threadLocalMap;
    }

    void setThreadLocalMap(InternalThreadLocalMap map) {
        this.threadLocalMap = map;
    }
}
