package io.rill.resolver;

import java.io.Closeable;
import java.net.SocketAddress;
import java.util.List;

import io.rill.util.concurrent.Future;

/**
 * Resolves an unresolved {@link SocketAddress} (such as
 * {@link java.net.InetSocketAddress#createUnresolved}) to resolved ones of type {@code T}.
 *
 * @param <T> the resolved address type
 */
public interface AddressResolver<T extends SocketAddress> extends Closeable {

    /**
     * Whether this resolver knows {@code address}'s type.
     *
     * @param address any address
     * @return true if {@link #resolve} may be called with it
     */
    boolean isSupported(SocketAddress address);

    /**
     * Whether {@code address} needs no resolution.
     *
     * @param address a supported address
     * @return true if it is already resolved
     */
    boolean isResolved(SocketAddress address);

    /**
     * One resolved address for {@code address}; a resolved one is returned as it is.
     *
     * @param address a supported address
     * @return a future with the resolved address, or failed
     */
    Future<T> resolve(SocketAddress address);

    /**
     * Every resolved address for {@code address}, the preferred first.
     *
     * @param address a supported address
     * @return a future with a non-empty, unmodifiable list, or failed
     */
    Future<List<T>> resolveAll(SocketAddress address);

    @Override
    void close();
}
