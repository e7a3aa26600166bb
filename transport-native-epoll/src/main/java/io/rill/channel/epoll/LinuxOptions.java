package io.rill.channel.epoll;

import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Map;

import io.rill.channel.ChannelException;
import io.rill.channel.ChannelOption;
import io.rill.channel.internal.SocketOptionAccess;
import io.rill.util.InternalLogger;

/**
 * Socket options on a {@link LinuxSocket}: the JDK's {@link StandardSocketOptions} as a
 * {@link SocketOptionAccess} for the shared socket configs, and the Linux ones of
 * {@link EpollChannelOption}, each mapped to its {@code Native.OPT_*} id. Values are never cached.
 */
final class LinuxOptions implements SocketOptionAccess {

    private static final InternalLogger LOG = InternalLogger.get(LinuxOptions.class);

    private static final Map<SocketOption<?>, Integer> STANDARD = Map.of(
            StandardSocketOptions.TCP_NODELAY, Native.OPT_TCP_NODELAY,
            StandardSocketOptions.SO_KEEPALIVE, Native.OPT_SO_KEEPALIVE,
            StandardSocketOptions.SO_RCVBUF, Native.OPT_SO_RCVBUF,
            StandardSocketOptions.SO_SNDBUF, Native.OPT_SO_SNDBUF,
            StandardSocketOptions.SO_REUSEADDR, Native.OPT_SO_REUSEADDR,
            StandardSocketOptions.SO_REUSEPORT, Native.OPT_SO_REUSEPORT,
            StandardSocketOptions.IP_TOS, Native.OPT_IP_TOS,
            StandardSocketOptions.SO_BROADCAST, Native.OPT_SO_BROADCAST,
            StandardSocketOptions.IP_MULTICAST_TTL, Native.OPT_IP_MULTICAST_TTL,
            StandardSocketOptions.IP_MULTICAST_LOOP, Native.OPT_IP_MULTICAST_LOOP);

    /** Linux options with boolean values, of client and server sockets alike. */
    private static final Map<ChannelOption<?>, Integer> FLAGS = Map.of(
            EpollChannelOption.SO_REUSEPORT, Native.OPT_SO_REUSEPORT,
            EpollChannelOption.TCP_CORK, Native.OPT_TCP_CORK,
            EpollChannelOption.TCP_QUICKACK, Native.OPT_TCP_QUICKACK,
            EpollChannelOption.TCP_FASTOPEN_CONNECT, Native.OPT_TCP_FASTOPEN_CONNECT,
            EpollChannelOption.IP_FREEBIND, Native.OPT_IP_FREEBIND,
            EpollChannelOption.IP_TRANSPARENT, Native.OPT_IP_TRANSPARENT);

    /** Linux options with non-negative int values. */
    private static final Map<ChannelOption<?>, Integer> NUMBERS = Map.of(
            EpollChannelOption.TCP_NOTSENT_LOWAT, Native.OPT_TCP_NOTSENT_LOWAT,
            EpollChannelOption.TCP_KEEPIDLE, Native.OPT_TCP_KEEPIDLE,
            EpollChannelOption.TCP_KEEPINTVL, Native.OPT_TCP_KEEPINTVL,
            EpollChannelOption.TCP_KEEPCNT, Native.OPT_TCP_KEEPCNT,
            EpollChannelOption.TCP_USER_TIMEOUT, Native.OPT_TCP_USER_TIMEOUT,
            EpollChannelOption.TCP_FASTOPEN, Native.OPT_TCP_FASTOPEN);

    private final LinuxSocket socket;
    /** The channel whose socket this is: its EPOLL_MODE, and its name in messages. */
    private final AbstractEpollChannel owner;

    LinuxOptions(LinuxSocket socket, AbstractEpollChannel owner) {
        this.socket = socket;
        this.owner = owner;
    }

    // ---------------------------------------------------------------- SocketOptionAccess

