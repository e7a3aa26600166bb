package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCounted;

/**
 * A piece of a message body. Reference counted through its content: whoever consumes it releases
 * it. The last piece of a message is a {@link LastHttpContent}.
 */
public interface HttpContent extends HttpObject, ReferenceCounted {

    /**
     * The body bytes of this piece; they belong to this object, so release the object, not them.
     *
     * @return the content
     */
    ByteBuf content();

    /**
     * The same kind of object around {@code content}, keeping everything else.
     *
     * @param content the new content; ownership passes to the result
     * @return a new object around {@code content}
     */
    HttpContent replace(ByteBuf content);

    /**
     * A deep copy: same kind, copied content.
     *
     * @return a new object that owns a new buffer; release both independently
     */
    default HttpContent copy() {
        return replace(content().copy());
    }

    /**
     * A shallow copy sharing the content's memory and reference count, not retained.
     *
     * @return a new object over a duplicate of the content; release only one of the two
     */
    default HttpContent duplicate() {
        return replace(content().duplicate());
    }

    /**
     * A shallow copy sharing the content's memory, retained.
     *
     * @return a new object over a retained duplicate; release it and this independently
     */
    default HttpContent retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    @Override
    default int refCnt() {
        return content().refCnt();
    }

    @Override
    default HttpContent retain() {
        content().retain();
        return this;
    }

    @Override
    default HttpContent retain(int increment) {
        content().retain(increment);
        return this;
    }

    @Override
    default HttpContent touch() {
        content().touch();
        return this;
    }

    @Override
    default HttpContent touch(Object hint) {
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
