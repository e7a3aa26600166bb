package io.rill.handler.codec.memcache.binary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;

class BinaryMemcacheCodecTest {

    static final byte[] FLAGS_AND_EXPIRY = {0, 0, 0, 7, 0, 0, 0x0e, 0x10};

    static byte[] wire(BinaryMemcacheMessage... messages) {
        EmbeddedChannel ch = new EmbeddedChannel(BinaryMemcacheEncoder.INSTANCE);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (BinaryMemcacheMessage m : messages) {
            ch.writeOutbound(m);
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                out.writeBytes(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        ch.finish();
        return out.toByteArray();
    }

    /** Messages and errors decoded from {@code pieces}; the caller releases the messages. */
    static List<Object> decoded(List<byte[]> pieces, Supplier<ChannelHandler> decoder) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder.get());
        List<Object> got = new ArrayList<>();
        for (byte[] p : pieces) {
            try {
                ch.writeInbound(Unpooled.copiedBuffer(p));
            } catch (DecoderException e) {
                got.add(e);
            }
            for (Object m; (m = ch.readInbound()) != null; ) {
                got.add(m);
            }
        }
        ch.finishAndReleaseAll();
        return got;
    }

    static void release(List<Object> got) {
        for (Object o : got) {
            if (o instanceof BinaryMemcacheMessage m) {
                m.release();
            }
        }
    }

    private static BinaryMemcacheMessage set() {
        return BinaryMemcacheMessage.request(BinaryMemcacheOpcode.SET).key("user:42").extras(FLAGS_AND_EXPIRY)
                .opaque(0x0a0b0c0d).cas(5).value(Unpooled.copiedBuffer("{\"name\":\"rill\"}", StandardCharsets.US_ASCII))
                .build();
    }

    @Test
    void aRequestIsItsHeaderExtrasKeyAndValue() {
        BinaryMemcacheMessage set = set();
        String hex = HexFormat.of().formatHex(wire(set));
        assertEquals("80" + "01" + "0007" + "08" + "00" + "0000" + "0000001e" + "0a0b0c0d" + "0000000000000005"
                + "000000070000" + "0e10" + HexFormat.of().formatHex("user:42".getBytes(StandardCharsets.US_ASCII))
                + HexFormat.of().formatHex("{\"name\":\"rill\"}".getBytes(StandardCharsets.US_ASCII)), hex);
    }

    @Test
    void requestsAndResponsesDecodeWholeByteByByteSplitAtEveryIndexAndInRandomPieces() {
        byte[] requests = wire(set(), BinaryMemcacheMessage.request(BinaryMemcacheOpcode.NOOP).build());
        byte[] responses = wire(BinaryMemcacheMessage.response(BinaryMemcacheOpcode.GET, BinaryMemcacheStatus.SUCCESS)
                        .extras(new byte[] {0, 0, 0, 7}).cas(9).value(Unpooled.copiedBuffer(new byte[] {1, 2, 3})).build(),
                BinaryMemcacheMessage.response(BinaryMemcacheOpcode.GET, BinaryMemcacheStatus.KEY_NOT_FOUND)
                        .value(Unpooled.copiedBuffer("Not found", StandardCharsets.US_ASCII)).build());
        check(requests, BinaryMemcacheRequestDecoder::new);
        check(responses, BinaryMemcacheResponseDecoder::new);
    }

    private static void check(byte[] stream, Supplier<ChannelHandler> decoder) {
        List<Object> expected = decoded(List.of(stream), decoder);
        assertEquals(2, expected.size());
        List<List<byte[]>> cuttings = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        for (byte b : stream) {
            bytes.add(new byte[] {b});
        }
        cuttings.add(bytes);
        for (int i = 0; i <= stream.length; i++) {
            cuttings.add(List.of(Arrays.copyOfRange(stream, 0, i), Arrays.copyOfRange(stream, i, stream.length)));
        }
        Random random = new Random(11);
        for (int round = 0; round < 50; round++) {
            List<byte[]> pieces = new ArrayList<>();
            for (int at = 0; at < stream.length; ) {
                int n = Math.min(stream.length - at, 1 + random.nextInt(9));
                pieces.add(Arrays.copyOfRange(stream, at, at + n));
                at += n;
            }
            cuttings.add(pieces);
        }
        for (List<byte[]> pieces : cuttings) {
            List<Object> got = decoded(pieces, decoder);
            assertEquals(expected, got);
            release(got);
        }
        release(expected);
    }

    @Test
    void mc_01_aBodyOverMaxBodyLengthFailsAtItsHeader() {
        byte[] header = HexFormat.of().parseHex("810000000000000040000000000000000000000000000000"); // 1 GiB body
        List<Object> got = decoded(List.of(header), BinaryMemcacheResponseDecoder::new);
        MemcacheDecoderException e = assertInstanceOf(MemcacheDecoderException.class, got.get(0));
        assertTrue(e.getMessage().contains("over maxBodyLength (" + BinaryMemcacheDecoder.DEFAULT_MAX_BODY_LENGTH + ")"),
                e.getMessage());
    }

    @Test
    void mc_02_lengthsThatDoNotFitAndAForeignMagicFailAndTheRestIsDropped() {
        byte[] good = wire(BinaryMemcacheMessage.response(BinaryMemcacheOpcode.NOOP, BinaryMemcacheStatus.SUCCESS).build());
        for (String bad : List.of(
                "81000100000000000000000000000000000000000000000000", // key 256 > 250... (0x0100)
                "8100000a0500000000000008000000000000000000000000",   // key 10 + extras 5 > body 8
                "8000000000000000000000000000000000000000000000000",  // a request where a response belongs
                "474554202f20485454502f312e310d0a0d0a0000000000000000")) { // "GET / HTTP/1.1"
            byte[] b = HexFormat.of().parseHex(bad.length() % 2 == 0 ? bad : bad + "0");
            List<Object> got = decoded(List.of(b, good), BinaryMemcacheResponseDecoder::new);
            assertInstanceOf(MemcacheDecoderException.class, got.get(0), bad);
            assertEquals(1, got.size(), "nothing decodes after a bad header: " + got);
        }
    }

    @Test
    void wrongUseIsRefusedWhenBuilt() {
        assertThrows(IllegalArgumentException.class,
                () -> BinaryMemcacheMessage.request(BinaryMemcacheOpcode.GET).key("k".repeat(251)));
        assertThrows(IllegalArgumentException.class,
                () -> BinaryMemcacheMessage.request(BinaryMemcacheOpcode.GET).extras(new byte[256]));
        assertThrows(IllegalStateException.class,
                () -> BinaryMemcacheMessage.response(BinaryMemcacheOpcode.GET, (short) 0).vbucket((short) 1));
    }
}
