package io.rill.handler.codec.memcache.text;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.handler.codec.DecoderException;

class TextMemcacheCodecTest {

    static byte[] wire(ChannelHandler encoder, Object... messages) {
        EmbeddedChannel ch = new EmbeddedChannel(encoder);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object m : messages) {
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
            if (!(o instanceof Throwable)) {
                ReferenceCountUtil.release(o);
            }
        }
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, US_ASCII);
    }

    private static String text(byte[] b) {
        return new String(b, US_ASCII);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(US_ASCII);
    }

    static Object[] requests() {
        return new Object[] {
            TextMemcacheRequest.store(TextMemcacheCommand.SET, "user:42", 7, 3600, ascii("{\"name\":\"rill\"}")),
            TextMemcacheRequest.store(TextMemcacheCommand.ADD, "k", 0, 0, ascii("")).noreply(),
            TextMemcacheRequest.store(TextMemcacheCommand.APPEND, "k", 0, -1, ascii("a\r\nb")),
            TextMemcacheRequest.cas("k", TextMemcacheRequest.MAX_FLAGS, 0, -1L, ascii("x")).noreply(),
            TextMemcacheRequest.get("a", "b", "c"),
            TextMemcacheRequest.gets("ключ"),
            TextMemcacheRequest.retrieve(TextMemcacheCommand.GAT, 60, "a"),
            TextMemcacheRequest.retrieve(TextMemcacheCommand.GATS, -5, "a", "b"),
            TextMemcacheRequest.delete("k"),
            TextMemcacheRequest.arithmetic(TextMemcacheCommand.INCR, "n", 5).noreply(),
            TextMemcacheRequest.arithmetic(TextMemcacheCommand.DECR, "n", -1L),
            TextMemcacheRequest.touch("k", 10),
            TextMemcacheRequest.version(),
            TextMemcacheRequest.quit(),
        };
    }

    static Object[] responses() {
        return new Object[] {
            TextMemcacheResponse.value("user:42", 7, ascii("{\"name\":\"rill\"}")),
            TextMemcacheResponse.value("k", 0, -1L, ascii("a\r\nb")),
            TextMemcacheResponse.value("e", 0, ascii("")),
            TextMemcacheResponse.END, TextMemcacheResponse.STORED, TextMemcacheResponse.NOT_STORED,
            TextMemcacheResponse.EXISTS, TextMemcacheResponse.NOT_FOUND, TextMemcacheResponse.DELETED,
            TextMemcacheResponse.TOUCHED, TextMemcacheResponse.ERROR,
            TextMemcacheResponse.number(0), TextMemcacheResponse.number(-1L),
            TextMemcacheResponse.withMessage(TextMemcacheResponse.Type.CLIENT_ERROR, "bad data chunk"),
            TextMemcacheResponse.withMessage(TextMemcacheResponse.Type.SERVER_ERROR, "out of memory storing object"),
            TextMemcacheResponse.withMessage(TextMemcacheResponse.Type.VERSION, "1.6.18"),
        };
    }

    @Test
    void requestsAreTheLinesOfProtocolTxt() {
        assertEquals("set user:42 7 3600 15\r\n{\"name\":\"rill\"}\r\n"
                + "add k 0 0 0 noreply\r\n\r\n"
                + "append k 0 -1 4\r\na\r\nb\r\n"
                + "cas k 4294967295 0 1 18446744073709551615 noreply\r\nx\r\n"
                + "get a b c\r\n"
                + "gets \u00d0\u00ba\u00d0\u00bb\u00d1\u008e\u00d1\u0087\r\n"
                + "gat 60 a\r\n"
                + "gats -5 a b\r\n"
                + "delete k\r\n"
                + "incr n 5 noreply\r\n"
                + "decr n 18446744073709551615\r\n"
                + "touch k 10\r\n"
                + "version\r\n"
                + "quit\r\n",
                new String(wire(TextMemcacheRequestEncoder.INSTANCE, requests()), java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Test
    void repliesAreTheLinesOfProtocolTxt() {
        assertEquals("VALUE user:42 7 15\r\n{\"name\":\"rill\"}\r\n"
                + "VALUE k 0 4 18446744073709551615\r\na\r\nb\r\n"
                + "VALUE e 0 0\r\n\r\n"
                + "END\r\nSTORED\r\nNOT_STORED\r\nEXISTS\r\nNOT_FOUND\r\nDELETED\r\nTOUCHED\r\nERROR\r\n"
                + "0\r\n18446744073709551615\r\n"
                + "CLIENT_ERROR bad data chunk\r\nSERVER_ERROR out of memory storing object\r\nVERSION 1.6.18\r\n",
                text(wire(TextMemcacheResponseEncoder.INSTANCE, responses())));
    }

    @Test
    void requestsAndRepliesDecodeWholeByteByByteSplitAtEveryIndexAndInRandomPieces() {
        check(wire(TextMemcacheRequestEncoder.INSTANCE, requests()), TextMemcacheRequestDecoder::new, requests());
        check(wire(TextMemcacheResponseEncoder.INSTANCE, responses()), TextMemcacheResponseDecoder::new, responses());
    }

    private static void check(byte[] stream, Supplier<ChannelHandler> decoder, Object[] messages) {
        List<Object> expected = List.of(messages);
        List<List<byte[]>> cuttings = new ArrayList<>();
        cuttings.add(List.of(stream));
        List<byte[]> bytes = new ArrayList<>();
        for (byte b : stream) {
            bytes.add(new byte[] {b});
        }
        cuttings.add(bytes);
        for (int i = 0; i <= stream.length; i++) {
            cuttings.add(List.of(Arrays.copyOfRange(stream, 0, i), Arrays.copyOfRange(stream, i, stream.length)));
        }
        Random random = new Random(35);
        for (int round = 0; round < 50; round++) {
            List<byte[]> pieces = new ArrayList<>();
            for (int at = 0; at < stream.length; ) {
                int n = Math.min(stream.length - at, 1 + random.nextInt(12));
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
    void theDecoderTakesWhatMemcachedTakesBareLineFeedsAndRunsOfSpaces() {
        List<Object> got = decoded(List.of(bytes("  get   a  b \nset k 1 2 3   noreply\nabc\r\n")), TextMemcacheRequestDecoder::new);
        List<Object> expected = List.of(TextMemcacheRequest.get("a", "b"),
                TextMemcacheRequest.store(TextMemcacheCommand.SET, "k", 1, 2, ascii("abc")).noreply());
        assertEquals(expected, got);
        release(got);
        release(expected);
    }

    @Test
    void aValueIsASliceOfTheInputNotACopy() {
        EmbeddedChannel ch = new EmbeddedChannel(new TextMemcacheResponseDecoder());
        ByteBuf in = Unpooled.directBuffer().writeBytes(bytes("VALUE k 0 3\r\nabc\r\nEND\r\n"));
        ch.writeInbound(in);
        TextMemcacheResponse value = ch.readInbound();
        in.setByte(13, 'X');
        assertEquals("Xbc", value.content().toString(US_ASCII), "the value shares the input's memory");
        value.release();
        assertEquals(TextMemcacheResponse.END, ch.readInbound());
        ch.finishAndReleaseAll();
    }

    private static void refused(Supplier<ChannelHandler> decoder, String input, String expectedInMessage) {
        byte[] good = bytes("version\r\n");
        List<Object> got = decoded(List.of(bytes(input), good), decoder);
        TextMemcacheDecoderException e = assertInstanceOf(TextMemcacheDecoderException.class, got.get(0), input);
        assertTrue(e.getMessage().contains(expectedInMessage), e.getMessage());
        assertEquals(1, got.size(), "nothing decodes after an error: " + got);
        release(got);
    }

    @Test
    void mc_03_aLineWithoutItsEndFailsAtMaxLineLengthAndAKeyIsBounded() {
        refused(TextMemcacheRequestDecoder::new, "get " + "k".repeat(5000), "maxLineLength (2048)");
        refused(() -> new TextMemcacheRequestDecoder(64, 1024, 4), "get " + "k".repeat(60) + "\r\n", "maxLineLength (64)");
        refused(TextMemcacheRequestDecoder::new, "get " + "k".repeat(251) + "\r\n", "key of 251 bytes, over 250");
        refused(TextMemcacheResponseDecoder::new, "SERVER_ERROR " + "x".repeat(3000), "maxLineLength (2048)");
        List<Object> ok = decoded(List.of(bytes("get " + "k".repeat(250) + "\r\n")), TextMemcacheRequestDecoder::new);
        assertEquals(List.of(TextMemcacheRequest.get("k".repeat(250))), ok);
    }

    @Test
    void mc_04_aDataBlockOverMaxDataLengthFailsAtItsLine() {
        refused(TextMemcacheRequestDecoder::new, "set k 0 0 1048577\r\n", "over maxDataLength (1048576)");
        refused(TextMemcacheRequestDecoder::new, "set k 0 0 99999999999999999999\r\n", "data length");
        refused(TextMemcacheResponseDecoder::new, "VALUE k 0 2147483647\r\n", "over maxDataLength (1048576)");
        refused(() -> new TextMemcacheResponseDecoder(2048, 16), "VALUE k 0 17\r\n", "over maxDataLength (16)");
    }

    @Test
    void mc_05_aDataBlockNotEndedByCrLfIsRefused() {
        refused(TextMemcacheRequestDecoder::new, "set k 0 0 3\r\nabcd\r\n", "a data block of 3 bytes not ended by \\r\\n");
        refused(TextMemcacheRequestDecoder::new, "set k 0 0 3\r\nabc\n\r", "not ended by \\r\\n");
        refused(TextMemcacheResponseDecoder::new, "VALUE k 0 1\r\nab\r\nEND\r\n", "not ended by \\r\\n");
    }

    @Test
    void mc_06_keysWithControlCharactersOrSpacesAndTooManyKeysAreRefused() {
        refused(TextMemcacheRequestDecoder::new, "get a\u0001b\r\n", "key (control character or space)");
        refused(TextMemcacheRequestDecoder::new, "delete a\u007fb\r\n", "key (control character or space)");
        refused(TextMemcacheRequestDecoder::new, "get a\rb\r\n", "key (control character or space)");
        refused(() -> new TextMemcacheRequestDecoder(2048, 1024, 4), "get a b c d e\r\n", "5 keys, over maxKeys (4)");
        refused(() -> new TextMemcacheRequestDecoder(2048, 1024, 4), "get a b c d e f g h i\r\n", "more than 8 words");
        List<Object> four = decoded(List.of(bytes("get a b c d\r\n")), () -> new TextMemcacheRequestDecoder(2048, 1024, 4));
        assertEquals(List.of(TextMemcacheRequest.get("a", "b", "c", "d")), four);
        byte[] notUtf8 = {'g', 'e', 't', ' ', (byte) 0xC3, '(', '\r', '\n'};
        List<Object> got = decoded(List.of(notUtf8), TextMemcacheRequestDecoder::new);
        assertTrue(((Exception) got.get(0)).getMessage().contains("not UTF-8"), got.toString());
        assertThrows(IllegalArgumentException.class, () -> TextMemcacheRequest.get("a b"));
        assertThrows(IllegalArgumentException.class, () -> TextMemcacheRequest.get("k".repeat(251)));
        assertThrows(IllegalArgumentException.class, () -> TextMemcacheRequest.delete("a\nb"));
        assertThrows(IllegalArgumentException.class, () -> TextMemcacheResponse.withMessage(
                TextMemcacheResponse.Type.CLIENT_ERROR, "two\r\nlines"));
    }

    @Test
    void mc_07_malformedNumbersWordsAndUnknownCommandsAreRefusedQuotingTheInput() {
        refused(TextMemcacheRequestDecoder::new, "set k 4294967296 0 1\r\n", "malformed flags");
        refused(TextMemcacheRequestDecoder::new, "set k -1 0 1\r\n", "malformed flags");
        refused(TextMemcacheRequestDecoder::new, "set k 0 2147483648 1\r\n", "malformed exptime");
        refused(TextMemcacheRequestDecoder::new, "set k 0 0 +1\r\n", "malformed data length");
        refused(TextMemcacheRequestDecoder::new, "cas k 0 0 1 18446744073709551616\r\n", "malformed cas unique");
        refused(TextMemcacheRequestDecoder::new, "incr k 1x\r\n", "malformed incr/decr value");
        refused(TextMemcacheRequestDecoder::new, "set k 0 0 1 norepl\r\n", "noreply expected");
        refused(TextMemcacheRequestDecoder::new, "set k 0 0\r\n", "wrong number of words");
        refused(TextMemcacheRequestDecoder::new, "get\r\n", "wrong number of words");
        refused(TextMemcacheRequestDecoder::new, "version now\r\n", "wrong number of words");
        refused(TextMemcacheRequestDecoder::new, "GET k\r\n", "command (unknown): \"GET k\"");
        refused(TextMemcacheRequestDecoder::new, "\r\n", "an empty command line");
        refused(TextMemcacheRequestDecoder::new, "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\n", "command (unknown)");
        refused(TextMemcacheResponseDecoder::new, "HTTP/1.1 200 OK\r\n", "reply (unknown)");
        refused(TextMemcacheResponseDecoder::new, "STORED now\r\n", "words after a status");
        refused(TextMemcacheResponseDecoder::new, "VALUE k 0\r\n", "VALUE line");
        refused(TextMemcacheResponseDecoder::new, "12a\r\n", "incr/decr reply");
        refused(TextMemcacheResponseDecoder::new, "CLIENT_ERROR \u0001\r\n", "not printable ASCII");
    }
}
