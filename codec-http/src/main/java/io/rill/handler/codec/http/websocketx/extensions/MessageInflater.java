package io.rill.handler.codec.http.websocketx.extensions;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * Inflates the frames of compressed incoming messages (RFC 7692 §7.2.2), with a bound on what one
 * message may inflate to.
 *
 * <p>The last frame of a message gets the four bytes {@code 00 00 FF FF} appended before it is
 * inflated. The JDK's {@link Inflater} keeps a 32 KiB window, which decodes a stream made with any
 * smaller one, so the agreed window bits need no setting here. A DEFLATE block with BFINAL set
 * ends the stream (RFC 7692 §7.2.3.4 allows it): the inflater starts a new one for what follows.
 *
 * <p>Output goes into buffers from the channel's allocator whose maximum capacity is what is left
 * of the limit plus one byte: a message that inflates past the limit is detected with that much
 * memory, whatever its compressed size. One instance per connection, event loop only.
 */
final class MessageInflater {

    /** Thrown when a message inflates past the limit; the caller fails the connection with 1009. */
    static final class TooBigException extends Exception {
        private static final long serialVersionUID = 1L;

        TooBigException(String message) {
            super(message, null, false, false);
        }
    }

    private final Inflater inflater = new Inflater(true);
    private final ByteBuffer tail = ByteBuffer.wrap(new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF});
    /** The most bytes one message may inflate to. */
    private int maxMessage;
    /** The setting {@link #maxMessage} comes from, named in the error. */
    private String limitName = "maxInflatedMessage";
    private final boolean resetPerMessage;
    /** Bytes the current message has inflated to in frames already returned. */
    private long messageBytes;

    /**
     * @param maxMessage the most bytes one message may inflate to
     * @param noContextTakeover the peer starts every message from an empty history
     */
    MessageInflater(int maxMessage, boolean noContextTakeover) {
        this.maxMessage = maxMessage;
        this.resetPerMessage = noContextTakeover;
    }

    /**
     * Lowers the limit to the message limit of the connection's frame decoder, so no message reaches
     * the application larger than that setting says, compressed or not. Call before the first frame.
     *
     * @param maxMessagePayload the frame decoder's {@code maxMessagePayload}
     */
    void capAt(int maxMessagePayload) {
        if (maxMessagePayload < maxMessage) {
            maxMessage = maxMessagePayload;
            limitName = "maxMessagePayload";
        }
    }

    /**
     * Inflates one frame's payload.
     *
     * @param alloc where the output comes from
     * @param in the compressed payload; not released
     * @param endOfMessage whether the frame ends its message
     * @return the inflated bytes, owned by the caller
     * @throws DataFormatException if the bytes are not DEFLATE data
     * @throws TooBigException if the message inflates past the limit
     */
    ByteBuf inflate(ByteBufAllocator alloc, ByteBuf in, boolean endOfMessage) throws DataFormatException, TooBigException {
        int budget = (int) Math.min(Integer.MAX_VALUE - 1, maxMessage - messageBytes);
        int guess = (int) Math.min((long) budget + 1, Math.max(256L, in.readableBytes() * 4L));
        ByteBuf out = alloc.buffer(guess, budget + 1); // the cap makes the bound structural, not just checked
        try {
            inflateAll(in.nioBuffer(), out, budget);
            if (endOfMessage) {
                tail.clear();
                inflateAll(tail, out, budget);
                messageBytes = 0;
                if (resetPerMessage) {
                    inflater.reset();
                }
            } else {
                messageBytes += out.readableBytes();
            }
            return out;
        } catch (DataFormatException | TooBigException | RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private void inflateAll(ByteBuffer input, ByteBuf out, int budget) throws DataFormatException, TooBigException {
        inflater.setInput(input);
        while (true) {
            if (!out.isWritable()) {
                if (out.readableBytes() > budget) {
                    throw tooBig();
                }
                out.ensureWritable((int) Math.min(Math.max(out.capacity(), 256), (long) budget + 1 - out.readableBytes()));
            }
            int w = out.writerIndex();
            ByteBuffer target = out.nioBuffer(w, out.writableBytes());
            int n = inflater.inflate(target);
            out.writerIndex(w + n);
            if (out.readableBytes() > budget) {
                throw tooBig();
            }
            if (inflater.needsDictionary()) {
                throw new DataFormatException("a preset dictionary is not part of permessage-deflate");
            }
            if (inflater.finished()) {
                inflater.reset(); // BFINAL: what follows, if anything, is a new stream
                if (!input.hasRemaining()) {
                    return;
                }
                inflater.setInput(input);
            } else if (inflater.needsInput() && target.hasRemaining()) {
                return;
            } else if (n == 0 && target.hasRemaining()) {
                throw new DataFormatException("the inflater made no progress"); // never loop without end
            }
        }
    }

    private TooBigException tooBig() {
        return new TooBigException("message inflates to more than " + maxMessage + " bytes (" + limitName + ")");
    }

    /** Frees the native state; idempotent. */
    void close() {
        inflater.end();
    }
}
