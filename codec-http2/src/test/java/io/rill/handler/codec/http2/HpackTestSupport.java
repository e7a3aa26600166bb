package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** Hex blocks in and out of the HPACK coders, releasing every buffer. */
final class HpackTestSupport {

    private HpackTestSupport() {
    }

    /** Bytes from hex as RFC 7541 prints them: pairs of digits, spaces ignored. */
    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** Decodes a hex block on stream 3 and checks the decoder read it all. */
    static Http2Headers decode(HpackDecoder decoder, String hex) throws Http2Exception {
        return decode(decoder, bytes(hex));
    }

    static Http2Headers decode(HpackDecoder decoder, byte[] block) throws Http2Exception {
        ByteBuf in = Unpooled.wrappedBuffer(block);
        try {
            Http2Headers out = new Http2Headers();
            decoder.decode(3, in, out);
            if (in.isReadable()) {
                throw new AssertionError("decoder left " + in.readableBytes() + " bytes");
            }
            return out;
        } finally {
            in.release();
        }
    }

    /** The block the encoder writes for {@code headers}, as bytes. */
    static byte[] encode(HpackEncoder encoder, Http2Headers headers) {
        ByteBuf out = Unpooled.buffer();
        try {
            encoder.encode(headers, out);
            byte[] block = new byte[out.readableBytes()];
            out.readBytes(block);
            return block;
        } finally {
            out.release();
        }
    }

    /** Headers from name, value, name, value, ... in that order. */
    static Http2Headers headers(String... namesAndValues) {
        Http2Headers headers = new Http2Headers();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }

    /** The fields as "name: value" strings, in order. */
    static List<String> fields(Http2Headers headers) {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < headers.size(); i++) {
            fields.add(headers.nameAt(i) + ": " + headers.valueAt(i));
        }
        return fields;
    }

    /** The dynamic table as RFC 7541 Appendix C prints it: newest first, "name: value". */
    static List<String> entries(HpackDynamicTable table) {
        List<String> entries = new ArrayList<>();
        for (int i = 1; i <= table.length(); i++) {
            entries.add(table.name(i) + ": " + table.value(i));
        }
        return entries;
    }
}
