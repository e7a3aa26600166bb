package io.rill.channel.socket;

import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Map;

import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOption;
import io.rill.channel.internal.SocketOptionAccess;

/**
 * The {@link ChannelOption}s that are plain {@link StandardSocketOptions}, and how a config reads
 * and writes them on the real socket. Shared by the client and the server socket configs.
 */
final class SocketOptions {

    /** Socket-level channel options and the JDK option behind each; an option absent here is not a socket option. */
    private static final Map<ChannelOption<?>, SocketOption<?>> STANDARD = Map.of(
            ChannelOption.TCP_NODELAY, StandardSocketOptions.TCP_NODELAY,
            ChannelOption.SO_KEEPALIVE, StandardSocketOptions.SO_KEEPALIVE,
            ChannelOption.SO_RCVBUF, StandardSocketOptions.SO_RCVBUF,
            ChannelOption.SO_SNDBUF, StandardSocketOptions.SO_SNDBUF,
            ChannelOption.SO_REUSEADDR, StandardSocketOptions.SO_REUSEADDR,
            ChannelOption.SO_LINGER, StandardSocketOptions.SO_LINGER,
            ChannelOption.IP_TOS, StandardSocketOptions.IP_TOS,
            ChannelOption.SO_BROADCAST, StandardSocketOptions.SO_BROADCAST,
            ChannelOption.IP_MULTICAST_IF, StandardSocketOptions.IP_MULTICAST_IF,
            ChannelOption.IP_MULTICAST_TTL, StandardSocketOptions.IP_MULTICAST_TTL);

    private SocketOptions() {
    }

    /** The JDK option behind {@code option}, or null. */
    @SuppressWarnings("unchecked")
    static <T> SocketOption<T> standard(ChannelOption<T> option) {
        return (SocketOption<T>) STANDARD.get(option);
    }

    /** Reads {@code option} from the socket; a socket that cannot answer is a {@link ChannelException}. */
    static <T> T get(SocketOptionAccess access, SocketOption<T> option) {
        try {
            return access.getSocketOption(option);
        } catch (IOException e) {
            throw new ChannelException("cannot read " + option.name() + " of " + access, e);
        }
    }

    /** Writes {@code option}; the JDK's IllegalArgumentException for an out-of-range value passes through. */
    static <T> void set(SocketOptionAccess access, SocketOption<T> option, T value) {
        try {
            access.setSocketOption(option, value);
        } catch (IOException e) {
            throw new ChannelException("cannot set " + option.name() + " to " + value + " on " + access, e);
        }
    }

}
