package io.rill.handler.codec.base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.DecoderFeed;

/**
 * Fuzz targets for Base64: any bytes decode or fail with a {@link DecoderException} and nothing
 * else, what decodes re-encodes and decodes to the same bytes, and any bytes encode (with and
 * without MIME line breaks, in both alphabets) and decode back to themselves.
 */
class Base64FuzzTest {

    @FuzzTest
    void decode(byte[] input) {
        FuzzLeaks.assertNoneReported();
        Base64.Dialect dialect = input.length > 0 && (input[0] & 1) != 0 ? Base64.Dialect.URL_SAFE : Base64.Dialect.STANDARD;
        byte[] payload = FuzzInput.payload(input);
        ByteBuf src = Unpooled.wrappedBuffer(payload);
        byte[] decoded;
        try {
            ByteBuf out = Base64.decode(src, 0, payload.length, dialect, ByteBufAllocator.DEFAULT);
            decoded = ByteBufUtil.getBytes(out);
            out.release();
        } catch (DecoderException expected) {
            return;
        } finally {
            src.release();
        }
        assertTrue(decoded.length <= payload.length * 3 / 4 + 2, "decoded more bytes than four chars per three allow");
        assertArrayEquals(decoded, decodeBytes(encodeBytes(decoded, false, dialect), dialect), "decode, encode, decode");
        // The handler decodes each message on its own, so it sees the payload whole.
        DecoderFeed.Result viaHandler = DecoderFeed.run(List.of(payload),
                () -> new ChannelHandler[] {new Base64Decoder(dialect)}, DecoderFeed::bytes);
        assertTrue(viaHandler.errors().isEmpty(), () -> "the handler failed where Base64.decode did not: " + viaHandler.errors());
        assertEquals(ByteBufUtil.hexDump(decoded), String.join("", viaHandler.messages().stream().map(String.class::cast).toList()),
                "the handler decodes like Base64.decode");
    }

    @FuzzTest
    void encode(byte[] input) {
        FuzzLeaks.assertNoneReported();
        Base64.Dialect dialect = input.length > 0 && (input[0] & 1) != 0 ? Base64.Dialect.URL_SAFE : Base64.Dialect.STANDARD;
        boolean breakLines = input.length > 0 && (input[0] & 2) != 0;
        byte[] payload = FuzzInput.payload(input);
        byte[] encoded = encodeBytes(payload, breakLines, dialect);
        assertTrue(encoded.length >= (payload.length + 2) / 3 * 4, "four characters per three bytes");
        assertArrayEquals(payload, decodeBytes(encoded, dialect), "encode, decode");
    }

    private static byte[] encodeBytes(byte[] data, boolean breakLines, Base64.Dialect dialect) {
        ByteBuf src = Unpooled.wrappedBuffer(data);
        ByteBuf out = Base64.encode(src, 0, data.length, breakLines, dialect, ByteBufAllocator.DEFAULT);
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            src.release();
        }
    }

    private static byte[] decodeBytes(byte[] data, Base64.Dialect dialect) {
        ByteBuf src = Unpooled.wrappedBuffer(data);
        ByteBuf out = Base64.decode(src, 0, data.length, dialect, ByteBufAllocator.DEFAULT);
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            src.release();
        }
    }
}
