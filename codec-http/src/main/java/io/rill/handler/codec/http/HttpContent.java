package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;

/**
 * A piece of a message body, holding its bytes as a {@link ByteBufHolder}: whoever consumes it
 * releases it. The last piece of a message is a {@link LastHttpContent}.
 */
public interface HttpContent extends HttpObject, ByteBufHolder {

    @Override
    HttpContent replace(ByteBuf content);

    @Override
    default HttpContent copy() {
        return replace(content().copy());
    }

    @Override
    default HttpContent duplicate() {
        return replace(content().duplicate());
    }

    @Override
    default HttpContent retainedDuplicate() {
        return replace(content().retainedDuplicate());
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
}
