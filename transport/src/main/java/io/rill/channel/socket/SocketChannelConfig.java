package io.rill.channel.socket;

import java.net.SocketOption;
import java.util.Map;

import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOption;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.util.InternalLogger;

/**
 * The options of a {@link SocketChannel}: the general ones of {@link ChannelConfig} plus
 * {@code TCP_NODELAY} (on by default: a framework that flushes explicitly has already batched,
 * so Nagle's delay only adds latency), {@code SO_KEEPALIVE}, {@code SO_RCVBUF}, {@code SO_SNDBUF},
 * {@code SO_REUSEADDR}, {@code SO_LINGER}, {@code IP_TOS} and {@code ALLOW_HALF_CLOSURE}.
 *
 * <p>Socket options are not cached: each read asks the socket, so the value shown is the one the
 * kernel really uses (it may round {@code SO_RCVBUF}, for instance). A transport supplies the
 * socket as a {@link SocketOptionAccess}; an option its socket family lacks is reported unsupported
 * (warning, {@code false}), like any other unknown option.
 */
public class SocketChannelConfig extends ChannelConfig {

    private static final InternalLogger LOG = InternalLogger.get(SocketChannelConfig.class);

    /** End of stream shuts down input only (firing ChannelInputShutdownEvent) instead of closing. */
    private volatile boolean allowHalfClosure;
    /** The real socket; every socket option goes straight to it. */
    private final SocketOptionAccess access;

    /**
     * The configuration of a socket channel whose socket options go through {@code access}.
     * A transport's constructor: {@code access} belongs to Rill's internal transport package, so
     * only Rill's transports call it; applications get the config from the channel.
     *
     * @param channel the channel configured
     * @param access reads and writes the socket's options
     */
    @SuppressWarnings("exports") // SocketOptionAccess is exported to the transport modules only, on purpose
    public SocketChannelConfig(AbstractChannel channel, SocketOptionAccess access) {
        super(channel);
        if (access == null) {
            throw new NullPointerException("access");
        }
        this.access = access;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = super.getOptions();
        options.put(ChannelOption.ALLOW_HALF_CLOSURE, allowHalfClosure);
        for (ChannelOption<?> option : new ChannelOption<?>[] {ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE,
                ChannelOption.SO_RCVBUF, ChannelOption.SO_SNDBUF, ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER,
                ChannelOption.IP_TOS}) {
            Object value = getOption(option);
            if (value != null) {
                options.put(option, value);
            }
        }
        return options;
    }

    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            return cast(allowHalfClosure);
        }
        SocketOption<T> socketOption = SocketOptions.standard(option);
        if (socketOption != null) {
            return access.supportsSocketOption(socketOption) ? SocketOptions.get(access, socketOption) : null;
        }
        return super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            option.validate(value);
            setAllowHalfClosure((Boolean) value);
            return true;
        }
        SocketOption<T> socketOption = SocketOptions.standard(option);
        if (socketOption == null) {
            return super.setOption(option, value);
        }
        option.validate(value);
        if (!access.supportsSocketOption(socketOption)) {
            LOG.warn("Unsupported channel option '{}' for {} (its socket family has no such option); ignored",
                    option, channel);
            return false;
        }
        SocketOptions.set(access, socketOption, value);
        return true;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }

    // ---------------------------------------------------------------- typed accessors

    /**
     * {@return true if the peer's end of stream shuts input down instead of closing ({@link
     * io.rill.channel.ChannelOption#ALLOW_HALF_CLOSURE})}
     */
    public boolean isAllowHalfClosure() {
        return allowHalfClosure;
    }

    /**
     * Sets whether the peer's end of stream shuts input down instead of closing the channel.
     *
     * @param allowHalfClosure the new setting
     * @return this config
     */
    public SocketChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
        this.allowHalfClosure = allowHalfClosure;
        return this;
    }

    /** {@return true if {@code TCP_NODELAY} is set} */
    public boolean isTcpNoDelay() {
        Boolean value = getOption(ChannelOption.TCP_NODELAY);
        return value != null && value;
    }

    /**
     * Sets {@code TCP_NODELAY}.
     *
     * @param tcpNoDelay true to send small segments at once
     * @return this config
     */
    public SocketChannelConfig setTcpNoDelay(boolean tcpNoDelay) {
        setOption(ChannelOption.TCP_NODELAY, tcpNoDelay);
        return this;
    }

    /**
     * SO_LINGER in seconds; negative means off (close returns at once, the kernel sends what is left).
     *
     * @return the linger time in seconds, or negative
     */
    public int getSoLinger() {
        Integer value = getOption(ChannelOption.SO_LINGER);
        return value == null ? -1 : value;
    }

    /**
     * Sets {@code SO_LINGER}.
     *
     * @param seconds the linger time, or -1 for off
     * @return this config
     */
    public SocketChannelConfig setSoLinger(int seconds) {
        setOption(ChannelOption.SO_LINGER, seconds);
        return this;
    }

    /** {@return {@code SO_RCVBUF} in bytes, or -1 if the socket has none} */
    public int getReceiveBufferSize() {
        Integer value = getOption(ChannelOption.SO_RCVBUF);
        return value == null ? -1 : value;
    }

    /**
     * Sets {@code SO_RCVBUF}.
     *
     * @param bytes the receive buffer size
     * @return this config
     */
    public SocketChannelConfig setReceiveBufferSize(int bytes) {
        setOption(ChannelOption.SO_RCVBUF, bytes);
        return this;
    }

    /** {@return {@code SO_SNDBUF} in bytes, or -1 if the socket has none} */
    public int getSendBufferSize() {
        Integer value = getOption(ChannelOption.SO_SNDBUF);
        return value == null ? -1 : value;
    }

    /**
     * Sets {@code SO_SNDBUF}.
     *
     * @param bytes the send buffer size
     * @return this config
     */
    public SocketChannelConfig setSendBufferSize(int bytes) {
        setOption(ChannelOption.SO_SNDBUF, bytes);
        return this;
    }
}
