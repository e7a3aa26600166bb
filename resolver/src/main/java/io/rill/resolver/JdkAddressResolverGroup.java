package io.rill.resolver;

import java.net.InetSocketAddress;

import io.rill.util.concurrent.EventExecutor;

/**
 * The default resolver group: each executor gets a {@link JdkNameResolver} over the shared
 * {@link JdkLookupPool}, so resolution behaves as the JDK's does, off the event loops.
 */
public final class JdkAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    /** The group {@code Bootstrap} uses unless given another. */
    public static final JdkAddressResolverGroup INSTANCE = new JdkAddressResolverGroup();

    private JdkAddressResolverGroup() {
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new InetSocketAddressResolver(executor, new JdkNameResolver(executor));
    }
}
