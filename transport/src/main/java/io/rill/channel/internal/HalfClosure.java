package io.rill.channel.internal;

import java.io.IOException;
import java.util.function.Consumer;

import io.rill.buffer.ByteBuf;
import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelClosedException;
import io.rill.channel.ChannelOutboundBuffer;
import io.rill.channel.FileRegion;
import io.rill.channel.socket.ChannelInputShutdownEvent;
import io.rill.channel.socket.ChannelInputShutdownReadComplete;
import io.rill.channel.socket.ChannelOutputShutdownEvent;
import io.rill.channel.socket.DuplexChannel;
import io.rill.channel.socket.SocketChannelConfig;
import io.rill.util.concurrent.Future;
import io.rill.util.concurrent.Promise;

/**
 * The transport-independent part of a byte-stream {@link DuplexChannel} (NIO or native): which
 * direction is shut, what end of stream from the peer does, the {@code shutdown*} operations, and
 * which messages may still be written. A transport owns one per channel and supplies the socket
 * calls as a {@link Socket}; everything here runs on the channel's event loop, the flags are read
 * anywhere.
 *
 * <p>End of stream closes the channel (input counts as shut from then on, for a close that a
 * handler delays), or with {@code ALLOW_HALF_CLOSURE} shuts input down, fires
 * {@link ChannelInputShutdownEvent} and {@link ChannelInputShutdownReadComplete}, and stops
 * reading for good (a socket at end of stream is always readable: watching it would spin the
 * loop). Once both directions are shut the channel closes: nothing is left for it to do.
 */
public final class HalfClosure {

    /** What the transport does for a half closure. */
    public interface Socket {
        /**
         * {@code shutdown(2)} of the given directions.
         *
         * @param input whether to shut the input down
         * @param output whether to shut the output down
         * @throws IOException if the system call fails
         */
        void shutdown(boolean input, boolean output) throws IOException;

        /** Stop watching for input: no read is pending any more and none will be asked for. */
        void stopReading();

        /** {@return the channel's outbound buffer, or null once close started} */
        ChannelOutboundBuffer outboundBuffer();
    }

    private final AbstractChannel channel;
    private final SocketChannelConfig config;
    private final Socket socket;
    private volatile boolean inputShutdown;
    private volatile boolean outputShutdown;

    /**
     * The half-closure state of {@code channel}, whose socket {@code socket} shuts down.
     *
     * @param channel the channel
     * @param config its config (for ALLOW_HALF_CLOSURE)
     * @param socket shuts the directions of the transport's socket
     */
    public HalfClosure(AbstractChannel channel, SocketChannelConfig config, Socket socket) {
        this.channel = channel;
        this.config = config;
        this.socket = socket;
    }

    /** {@return true once input was shut down, by request or by the peer's end of stream} */
    public boolean isInputShutdown() {
        return inputShutdown;
    }

    /** {@return true once output was shut down} */
    public boolean isOutputShutdown() {
        return outputShutdown;
    }

    /** The peer sent end of stream. */
    public void inputEnded() {
        if (!config.isAllowHalfClosure()) {
            // A handler may hold the close a while (HTTP/2 serves its open streams first): stop
            // watching the socket now, as with half closure, or the loop spins until the close.
            inputShutdown = true;
            socket.stopReading();
            channel.close(channel.voidPromise());
            return;
        }
        if (inputShutdown) {
            return;
        }
        shutdownInputNow();
        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
        if (outputShutdown) {
            channel.close(channel.voidPromise());
        }
    }

    private void shutdownInputNow() {
        inputShutdown = true;
        socket.stopReading();
        try {
            socket.shutdown(true, false);
        } catch (IOException e) {
            // Already reset or closed by the peer: input is over either way.
        }
    }

    /**
     * Shuts input down, on the event loop. Any thread.
     *
     * @return a future completed when input is shut down
     */
    public Future<Void> shutdownInput() {
        return onLoop(promise -> {
            if (!inputShutdown) {
                shutdownInputNow();
            }
            promise.trySuccess(null);
        });
    }

