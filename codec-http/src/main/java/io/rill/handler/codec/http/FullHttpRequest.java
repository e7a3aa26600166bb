package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/** A whole request. */
public interface FullHttpRequest extends HttpRequest, FullHttpMessage {

    @Override
    FullHttpRequest replace(ByteBuf content);

    @Override
    FullHttpRequest setProtocolVersion(HttpVersion version);

    @Override
    default FullHttpRequest retain() {
        content().retain();
        return this;
    }

    @Override
    default FullHttpRequest touch(Object hint) {
        content().touch(hint);
        return this;
    }
}
