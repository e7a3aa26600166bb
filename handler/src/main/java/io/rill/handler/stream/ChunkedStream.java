package io.rill.handler.stream;

import java.io.InputStream;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * An {@link InputStream} read chunk by chunk, until it ends. Its length is unknown.
 *
 * <p>Reads block the event loop for as long as the stream blocks: use it for streams that are
 * quick to read (files, memory, decompressors), not for sockets or pipes. The end is detected
 * by reading one byte ahead, kept for the next chunk, since {@code available()} cannot tell
 * "nothing yet" from "nothing ever".
 */
public class ChunkedStream implements ChunkedInput<ByteBuf> {

    private final InputStream in;
    private final int chunkSize;
    private long progress;
    /** The byte read ahead by isEndOfInput(), or -1 if none is held. */
    private int lookahead = -1;
    private boolean ended;
    private boolean closed;

    /**
     * Reads {@code in} in chunks of {@link ChunkedNioFile#DEFAULT_CHUNK_SIZE} bytes.
     *
     * @param in the stream, closed with this input
     */
    public ChunkedStream(InputStream in) {
        this(in, ChunkedNioFile.DEFAULT_CHUNK_SIZE);
    }

    /**
     * Reads {@code in} in chunks of at most {@code chunkSize} bytes.
     *
     * @param in        the stream, closed with this input
     * @param chunkSize the largest chunk, in bytes; positive
     * @throws IllegalArgumentException if {@code chunkSize} is not positive
     */
    public ChunkedStream(InputStream in, int chunkSize) {
        if (in == null) {
            throw new NullPointerException("in");
        }
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunkSize: " + chunkSize + " (expected: > 0)");
        }
        this.in = in;
        this.chunkSize = chunkSize;
    }

    @Override
    public boolean isEndOfInput() throws Exception {
        if (ended || closed) {
            return true;
        }
        if (lookahead < 0) {
            lookahead = in.read();
            ended = lookahead < 0;
        }
        return ended;
    }

    @Override
    public void close() throws Exception {
        closed = true;
        in.close();
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator alloc) throws Exception {
        if (isEndOfInput()) {
            return null;
        }
        // available() is a hint: 0 may just mean "unknown", so then a full chunk is asked for.
        int available = in.available();
        int size = available <= 0 ? chunkSize : (int) Math.min(chunkSize, available + 1L);
        ByteBuf chunk = alloc.heapBuffer(size).writeByte(lookahead);
        lookahead = -1;
        if (size > 1) {
            int n;
            try {
                n = chunk.writeBytes(in, size - 1);
            } catch (Throwable t) {
                chunk.release();
                throw t;
            }
            ended = n < 0;
        }
        progress += chunk.readableBytes();
        return chunk;
    }

    @Override
    public long length() {
        return -1;
    }

    @Override
    public long progress() {
        return progress;
    }
}
