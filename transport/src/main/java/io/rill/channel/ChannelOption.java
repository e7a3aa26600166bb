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
 * <p>Numeric options carry their range, and {@link #validate} refuses a value outside it with an
 * {@link InvalidChannelOptionException} naming the option and the value: bootstraps validate when
 * an option or child option is set, so {@code childOption(SO_RCVBUF, -5)} fails at once instead of
 * closing every accepted connection.
 *
 * <p>The {@code SO_*}, {@code IP_*} and {@code TCP_*} options are declared here for the socket
 * transports; a channel whose config does not know an option reports it unsupported.
 *
 * @param <T> the type of the option's values
 */
public final class ChannelOption<T> {

    private static final ConstantPool<ChannelOption<Object>> POOL =
            new ConstantPool<>((id, name) ->
                    new ChannelOption<>(id, name, Object.class, Integer.MIN_VALUE, Integer.MAX_VALUE));

    // general
    /** The allocator of the channel's buffers. */
    public static final ChannelOption<ByteBufAllocator> ALLOCATOR = define("ALLOCATOR", ByteBufAllocator.class);
    /** What predicts the size of each read buffer. */
    public static final ChannelOption<RecvByteBufAllocator> RCVBUF_ALLOCATOR =
            define("RCVBUF_ALLOCATOR", RecvByteBufAllocator.class);
    /** How long a connect may take, in milliseconds; 0 means no timeout. */
    public static final ChannelOption<Integer> CONNECT_TIMEOUT_MILLIS =
            defineInt("CONNECT_TIMEOUT_MILLIS", 0, Integer.MAX_VALUE);
    /** The most messages one read burst delivers, so one busy channel cannot starve the others on its loop. */
    public static final ChannelOption<Integer> MAX_MESSAGES_PER_READ =
            defineInt("MAX_MESSAGES_PER_READ", 1, Integer.MAX_VALUE);
    /** The most write attempts per flush before the loop moves on to other channels. */
    public static final ChannelOption<Integer> WRITE_SPIN_COUNT = defineInt("WRITE_SPIN_COUNT", 1, Integer.MAX_VALUE);
    /** The outbound buffer's high and low water marks, which flip {@link Channel#isWritable()}. */
    public static final ChannelOption<WriteBufferWaterMark> WRITE_BUFFER_WATER_MARK =
            define("WRITE_BUFFER_WATER_MARK", WriteBufferWaterMark.class);
    /**
     * When the peer shuts its output down, keep the channel open with input shut (firing {@code
     * ChannelInputShutdownEvent}) instead of closing it.
     */
    public static final ChannelOption<Boolean> ALLOW_HALF_CLOSURE = define("ALLOW_HALF_CLOSURE", Boolean.class);
    /** Read without being asked by {@code read()}; off gives the application explicit back-pressure. */
    public static final ChannelOption<Boolean> AUTO_READ = define("AUTO_READ", Boolean.class);
    /** Close the channel when a write fails. */
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
    /** {@code SO_BROADCAST}: a datagram socket may send to broadcast addresses. */
    public static final ChannelOption<Boolean> SO_BROADCAST = define("SO_BROADCAST", Boolean.class);
    /** {@code SO_KEEPALIVE}: the kernel probes an idle connection. */
    public static final ChannelOption<Boolean> SO_KEEPALIVE = define("SO_KEEPALIVE", Boolean.class);
    /** {@code SO_SNDBUF}: the kernel's send buffer size, in bytes. */
    public static final ChannelOption<Integer> SO_SNDBUF = defineInt("SO_SNDBUF", 1, Integer.MAX_VALUE);
    /** {@code SO_RCVBUF}: the kernel's receive buffer size, in bytes. */
    public static final ChannelOption<Integer> SO_RCVBUF = defineInt("SO_RCVBUF", 1, Integer.MAX_VALUE);
    /** {@code SO_REUSEADDR}: bind even while old connections on the address are in TIME_WAIT. */
    public static final ChannelOption<Boolean> SO_REUSEADDR = define("SO_REUSEADDR", Boolean.class);
    /** {@code SO_LINGER}: seconds a close waits for unsent data; -1 turns lingering off. */
    public static final ChannelOption<Integer> SO_LINGER = defineInt("SO_LINGER", -1, 65535);
    /** The listen backlog: connections the kernel queues before they are accepted. */
    public static final ChannelOption<Integer> SO_BACKLOG = defineInt("SO_BACKLOG", 0, Integer.MAX_VALUE);
    /** {@code SO_TIMEOUT}: kept for option-name compatibility; non-blocking transports do not use it. */
    public static final ChannelOption<Integer> SO_TIMEOUT = defineInt("SO_TIMEOUT", 0, Integer.MAX_VALUE);
    /** {@code IP_TOS}: the type-of-service (DSCP and ECN) byte of outgoing packets. */
    public static final ChannelOption<Integer> IP_TOS = defineInt("IP_TOS", 0, 255);
    /** The multicast address of a datagram channel. */
    public static final ChannelOption<InetAddress> IP_MULTICAST_ADDR = define("IP_MULTICAST_ADDR", InetAddress.class);
    /** {@code IP_MULTICAST_IF}: the interface multicast datagrams are sent from. */
    public static final ChannelOption<NetworkInterface> IP_MULTICAST_IF = define("IP_MULTICAST_IF", NetworkInterface.class);
    /** {@code IP_MULTICAST_TTL}: the hop limit of multicast datagrams. */
    public static final ChannelOption<Integer> IP_MULTICAST_TTL = defineInt("IP_MULTICAST_TTL", 0, 255);
    /** Multicast datagrams sent are not looped back to this host. */
    public static final ChannelOption<Boolean> IP_MULTICAST_LOOP_DISABLED = define("IP_MULTICAST_LOOP_DISABLED", Boolean.class);
    /** {@code TCP_NODELAY}: send small segments at once instead of waiting (Nagle's algorithm off). */
    public static final ChannelOption<Boolean> TCP_NODELAY = define("TCP_NODELAY", Boolean.class);

    /** Position in the pool, unique per option. */
    private final int id;
    private final String name;
    /** Every value must be an instance of this; Object for options made by {@link #valueOf(String)}. */
    private final Class<?> valueType;
    /** Smallest and largest Integer value allowed; the whole int range for options of other types. */
    private final int min;
    private final int max;

    private ChannelOption(int id, String name, Class<?> valueType, int min, int max) {
        this.id = id;
        this.name = name;
        this.valueType = valueType;
        this.min = min;
        this.max = max;
    }

    @SuppressWarnings("unchecked")
    private static <T> ChannelOption<T> define(String name, Class<T> type) {
        return (ChannelOption<T>) (ChannelOption<?>) POOL.newInstance(name,
                (id, n) -> new ChannelOption<>(id, n, type, Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    @SuppressWarnings("unchecked")
    private static ChannelOption<Integer> defineInt(String name, int min, int max) {
        if (min > max) {
            throw new IllegalArgumentException(name + ": min " + min + " > max " + max);
        }
        return (ChannelOption<Integer>) (ChannelOption<?>) POOL.newInstance(name,
                (id, n) -> new ChannelOption<>(id, n, Integer.class, min, max));
    }

    /**
     * The option named {@code name} (an untyped one is created if none exists).
     *
     * @param <T> the value type
     * @param name the option's name
     * @return the option
     */
    @SuppressWarnings("unchecked")
    public static <T> ChannelOption<T> valueOf(String name) {
        return (ChannelOption<T>) (ChannelOption<?>) POOL.valueOf(name);
    }

    /**
     * A new option whose values must be {@code type}s; throws if {@code name} is taken.
     *
     * @param <T> the value type
     * @param name the option's name, not yet used
     * @param type the class of its values
     * @return the new option
     */
    @SuppressWarnings("unchecked")
    public static <T> ChannelOption<T> newInstance(String name, Class<T> type) {
        Objects.requireNonNull(type, "type");
        return define(name, type);
    }

    /**
     * A new option whose values must be Integers from {@code min} to {@code max}; throws if {@code name} is
     * taken.
     *
     * @param name the option's name, not yet used
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @return the new option
     */
    public static ChannelOption<Integer> newInstance(String name, int min, int max) {
        return defineInt(name, min, max);
    }

    /**
     * {@return true if an option named {@code name} exists}
     *
     * @param name the option's name
     */
    public static boolean exists(String name) {
        return POOL.exists(name);
    }

    /** {@return the option's name} */
    public String name() {
        return name;
    }

    /** {@return a number unique to this option, in the order options were created} */
    public int id() {
        return id;
    }

    /** {@return the type values must have} */
    public Class<?> valueType() {
        return valueType;
    }

    /**
     * Throws an {@link InvalidChannelOptionException} (an {@link IllegalArgumentException}) naming
     * this option and {@code value} unless the value is non-null, of this option's type and, for a
     * numeric option, within its range.
     *
     * @param value the value to check
     */
    public void validate(Object value) {
        if (value == null) {
            throw new InvalidChannelOptionException(this, null, "a " + valueType.getSimpleName());
        }
        if (!valueType.isInstance(value)) {
            throw new InvalidChannelOptionException(this, value + " of type " + value.getClass().getName(),
                    "a " + valueType.getName());
        }
        if (value instanceof Integer number && (number < min || number > max)) {
            throw new InvalidChannelOptionException(this, value, expectedRange());
        }
    }

    private String expectedRange() {
        if (max == Integer.MAX_VALUE) {
            return ">= " + min;
        }
        return min + ".." + max;
    }

    @Override
    public String toString() {
        return name;
    }
}
