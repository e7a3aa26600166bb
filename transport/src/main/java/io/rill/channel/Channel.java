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

    /** {@return the channel's globally unique id} */
    ChannelId id();

    /** {@return the server channel that accepted this one, or null} */
    Channel parent();

    /** {@return the loop all of this channel's events run on; fixed at construction} */
    EventLoop eventLoop();

    /** {@return the channel's configuration: options read and written from any thread} */
    ChannelConfig config();

    /** {@return the channel's pipeline of handlers} */
    ChannelPipeline pipeline();

    /** {@return the allocator of the channel's buffers ({@code ChannelOption.ALLOCATOR})} */
    ByteBufAllocator alloc();

    /** {@return true until the channel is closed} */
    boolean isOpen();

    /** {@return true while registered with its event loop's I/O handler} */
    boolean isRegistered();

    /** {@return true while connected (or bound, for a server channel)} */
    boolean isActive();

    /**
     * True if a write now would be queued without exceeding the outbound buffer's high water
     * mark and no user-defined writability flag is cleared. False once closed.
     *
     * @return true if writable
     */
    boolean isWritable();

    /** {@return the bytes that can still be queued before {@link #isWritable()} turns false; 0 if it is false} */
    long bytesBeforeUnwritable();

    /** {@return the bytes that must be written out before {@link #isWritable()} turns true; 0 if it is true} */
    long bytesBeforeWritable();

    /**
     * Bytes written to the peer since the channel opened (taken by the socket, not merely queued):
     * a value that grows while queued output drains, so a timer can tell a slow reader from one
     * that stopped. Read it on the channel's event loop.
     *
     * @return the byte count
     */
    long totalBytesWritten();

    /**
     * Counts {@code bytes} that a handler holds back on the way to the outbound buffer (TLS
     * plaintext waiting for the handshake, say) toward the buffer's pending total, so that they
     * too turn {@link #isWritable()} false past the high water mark. The handler must take them
     * off with {@link #decrementPendingOutboundBytes} once it passes them on or drops them.
     * Event loop only; ignored once the channel is closed.
     *
     * @param bytes the bytes held back, not negative
     */
    void incrementPendingOutboundBytes(long bytes);

    /**
     * Takes off bytes counted by {@link #incrementPendingOutboundBytes}; writable again at the low water mark.
     *
     * @param bytes the bytes no longer held back
     */
    void decrementPendingOutboundBytes(long bytes);

    /** {@return the local address, or null if not bound} */
    SocketAddress localAddress();

    /** {@return the remote address, or null if not connected} */
    SocketAddress remoteAddress();

    /** {@return a future that completes (successfully) when the channel has closed; it never fails} */
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
