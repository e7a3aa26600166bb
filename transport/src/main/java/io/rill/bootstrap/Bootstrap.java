package io.rill.bootstrap;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.EventLoop;
import io.rill.resolver.AddressResolver;
import io.rill.resolver.AddressResolverGroup;
import io.rill.resolver.JdkAddressResolverGroup;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Creates client channels: each {@link #connect()} makes a channel on the group's next loop, adds
 * the handler, applies options and attributes, registers it, resolves the remote address if
 * needed and connects. The returned future carries the connected channel; on any failure the
 * channel is closed and the future fails with the cause.
 *
 * <pre>{@code
 * Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
 *         .handler(new MyInitializer()).connect("example.com", 7).sync().getNow();
 * }</pre>
 *
 * <p>Name resolution: an unresolved {@link InetSocketAddress} (e.g. from
 * {@link #remoteAddress(String, int)}) is resolved by the {@link #resolver(AddressResolverGroup)
 * resolver group}'s resolver for the channel's event loop; by default
 * {@link JdkAddressResolverGroup}, the JDK's lookup on a bounded pool of threads, so no event loop
 * ever blocks on DNS ({@code io.rill.resolver.dns.DnsNameResolver} is the non-blocking one).
 *
 * <p>When the name resolves to several addresses the connect races them as Happy Eyeballs v2
 * does (RFC 8305 §4-5): the addresses are interleaved by family, the preferred family (the first
 * address's) first; attempt n+1 starts {@link #connectAttemptDelay(Duration) 250 ms} after attempt
 * n or as soon as it fails, the first connection wins and the others are closed; when all fail, the
 * future fails with a {@link ConnectAttemptsFailedException} that lists each address's cause.
 * The race needs a {@link ChannelHandler.Sharable @Sharable} handler, such as a
 * {@link io.rill.channel.ChannelInitializer}, since each attempt's channel gets it; with any other
 * handler only the first address is tried.
 */
public final class Bootstrap extends AbstractBootstrap<Bootstrap> {

    /** Makes each channel; null until channel(...) or channelFactory(...). */
    private ChannelFactory<? extends Channel> channelFactory;
    private SocketAddress remoteAddress;
    private AddressResolverGroup<? extends SocketAddress> resolver = JdkAddressResolverGroup.INSTANCE;
    /** RFC 8305 §5's recommended Connection Attempt Delay. */
    private long connectAttemptDelayNanos = Duration.ofMillis(250).toNanos();

    /** An empty bootstrap; set at least the group, the channel and the handler. */
    public Bootstrap() {
    }

    /**
     * Channels of {@code type}, through its public {@code (EventLoop)} constructor.
     *
     * @param type the channel class
     * @return this bootstrap
     */
    public Bootstrap channel(Class<? extends Channel> type) {
        return channelFactory(ReflectiveFactories.client(type));
    }

    /**
     * Channels made by {@code factory}, for a channel without a plain {@code (EventLoop)} constructor.
     *
     * @param factory makes a channel on a given event loop
     * @return this bootstrap
     */
    public Bootstrap channelFactory(ChannelFactory<? extends Channel> factory) {
        if (factory == null) {
            throw new NullPointerException("channelFactory");
        }
        this.channelFactory = factory;
        return this;
    }

    /**
     * The address {@link #connect()} connects to.
     *
     * @param remoteAddress the peer's address
     * @return this bootstrap
     */
    public Bootstrap remoteAddress(SocketAddress remoteAddress) {
        this.remoteAddress = remoteAddress;
        return this;
    }

    /**
     * An unresolved address: {@code host} is resolved at each connect.
     *
     * @param host the host name or literal address
     * @param port the port
     * @return this bootstrap
     */
    public Bootstrap remoteAddress(String host, int port) {
        return remoteAddress(InetSocketAddress.createUnresolved(host, port));
    }

    /**
     * Resolves unresolved remote addresses with {@code resolver}'s resolver for the channel's loop.
     *
     * @param resolver the resolver group; {@link JdkAddressResolverGroup#INSTANCE} by default
     * @return this bootstrap
     */
    public Bootstrap resolver(AddressResolverGroup<? extends SocketAddress> resolver) {
        if (resolver == null) {
            throw new NullPointerException("resolver");
        }
        this.resolver = resolver;
        return this;
    }

    /**
     * How long a connection attempt to one of several addresses runs alone before the next starts
     * (RFC 8305 §5 recommends 250 ms and at least 100 ms; the value is used as given).
     *
     * @param delay the delay, at least zero
     * @return this bootstrap
     */
    public Bootstrap connectAttemptDelay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("connectAttemptDelay must not be negative: " + delay);
        }
        this.connectAttemptDelayNanos = delay.toNanos();
        return this;
    }

    @Override
    public Bootstrap validate() {
        super.validate();
        if (channelFactory == null) {
            throw new IllegalStateException("channel or channelFactory not set: call channel(NioSocketChannel.class)"
                    + " or channelFactory(...) first");
        }
        if (handler == null) {
            throw new IllegalStateException("handler not set: call handler(...) first (a channel without"
                    + " handlers would read and drop everything)");
        }
        return this;
    }

    /**
     * Connects to the configured {@link #remoteAddress(SocketAddress)}.
     *
     * @return a future completed with the connected channel, or failed
     */
    public Future<Channel> connect() {
        if (remoteAddress == null) {
            throw new IllegalStateException("remoteAddress not set: call remoteAddress(...) or connect(address)");
        }
        return connect(remoteAddress, localAddress);
    }

    /**
     * Connects to {@code host:port}; {@code host} is resolved as part of the connect.
     *
     * @param host the host name or literal address
     * @param port the port
     * @return a future completed with the connected channel, or failed
     */
    public Future<Channel> connect(String host, int port) {
        return connect(InetSocketAddress.createUnresolved(host, port), localAddress);
    }

    /**
     * Connects to {@code remote} from the configured local address.
     *
     * @param remote the peer's address
     * @return a future completed with the connected channel, or failed
     */
    public Future<Channel> connect(SocketAddress remote) {
        return connect(remote, localAddress);
    }

    /**
     * Connects to {@code remote} from {@code local} (null: any).
     *
     * @param remote the peer's address
     * @param local the address to bind first, or null for any
     * @return a future completed with the connected channel, or failed
     */
    public Future<Channel> connect(SocketAddress remote, SocketAddress local) {
        if (remote == null) {
            throw new NullPointerException("remote");
        }
        if (!(remote instanceof InetSocketAddress inet && inet.isUnresolved())) {
            return start((channel, result) -> completeWhen(channel.connect(remote, local), channel, result));
        }
        validate();
        EventLoop loop = group.next();
        Promise<Channel> result = new DefaultPromise<>(loop);
        AddressResolver<? extends SocketAddress> names;
        try {
            names = resolver.getResolver(loop);
            if (!names.isSupported(remote)) {
                throw new IllegalArgumentException("the resolver cannot resolve " + remote.getClass().getName());
            }
        } catch (RuntimeException e) {
            result.tryFailure(e);
            return result;
        }
        @SuppressWarnings("unchecked")
        Future<List<SocketAddress>> resolved = (Future<List<SocketAddress>>) (Future<?>) names.resolveAll(remote);
        resolved.addListener((Future<? extends List<SocketAddress>> f) -> {
            if (!f.isSuccess()) {
                result.tryFailure(f.cause());
            } else if (f.getNow().size() == 1 || !handler.getClass().isAnnotationPresent(ChannelHandler.Sharable.class)) {
                // A handler that is not @Sharable fits one pipeline at a time: one attempt, to the first address.
                connectOne(loop, f.getNow().get(0), local, result);
            } else {
                new HappyEyeballs(this::newChannel, loop, f.getNow(), local, connectAttemptDelayNanos, result).start();
            }
        });
        return result;
    }

    /** Creates, registers and connects one channel on {@code loop}, completing {@code result}. */
    private void connectOne(EventLoop loop, SocketAddress remote, SocketAddress local, Promise<Channel> result) {
        Channel channel;
        try {
            channel = newChannel(loop);
        } catch (Throwable t) {
            result.tryFailure(t);
            return;
        }
        register(channel, result, () -> completeWhen(channel.connect(remote, local), channel, result));
    }

    /**
     * Creates, registers and binds a channel to the configured local address (datagram channels).
     *
     * @return a future completed with the bound channel, or failed
     */
    public Future<Channel> bind() {
        if (localAddress == null) {
            throw new IllegalStateException("localAddress not set: call localAddress(...) or bind(address)");
        }
        return bind(localAddress);
    }

    /**
     * Creates, registers and binds a channel to {@code local} (datagram channels).
     *
     * @param local the address to bind
     * @return a future completed with the bound channel, or failed
     */
    public Future<Channel> bind(SocketAddress local) {
        return start((channel, result) -> completeWhen(channel.bind(local), channel, result));
    }

    /**
     * Creates and registers a channel without connecting it.
     *
     * @return a future completed with the registered channel, or failed
     */
    public Future<Channel> register() {
        return start((channel, result) -> result.trySuccess(channel));
    }

    /**
     * Validates, creates and registers a channel, then hands it to {@code next} on its loop; the
     * returned future ends with the channel, or with the first failure (the channel then closed).
     */
    private Future<Channel> start(BiConsumer<Channel, Promise<Channel>> next) {
        validate();
        Channel channel;
        try {
            channel = newChannel(group.next());
        } catch (Throwable t) {
            return failed(group, t);
        }
        Promise<Channel> result = new DefaultPromise<>(channel.eventLoop());
        register(channel, result, () -> next.accept(channel, result));
        return result;
    }

    /** Succeeds {@code result} with {@code channel} once {@code op} does; otherwise fails it and closes the channel. */
    private static void completeWhen(Future<Void> op, Channel channel, Promise<Channel> result) {
        op.addListener((Future<? extends Void> f) -> {
            if (f.isSuccess()) {
                result.trySuccess(channel);
            } else {
                fail(channel, result, f.cause());
            }
        });
    }

    private Channel newChannel(EventLoop loop) throws Exception {
        Channel channel = channelFactory.newChannel(loop);
        try {
            if (handler != null) {
                channel.pipeline().addLast(handler);
            }
            apply(channel, options, attrs);
        } catch (Throwable t) {
            channel.close();
            throw t;
        }
        return channel;
    }

    @Override
    public Bootstrap clone() {
        return super.clone();
    }

    @Override
    public String toString() {
        return super.toString() + "(remoteAddress: " + remoteAddress + ", resolver: " + resolver + ')';
    }
}
