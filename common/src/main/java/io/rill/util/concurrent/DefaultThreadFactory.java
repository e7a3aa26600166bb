package io.rill.util.concurrent;

import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes {@link FastThreadLocalThread}s named {@code <pool>-<poolId>-<threadId>}, so a thread dump
 * tells which group a thread serves.
 */
public class DefaultThreadFactory implements ThreadFactory {

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private final AtomicInteger nextId = new AtomicInteger();
    private final String prefix;
    private final boolean daemon;
    private final int priority;
    private final ThreadGroup threadGroup;

    /**
     * Non-daemon threads of normal priority named after {@code poolType}.
     *
     * @param poolType the class whose simple name, decapitalised, prefixes the thread names
     */
    public DefaultThreadFactory(Class<?> poolType) {
        this(toPoolName(poolType), false, Thread.NORM_PRIORITY);
    }

    /**
     * Non-daemon threads of normal priority named {@code poolName-N-M}.
     *
     * @param poolName the thread-name prefix
     */
    public DefaultThreadFactory(String poolName) {
        this(poolName, false, Thread.NORM_PRIORITY);
    }

    /**
     * Threads of normal priority named {@code poolName-N-M}.
     *
     * @param poolName the thread-name prefix
     * @param daemon whether the threads are daemon threads
     */
    public DefaultThreadFactory(String poolName, boolean daemon) {
        this(poolName, daemon, Thread.NORM_PRIORITY);
    }

    /**
     * Threads named {@code poolName-N-M}, where N counts factories and M threads of this factory.
     *
     * @param poolName the thread-name prefix, not empty
     * @param daemon whether the threads are daemon threads
     * @param priority the threads' priority
     * @throws IllegalArgumentException if {@code poolName} is empty or the priority out of range
     */
    public DefaultThreadFactory(String poolName, boolean daemon, int priority) {
        if (poolName == null || poolName.isEmpty()) {
            throw new IllegalArgumentException("poolName must not be empty");
        }
        if (priority < Thread.MIN_PRIORITY || priority > Thread.MAX_PRIORITY) {
            throw new IllegalArgumentException("priority: " + priority + " (expected: "
                    + Thread.MIN_PRIORITY + ".." + Thread.MAX_PRIORITY + ')');
        }
        this.prefix = poolName + '-' + POOL_IDS.incrementAndGet() + '-';
        this.daemon = daemon;
        this.priority = priority;
        this.threadGroup = Thread.currentThread().getThreadGroup();
    }

    /**
     * {@code NioIoEventLoopGroup} → {@code nioIoEventLoopGroup}; anonymous classes get their enclosing name.
     *
     * @param poolType the class to name the pool after
     * @return the pool name
     */
    public static String toPoolName(Class<?> poolType) {
        String name = poolType.getSimpleName();
        for (Class<?> c = poolType; name.isEmpty() && c != null; c = c.getEnclosingClass()) {
            name = c.getSimpleName();
        }
        if (name.isEmpty()) {
            return "pool";
        }
        return name.substring(0, 1).toLowerCase(Locale.ROOT) + name.substring(1);
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread t = new FastThreadLocalThread(threadGroup, FastThreadLocal.runWithCleanup(task),
                prefix + nextId.incrementAndGet());
        t.setDaemon(daemon);
        t.setPriority(priority);
        return t;
    }
}
