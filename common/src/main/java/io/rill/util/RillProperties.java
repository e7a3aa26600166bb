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

    /**
     * {@code rill.eventLoop.taskQuantumMicros}: longest stretch an I/O event loop spends running
     * tasks before it polls its sockets again. Default 1000 µs: a poll costs about a microsecond,
     * so this bounds the overhead near 0.1% while keeping socket latency under a task flood at ~1 ms.
     */
    public static final long EVENT_LOOP_TASK_QUANTUM_NANOS =
            1000L * Math.max(10, Long.getLong("rill.eventLoop.taskQuantumMicros", 1000L));

    private RillProperties() {
    }
}