    @Override
    public boolean supportsSocketOption(SocketOption<?> option) {
        if (socket.isUnix()) {
            // As the JDK's Unix-domain channels: buffer sizes and linger, nothing of TCP or IP.
            return option == StandardSocketOptions.SO_RCVBUF || option == StandardSocketOptions.SO_SNDBUF
                    || option == StandardSocketOptions.SO_LINGER;
        }
        return STANDARD.containsKey(option) || option == StandardSocketOptions.SO_LINGER;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getSocketOption(SocketOption<T> option) throws IOException {
        if (option == StandardSocketOptions.SO_LINGER) {
            return (T) (Integer) socket.getLinger();
        }
        int value = socket.getInt(id(option));
        return (T) (option.type() == Boolean.class ? (Object) (value != 0) : (Object) value);
    }

    @Override
    public <T> void setSocketOption(SocketOption<T> option, T value) throws IOException {
        if (option == StandardSocketOptions.SO_LINGER) {
            socket.setLinger(Math.max(-1, (Integer) value));
            return;
        }
        if (value instanceof Integer number && number < 0) {
            throw new IllegalArgumentException(option.name() + ": " + number + " (expected: >= 0)");
        }
        socket.setInt(id(option), value instanceof Boolean flag ? (flag ? 1 : 0) : (Integer) value);
    }

    private static int id(SocketOption<?> option) {
        Integer id = STANDARD.get(option);
        if (id == null) {
            throw new UnsupportedOperationException("socket option " + option.name());
        }
        return id;
    }

    // ---------------------------------------------------------------- EpollChannelOption

    /** True if the configs hand {@code option} to this class: a Linux option or EPOLL_MODE. */
    static boolean handles(ChannelOption<?> option) {
        return option == EpollChannelOption.EPOLL_MODE || FLAGS.containsKey(option) || NUMBERS.containsKey(option);
    }

    /** The value of a {@link #handles handled} option, read from the socket; null if its family lacks it. */
    @SuppressWarnings("unchecked")
    <T> T get(ChannelOption<T> option) {
        if (option == EpollChannelOption.EPOLL_MODE) {
            return (T) owner.epollMode();
        }
        if (socket.isUnix()) {
            return null;
        }
        try {
            Integer flag = FLAGS.get(option);
            if (flag != null) {
                return (T) (Boolean) (socket.getInt(flag) != 0);
            }
            return (T) (Integer) socket.getInt(NUMBERS.get(option));
        } catch (IOException e) {
            throw new ChannelException("cannot read " + option + " of " + owner, e);
        }
    }

    /**
     * Sets a {@link #handles handled} option; false (logged) if the socket's family lacks it, an
     * IllegalArgumentException for a wrong type or a negative number.
     */
    <T> boolean set(ChannelOption<T> option, T value) {
        option.validate(value);
        if (option == EpollChannelOption.EPOLL_MODE) {
            owner.epollMode((EpollMode) value);
            return true;
        }
        if (socket.isUnix()) {
            LOG.warn("Unsupported channel option '{}' for {} (a Unix-domain socket has no TCP or IP options); ignored",
                    option, owner);
            return false;
        }
        int id;
        int raw;
        if (FLAGS.containsKey(option)) {
            id = FLAGS.get(option);
            raw = (Boolean) value ? 1 : 0;
        } else {
            id = NUMBERS.get(option);
            raw = (Integer) value;
            if (raw < 0) {
                throw new IllegalArgumentException("option " + option + ": " + raw + " (expected: >= 0)");
            }
        }
        try {
            socket.setInt(id, raw);
        } catch (IOException e) {
            throw new ChannelException("cannot set " + option + " to " + value + " on " + owner, e);
        }
        return true;
    }

    /** Adds the current value of each of {@code listed} that the socket has, for a config's getOptions(). */
    void putAll(Map<ChannelOption<?>, Object> options, ChannelOption<?>... listed) {
        if (!socket.isOpen()) {
            return;
        }
        for (ChannelOption<?> option : listed) {
            Object value = get(option);
            if (value != null) {
                options.put(option, value);
            }
        }
    }

    @Override
    public String toString() {
        return owner.toString();
    }
}
