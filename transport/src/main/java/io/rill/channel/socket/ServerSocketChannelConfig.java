package io.rill.channel.socket;

import java.net.SocketOption;
import java.util.Map;

import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOption;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.util.InternalLogger;

/**
 * The options of a {@link ServerSocketChannel}: {@code SO_BACKLOG} (used by bind, so it must be
 * set before), {@code SO_RCVBUF} (inherited by accepted sockets; set it before bind for windows
 * above 64 KiB) and {@code SO_REUSEADDR}, plus the general ones. Socket options are read from the
 * socket, like {@link SocketChannelConfig}.
 */
public class ServerSocketChannelConfig extends ChannelConfig {

    private static final InternalLogger LOG = InternalLogger.get(ServerSocketChannelConfig.class);

    /** Pending connections the kernel queues before accept; 0 lets the JDK pick its default. */
    private volatile int backlog = 128;

    /** The real socket; every socket option goes straight to it. */
    private final SocketOptionAccess access;

    /**
     * The configuration of a listening channel whose socket options go through {@code access}.
     * A transport's constructor: {@code access} belongs to Rill's internal transport package, so
     * only Rill's transports call it; applications get the config from the channel.
     *
     * @param channel the channel configured
     * @param access reads and writes the socket's options
     */
    @SuppressWarnings("exports") // SocketOptionAccess is exported to the transport modules only, on purpose
    public ServerSocketChannelConfig(AbstractChannel channel, SocketOptionAccess access) {
        super(channel);
        if (access == null) {
            throw new NullPointerException("access");
        }
        this.access = access;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = super.getOptions();
        options.put(ChannelOption.SO_BACKLOG, backlog);
        for (ChannelOption<?> option : new ChannelOption<?>[] {ChannelOption.SO_RCVBUF, ChannelOption.SO_REUSEADDR}) {
            Object value = getOption(option);
            if (value != null) {
                options.put(option, value);
            }
        }
        return options;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ChannelOption.SO_BACKLOG) {
            return (T) (Integer) backlog;
        }
        if (option == ChannelOption.SO_RCVBUF || option == ChannelOption.SO_REUSEADDR) {
            SocketOption<T> socketOption = SocketOptions.standard(option);
            return access.supportsSocketOption(socketOption) ? SocketOptions.get(access, socketOption) : null;
        }
        return super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (option == ChannelOption.SO_BACKLOG) {
            option.validate(value);
            setBacklog((Integer) value);
            return true;
        }
        if (option == ChannelOption.SO_RCVBUF || option == ChannelOption.SO_REUSEADDR) {
            option.validate(value);
            SocketOption<T> socketOption = SocketOptions.standard(option);
            if (!access.supportsSocketOption(socketOption)) {
                LOG.warn("Unsupported channel option '{}' for {}; ignored", option, channel);
                return false;
            }
            SocketOptions.set(access, socketOption, value);
            return true;
        }
        return super.setOption(option, value);
    }

    /** {@return the listen backlog ({@link io.rill.channel.ChannelOption#SO_BACKLOG})} */
    public int getBacklog() {
        return backlog;
    }

    /**
     * Sets the listen backlog; it takes effect at bind.
     *
     * @param backlog connections the kernel queues before they are accepted (128 by default)
     * @return this config
     */
    public ServerSocketChannelConfig setBacklog(int backlog) {
        this.backlog = checkAtLeast("SO_BACKLOG", backlog, 0);
        return this;
    }
}
