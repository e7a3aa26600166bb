package io.rill.handler.codec.http.websocketx.extensions;

import static io.rill.handler.codec.http.websocketx.extensions.DeflateRun.bytes;
import static io.rill.handler.codec.http.websocketx.extensions.DeflateRun.everyWay;
import static io.rill.handler.codec.http.websocketx.extensions.DeflateRun.frame;
import static io.rill.handler.codec.http.websocketx.extensions.DeflateRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;

/** The inflating side, fed every way; the first tests are RFC 7692 §7.2.3's examples. */
class PerMessageDeflateDecoderTest {

    private static final int LIMIT = 64 * 1024;
    private static final List<String> HELLO = List.of("TEXT 1 0 Hello");

    @Test
    void inflatesTheRfcHelloExample() {
        assertEquals(HELLO, everyWay(LIMIT, false, hex("c1 07 f2 48 cd c9 c9 07 00")));
    }

    @Test
    void inflatesTheRfcFragmentedHelloExample() {
        List<String> out = everyWay(LIMIT, false, hex("41 03 f2 48 cd 80 04 c9 c9 07 00"));
        assertEquals(2, out.size(), out.toString());
        assertEquals("Hello", out.get(0).substring("TEXT 0 0 ".length()) + out.get(1).substring("CONTINUATION 1 0 ".length()));
    }

    @Test
    void inflatesASecondMessageThatRefersToTheFirst() {
        // §7.2.3.2: the second "Hello" is a back-reference into the first message.
        assertEquals(List.of("TEXT 1 0 Hello", "TEXT 1 0 Hello"),
                everyWay(LIMIT, false, hex("c1 07 f2 48 cd c9 c9 07 00 c1 05 f2 00 11 00 00")));
    }

    @Test
    void inflatesTheRfcStoredBlockExample() {
        assertEquals(HELLO, everyWay(LIMIT, false, hex("c1 0b 00 05 00 fa ff 48 65 6c 6c 6f 00")));
    }

    @Test
    void inflatesTheRfcBfinalExample() {
        assertEquals(HELLO, everyWay(LIMIT, false, hex("c1 08 f3 48 cd c9 c9 07 00 00")));
    }

    @Test
    void inflatesTheRfcTwoBlockExample() {
        // §7.2.3.5: "He" and "llo" in two DEFLATE blocks of one message.
        assertEquals(HELLO, everyWay(LIMIT, false, hex("c1 0d f2 48 05 00 00 00 ff ff ca c9 c9 07 00")));
    }

    @Test
    void inflatesAnEmptyMessage() {
        assertEquals(List.of("TEXT 1 0 "), everyWay(LIMIT, false, hex("c1 01 00")));
    }

    @Test
    void passesUncompressedMessagesInANegotiatedSession() {
        assertEquals(List.of("TEXT 1 0 plain", "TEXT 1 0 Hello"),
                everyWay(LIMIT, false, bytes(frame(0x81, "plain".getBytes(StandardCharsets.UTF_8)),
                        hex("c1 07 f2 48 cd c9 c9 07 00"))));
    }

    @Test
    void rsv1OnAContinuationFrameIs1002() {
        List<String> out = everyWay(LIMIT, false, hex("41 03 f2 48 cd c0 04 c9 c9 07 00"));
        assertEquals(List.of("FAIL 1002", "SENT 1002", "CLOSED"), out.subList(1, out.size()));
    }

    @Test
    void rsv1OnAPingIs1002() {
        List<String> out = everyWay(LIMIT, false, hex("c9 00"));
        assertEquals(List.of("FAIL 1002", "SENT 1002", "CLOSED"), out);
    }

    @Test
    void badDeflateDataIs1007() {
        // BTYPE 11 is reserved (RFC 1951 §3.2.3): no inflater accepts it.
        assertEquals(List.of("FAIL 1007", "SENT 1007", "CLOSED"), everyWay(LIMIT, false, hex("c1 02 07 ff")));
    }

    /**
     * WS-23, found by fuzzing (PerMessageDeflateFuzzTest corpus inflateFrames/ws_23_frames_after_bad_deflate_data):
     * frames that follow bad DEFLATE data in the same read, here a continuation with no message to
     * continue and a plain text frame, are neither decoded nor reported; one failure, one close frame.
     */
    @Test
    void ws_23_theRestOfAReadAfterBadDeflateDataIsIgnored() {
        byte[] input = bytes(hex("c2 03 ff ff 00 00 00"), frame(0x81, "late".getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of("FAIL 1007", "SENT 1007", "CLOSED"), everyWay(LIMIT, false, input));
    }

    @Test
    void inflatedTextThatIsNotUtf8Is1007() {
        byte[] compressed = compress(new byte[] {'o', 'k', (byte) 0xC0, (byte) 0xAF});
        assertEquals(List.of("FAIL 1007", "SENT 1007", "CLOSED"), everyWay(LIMIT, false, frame(0xC1, compressed)));
    }

    @Test
    void inflatedTextEndingInsideASequenceIs1007() {
        byte[] compressed = compress(new byte[] {'o', 'k', (byte) 0xE2, (byte) 0x82});
        assertEquals(List.of("FAIL 1007", "SENT 1007", "CLOSED"), everyWay(LIMIT, false, frame(0xC1, compressed)));
    }

    @Test
    void binaryIsNotCheckedForUtf8() {
        byte[] compressed = compress(new byte[] {(byte) 0xC0, (byte) 0xAF});
        assertEquals(List.of("BINARY 1 0 c0af"), everyWay(LIMIT, false, frame(0xC2, compressed)));
    }

    @Test
    void aMessageThatInflatesPastTheLimitIs1009() {
        byte[] compressed = compress(new byte[LIMIT + 1]);
        assertEquals(List.of("FAIL 1009", "SENT 1009", "CLOSED"), everyWay(LIMIT, false, frame(0xC2, compressed)));
        assertEquals(1, everyWay(LIMIT, false, frame(0xC2, compress(new byte[LIMIT]))).size(), "exactly the limit passes");
    }

    @Test
    void theLimitCountsEveryFragmentOfAMessage() {
        byte[] half = new byte[LIMIT / 2 + 1];
        Deflater d = new Deflater(6, true);
        byte[] first = deflate(d, half, Deflater.SYNC_FLUSH);
        byte[] second = deflate(d, half, Deflater.SYNC_FLUSH);
        d.end();
        List<String> out = everyWay(LIMIT, false, bytes(frame(0x42, first), frame(0x80, second)));
        assertEquals(List.of("FAIL 1009", "SENT 1009", "CLOSED"), out.subList(1, out.size()));
    }

    @Test
    void noContextTakeoverResetsBetweenMessages() {
        // The second message of the RFC example refers back to the first: without context it cannot inflate.
        List<String> out = everyWay(LIMIT, true, hex("c1 07 f2 48 cd c9 c9 07 00 c1 05 f2 00 11 00 00"));
        assertEquals("TEXT 1 0 Hello", out.get(0));
        assertEquals("FAIL 1007", out.get(1));
    }

    /** One whole message, compressed as a sender would: sync flush, tail dropped. */
    static byte[] compress(byte[] data) {
        Deflater d = new Deflater(6, true);
        byte[] out = deflate(d, data, Deflater.SYNC_FLUSH);
        d.end();
        return java.util.Arrays.copyOf(out, out.length - 4);
    }

    static byte[] deflate(Deflater d, byte[] data, int flush) {
        d.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int n;
        do {
            n = d.deflate(buf, 0, buf.length, flush);
            out.write(buf, 0, n);
        } while (n == buf.length || !d.needsInput());
        return out.toByteArray();
    }
}
