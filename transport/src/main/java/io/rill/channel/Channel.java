package io.rill.channel;

import java.net.SocketAddress;

import io.rill.buffer.ByteBufAllocator;
import io.rill.util.concurrent.DefaultPromise;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

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
     * Called from another thread, it counts them on the event loop, a moment later; ignored once the
     * channel is closed.
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

    // Every outbound operation starts at the tail of the channel's pipeline.


    @Override
    default Future<Void> bind(SocketAddress localAddress) {
        return pipeline().bind(localAddress);
    }

    @Override
    default Future<Void> bind(SocketAddress localAddress, Promise<Void> promise) {
        return pipeline().bind(localAddress, promise);
    }

    @Override
    default Future<Void> connect(SocketAddress remoteAddress) {
        return pipeline().connect(remoteAddress);
    }

    @Override
    default Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress) {
        return pipeline().connect(remoteAddress, localAddress);
    }

    @Override
    default Future<Void> connect(SocketAddress remoteAddress, SocketAddress localAddress, Promise<Void> promise) {
        return pipeline().connect(remoteAddress, localAddress, promise);
    }

    @Override
    default Future<Void> disconnect() {
        return pipeline().disconnect();
    }

    @Override
    default Future<Void> disconnect(Promise<Void> promise) {
        return pipeline().disconnect(promise);
    }

    @Override
    default Future<Void> close() {
        return pipeline().close();
    }

    @Override
    default Future<Void> close(Promise<Void> promise) {
        return pipeline().close(promise);
    }

    @Override
    default Future<Void> register() {
        return pipeline().register();
    }

    @Override
    default Future<Void> register(Promise<Void> promise) {
        return pipeline().register(promise);
    }

    @Override
    default Future<Void> deregister() {
        return pipeline().deregister();
    }

    @Override
    default Future<Void> deregister(Promise<Void> promise) {
        return pipeline().deregister(promise);
    }

    @Override
    default Channel read() {
        pipeline().read();
        return this;
    }

    @Override
    default Future<Void> write(Object msg) {
        return pipeline().write(msg);
    }

    @Override
    default Future<Void> write(Object msg, Promise<Void> promise) {
        return pipeline().write(msg, promise);
    }

    @Override
    default Channel flush() {
        pipeline().flush();
        return this;
    }

    @Override
    default Future<Void> writeAndFlush(Object msg) {
        return pipeline().writeAndFlush(msg);
    }

    @Override
    default Future<Void> writeAndFlush(Object msg, Promise<Void> promise) {
        return pipeline().writeAndFlush(msg, promise);
    }

    @Override
    default Promise<Void> newPromise() {
        return new DefaultPromise<>(eventLoop());
    }

    @Override
    default Future<Void> newSucceededFuture() {
        return eventLoop().newSucceededFuture(null);
    }

    @Override
    default Future<Void> newFailedFuture(Throwable cause) {
        return eventLoop().newFailedFuture(cause);
    }

    @Override
    default Promise<Void> voidPromise() {
        return pipeline().voidPromise();
    }

    @Override
    default int compareTo(Channel other) {
        return this == other ? 0 : id().compareTo(other.id());
    }
}
