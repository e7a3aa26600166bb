package io.rill.util.concurrent;

import java.util.concurrent.ThreadFactory;

/**
 * A group of {@link DefaultEventExecutor}s, for handlers that must not run on an I/O thread
 * because they block.
 */
public class DefaultEventExecutorGroup extends MultiThreadEventExecutorGroup {

    /**
     * A group of {@code nThreads} executors with a default thread factory.
     *
     * @param nThreads number of threads; 0 for the default (twice the cores)
     */
    public DefaultEventExecutorGroup(int nThreads) {
        this(nThreads, null);
    }

    /**
     * A group of {@code nThreads} executors, for blocking or slow handler work off the I/O loops.
     *
     * @param nThreads the number of executors, each with its own thread
     * @param threadFactory makes the threads
     */
    public DefaultEventExecutorGroup(int nThreads, ThreadFactory threadFactory) {
        super(nThreads, threadFactory);
    }

    @Override
    protected EventExecutor newChild(ThreadFactory threadFactory, Object... args) {
        return new DefaultEventExecutor(this, threadFactory);
    }
}
