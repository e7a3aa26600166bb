package io.rill.handler.codec.http.websocketx;

import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.bytes;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.client;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.everyWay;
import static io.rill.handler.codec.http.websocketx.WebSocketDecodeRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/** UTF-8 in text messages and close reasons (RFC 6455 §8.1): 1007 at the first bad byte. */
class WebSocketUtf8Test {

    private static final WebSocketDecoderConfig SERVER = WebSocketDecoderConfig.server();
    private static final List<String> INVALID = List.of("FAIL 1007", "SENT 1007", "CLOSED");

    @Test
    void acceptsEveryWellFormedSequenceLength() {
        String text = "a\u00e9\u20ac\ud83d\ude00\uffff\u0080\u07ff\u0800\ud7ff\ue000";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertEquals(1, everyWay(SERVER, client(0x81, utf8)).size());
    }

    @Test
    void refusesInvalidBytes() {
        for (String bad : new String[] {"FF", "C0 AF", "C1 BF", "E0 80 AF", "ED A0 80", "ED BF BF", "F0 8F BF BF",
                "F4 90 80 80", "F5 80 80 80", "80", "CE BA E1 BD B9 CF 83 ED A0 80"}) {
            assertEquals(INVALID, everyWay(SERVER, client(0x81, hex(bad))), bad);
        }
    }

    @Test
    void findsABadByteAtEveryPositionOfAsciiText() {
        // ASCII is skipped a word at a time: the bad byte must be found wherever it falls in a word.
        for (int at = 0; at < 40; at++) {
            byte[] text = "The quick brown fox jumps over the lazy dog, twice.".getBytes(StandardCharsets.US_ASCII);
            text[at] = (byte) 0xFF;
            assertEquals(INVALID, everyWay(SERVER, client(0x81, text)), "at " + at);
            assertEquals(INVALID, everyWay(WebSocketDecoderConfig.client(), WebSocketDecodeRun.frame(0x81, text, false)),
                    "unmasked, at " + at);
        }
        byte[] good = "The quick brown fox jumps over the lazy dog, \u00e9 and \u20ac.".getBytes(StandardCharsets.UTF_8);
        assertEquals(1, everyWay(SERVER, client(0x81, good)).size());
    }

    @Test
    void refusesATextMessageEndingInsideASequence() {
        assertEquals(INVALID, everyWay(SERVER, client(0x81, hex("E2 82"))));
    }

    @Test
    void acceptsASequenceSplitAcrossFragments() {
        byte[] input = bytes(client(0x01, hex("E2")), client(0x00, hex("82")), client(0x80, hex("AC")));
        assertEquals(List.of("TEXT 0 0 e2", "CONTINUATION 0 0 82", "CONTINUATION 1 0 ac"), everyWay(SERVER, input));
    }

    @Test
    void refusesAnInvalidSequenceSplitAcrossFragments() {
        byte[] input = bytes(client(0x01, hex("ED")), client(0x80, hex("A0 80")));
        assertEquals(List.of("TEXT 0 0 ed", "FAIL 1007", "SENT 1007", "CLOSED"), everyWay(SERVER, input));
    }

    @Test
    void binaryIsNotChecked() {
        assertEquals(List.of("BINARY 1 0 ff"), everyWay(SERVER, client(0x82, hex("FF"))));
    }

    @Test
    void refusesAnInvalidCloseReasonWith1007() {
        assertEquals(INVALID, everyWay(SERVER, client(0x88, hex("03 E8 FF"))));
        assertEquals(INVALID, everyWay(SERVER, client(0x88, hex("03 E8 CE"))));
    }

    @Test
    void failsAtTheFirstBadByteBeforeTheFrameIsComplete() {
        byte[] payload = new byte[100];
        payload[3] = (byte) 0xC0;
        byte[] input = client(0x81, payload);
        List<String> outcome = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameDecoder(SERVER),
                new WebSocketDecodeRun.Recorder(outcome));
        // Header (2 + 4 mask bytes) and the first four payload bytes: the fourth is already wrong.
        ch.writeInbound(Unpooled.copiedBuffer(input, 0, 6 + 3));
        assertTrue(outcome.isEmpty());
        ch.writeInbound(Unpooled.copiedBuffer(input, 9, 1));
        assertEquals(List.of("FAIL 1007"), outcome);
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void validatorRejectsEachIllFormedClassAndAcceptsBoundaries() {
        assertTrue(valid("7F"));
        assertTrue(valid("C2 80"));
        assertTrue(valid("EF BF BF"));
        assertTrue(valid("F4 8F BF BF"));
        assertTrue(valid("ED 9F BF"));
        assertFalse(valid("F8 88 80 80 80"));
        assertFalse(valid("E0 9F BF"));
        assertFalse(valid("C2 C0"));
    }

    private static boolean valid(String hex) {
        Utf8Validator v = new Utf8Validator();
        for (byte b : hex(hex)) {
            if (!v.accept(b)) {
                return false;
            }
        }
        return v.isComplete();
    }
}
