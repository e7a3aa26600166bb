package io.rill.util;

/**
 * Every tuning knob of Rill, read once from system properties, each with its default and the
 * reason for it. No other class reads a {@code rill.*} system property.
 */
public final class RillProperties {

    // --- executors

    /**
     * {@code rill.eventLoopThreads}: threads of an event loop group created with 0 threads.
     * Default: twice the available processors, so a loop blocked briefly (a GC, a slow handler)
     * leaves another per core to run.
     */
    public static final int EVENT_LOOP_THREADS =
            Math.max(1, Integer.getInteger("rill.eventLoopThreads", Runtime.getRuntime().availableProcessors() * 2));

    /**
     * {@code rill.eventExecutor.maxPendingTasks}: bound of each executor's task queue; beyond it
     * tasks are rejected. Default 4,194,304: far above any healthy backlog, yet it turns a runaway
     * producer into a RejectedExecutionException instead of an OutOfMemoryError.
     */
    public static final int MAX_PENDING_TASKS =
            Math.max(16, Integer.getInteger("rill.eventExecutor.maxPendingTasks", 4 * 1024 * 1024));

    private RillProperties() {
    }
}
