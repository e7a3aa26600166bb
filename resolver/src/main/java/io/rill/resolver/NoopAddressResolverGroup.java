package io.rill.resolver;

import java.net.SocketAddress;
import java.util.List;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;

/**
 * A resolver group that resolves nothing: every address goes to the channel as it was given,
 * unresolved names included. For a client behind a proxy that resolves names itself (SOCKS4a,
 * SOCKS5, HTTP CONNECT): with {@code bootstrap.resolver(NoopAddressResolverGroup.INSTANCE)},
 * {@code connect("example.com", 443)} hands the name to the proxy handler instead of looking it
 * up locally. Without such a handler, connecting to an unresolved address fails in the transport.
 */
public final class NoopAddressResolverGroup extends AddressResolverGroup<SocketAddress> {

    /** The only instance; its resolvers hold no state. */
    public static final NoopAddressResolverGroup INSTANCE = new NoopAddressResolverGroup();

    private NoopAddressResolverGroup() {
    }

    @Override
    protected AddressResolver<SocketAddress> newResolver(EventExecutor executor) {
        return new AddressResolver<>() {
            @Override
            public boolean isSupported(SocketAddress address) {
                return true;
            }

            @Override
            public boolean isResolved(SocketAddress address) {
                return true;
            }

            @Override
            public Future<SocketAddress> resolve(SocketAddress address) {
                return executor.newSucceededFuture(address);
            }

            @Override
            public Future<List<SocketAddress>> resolveAll(SocketAddress address) {
                return executor.newSucceededFuture(List.of(address));
            }

            @Override
            public void close() {
            }
        };
    }
}
