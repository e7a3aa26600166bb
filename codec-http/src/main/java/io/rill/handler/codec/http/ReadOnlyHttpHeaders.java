package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;

/**
 * What {@link HttpHeaders#toReadOnly()} returns: a copy that refuses changes and keeps its
 * encoding, made once here, so a response sent over and over costs one copy of its fields per
 * send. A class of its own so that ordinary header sets do not carry the extra field (the decoder
 * makes one per request).
 */
final class ReadOnlyHttpHeaders extends HttpHeaders {

    /** The fields as a head carries them; final, so a set shared between threads is seen whole. */
    private final byte[] encoded;

    ReadOnlyHttpHeaders(HttpHeaders source) {
        super(source);
        ByteBuf buf = Unpooled.buffer(32 * size() + 2);
        try {
            encodeFields(buf);
            encoded = ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Override
    void encode(ByteBuf buf) {
        buf.writeBytes(encoded);
    }
}
