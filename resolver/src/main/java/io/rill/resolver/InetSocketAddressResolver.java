package io.rill.resolver;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.rill.util.concurrent.EventExecutor;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * An {@link AddressResolver} for {@link InetSocketAddress}es over a {@link NameResolver} of
 * {@link InetAddress}es: the host is resolved, the port kept.
 */
public final class InetSocketAddressResolver implements AddressResolver<InetSocketAddress> {

    private final EventExecutor executor;
    private final NameResolver<InetAddress> names;

    /**
     * A resolver whose futures complete on {@code executor}.
     *
     * @param executor where the futures complete
     * @param names resolves the host part; closed with this resolver
     */
    public InetSocketAddressResolver(EventExecutor executor, NameResolver<InetAddress> names) {
        if (executor == null || names == null) {
            throw new NullPointerException(executor == null ? "executor" : "names");
        }
        this.executor = executor;
        this.names = names;
    }

    @Override
    public boolean isSupported(SocketAddress address) {
        return address instanceof InetSocketAddress;
    }

    @Override
    public boolean isResolved(SocketAddress address) {
        return !((InetSocketAddress) address).isUnresolved();
    }

    @Override
    public Future<InetSocketAddress> resolve(SocketAddress address) {
        InetSocketAddress inet = checked(address);
        Promise<InetSocketAddress> result = executor.newPromise();
        if (!inet.isUnresolved()) {
            return result.setSuccess(inet);
        }
        names.resolve(inet.getHostString()).addListener((Future<? extends InetAddress> f) -> {
            if (f.isSuccess()) {
                result.trySuccess(new InetSocketAddress(f.getNow(), inet.getPort()));
            } else {
                result.tryFailure(f.cause());
            }
        });
        return result;
    }

    @Override
    public Future<List<InetSocketAddress>> resolveAll(SocketAddress address) {
        InetSocketAddress inet = checked(address);
        Promise<List<InetSocketAddress>> result = executor.newPromise();
        if (!inet.isUnresolved()) {
            return result.setSuccess(List.of(inet));
        }
        names.resolveAll(inet.getHostString()).addListener((Future<? extends List<InetAddress>> f) -> {
            if (f.isSuccess()) {
                List<InetSocketAddress> out = new ArrayList<>(f.getNow().size());
                for (InetAddress a : f.getNow()) {
                    out.add(new InetSocketAddress(a, inet.getPort()));
                }
                result.trySuccess(Collections.unmodifiableList(out));
            } else {
                result.tryFailure(f.cause());
            }
        });
        return result;
    }

    private static InetSocketAddress checked(SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet)) {
            throw new IllegalArgumentException("not an InetSocketAddress: " + address);
        }
        return inet;
    }

    @Override
    public void close() {
        names.close();
    }
}
