package io.rill.util.concurrent;

import java.util.concurrent.ThreadFactory;

import io.rill.util.RillProperties;

/** A {@link SingleThreadEventExecutor} for plain tasks: handlers that block, timers, user work. */
public final class DefaultEventExecutor extends SingleThreadEventExecutor {

    /** A stand-alone executor on a thread of its own. */
    public DefaultEventExecutor() {
        this(null, new DefaultThreadFactory(DefaultEventExecutor.class));
    }

    /**
     * An executor on the system clock, with one thread made by {@code threadFactory}.
     *
     * @param parent the owning group, or null
     * @param threadFactory makes the executor's thread
     */
    public DefaultEventExecutor(EventExecutorGroup parent, ThreadFactory threadFactory) {
        super(parent, threadFactory);
    }

    /**
     * An executor whose scheduled tasks follow {@code ticker} (a {@link ManualTicker} in tests).
     *
     * @param parent the owning group, or null
     * @param threadFactory makes the executor's thread
     * @param ticker the clock for scheduled tasks
     */
    public DefaultEventExecutor(EventExecutorGroup parent, ThreadFactory threadFactory, Ticker ticker) {
        super(parent, threadFactory, ticker, RillProperties.MAX_PENDING_TASKS);
    }

    @Override
    protected void run() {
        while (!confirmShutdown()) {
            if (!runAllTasks()) {
                waitForWork();
            }
        }
    }
}
