package io.rill.handler.codec;

import static io.rill.handler.codec.DecoderRun.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.channel.embedded.EmbeddedChannel;

/** Line and delimiter framing. */
class TextFrameDecoderTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void linesEndInLfOrCrLfHoweverTheBytesArrive() {
        byte[] input = ascii("first\r\nsecond\n\nthird\r\r\nlast without end");
        assertEquals(hex("first", "second", "", "third\r", "|end"),
                DecoderRun.decodeEveryWay(() -> new LineBasedFrameDecoder(64), input));
        assertEquals(hex("first\r\n", "second\n", "\n", "third\r\r\n", "|end"),
                DecoderRun.decodeEveryWay(() -> new LineBasedFrameDecoder(64, false, false), input));
    }

    @Test
    void aLineOfExactlyTheMaximumIsAcceptedEvenWhenItsCrArrivesAlone() {
        byte[] input = ascii("12345\r\n123456\r\nok\n");
        for (boolean failFast : new boolean[] {true, false}) {
            assertEquals(hex("12345", "!TooLongFrameException", "ok", "|end"),
                    DecoderRun.decodeEveryWay(() -> new LineBasedFrameDecoder(5, true, failFast), input));
        }
    }

    @Test
    void aTooLongLineIsSkippedUpToItsEndAndTheNextLinesDecode() {
        byte[] input = ascii("short\n" + "x".repeat(500) + "\r\nafter\n");
        for (boolean failFast : new boolean[] {true, false}) {
            assertEquals(hex("short", "!TooLongFrameException", "after", "|end"),
                    DecoderRun.decodeEveryWay(() -> new LineBasedFrameDecoder(16, true, failFast), input));
        }
    }

    @Test
    void failFastReportsTheLongLineBeforeItEnds() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(8, true, true));
        assertThrows(TooLongFrameException.class,
                () -> ch.writeInbound(ch.alloc().buffer().writeBytes(ascii("0123456789"))));
        ch.writeInbound(ch.alloc().buffer().writeBytes(ascii("still the long line\nnext\n")));
        ByteBuf line = ch.readInbound();
        assertEquals("next", line.toString(StandardCharsets.US_ASCII));
        line.release();
        assertFalse(ch.finish());
    }

    @Test
    void nulDelimitedFramesHoweverTheBytesArrive() {
        byte[] input = ascii("a\0bc\0\0def");
        assertEquals(hex("a", "bc", "", "|end"),
                DecoderRun.decodeEveryWay(() -> new DelimiterBasedFrameDecoder(10, Delimiters.nulDelimiter()), input));
        assertEquals(hex("a\0", "bc\0", "\0", "|end"), DecoderRun.decodeEveryWay(
                () -> new DelimiterBasedFrameDecoder(10, false, true, Delimiters.nulDelimiter()), input));
    }

    @Test
    void theDelimiterThatEndsTheShortestFrameWins() {
        byte[][] delimiters = {ascii("END"), ascii(";")};
        byte[] input = ascii("one;twoEND;threeEN;fourEND");
        assertEquals(hex("one", "two", "", "threeEN", "four", "|end"),
                DecoderRun.decodeEveryWay(() -> new DelimiterBasedFrameDecoder(20, delimiters), input));
    }

    @Test
    void aTooLongFrameIsSkippedUpToItsDelimiterEvenWhenTheDelimiterIsSplit() {
        byte[] input = ascii("ok<>" + "y".repeat(100) + "<>next<>");
        for (boolean failFast : new boolean[] {true, false}) {
            assertEquals(hex("ok", "!TooLongFrameException", "next", "|end"), DecoderRun.decodeEveryWay(
                    () -> new DelimiterBasedFrameDecoder(10, true, failFast, ascii("<>")), input));
        }
    }

    @Test
    void lineDelimitersBehaveLikeTheLineDecoder() {
        byte[] input = ascii("a\r\nb\n" + "z".repeat(40) + "\nc\n");
        List<String> expected = hex("a", "b", "!TooLongFrameException", "c", "|end");
        assertEquals(expected, DecoderRun.decodeEveryWay(
                () -> new DelimiterBasedFrameDecoder(10, Delimiters.lineDelimiter()), input));
        // A subclass does not take the shortcut and must agree.
        assertEquals(expected, DecoderRun.decodeEveryWay(
                () -> new DelimiterBasedFrameDecoder(10, Delimiters.lineDelimiter()) { }, input));
    }

    @Test
    void emptyDelimitersAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new DelimiterBasedFrameDecoder(10, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new DelimiterBasedFrameDecoder(10));
    }
}
