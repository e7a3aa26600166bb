package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/** A whole response. */
public interface FullHttpResponse extends HttpResponse, FullHttpMessage {

    @Override
    FullHttpResponse replace(ByteBuf content);

    @Override
    FullHttpResponse setProtocolVersion(HttpVersion version);

    @Override
    default FullHttpResponse retain() {
        content().retain();
        return this;
    }

    @Override
    default FullHttpResponse touch(Object hint) {
        content().touch(hint);
        return this;
    }
}
