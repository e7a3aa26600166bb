package io.rill.channel;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.rill.util.InternalLogger;
import io.rill.util.concurrent.DefaultThreadFactory;

/**
 * Where a {@link BlockingExecutor}'s tasks run: a virtual thread per task on JDK 21+, found at
 * run time ({@code Executors.newVirtualThreadPerTaskExecutor()}) because Rill compiles for 17;
 * else a fixed pool of platform threads. JDK 19 and 20 have the method but refuse it unless
 * preview features are on; they get the pool too.
 */
final class BlockingThreads {

    private static final InternalLogger LOG = InternalLogger.get(BlockingThreads.class);
    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, or null on a JDK without it. */
    private static final MethodHandle NEW_VIRTUAL_EXECUTOR = findVirtualExecutorFactory();

    private BlockingThreads() {
    }

    /** True if this JDK runs tasks on virtual threads. */
    static boolean virtualThreadsAvailable() {
        return NEW_VIRTUAL_EXECUTOR != null;
    }

    /** A virtual-thread-per-task executor, or a pool of {@code platformThreads} daemon threads with an unbounded queue (the caller bounds it). */
    static ExecutorService newExecutor(int platformThreads) {
        if (NEW_VIRTUAL_EXECUTOR != null) {
            try {
                return (ExecutorService) NEW_VIRTUAL_EXECUTOR.invokeExact();
            } catch (Throwable t) {
                LOG.warn("Virtual threads failed to start ({}); blocking tasks use {} platform threads", t, platformThreads);
            }
        }
        ThreadPoolExecutor pool = new ThreadPoolExecutor(platformThreads, platformThreads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new DefaultThreadFactory("rill-blocking", true));
        pool.allowCoreThreadTimeOut(true); // an idle server keeps no blocking threads
        return pool;
    }

    private static MethodHandle findVirtualExecutorFactory() {
        MethodHandle factory;
        try {
            factory = MethodHandles.publicLookup().findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class));
        } catch (ReflectiveOperationException e) {
            return null; // JDK 17 or 18
        }
        try {
            ((ExecutorService) factory.invokeExact()).shutdown(); // JDK 19-20 throw here without --enable-preview
            return factory;
        } catch (Throwable t) {
            return null;
        }
    }
}
