package io.rill.bootstrap;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

import io.rill.channel.AttributeKey;
import io.rill.channel.Channel;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelHandlerContext;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoop;
import io.rill.channel.EventLoopGroup;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * Creates listening channels. {@link #bind()} makes the server channel on the parent group's next
 * loop, adds {@link #handler} and an acceptor, applies options and attributes, registers and
 * binds it; the future carries the bound server channel.
 *
 * <p>Each accepted connection is created by the server channel on {@code childGroup.next()} (its
 * loop for life); the acceptor then, on that loop, adds {@link #childHandler}, applies the
 * child options and attributes and registers it. With one group ({@link #group(EventLoopGroup)})
 * the server and its children share it.
 */
public final class ServerBootstrap extends AbstractBootstrap<ServerBootstrap> {

    private static final InternalLogger LOG = InternalLogger.get(ServerBootstrap.class);

    /** Loops of accepted channels; the parent group when null. */
    private EventLoopGroup childGroup;
    private ServerChannelFactory<? extends Channel> channelFactory;
    private ChannelHandler childHandler;
    private Map<ChannelOption<?>, Object> childOptions = new LinkedHashMap<>();
    private Map<AttributeKey<?>, Object> childAttrs = new LinkedHashMap<>();

    /** An empty bootstrap; set at least the groups, the channel and the child handler. */
    public ServerBootstrap() {
    }

    /**
     * {@code parent} runs the listening channel, {@code child} the accepted ones.
     *
     * @param parent runs the listening channel
     * @param child runs the accepted channels
     * @return this bootstrap
     */
    public ServerBootstrap group(EventLoopGroup parent, EventLoopGroup child) {
        group(parent);
        if (child == null) {
            throw new NullPointerException("child");
        }
        this.childGroup = child;
        return this;
    }

    /**
     * Server channels of {@code type}, through its public {@code (EventLoop, EventLoopGroup)} constructor.
     *
     * @param type the server channel class
     * @return this bootstrap
     */
    public ServerBootstrap channel(Class<? extends Channel> type) {
        return channelFactory(ReflectiveFactories.server(type));
    }

    /**
     * Server channels made by {@code factory}.
     *
     * @param factory makes the listening channel
     * @return this bootstrap
     */
    public ServerBootstrap channelFactory(ServerChannelFactory<? extends Channel> factory) {
        if (factory == null) {
            throw new NullPointerException("channelFactory");
        }
        this.channelFactory = factory;
        return this;
    }

    /**
     * Added to every accepted channel; usually a ChannelInitializer (it must be sharable).
     *
     * @param childHandler the handler
     * @return this bootstrap
     */
    public ServerBootstrap childHandler(ChannelHandler childHandler) {
        if (childHandler == null) {
            throw new NullPointerException("childHandler");
        }
        this.childHandler = childHandler;
        return this;
    }

    /**
     * Sets {@code option} on every accepted channel; {@code null} removes it.
     *
     * @param <T> the option's value type
     * @param option the option
     * @param value its value, or null
     * @return this bootstrap
     */
    public <T> ServerBootstrap childOption(ChannelOption<T> option, T value) {
        if (option == null) {
            throw new NullPointerException("option");
        }
        if (value == null) {
            childOptions.remove(option);
        } else {
            option.validate(value);
            childOptions.put(option, value);
        }
        return this;
    }

    /**
     * Sets attribute {@code key} on every accepted channel; {@code null} removes it.
     *
     * @param <T> the attribute's value type
     * @param key the key
     * @param value its value, or null
     * @return this bootstrap
     */
    public <T> ServerBootstrap childAttr(AttributeKey<T> key, T value) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        if (value == null) {
            childAttrs.remove(key);
        } else {
            childAttrs.put(key, value);
        }
        return this;
    }

    @Override
    public ServerBootstrap validate() {
        super.validate();
        if (channelFactory == null) {
            throw new IllegalStateException("channel or channelFactory not set: call channel(NioServerSocketChannel.class)"
                    + " or channelFactory(...) first");
        }
        if (childHandler == null) {
            throw new IllegalStateException("childHandler not set: call childHandler(...) first");
        }
        return this;
    }

    /**
     * Creates, registers and binds the server channel to the configured local address.
     *
     * @return a future completed with the listening channel, or failed (a busy port, say)
     * @throws IllegalStateException if no local address was set
     */
    public Future<Channel> bind() {
        if (localAddress == null) {
            throw new IllegalStateException("localAddress not set: call localAddress(...) or bind(address)");
        }
        return bind(localAddress);
    }

    /**
     * Binds to {@code port} on every local address.
     *
     * @param port the port; 0 picks a free one
     * @return a future completed with the listening channel, or failed
     */
    public Future<Channel> bind(int port) {
        return bind(new InetSocketAddress(port));
    }

    /**
     * Binds to {@code host:port}.
     *
     * @param host the local host name or literal address
     * @param port the port; 0 picks a free one
     * @return a future completed with the listening channel, or failed
     */
    public Future<Channel> bind(String host, int port) {
        return bind(new InetSocketAddress(host, port));
    }

    /**
     * Creates, registers and binds the server channel to {@code local}.
     *
     * @param local the address to listen on
     * @return a future completed with the listening channel, or failed
     * @throws IllegalStateException if a required setting is missing
     */
    public Future<Channel> bind(SocketAddress local) {
        if (local == null) {
            throw new NullPointerException("local");
        }
        validate();
        Channel server;
        try {
            EventLoop loop = group.next();
            server = channelFactory.newChannel(loop, childGroup == null ? group : childGroup);
        } catch (Throwable t) {
            return failed(group, t);
        }
        Promise<Channel> result = new DefaultPromise<>(server.eventLoop());
        try {
            if (handler != null) {
                server.pipeline().addLast(handler);
            }
            server.pipeline().addLast(new Acceptor(childHandler, new LinkedHashMap<>(childOptions),
                    new LinkedHashMap<>(childAttrs)));
            apply(server, options, attrs);
        } catch (Throwable t) {
            fail(server, result, t);
            return result;
        }
        register(server, result, () -> server.bind(local).addListener((Future<? extends Void> f) -> {
            if (f.isSuccess()) {
                result.trySuccess(server);
            } else {
                fail(server, result, f.cause());
            }
        }));
        return result;
    }

    @Override
    public ServerBootstrap clone() {
        ServerBootstrap copy = super.clone();
        copy.childOptions = new LinkedHashMap<>(childOptions);
        copy.childAttrs = new LinkedHashMap<>(childAttrs);
        return copy;
    }

    @Override
    public String toString() {
        return super.toString() + "(childGroup: " + childGroup + ", childHandler: " + childHandler
                + ", childOptions: " + childOptions + ')';
    }

    /** Sets up each accepted channel on its own loop and registers it. Sharable: state is read-only. */
    @ChannelHandler.Sharable
    private static final class Acceptor implements ChannelHandler {
        private final ChannelHandler childHandler;
        private final Map<ChannelOption<?>, Object> childOptions;
        private final Map<AttributeKey<?>, Object> childAttrs;

        Acceptor(ChannelHandler childHandler, Map<ChannelOption<?>, Object> childOptions,
                 Map<AttributeKey<?>, Object> childAttrs) {
            this.childHandler = childHandler;
            this.childOptions = childOptions;
            this.childAttrs = childAttrs;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            try {
                child.eventLoop().execute(() -> initChild(child));
            } catch (Throwable t) {
                LOG.warn("Could not hand accepted " + child + " to its loop (shut down?); closing it", t);
                child.close();
            }
        }

        private void initChild(Channel child) {
            try {
                child.pipeline().addLast(childHandler);
                apply(child, childOptions, childAttrs);
            } catch (Throwable t) {
                LOG.warn("Could not set up accepted " + child + "; closing it", t);
                child.close();
                return;
            }
            child.register().addListener((Future<? extends Void> f) -> {
                if (f.isSuccess()) {
                    return;
                }
                if (f.cause() instanceof ChannelClosedException) {
                    // Its own set-up closed it (a failing initializer), and whatever closed it said why.
                    LOG.debug("Accepted {} was closed before it was registered", child);
                } else {
                    LOG.warn("Could not register accepted " + child + "; closing it", f.cause());
                }
                child.close();
            });
        }

        /** Accept errors were logged by the server channel; handlers before us saw them. Do not log twice. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("Accept error on {}", ctx.channel(), cause);
        }
    }
}
