package io.rill.resolver;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Resolves with the JDK's {@link InetAddress#getAllByName}, which blocks: each lookup runs on a
 * {@link JdkLookupPool} thread, and its future completes on the resolver's event executor. Order
 * and caching are the JDK's ({@code networkaddress.cache.ttl}, {@code java.net.preferIPv6Addresses}).
 */
public final class JdkNameResolver implements NameResolver<InetAddress> {

    private final EventExecutor executor;
    private final Executor lookups;

    /**
     * A resolver over the shared {@link JdkLookupPool#shared()} pool.
     *
     * @param executor where the futures complete
     */
    public JdkNameResolver(EventExecutor executor) {
        this(executor, JdkLookupPool.shared());
    }

    /**
     * A resolver running its lookups on {@code lookups}.
     *
     * @param executor where the futures complete
     * @param lookups runs the blocking lookups; must not be an event loop
     */
    public JdkNameResolver(EventExecutor executor, Executor lookups) {
        if (executor == null || lookups == null) {
            throw new NullPointerException(executor == null ? "executor" : "lookups");
        }
        this.executor = executor;
        this.lookups = lookups;
    }

    @Override
    public EventExecutor executor() {
        return executor;
    }

    @Override
    public Future<List<InetAddress>> resolveAll(String host) {
        if (host == null) {
            throw new NullPointerException("host");
        }
        Promise<List<InetAddress>> result = executor.newPromise();
        try {
            lookups.execute(() -> {
                try {
                    result.trySuccess(List.of(InetAddress.getAllByName(host)));
                } catch (UnknownHostException e) {
                    result.tryFailure(e);
                } catch (RuntimeException | Error e) {
                    result.tryFailure(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.tryFailure(e);
        }
        return result;
    }

    @Override
    public void close() {
        // Nothing of its own: the lookup pool is shared, and its threads end when idle.
    }
}
