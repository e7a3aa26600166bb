package io.rill.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.IdentityHashMap;
import java.util.Map;

import io.rill.buffer.ByteBufAllocator;
import io.rill.util.InternalLogger;

/**
 * The settings of one channel, as typed properties and as {@link ChannelOption}s.
 *
 * <p>Transports extend this class with their own options: override {@link #setOption} and
 * {@link #getOption} to handle theirs and delegate the rest to {@code super}, and add them to
 * {@link #getOptions()}.
 *
 * <p>Unknown and wrong values are reported differently on purpose: a value of the wrong type or
 * out of range is a programming error and throws {@link IllegalArgumentException}; an option
 * this channel does not support (say {@code TCP_NODELAY} on an in-VM channel) is common when one
 * bootstrap configuration serves several transports, so {@code setOption} logs a warning and
 * returns false.
 */
public class ChannelConfig {

    private static final InternalLogger LOG = InternalLogger.get(ChannelConfig.class);
    private static final VarHandle AUTO_READ;

    static {
        try {
            AUTO_READ = MethodHandles.lookup().findVarHandle(ChannelConfig.class, "autoRead", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final RecvByteBufAllocator DEFAULT_RECV_ALLOCATOR = new AdaptiveRecvByteBufAllocator();

    /** The channel configured; its read hooks run when AUTO_READ changes. */
    protected final AbstractChannel channel;

    /** Allocates the channel's buffers. */
    private volatile ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;
    /**
     * Sizes the channel's read buffers; its handle is created by the transport's read loop. The
     * default is one immutable instance for every channel: what adapts is each channel's handle.
     */
    private volatile RecvByteBufAllocator recvByteBufAllocator = DEFAULT_RECV_ALLOCATOR;
    /** Milliseconds a connect may take before it fails; 0 = no limit. */
    private volatile int connectTimeoutMillis = 30_000;
    /** Most messages one read burst delivers before other channels get their turn; ≥ 1. */
    private volatile int maxMessagesPerRead = 16;
    /** Most write attempts per flush before the loop turns to other work; ≥ 1. */
    private volatile int writeSpinCount = 16;
    private volatile WriteBufferWaterMark writeBufferWaterMark = WriteBufferWaterMark.DEFAULT;
    /** Read again after each read burst without being asked; changed with CAS so only one caller acts on a change. */
    private volatile boolean autoRead = true;
    /** Close the channel when a write fails. */
    private volatile boolean autoClose = true;
    /** Pause automatic reading while unwritable; by default on for accepted channels (see the option). */
    private volatile boolean pauseReadWhenUnwritable;
    /** Automatic reading is paused because the channel is not writable. Written on the loop only. */
    private volatile boolean readPausedForWrites;

    /**
     * The configuration of {@code channel}, every option at its default.
     *
     * @param channel the channel configured
     */
    public ChannelConfig(AbstractChannel channel) {
        if (channel == null) {
            throw new NullPointerException("channel");
        }
        this.channel = channel;
        this.pauseReadWhenUnwritable = channel.parent() != null;
    }

    // ---------------------------------------------------------------- options

    /**
     * Every option this config supports, with its current value.
     *
     * @return a new map; changing it changes nothing
     */
    public Map<ChannelOption<?>, Object> getOptions() {
        Map<ChannelOption<?>, Object> options = new IdentityHashMap<>();
        options.put(ChannelOption.ALLOCATOR, allocator);
        options.put(ChannelOption.RCVBUF_ALLOCATOR, recvByteBufAllocator);
        options.put(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
        options.put(ChannelOption.MAX_MESSAGES_PER_READ, maxMessagesPerRead);
        options.put(ChannelOption.WRITE_SPIN_COUNT, writeSpinCount);
        options.put(ChannelOption.WRITE_BUFFER_WATER_MARK, writeBufferWaterMark);
        options.put(ChannelOption.AUTO_READ, autoRead);
        options.put(ChannelOption.AUTO_CLOSE, autoClose);
        options.put(ChannelOption.PAUSE_READ_WHEN_UNWRITABLE, pauseReadWhenUnwritable);
        return options;
    }

    /**
     * Sets every option in {@code options}; returns false if any was unsupported (each logged).
     *
     * @param options the options and their values
     * @return true if every option was supported
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public boolean setOptions(Map<ChannelOption<?>, ?> options) {
        boolean all = true;
        for (Map.Entry<ChannelOption<?>, ?> e : options.entrySet()) {
            all &= setOption((ChannelOption) e.getKey(), e.getValue());
        }
        return all;
    }

    /**
     * The value of {@code option}, or null if this config does not support it.
     *
     * @param <T> the value type
     * @param option the option
     * @return its value, or null
     */
    @SuppressWarnings("unchecked")
    public <T> T getOption(ChannelOption<T> option) {
        Object value;
        if (option == ChannelOption.ALLOCATOR) {
            value = allocator;
        } else if (option == ChannelOption.RCVBUF_ALLOCATOR) {
            value = recvByteBufAllocator;
        } else if (option == ChannelOption.CONNECT_TIMEOUT_MILLIS) {
            value = connectTimeoutMillis;
        } else if (option == ChannelOption.MAX_MESSAGES_PER_READ) {
            value = maxMessagesPerRead;
        } else if (option == ChannelOption.WRITE_SPIN_COUNT) {
            value = writeSpinCount;
        } else if (option == ChannelOption.WRITE_BUFFER_WATER_MARK) {
            value = writeBufferWaterMark;
        } else if (option == ChannelOption.AUTO_READ) {
            value = autoRead;
        } else if (option == ChannelOption.AUTO_CLOSE) {
            value = autoClose;
        } else if (option == ChannelOption.PAUSE_READ_WHEN_UNWRITABLE) {
            value = pauseReadWhenUnwritable;
        } else {
            value = null;
        }
        return (T) value;
    }

    /**
     * Sets {@code option}. Returns false, logging a warning, if this config does not support it;
     * throws {@link IllegalArgumentException} for a null, wrong-typed or out-of-range value.
     *
     * @param <T> the value type
     * @param option the option
     * @param value its new value
     * @return true if supported
     */
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        option.validate(value);
        if (option == ChannelOption.ALLOCATOR) {
            setAllocator((ByteBufAllocator) value);
        } else if (option == ChannelOption.RCVBUF_ALLOCATOR) {
            setRecvByteBufAllocator((RecvByteBufAllocator) value);
        } else if (option == ChannelOption.CONNECT_TIMEOUT_MILLIS) {
            setConnectTimeoutMillis((Integer) value);
        } else if (option == ChannelOption.MAX_MESSAGES_PER_READ) {
            setMaxMessagesPerRead((Integer) value);
        } else if (option == ChannelOption.WRITE_SPIN_COUNT) {
            setWriteSpinCount((Integer) value);
        } else if (option == ChannelOption.WRITE_BUFFER_WATER_MARK) {
            setWriteBufferWaterMark((WriteBufferWaterMark) value);
        } else if (option == ChannelOption.AUTO_READ) {
            setAutoRead((Boolean) value);
        } else if (option == ChannelOption.AUTO_CLOSE) {
            setAutoClose((Boolean) value);
        } else if (option == ChannelOption.PAUSE_READ_WHEN_UNWRITABLE) {
            setPauseReadWhenUnwritable((Boolean) value);
        } else {
            LOG.warn("Unsupported channel option '{}' for {}; ignored", option, channel.getClass().getSimpleName());
            return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- typed accessors

    /** {@return the allocator of the channel's buffers ({@link ChannelOption#ALLOCATOR})} */
    public ByteBufAllocator getAllocator() {
        return allocator;
    }

    /**
     * Sets the allocator of the channel's buffers.
     *
     * @param allocator the allocator
     * @return this config
     */
    public ChannelConfig setAllocator(ByteBufAllocator allocator) {
        if (allocator == null) {
            throw new NullPointerException("allocator");
        }
        this.allocator = allocator;
        return this;
    }

    /** {@return what chooses the size of each read buffer ({@link ChannelOption#RCVBUF_ALLOCATOR})} */
    public RecvByteBufAllocator getRecvByteBufAllocator() {
        return recvByteBufAllocator;
    }

    /**
     * Sets what chooses the size of each read buffer.
     *
     * @param allocator the read-size predictor
     * @return this config
     */
    public ChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        if (allocator == null) {
            throw new NullPointerException("recvByteBufAllocator");
        }
        this.recvByteBufAllocator = allocator;
        return this;
    }

    /** {@return the connect timeout in milliseconds; 0 means none ({@link ChannelOption#CONNECT_TIMEOUT_MILLIS})} */
    public int getConnectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    /**
     * Sets the connect timeout.
     *
     * @param millis the timeout in milliseconds, 0 for none
     * @return this config
     */
    public ChannelConfig setConnectTimeoutMillis(int millis) {
        this.connectTimeoutMillis = checkAtLeast("CONNECT_TIMEOUT_MILLIS", millis, 0);
        return this;
    }

    /** {@return the most messages one read burst delivers ({@link ChannelOption#MAX_MESSAGES_PER_READ})} */
    public int getMaxMessagesPerRead() {
        return maxMessagesPerRead;
    }

    /**
     * Sets the most messages one read burst delivers, so one busy channel cannot starve the others on its loop.
     *
     * @param max at least 1
     * @return this config
     */
    public ChannelConfig setMaxMessagesPerRead(int max) {
        this.maxMessagesPerRead = checkAtLeast("MAX_MESSAGES_PER_READ", max, 1);
        return this;
    }

    /**
     * {@return the most write attempts per flush before the loop moves on ({@link
     * ChannelOption#WRITE_SPIN_COUNT})}
     */
    public int getWriteSpinCount() {
        return writeSpinCount;
    }

    /**
     * Sets the most write attempts per flush before the loop moves on to other channels.
     *
     * @param count at least 1
     * @return this config
     */
    public ChannelConfig setWriteSpinCount(int count) {
        this.writeSpinCount = checkAtLeast("WRITE_SPIN_COUNT", count, 1);
        return this;
    }

    /** {@return the outbound buffer's water marks ({@link ChannelOption#WRITE_BUFFER_WATER_MARK})} */
    public WriteBufferWaterMark getWriteBufferWaterMark() {
        return writeBufferWaterMark;
    }

    /**
     * Sets the outbound buffer's water marks, which flip {@link Channel#isWritable()}.
     *
     * @param mark the marks
     * @return this config
     */
    public ChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark mark) {
        if (mark == null) {
            throw new NullPointerException("writeBufferWaterMark");
        }
        this.writeBufferWaterMark = mark;
        return this;
    }

    /**
     * {@return true if the channel reads on its own without {@code read()} calls ({@link
     * ChannelOption#AUTO_READ})}
     */
    public boolean isAutoRead() {
        return autoRead;
    }

    /**
     * Turning it on requests a read at once (unless reading is paused for a full outbound buffer:
     * it then starts when the buffer drains); turning it off lets the transport stop watching for input.
     *
     * @param autoRead the new setting
     * @return this config
     */
    public ChannelConfig setAutoRead(boolean autoRead) {
        boolean was = (boolean) AUTO_READ.getAndSet(this, autoRead);
        if (autoRead && !was) {
            if (!readPausedForWrites) {
                channel.read();
            }
        } else if (!autoRead && was) {
            channel.autoReadCleared();
        }
        return this;
    }

    /**
     * True if the transport reads on its own now: AUTO_READ is on and reading is not paused for a
     * full outbound buffer. Transports ask this, not {@link #isAutoRead()}, when deciding to go on reading.
     *
     * @return true if reading automatically
     */
    public boolean isReadingAutomatically() {
        return autoRead && !readPausedForWrites;
    }

    /** {@return true while automatic reading is paused because the channel is not writable} */
    public boolean isReadPausedForWrites() {
        return readPausedForWrites;
    }

    /**
     * {@return true if automatic reading pauses while the channel is not writable ({@link
     * ChannelOption#PAUSE_READ_WHEN_UNWRITABLE})}
     */
    public boolean isPauseReadWhenUnwritable() {
        return pauseReadWhenUnwritable;
    }

    /**
     * See {@link ChannelOption#PAUSE_READ_WHEN_UNWRITABLE}; turning it off resumes a paused read.
     *
     * @param pause the new setting
     * @return this config
     */
    public ChannelConfig setPauseReadWhenUnwritable(boolean pause) {
        this.pauseReadWhenUnwritable = pause;
        if (!pause) {
            channel.runOnLoop(channel::updateReadPause);
        }
        return this;
    }

    /** Called on the loop when writability may have changed; returns true if the pause state flipped. */
    final boolean pauseReadForWrites(boolean pause) {
        if (readPausedForWrites == pause) {
            return false;
        }
        readPausedForWrites = pause;
        return true;
    }

    /** {@return true if a failed write closes the channel ({@link ChannelOption#AUTO_CLOSE})} */
    public boolean isAutoClose() {
        return autoClose;
    }

    /**
     * Sets whether a failed write closes the channel.
     *
     * @param autoClose the new setting
     * @return this config
     */
    public ChannelConfig setAutoClose(boolean autoClose) {
        this.autoClose = autoClose;
        return this;
    }

    /**
     * {@return {@code value} if it is at least {@code min}}
     *
     * @param what the option name, for the message
     * @param value the value to check
     * @param min the smallest allowed value
     * @throws IllegalArgumentException naming the option and the value when it is too small
     */
    protected static int checkAtLeast(String what, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(what + ": " + value + " (expected: >= " + min + ')');
        }
        return value;
    }
}
