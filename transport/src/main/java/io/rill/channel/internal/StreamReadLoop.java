package io.rill.channel.internal;

import java.io.IOException;
import java.nio.channels.ScatteringByteChannel;

import io.rill.buffer.ByteBuf;
import io.rill.channel.AbstractChannel;
import io.rill.channel.ChannelConfig;
import io.rill.channel.ChannelPipeline;
import io.rill.channel.RecvByteBufAllocator;
import io.rill.util.RillProperties;

/**
 * One read burst of a byte-stream channel, shared by the transports: buffers sized by the
 * config's {@link RecvByteBufAllocator}, filled from a {@link ScatteringByteChannel} (the JDK
 * socket, or a native descriptor adapted to one), each fired as {@code channelRead}, then one
 * {@code channelReadComplete}. A burst ends with the read during which it passed
 * {@code rill.channel.readBurstQuantumMicros}, so that a connection whose bytes are costly to
 * handle shares its loop with the others; the transport reads the rest on a later turn. A read
 * error is fired as {@code exceptionCaught} and, being an I/O error (reset by peer and friends),
 * closes the channel. The {@link Outcome} tells the
 * transport how the burst ended; end of stream is the transport's to act on (see
 * {@link HalfClosure#inputEnded()}). One per channel, event loop only.
 */
public final class StreamReadLoop {

    /** How a burst ended. */
    public enum Outcome {
        /** The socket had nothing more (the last read returned 0 bytes). */
        DRAINED,
        /** The last read filled less than its buffer: the socket was emptied at that moment. */
        SHORT_READ,
        /**
         * Stopped by MAX_MESSAGES_PER_READ, the read-burst quantum
         * ({@code rill.channel.readBurstQuantumMicros}), AUTO_READ off, or the channel closing: more may wait.
         */
        LIMITED,
        /** The peer sent end of stream (the last read returned -1). */
        END_OF_STREAM,
        /** The read failed; exceptionCaught was fired. */
        FAILED
    }

    private final AbstractChannel channel;
    private final HalfClosure halfClosure;
    private RecvByteBufAllocator.Handle handle;
    /** The allocator {@link #handle} came from; a new one is made when RCVBUF_ALLOCATOR changes. */
    private RecvByteBufAllocator handleSource;

    /**
     * The burst also stops when {@code halfClosure} says input was shut down meanwhile.
     *
     * @param channel the channel whose pipeline receives the data; its config must be set already
     * @param halfClosure the channel's half-closure state
     */
    public StreamReadLoop(AbstractChannel channel, HalfClosure halfClosure) {
        this.channel = channel;
        this.halfClosure = halfClosure;
        // Made now, in memory beside the channel's other objects, rather than at the first read
        // among other connections' objects: every read touches it.
        handle(channel.config());
    }

    /**
     * Reads one burst from {@code source}, which returns 0 for "nothing now" and -1 at end of stream.
     *
     * @param source the socket
     * @return how the burst ended
     */
    public Outcome read(ScatteringByteChannel source) {
        ChannelConfig config = channel.config();
        ChannelPipeline pipeline = channel.pipeline();
        RecvByteBufAllocator.Handle h = handle(config);
        h.reset(config);
        ByteBuf buf = null;
        Outcome outcome = Outcome.LIMITED;
        long burstStart = System.nanoTime();
        try {
            do {
                buf = h.allocate(channel.alloc());
                h.attemptedBytesRead(buf.writableBytes());
                h.lastBytesRead(buf.writeBytes(source, buf.writableBytes()));
                if (h.lastBytesRead() <= 0) {
                    buf.release();
                    buf = null;
                    outcome = h.lastBytesRead() < 0 ? Outcome.END_OF_STREAM : Outcome.DRAINED;
                    break;
                }
                h.incMessagesRead(1);
                ByteBuf msg = buf;
                buf = null; // the pipeline owns it now
                pipeline.fireChannelRead(msg);
            } while (h.continueReading() && channel.isOpen() && !halfClosure.isInputShutdown()
                    && System.nanoTime() - burstStart < RillProperties.READ_BURST_QUANTUM_NANOS);
            if (outcome == Outcome.LIMITED && h.lastBytesRead() < h.attemptedBytesRead()) {
                outcome = Outcome.SHORT_READ;
            }
            h.readComplete();
            pipeline.fireChannelReadComplete();
            return outcome;
        } catch (Throwable t) {
            if (buf != null) {
                buf.release();
            }
            h.readComplete();
            pipeline.fireChannelReadComplete();
            pipeline.fireExceptionCaught(t);
            if (t instanceof IOException) {
                channel.close(channel.voidPromise()); // the connection is gone
            }
            return Outcome.FAILED;
        }
    }

    private RecvByteBufAllocator.Handle handle(ChannelConfig config) {
        RecvByteBufAllocator source = config.getRecvByteBufAllocator();
        if (handle == null || handleSource != source) {
            handle = source.newHandle();
            handleSource = source;
        }
        return handle;
    }

    /**
     * Touches this loop's receive-size handle; see {@link ChannelWarmUp}.
     *
     * @return a value of no meaning
     */
    public int warmUp() {
        return handle.getClass().hashCode() & 1; // made in the constructor: never null
    }
}
