package io.rill.handler.codec.http2;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/** A stand-in for HPACK in frame-level tests: each field is its name, NUL, its value, NUL. */
final class TextFieldCodec implements FieldBlockDecoder, FieldBlockEncoder {

    @Override
    public void decode(int streamId, ByteBuf block, Http2Headers out) {
        String text = block.toString(StandardCharsets.ISO_8859_1);
        block.skipBytes(block.readableBytes());
        String[] parts = text.split("\0", -1);
        for (int i = 0; i + 1 < parts.length; i += 2) {
            out.add(parts[i], parts[i + 1]);
        }
    }

    @Override
    public void encode(Http2Headers headers, ByteBuf out) {
        headers.forEach((name, value) -> {
            out.writeCharSequence(name, StandardCharsets.ISO_8859_1);
            out.writeByte(0);
            out.writeCharSequence(value, StandardCharsets.ISO_8859_1);
            out.writeByte(0);
        });
    }
}
