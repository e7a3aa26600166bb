package io.rill.channel;

import java.net.SocketAddress;

import io.rill.buffer.ByteBufAllocator;
import io.rill.util.concurrent.Future;

/**
 * One connection, listening socket or datagram socket, with the {@link ChannelPipeline} of
 * handlers that process its events.
 *
 * <p>A channel is created with its {@link EventLoop} and stays on it for life: every event and
 * operation of the channel runs on that loop's thread. Operations may be called from any
 * thread; they are handed to the loop and return a {@link Future} at once.
 *
 * <p>Life cycle: created → registered (with the loop's I/O handler) → active (connected or
 * bound) → inactive → unregistered, each step firing its event once; {@link #closeFuture()}
 * completes when the channel is closed.
 */
public interface Channel extends AttributeMap, ChannelOutboundInvoker, Comparable<Channel> {

    /** The channel's globally unique id. */
    ChannelId id();

    /** The server channel that accepted this one, or null. */
    Channel parent();

    /** The loop all of this channel's events run on; fixed at construction. */
    EventLoop eventLoop();

    ChannelConfig config();

    ChannelPipeline pipeline();

    /** The allocator of the channel's buffers ({@code ChannelOption.ALLOCATOR}). */
    ByteBufAllocator alloc();

    /** True until the channel is closed. */
    boolean isOpen();

    /** True while registered with its event loop's I/O handler. */
    boolean isRegistered();

    /** True while connected (or bound, for a server channel). */
    boolean isActive();

    /**
     * True if a write now would be queued without exceeding the outbound buffer's high water
     * mark and no user-defined writability flag is cleared. False once closed.
     */
    boolean isWritable();

    /** Bytes that can still be queued before {@link #isWritable()} turns false; 0 if it is false. */
    long bytesBeforeUnwritable();

    /** Bytes that must be written out before {@link #isWritable()} turns true; 0 if it is true. */
    long bytesBeforeWritable();

    /**
     * Bytes written to the peer since the channel opened (taken by the socket, not merely queued):
     * a value that grows while queued output drains, so a timer can tell a slow reader from one
     * that stopped. Read it on the channel's event loop.
     */
    long totalBytesWritten();

    /**
     * Counts {@code bytes} that a handler holds back on the way to the outbound buffer (TLS
     * plaintext waiting for the handshake, say) toward the buffer's pending total, so that they
     * too turn {@link #isWritable()} false past the high water mark. The handler must take them
     * off with {@link #decrementPendingOutboundBytes} once it passes them on or drops them.
     * Event loop only; ignored once the channel is closed.
     */
    void incrementPendingOutboundBytes(long bytes);

    /** Takes off bytes counted by {@link #incrementPendingOutboundBytes}; writable again at the low water mark. */
    void decrementPendingOutboundBytes(long bytes);

    /** The local address, or null if not bound. */
    SocketAddress localAddress();

    /** The remote address, or null if not connected. */
    SocketAddress remoteAddress();

    /** Completes (successfully) when the channel has closed; never fails. */
    Future<Void> closeFuture();

    @Override
    Channel read();

    @Override
    Channel flush();

    @Override
    default int compareTo(Channel other) {
        return this == other ? 0 : id().compareTo(other.id());
    }
}
