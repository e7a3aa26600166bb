package io.rill.handler.stream;

import io.rill.buffer.ByteBufAllocator;

/**
 * A large body produced piece by piece, written by {@link ChunkedWriteHandler} only as fast
 * as the channel accepts it, so it is never held in memory whole.
 *
 * <p>Methods are called on the channel's event loop, one at a time. The handler closes the
 * input once it is fully written, or when the write fails or the channel closes.
 *
 * @param <B> the type of the chunks, e.g. {@link io.rill.buffer.ByteBuf}
 */
public interface ChunkedInput<B> {

    /**
     * True once every chunk has been read.
     *
     * @return whether the input is exhausted
     * @throws Exception if the backing source cannot tell
     */
    boolean isEndOfInput() throws Exception;

    /**
     * Releases what backs the input (a file, a stream); called once.
     *
     * @throws Exception if releasing fails; the handler logs it
     */
    void close() throws Exception;

    /**
     * The next chunk, owned by the caller; null if none is available right now (the input is
     * not at its end, the producer is just not ready: call {@link ChunkedWriteHandler#resumeTransfer()}
     * when it is) or if the input is at its end.
     *
     * @param alloc the channel's allocator, for the chunk's buffer
     * @return the next chunk, or null
     * @throws Exception if reading fails; the pending write fails with it
     */
    B readChunk(ByteBufAllocator alloc) throws Exception;

    /**
     * The total length in bytes, or -1 if unknown.
     *
     * @return the length, or -1
     */
    long length();

    /**
     * Bytes read so far.
     *
     * @return the number of bytes handed out in chunks
     */
    long progress();
}
