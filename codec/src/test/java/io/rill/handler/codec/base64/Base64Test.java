package io.rill.handler.codec.base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;

class Base64Test {

    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private static String encode(byte[] data, boolean breakLines, Base64.Dialect dialect) {
        ByteBuf src = ALLOC.buffer(Math.max(1, data.length)).writeBytes(data);
        ByteBuf dst = Base64.encode(src, src.readerIndex(), src.readableBytes(), breakLines, dialect, ALLOC);
        try {
            return dst.toString(StandardCharsets.US_ASCII);
        } finally {
            src.release();
            dst.release();
        }
    }

    private static byte[] decode(String text, Base64.Dialect dialect) {
        ByteBuf src = ALLOC.buffer(Math.max(1, text.length())).writeBytes(text.getBytes(StandardCharsets.US_ASCII));
        try {
            ByteBuf dst = Base64.decode(src, src.readerIndex(), src.readableBytes(), dialect, ALLOC);
            try {
                return ByteBufUtil.getBytes(dst);
            } finally {
                dst.release();
            }
        } finally {
            src.release();
        }
    }

    @Test
    void agreesWithTheJdkForEveryLengthAndBothAlphabets() {
        Random random = new Random(64);
        for (int n = 0; n < 300; n++) {
            byte[] data = new byte[n];
            random.nextBytes(data);
            String std = java.util.Base64.getEncoder().encodeToString(data);
            String url = java.util.Base64.getUrlEncoder().encodeToString(data);
            String mime = java.util.Base64.getMimeEncoder().encodeToString(data);
            assertEquals(std, encode(data, false, Base64.Dialect.STANDARD), "length " + n);
            assertEquals(url, encode(data, false, Base64.Dialect.URL_SAFE), "length " + n);
            assertEquals(mime, encode(data, true, Base64.Dialect.STANDARD), "length " + n);
            assertEquals(ByteBufUtil.hexDump(data), ByteBufUtil.hexDump(decode(std, Base64.Dialect.STANDARD)));
            assertEquals(ByteBufUtil.hexDump(data), ByteBufUtil.hexDump(decode(mime, Base64.Dialect.STANDARD)));
            assertEquals(ByteBufUtil.hexDump(data), ByteBufUtil.hexDump(decode(url, Base64.Dialect.URL_SAFE)));
            String unpadded = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(data);
            assertEquals(ByteBufUtil.hexDump(data), ByteBufUtil.hexDump(decode(unpadded, Base64.Dialect.URL_SAFE)));
        }
    }

    @Test
    void badInputNamesTheByteAndItsOffset() {
        DecoderException e = assertThrows(DecoderException.class, () -> decode("TWFu*A==", Base64.Dialect.STANDARD));
        assertTrue(e.getMessage().contains("0x2a at offset 4"), e.getMessage());
        assertThrows(DecoderException.class, () -> decode("TQ==TQ==", Base64.Dialect.STANDARD));
        assertThrows(DecoderException.class, () -> decode("T===", Base64.Dialect.STANDARD));
        assertThrows(DecoderException.class, () -> decode("TWFuT", Base64.Dialect.STANDARD));
        assertThrows(DecoderException.class, () -> decode("a-b_", Base64.Dialect.STANDARD));
    }

    @Test
    void theHandlersRoundTripThroughAChannel() {
        EmbeddedChannel ch = new EmbeddedChannel(new Base64Encoder(true, Base64.Dialect.URL_SAFE),
                new Base64Decoder(Base64.Dialect.URL_SAFE));
        byte[] data = new byte[1000];
        new Random(1).nextBytes(data);
        ch.writeOutbound(ch.alloc().buffer().writeBytes(data));
        ByteBuf text = ch.readOutbound();
        ch.writeInbound(text);
        ByteBuf back = ch.readInbound();
        assertEquals(ByteBufUtil.hexDump(data), ByteBufUtil.hexDump(back));
        back.release();
        assertFalse(ch.finish());
    }
}
