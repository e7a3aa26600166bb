package io.rill.handler.codec.http.websocketx.extensions;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * Compresses the frames of outgoing messages into one raw DEFLATE stream (RFC 7692 §7.2.1).
 *
 * <p>Every frame's input ends with a sync flush, so each frame's output ends on a byte boundary
 * with an empty stored block ({@code 00 00 FF FF}); the last frame of a message drops those four
 * bytes, and the receiver adds them back. An empty message is the single byte {@code 00}.
 *
 * <p><b>Window bits.</b> The JDK's {@link Deflater} always uses a 32 KiB window, but a compressor
 * may use less than agreed. For a window of 2^N bytes with N &lt; 15 the input goes in chunks of
 * at most 2^N bytes; after each chunk a sync flush ends the blocks and {@link Deflater#reset()}
 * forgets the history, so no back-reference reaches further than the chunk it is in, that is less
 * than 2^N bytes back. The stream stays one valid sequence of non-final blocks. Context is then
 * never carried from one message to the next either. The cost is a worse ratio for small N.
 *
 * <p>One instance per connection, event loop only; {@link #close()} frees the native state.
 */
final class MessageDeflater {

    private static final int TAIL_LENGTH = 4;

    private final Deflater deflater;
    /** Input bytes after which the history is dropped: 2^N for a window below 32 KiB, else unbounded. */
    private final int chunk;
    /** Forget the history after each message (no context takeover, or a window below 32 KiB). */
    private final boolean resetPerMessage;
    /** Input bytes fed since the last reset; below {@code chunk}. */
    private int sinceReset;

    /**
     * @param level the compression level, 0..9
     * @param windowBits the largest window the peer agreed to, 8..15
     * @param noContextTakeover start every message from an empty history
     */
    MessageDeflater(int level, int windowBits, boolean noContextTakeover) {
        this.deflater = new Deflater(level, true);
        this.chunk = windowBits < 15 ? 1 << windowBits : Integer.MAX_VALUE;
        this.resetPerMessage = noContextTakeover || windowBits < 15;
    }

    /**
     * Compresses one frame's payload.
     *
     * @param alloc where the output comes from
     * @param in the payload; its readable bytes are consumed, it is not released
     * @param endOfMessage whether this frame ends the message (its tail is then dropped)
     * @return the compressed payload, owned by the caller
     */
    ByteBuf deflate(ByteBufAllocator alloc, ByteBuf in, boolean endOfMessage) {
        int length = in.readableBytes();
        ByteBuf out = alloc.buffer(length / 2 + 64);
        try {
            int at = in.readerIndex();
            int end = at + length;
            do {
                int n = Math.min(end - at, chunk - sinceReset);
                deflater.setInput(in.nioBuffer(at, n));
                flushInto(out);
                at += n;
                sinceReset += n;
                if (sinceReset == chunk) {
                    deflater.reset(); // the next chunk may not refer back into this one
                    sinceReset = 0;
                }
            } while (at < end);
            in.readerIndex(end);
            if (endOfMessage) {
                endMessage(out);
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Deflates all of the input with a sync flush, growing {@code out} as needed. */
    private void flushInto(ByteBuf out) {
        while (true) {
            out.ensureWritable(64);
            int w = out.writerIndex();
            ByteBuffer target = out.nioBuffer(w, out.writableBytes());
            int n = deflater.deflate(target, Deflater.SYNC_FLUSH);
            out.writerIndex(w + n);
            // A full target may hide more flushed output (Deflater#deflate's contract): go round again.
            if (target.hasRemaining() && deflater.needsInput()) {
                return;
            }
        }
    }

    private void endMessage(ByteBuf out) {
        int w = out.writerIndex();
        if (out.readableBytes() >= TAIL_LENGTH && out.getInt(w - TAIL_LENGTH) == 0x0000FFFF) {
            out.writerIndex(w - TAIL_LENGTH);
        }
        if (!out.isReadable()) {
            // Nothing was flushed (zlib skips a second flush with no new input): one empty
            // stored block's header, which with the receiver's tail decodes to nothing.
            out.writeByte(0);
        }
        if (resetPerMessage) {
            deflater.reset();
            sinceReset = 0;
        }
    }

    /** Frees the native state; idempotent. */
    void close() {
        deflater.end();
    }
}