    /**
     * Shuts output down after failing what is still queued, on the event loop. Any thread.
     *
     * @return a future completed when the FIN was handed to the kernel
     */
    public Future<Void> shutdownOutput() {
        return onLoop(this::shutdownOutputNow);
    }

    /**
     * Shuts both directions down, on the event loop. Any thread.
     *
     * @return a future completed when both are shut down
     */
    public Future<Void> shutdown() {
        return onLoop(promise -> {
            if (!inputShutdown) {
                shutdownInputNow();
            }
            shutdownOutputNow(promise);
        });
    }

    private void shutdownOutputNow(Promise<Void> promise) {
        if (outputShutdown) {
            promise.trySuccess(null);
            return;
        }
        outputShutdown = true;
        ChannelOutboundBuffer in = socket.outboundBuffer();
        if (in != null) {
            failFlushed(in, "output shut down before the write");
        }
        try {
            socket.shutdown(false, true);
        } catch (IOException e) {
            promise.tryFailure(e);
            return;
        }
        promise.trySuccess(null);
        channel.pipeline().fireUserEventTriggered(ChannelOutputShutdownEvent.INSTANCE);
        if (inputShutdown) {
            channel.close(channel.voidPromise());
        }
    }

    /** Runs {@code op} on the loop once the channel is open and connected. */
    private Future<Void> onLoop(Consumer<Promise<Void>> op) {
        Promise<Void> promise = channel.newPromise();
        Runnable task = () -> {
            if (!channel.isActive()) {
                promise.tryFailure(new ChannelClosedException(channel + " is not connected or closed; cannot shut down"));
                return;
            }
            op.accept(promise);
        };
        if (channel.eventLoop().inEventLoop()) {
            task.run();
        } else {
            channel.eventLoop().execute(task);
        }
        return promise;
    }

    // ---------------------------------------------------------------- writes

    /**
     * True if output is shut down, after failing every flushed write: call first in
     * {@code doWrite}.
     *
     * @param in the outbound buffer
     * @return true if output is shut down
     */
    public boolean failWritesIfOutputShutdown(ChannelOutboundBuffer in) {
        if (outputShutdown) {
            failFlushed(in, "output was shut down");
        }
        return outputShutdown;
    }

    private void failFlushed(ChannelOutboundBuffer in, String why) {
        ChannelClosedException cause = new ChannelClosedException(channel + ": " + why);
        while (in.remove(cause)) {
            // fail every flushed write; unflushed ones fail when flushed
        }
    }

    /**
     * What a byte stream accepts for writing: a {@link FileRegion}, or a {@link ByteBuf} in
     * native memory (a heap buffer is copied once, into a pooled direct one, and released, since
     * the kernel needs native memory and the JDK would copy it on every write). Refuses everything
     * once output is shut down.
     *
     * @param msg the message; released when replaced or refused
     * @return the message to queue
     * @throws ChannelClosedException once output is shut down
     */
    public Object filterOutboundMessage(Object msg) throws ChannelClosedException {
        if (outputShutdown) {
            throw new ChannelClosedException(channel + ": output was shut down; refused to write a "
                    + msg.getClass().getSimpleName());
        }
        if (msg instanceof FileRegion) {
            return msg;
        }
        if (!(msg instanceof ByteBuf buf)) {
            throw new UnsupportedOperationException(channel.getClass().getSimpleName()
                    + " writes ByteBufs and FileRegions, not a " + msg.getClass().getName());
        }
        return buf.isDirect() ? buf : DirectOutbound.copy(channel.alloc(), buf);
    }

    /**
     * A file region counts against the water marks with what is left of it, like a buffer's readable bytes.
     *
     * @param msg the message
     * @return its size for the water marks
     */
    public static int messageSize(Object msg) {
        if (msg instanceof FileRegion region) {
            return (int) Math.min(Integer.MAX_VALUE, region.count() - region.transferred());
        }
        return msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
    }
}
