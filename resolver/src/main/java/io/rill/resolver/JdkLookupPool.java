package io.rill.resolver;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded pool for the JDK's blocking lookups: at most {@code threads} at once, at most
 * {@code queue} waiting; past that a lookup fails at once with a {@link RejectedExecutionException}
 * that names both limits, rather than piling up threads or memory behind a slow DNS server.
 * Threads are daemons and end after 30 seconds without work.
 */
public final class JdkLookupPool implements Executor {

    /** Four lookups at once suit a client that connects to a handful of hosts; the queue absorbs bursts. */
    private static final JdkLookupPool SHARED = new JdkLookupPool(4, 1024);

    private final ThreadPoolExecutor pool;
    private final int threads;
    private final int queue;

    /**
     * A pool of its own.
     *
     * @param threads the most lookups that run at once, at least 1
     * @param queue the most lookups that wait, at least 1
     */
    public JdkLookupPool(int threads, int queue) {
        if (threads < 1 || queue < 1) {
            throw new IllegalArgumentException("threads and queue must be at least 1: " + threads + ", " + queue);
        }
        this.threads = threads;
        this.queue = queue;
        AtomicInteger n = new AtomicInteger();
        pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, "rill-jdk-lookup-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, (r, p) -> {
            throw new RejectedExecutionException("JDK lookup pool full: " + this.threads + " lookups running and "
                    + this.queue + " waiting (JdkLookupPool threads/queue)");
        });
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * The pool {@link JdkAddressResolverGroup#INSTANCE} uses: 4 threads, 1024 waiting.
     *
     * @return the shared pool
     */
    public static JdkLookupPool shared() {
        return SHARED;
    }

    @Override
    public void execute(Runnable lookup) {
        pool.execute(lookup);
    }
}
