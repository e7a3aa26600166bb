package io.rill.bootstrap;

import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

import io.rill.channel.Channel;
import io.rill.channel.ChannelHandler;
import io.rill.channel.ChannelOption;
import io.rill.channel.EventLoopGroup;
import io.rill.channel.AttributeKey;
import io.rill.util.InternalLogger;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * What {@link Bootstrap} and {@link ServerBootstrap} share: the loop group, the handler, options
 * and attributes of the channel they create, and its local address. A bootstrap is a mutable
 * template: configure it once, then connect or bind as often as needed, from any thread;
 * {@link #clone()} gives an independent copy to vary.
 *
 * @param <B> the concrete bootstrap type, returned by the fluent setters
 */
public abstract class AbstractBootstrap<B extends AbstractBootstrap<B>> implements Cloneable {

    private static final InternalLogger LOG = InternalLogger.get(AbstractBootstrap.class);

    /** Where new channels get their loop; null until set. */
    EventLoopGroup group;
    /** Added to each new channel's pipeline; usually a ChannelInitializer. */
    ChannelHandler handler;
    SocketAddress localAddress;
    /** Insertion-ordered, so options that depend on each other apply in the order given. Copied by clone(). */
    Map<ChannelOption<?>, Object> options = new LinkedHashMap<>();
    Map<AttributeKey<?>, Object> attrs = new LinkedHashMap<>();

    AbstractBootstrap() {
    }

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }

    /**
     * The group whose loops the created channels run on.
     *
     * @param group the event loop group
     * @return this bootstrap
     */
    public B group(EventLoopGroup group) {
        if (group == null) {
            throw new NullPointerException("group");
        }
        this.group = group;
        return self();
    }

    /**
     * The handler added to each created channel's pipeline, typically a {@link
     * io.rill.channel.ChannelInitializer}; it must be {@code @Sharable} if several channels are created.
     *
     * @param handler the handler
     * @return this bootstrap
     */
    public B handler(ChannelHandler handler) {
        if (handler == null) {
            throw new NullPointerException("handler");
        }
        this.handler = handler;
        return self();
    }

    /**
     * The local address to bind to; for a client, null lets the system choose.
     *
     * @param localAddress the address, or null
     * @return this bootstrap
     */
    public B localAddress(SocketAddress localAddress) {
        this.localAddress = localAddress;
        return self();
    }

    /**
     * Sets {@code option} on each created channel; {@code null} removes it. The value's type is
     * checked now; whether the transport supports the option is checked when a channel is made.
     *
     * @param <T> the option's value type
     * @param option the option
     * @param value its value, or null
     * @return this bootstrap
     */
    public <T> B option(ChannelOption<T> option, T value) {
        if (option == null) {
            throw new NullPointerException("option");
        }
        if (value == null) {
            options.remove(option);
        } else {
            option.validate(value);
            options.put(option, value);
        }
        return self();
    }

    /**
     * Sets the attribute {@code key} on each created channel; {@code null} removes it.
     *
     * @param <T> the attribute's value type
     * @param key the key
     * @param value its value, or null
     * @return this bootstrap
     */
    public <T> B attr(AttributeKey<T> key, T value) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        if (value == null) {
            attrs.remove(key);
        } else {
            attrs.put(key, value);
        }
        return self();
    }

    /**
     * Throws {@link IllegalStateException} saying what is missing, e.g. "group not set".
     *
     * @return this bootstrap
     * @throws IllegalStateException if something required is not set
     */
    public B validate() {
        if (group == null) {
            throw new IllegalStateException("group not set: call group(...) first");
        }
        return self();
    }

    @Override
    @SuppressWarnings("unchecked")
    public B clone() {
        try {
            AbstractBootstrap<B> copy = (AbstractBootstrap<B>) super.clone();
            copy.options = new LinkedHashMap<>(options);
            copy.attrs = new LinkedHashMap<>(attrs);
            return (B) copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    /** Applies options and attributes; an unsupported option is logged by the config, a bad one throws. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void apply(Channel channel, Map<ChannelOption<?>, Object> options, Map<AttributeKey<?>, Object> attrs) {
        for (Map.Entry<ChannelOption<?>, Object> e : options.entrySet()) {
            channel.config().setOption((ChannelOption) e.getKey(), e.getValue());
        }
        for (Map.Entry<AttributeKey<?>, Object> e : attrs.entrySet()) {
            channel.attr((AttributeKey) e.getKey()).set(e.getValue());
        }
    }

    /** Registers {@code channel}; on failure closes it and fails {@code result}. Returns false if it failed already. */
    static void register(Channel channel, Promise<Channel> result, Runnable then) {
        channel.register().addListener((Future<? extends Void> f) -> {
            if (f.isSuccess()) {
                then.run();
            } else {
                fail(channel, result, f.cause());
            }
        });
    }

    /** Fails {@code result} and closes the channel, which nobody else holds. */
    static void fail(Channel channel, Promise<Channel> result, Throwable cause) {
        result.tryFailure(cause);
        if (channel.isOpen()) {
            channel.close();
        }
    }

    /** A failed future for a channel that could not even be created. */
    static Future<Channel> failed(EventLoopGroup group, Throwable cause) {
        LOG.debug("Could not create a channel", cause);
        Promise<Channel> p = new DefaultPromise<>(group.next());
        p.tryFailure(cause);
        return p;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(group: " + group + ", handler: " + handler + ", options: " + options
                + ", attrs: " + attrs.keySet() + ", localAddress: " + localAddress + ')';
    }
}
