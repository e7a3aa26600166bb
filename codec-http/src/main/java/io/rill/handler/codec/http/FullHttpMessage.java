package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/** A whole message, head and body in one object (see {@link HttpObjectAggregator}). */
public interface FullHttpMessage extends HttpMessage, LastHttpContent {

    @Override
    FullHttpMessage replace(ByteBuf content);
}
