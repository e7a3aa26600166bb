package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;

/** Turns one complete field block into fields: HPACK in production, something simpler in tests. */
@FunctionalInterface
interface FieldBlockDecoder {

    /** Decodes all of {@code block} into {@code out}; does not release {@code block}. */
    void decode(int streamId, ByteBuf block, Http2Headers out) throws Http2Exception;
}
