package io.rill.resolver;

import java.io.Closeable;
import java.net.SocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;

/**
 * Hands each event executor its own {@link AddressResolver}, made on first use and closed when
 * that executor terminates or this group closes: a resolver's state (sockets, cache, in-flight
 * queries) is then touched by one thread only.
 *
 * @param <T> the resolved address type
 */
public abstract class AddressResolverGroup<T extends SocketAddress> implements Closeable {

    /** Guarded by itself; an executor's entry leaves when the executor terminates. */
    private final Map<EventExecutor, AddressResolver<T>> resolvers = new IdentityHashMap<>();
    private boolean closed;

    /** For subclasses. */
    protected AddressResolverGroup() {
    }

    /**
     * The resolver of {@code executor}, made by {@link #newResolver} the first time.
     *
     * @param executor the event executor that will use the resolver
     * @return its resolver
     * @throws IllegalStateException if the group is closed or the executor shutting down
     */
    public AddressResolver<T> getResolver(EventExecutor executor) {
        if (executor == null) {
            throw new NullPointerException("executor");
        }
        if (executor.isShuttingDown()) {
            throw new IllegalStateException("executor is shutting down: " + executor);
        }
        AddressResolver<T> made;
        synchronized (resolvers) {
            if (closed) {
                throw new IllegalStateException("resolver group closed");
            }
            AddressResolver<T> existing = resolvers.get(executor);
            if (existing != null) {
                return existing;
            }
            try {
                made = newResolver(executor);
            } catch (Exception e) {
                throw new IllegalStateException("could not make a resolver for " + executor, e);
            }
            resolvers.put(executor, made);
        }
        executor.terminationFuture().addListener((Future<?> f) -> {
            AddressResolver<T> gone;
            synchronized (resolvers) {
                gone = resolvers.remove(executor);
            }
            if (gone != null) {
                gone.close();
            }
        });
        return made;
    }

    /**
     * Makes the resolver {@code executor} will use.
     *
     * @param executor where the resolver's futures complete
     * @return a new resolver
     * @throws Exception if it cannot be made
     */
    protected abstract AddressResolver<T> newResolver(EventExecutor executor) throws Exception;

    /** Closes every resolver this group made; later {@link #getResolver} calls fail. */
    @Override
    public void close() {
        AddressResolver<?>[] all;
        synchronized (resolvers) {
            closed = true;
            all = resolvers.values().toArray(new AddressResolver<?>[0]);
            resolvers.clear();
        }
        for (AddressResolver<?> r : all) {
            r.close();
        }
    }
}
