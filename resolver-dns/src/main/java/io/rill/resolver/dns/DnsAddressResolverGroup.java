package io.rill.resolver.dns;

import java.net.InetSocketAddress;
import java.util.function.Consumer;

import io.rill.channel.EventLoop;
import io.rill.resolver.AddressResolver;
import io.rill.resolver.AddressResolverGroup;
import io.rill.resolver.InetSocketAddressResolver;
import io.rill.util.concurrent.EventExecutor;

/**
 * Gives each event loop its own {@link DnsNameResolver}, for {@code Bootstrap.resolver(...)}:
 *
 * <pre>{@code
 * new Bootstrap().resolver(new DnsAddressResolverGroup(b -> b.queryTimeout(Duration.ofSeconds(2))))
 * }</pre>
 */
public final class DnsAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    private final Consumer<DnsNameResolverBuilder> configure;

    /** Resolvers with the defaults (resolv.conf, hosts file). */
    public DnsAddressResolverGroup() {
        this(b -> { });
    }

    /**
     * Resolvers configured by {@code configure}, which runs once per event loop.
     *
     * @param configure sets up each loop's builder
     */
    public DnsAddressResolverGroup(Consumer<DnsNameResolverBuilder> configure) {
        this.configure = configure;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        if (!(executor instanceof EventLoop loop)) {
            throw new IllegalArgumentException("a DNS resolver needs an EventLoop for its sockets, not " + executor);
        }
        DnsNameResolverBuilder builder = DnsNameResolver.builder(loop);
        configure.accept(builder);
        return new InetSocketAddressResolver(loop, builder.build());
    }
}
