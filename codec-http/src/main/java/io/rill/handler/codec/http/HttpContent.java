package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCounted;

/**
 * A piece of a message body. Reference counted through its content: whoever consumes it releases
 * it. The last piece of a message is a {@link LastHttpContent}.
 */
public interface HttpContent extends HttpObject, ReferenceCounted {

    ByteBuf content();

    /** The same kind of object around {@code content}, keeping everything else. */
    HttpContent replace(ByteBuf content);

    default HttpContent copy() {
        return replace(content().copy());
    }

    default HttpContent duplicate() {
        return replace(content().duplicate());
    }

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
