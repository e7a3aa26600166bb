package io.rill.channel;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Objects;

import io.rill.buffer.ByteBufAllocator;

/**
 * A typed key for {@link ChannelConfig#setOption}. Options are singletons per name (like
 * {@link AttributeKey}s) and carry their value type, so a value of the wrong type (through raw
 * types or a configuration file) is refused at {@code setOption}, not at first use.
 *
 * <p>The {@code SO_*}, {@code IP_*} and {@code TCP_*} options are declared here for the socket
 * transports; a channel whose config does not know an option reports it unsupported.
 */
public final class ChannelOption<T> {

    private static final ConstantPool<ChannelOption<Object>> POOL =
            new ConstantPool<>((id, name) -> new ChannelOption<>(id, name, Object.class));

    // general
    public static final ChannelOption<ByteBufAllocator> ALLOCATOR = define("ALLOCATOR", ByteBufAllocator.class);
    public static final ChannelOption<RecvByteBufAllocator> RCVBUF_ALLOCATOR =
            define("RCVBUF_ALLOCATOR", RecvByteBufAllocator.class);
    public static final ChannelOption<Integer> CONNECT_TIMEOUT_MILLIS = define("CONNECT_TIMEOUT_MILLIS", Integer.class);
    public static final ChannelOption<Integer> MAX_MESSAGES_PER_READ = define("MAX_MESSAGES_PER_READ", Integer.class);
    public static final ChannelOption<Integer> WRITE_SPIN_COUNT = define("WRITE_SPIN_COUNT", Integer.class);
    public static final ChannelOption<WriteBufferWaterMark> WRITE_BUFFER_WATER_MARK =
            define("WRITE_BUFFER_WATER_MARK", WriteBufferWaterMark.class);
    public static final ChannelOption<Boolean> ALLOW_HALF_CLOSURE = define("ALLOW_HALF_CLOSURE", Boolean.class);
    public static final ChannelOption<Boolean> AUTO_READ = define("AUTO_READ", Boolean.class);
    public static final ChannelOption<Boolean> AUTO_CLOSE = define("AUTO_CLOSE", Boolean.class);
    /**
     * Automatic reading pauses while the channel is not writable (its outbound buffer is above the
     * high water mark) and resumes once it is again, so a peer that sends without reading the
     * answers costs at most the water mark plus one read burst. On by default for channels a server
     * accepted, off for others; turn it off for handlers that watch writability themselves.
     * An explicit {@code read()} still reads.
     */
    public static final ChannelOption<Boolean> PAUSE_READ_WHEN_UNWRITABLE =
            define("PAUSE_READ_WHEN_UNWRITABLE", Boolean.class);

    // sockets (java.net.StandardSocketOptions)
    public static final ChannelOption<Boolean> SO_BROADCAST = define("SO_BROADCAST", Boolean.class);
    public static final ChannelOption<Boolean> SO_KEEPALIVE = define("SO_KEEPALIVE", Boolean.class);
    public static final ChannelOption<Integer> SO_SNDBUF = define("SO_SNDBUF", Integer.class);
    public static final ChannelOption<Integer> SO_RCVBUF = define("SO_RCVBUF", Integer.class);
    public static final ChannelOption<Boolean> SO_REUSEADDR = define("SO_REUSEADDR", Boolean.class);
    public static final ChannelOption<Integer> SO_LINGER = define("SO_LINGER", Integer.class);
    public static final ChannelOption<Integer> SO_BACKLOG = define("SO_BACKLOG", Integer.class);
    public static final ChannelOption<Integer> SO_TIMEOUT = define("SO_TIMEOUT", Integer.class);
    public static final ChannelOption<Integer> IP_TOS = define("IP_TOS", Integer.class);
    public static final ChannelOption<InetAddress> IP_MULTICAST_ADDR = define("IP_MULTICAST_ADDR", InetAddress.class);
    public static final ChannelOption<NetworkInterface> IP_MULTICAST_IF = define("IP_MULTICAST_IF", NetworkInterface.class);
    public static final ChannelOption<Integer> IP_MULTICAST_TTL = define("IP_MULTICAST_TTL", Integer.class);
    public static final ChannelOption<Boolean> IP_MULTICAST_LOOP_DISABLED = define("IP_MULTICAST_LOOP_DISABLED", Boolean.class);
    public static final ChannelOption<Boolean> TCP_NODELAY = define("TCP_NODELAY", Boolean.class);

    /** Position in the pool, unique per option. */
    private final int id;
    private final String name;
    /** Every value must be an instance of this; Object for options made by {@link #valueOf(String)}. */
    private final Class<?> valueType;

    private ChannelOption(int id, String name, Class<?> valueType) {
        this.id = id;
        this.name = name;
        this.valueType = valueType;
    }

    @SuppressWarnings("unchecked")
    private static <T> ChannelOption<T> define(String name, Class<T> type) {
        return (ChannelOption<T>) (ChannelOption<?>) POOL.newInstance(name, (id, n) -> new ChannelOption<>(id, n, type));
    }

    /** The option named {@code name} (an untyped one is created if none exists). */
    @SuppressWarnings("unchecked")
    public static <T> ChannelOption<T> valueOf(String name) {
        return (ChannelOption<T>) (ChannelOption<?>) POOL.valueOf(name);
    }

    /** A new option whose values must be {@code type}s; throws if {@code name} is taken. */
    @SuppressWarnings("unchecked")
    public static <T> ChannelOption<T> newInstance(String name, Class<T> type) {
        Objects.requireNonNull(type, "type");
        return (ChannelOption<T>) (ChannelOption<?>) POOL.newInstance(name, (id, n) -> new ChannelOption<>(id, n, type));
    }

    public static boolean exists(String name) {
        return POOL.exists(name);
    }

    public String name() {
        return name;
    }

    public int id() {
        return id;
    }

    /** The type values must have. */
    public Class<?> valueType() {
        return valueType;
    }

    /** Throws {@link IllegalArgumentException} unless {@code value} is a non-null value of this option's type. */
    public void validate(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("option " + name + ": null value");
        }
        if (!valueType.isInstance(value)) {
            throw new IllegalArgumentException("option " + name + " takes a " + valueType.getName()
                    + ", not a " + value.getClass().getName() + " (" + value + ')');
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
