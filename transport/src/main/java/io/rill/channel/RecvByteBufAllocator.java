package io.rill.channel;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * Chooses the size of the buffer each socket read goes into, and when a read burst ends.
 * Too small a buffer costs extra system calls; too large wastes memory per idle connection, so
 * {@link AdaptiveRecvByteBufAllocator} (the default) learns from the sizes actually read.
 */
public interface RecvByteBufAllocator {

    /** A new, per-channel handle; handles keep state and are confined to the channel's event loop. */
    Handle newHandle();

    /**
     * One channel's read state. A read loop goes:
     * <pre>{@code
     * handle.reset(config);
     * do {
     *     ByteBuf buf = handle.allocate(alloc);
     *     handle.attemptedBytesRead(buf.writableBytes());
     *     handle.lastBytesRead(buf.writeBytes(socket, buf.writableBytes()));
     *     if (handle.lastBytesRead() <= 0) { buf.release(); break; }
     *     handle.incMessagesRead(1);
     *     pipeline.fireChannelRead(buf);
     * } while (handle.continueReading());
     * handle.readComplete();
     * pipeline.fireChannelReadComplete();
     * }</pre>
     */
    interface Handle {

        /** A buffer of the predicted size, preferably direct (it goes straight to a socket read). */
        ByteBuf allocate(ByteBufAllocator alloc);

        /** The predicted size of the next read. */
        int guess();

        /** Starts a read burst with the channel's current settings (max messages per read, auto-read). */
        void reset(ChannelConfig config);

        /** Counts messages delivered in this burst. */
        void incMessagesRead(int messages);

        /** Records the result of the last read: bytes read, 0 for none, negative at end of stream. */
        void lastBytesRead(int bytes);

        int lastBytesRead();

        /** Records how many bytes the last read could have taken. */
        void attemptedBytesRead(int bytes);

        int attemptedBytesRead();

        /**
         * True if the loop should read again: auto-read is on, the burst is under its message limit,
         * and the last read filled its buffer (so more data is probably waiting).
         */
        boolean continueReading();

        /** The burst ended; adapt the prediction. */
        void readComplete();
    }
}
