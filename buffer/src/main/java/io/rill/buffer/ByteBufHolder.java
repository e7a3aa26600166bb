package io.rill.buffer;

/**
 * A message that carries its bytes in one {@link ByteBuf}, its {@link #content()}: a piece of an
 * HTTP body, a WebSocket frame, an HTTP/2 DATA frame, a datagram. The holder owns that buffer and
 * has no reference count of its own: every {@link ReferenceCounted} method acts on the content, so
 * retaining or releasing the holder retains or releases the buffer, and the last release frees the
 * buffer's memory.
 *
 * <p>Who releases: whoever the holder was handed to, under the pipeline's usual rules (the handler
 * that consumes a message releases it; one written to a channel belongs to the channel from then
 * on). Release the holder, not {@code content()} separately: the two are one count, so doing both
 * releases once too often.
 *
 * <p>Implementations supply {@link #content()} and {@link #replace(ByteBuf)}; everything else
 * has a default written in terms of those two. Types that want their own type back from
 * {@code retain()}, {@code touch()} or the copies override those methods with a covariant return.
 */
public interface ByteBufHolder extends ReferenceCounted {

    /**
     * The bytes this object holds. They belong to it: release the holder, not the buffer.
     *
     * @return the content, never null
     */
    ByteBuf content();

    /**
     * The same kind of holder, with everything but the content kept, around {@code content}.
     *
     * @param content the new content; ownership passes to the result
     * @return a new holder; this one and its content are left as they were
     */
    ByteBufHolder replace(ByteBuf content);

    /**
     * A deep copy: the same kind of holder around a copy of the content's readable bytes.
     *
     * @return a new holder owning a new buffer; release it and this one independently
     */
    default ByteBufHolder copy() {
        return replace(content().copy());
    }

    /**
     * A shallow copy: the same kind of holder around a duplicate of the content, which shares its
     * memory and its reference count and is not retained.
     *
     * @return a new holder sharing this one's count; release one of the two, not both
     */
    default ByteBufHolder duplicate() {
        return replace(content().duplicate());
    }

    /**
     * A shallow copy around a retained duplicate of the content: same memory, one more count.
     *
     * @return a new holder; release it and this one independently
     */
    default ByteBufHolder retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    @Override
    default int refCnt() {
        return content().refCnt();
    }

    @Override
    default ByteBufHolder retain() {
        content().retain();
        return this;
    }

    @Override
    default ByteBufHolder retain(int increment) {
        content().retain(increment);
        return this;
    }

    @Override
    default ByteBufHolder touch() {
        content().touch();
        return this;
    }

    @Override
    default ByteBufHolder touch(Object hint) {
        content().touch(hint);
        return this;
    }

    @Override
    default boolean release() {
        return content().release();
    }

    @Override
    default boolean release(int decrement) {
        return content().release(decrement);
    }
}
