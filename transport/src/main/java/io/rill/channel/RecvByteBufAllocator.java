package io.rill.channel;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * Chooses the size of the buffer each socket read goes into, and when a read burst ends.
 * Too small a buffer costs extra system calls; too large wastes memory per idle connection, so
 * {@link AdaptiveRecvByteBufAllocator} (the default) learns from the sizes actually read.
 */
public interface RecvByteBufAllocator {

    /** {@return a new, per-channel handle} Handles keep state and are confined to the channel's event loop. */
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

        /**
         * A buffer of the predicted size, preferably direct (it goes straight to a socket read).
         *
         * @param alloc where the buffer comes from
         * @return the buffer; the caller owns it and must release it
         */
        ByteBuf allocate(ByteBufAllocator alloc);

        /** {@return the predicted size of the next read} */
        int guess();

        /**
         * Starts a read burst with the channel's current settings (max messages per read, auto-read).
         *
         * @param config the channel's config
         */
        void reset(ChannelConfig config);

        /**
         * Counts messages delivered in this burst.
         *
         * @param messages the number delivered
         */
        void incMessagesRead(int messages);

        /**
         * Records the result of the last read: bytes read, 0 for none, negative at end of stream.
         *
         * @param bytes the result of the read
         */
        void lastBytesRead(int bytes);

        /** {@return the result of the last read, as recorded by {@link #lastBytesRead(int)}} */
        int lastBytesRead();

        /**
         * Records how many bytes the last read could have taken.
         *
         * @param bytes the room the read had
         */
        void attemptedBytesRead(int bytes);

        /** {@return the room the last read had, as recorded by {@link #attemptedBytesRead(int)}} */
        int attemptedBytesRead();

        /**
         * True if the loop should read again: auto-read is on, the burst is under its message limit,
         * and the last read filled its buffer (so more data is probably waiting).
         *
         * @return true to read again
         */
        boolean continueReading();

        /** The burst ended; adapt the prediction. */
        void readComplete();
    }
}
