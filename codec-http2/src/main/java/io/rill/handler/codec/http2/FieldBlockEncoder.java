package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;

/** Turns fields into one field block: HPACK in production, something simpler in tests. */
@FunctionalInterface
interface FieldBlockEncoder {

    /** Appends the encoded block of {@code headers} to {@code out}. */
    void encode(Http2Headers headers, ByteBuf out) throws Http2Exception;

    /** The peer's SETTINGS_HEADER_TABLE_SIZE changed: the most our dynamic table may use. */
    default void maxTableSize(long size) {
    }
}
