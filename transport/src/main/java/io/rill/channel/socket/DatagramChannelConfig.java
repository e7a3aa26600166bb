package io.rill.channel.socket;

import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Map;

import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelOption;
import io.rill.channel.FixedRecvByteBufAllocator;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.util.InternalLogger;

/**
 * The options of a {@link DatagramChannel}: {@code SO_BROADCAST}, {@code SO_RCVBUF},
 * {@code SO_SNDBUF}, {@code SO_REUSEADDR}, {@code IP_TOS}, {@code IP_MULTICAST_IF},
 * {@code IP_MULTICAST_TTL} and {@code IP_MULTICAST_LOOP_DISABLED}, read from and written to the
 * socket. Reads go into fixed 2,048-byte buffers by default: a datagram larger than its buffer is
 * truncated by the kernel, and sizes do not follow a trend an adaptive guess could learn; raise
 * it with {@code RCVBUF_ALLOCATOR} for larger datagrams (at most 65,507 bytes over IPv4).
 */
public class DatagramChannelConfig extends ChannelConfig {

    private static final InternalLogger LOG = InternalLogger.get(DatagramChannelConfig.class);
    private static final ChannelOption<?>[] SOCKET_OPTIONS = {ChannelOption.SO_BROADCAST, ChannelOption.SO_RCVBUF,
        ChannelOption.SO_SNDBUF, ChannelOption.SO_REUSEADDR, ChannelOption.IP_TOS, ChannelOption.IP_MULTICAST_IF,
        ChannelOption.IP_MULTICAST_TTL};

    /** The real socket; every socket option goes straight to it. */
    private final SocketOptionAccess access;

    /**
     * The configuration of a datagram channel whose socket options go through {@code access}.
     * A transport's constructor: {@code access} belongs to Rill's internal transport package, so
     * only Rill's transports call it; applications get the config from the channel.
     *
     * @param channel the channel configured
     * @param access reads and writes the socket's options
     */
    @SuppressWarnings("exports") // SocketOptionAccess is exported to the transport modules only, on purpose
    public DatagramChannelConfig(AbstractChannel channel, SocketOptionAccess access) {
        super(channel);
        if (access == null) {
            throw new NullPointerException("access");
        }
        this.access = access;
        setRecvByteBufAllocator(new FixedRecvByteBufAllocator(2048));
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = super.getOptions();
        for (ChannelOption<?> option : SOCKET_OPTIONS) {
            Object value = getOption(option);
            if (value != null) {
                options.put(option, value);
            }
        }
        Object loopDisabled = getOption(ChannelOption.IP_MULTICAST_LOOP_DISABLED);
        if (loopDisabled != null) {
            options.put(ChannelOption.IP_MULTICAST_LOOP_DISABLED, loopDisabled);
        }
        return options;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
            // The JDK's option says "loop enabled"; ours, like Netty's, says "disabled".
            if (!access.supportsSocketOption(StandardSocketOptions.IP_MULTICAST_LOOP)) {
                return null;
            }
            return (T) (Boolean) !SocketOptions.get(access, StandardSocketOptions.IP_MULTICAST_LOOP);
        }
        SocketOption<T> socketOption = isSocketOption(option) ? SocketOptions.standard(option) : null;
        if (socketOption != null) {
            return access.supportsSocketOption(socketOption) ? SocketOptions.get(access, socketOption) : null;
        }
        return super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        if (option == ChannelOption.IP_MULTICAST_LOOP_DISABLED) {
            option.validate(value);
            return setSocket(option, StandardSocketOptions.IP_MULTICAST_LOOP, !(Boolean) value);
        }
        SocketOption<T> socketOption = isSocketOption(option) ? SocketOptions.standard(option) : null;
        if (socketOption == null) {
            return super.setOption(option, value);
        }
        option.validate(value);
        return setSocket(option, socketOption, value);
    }

    private <T> boolean setSocket(ChannelOption<?> option, SocketOption<T> socketOption, T value) {
        if (!access.supportsSocketOption(socketOption)) {
            LOG.warn("Unsupported channel option '{}' for {}; ignored", option, channel);
            return false;
        }
        SocketOptions.set(access, socketOption, value);
        return true;
    }

    private static boolean isSocketOption(ChannelOption<?> option) {
        for (ChannelOption<?> o : SOCKET_OPTIONS) {
            if (o == option) {
                return true;
            }
        }
        return false;
    }
}
