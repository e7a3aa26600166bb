package io.rill.resolver;

import java.io.Closeable;
import java.util.List;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Resolves a host name to addresses of type {@code T}; every call returns at once with a future.
 * A resolver belongs to one event executor and completes its futures there.
 *
 * @param <T> the address type, usually {@link java.net.InetAddress}
 */
public interface NameResolver<T> extends Closeable {

    /** {@return the executor this resolver belongs to, where its futures complete} */
    EventExecutor executor();

    /**
     * The first address {@code host} resolves to: the first of {@link #resolveAll}.
     *
     * @param host a host name or a literal address
     * @return a future with the address, or failed (an {@link java.net.UnknownHostException} when none)
     */
    default Future<T> resolve(String host) {
        Promise<T> result = executor().newPromise();
        resolveAll(host).addListener((Future<? extends List<T>> f) -> {
            if (f.isSuccess()) {
                result.trySuccess(f.getNow().get(0));
            } else {
                result.tryFailure(f.cause());
            }
        });
        return result;
    }

    /**
     * Every address {@code host} resolves to, the preferred first.
     *
     * @param host a host name or a literal address
     * @return a future with a non-empty, unmodifiable list, or failed
     */
    Future<List<T>> resolveAll(String host);

    /** Releases what the resolver holds (sockets, caches); later calls fail. */
    @Override
    void close();
}
