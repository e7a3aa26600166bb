package io.rill.handler.codec.smtp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.Cuttings;
import io.rill.handler.codec.DecoderException;
import io.rill.handler.codec.EncoderException;

class SmtpCodecTest {

    private static String written(Object... messages) {
        EmbeddedChannel ch = new EmbeddedChannel(new SmtpRequestEncoder());
        StringBuilder out = new StringBuilder();
        for (Object m : messages) {
            ch.writeOutbound(m);
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                out.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
        }
        ch.finish();
        return out.toString();
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Replies and errors (as their class) decoded from {@code pieces}, in order within each kind. */
    private static List<Object> decoded(List<String> pieces, SmtpResponseDecoder decoder) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        List<Object> got = new ArrayList<>();
        for (String p : pieces) {
            try {
                ch.writeInbound(ascii(p));
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

    @Test
    void requestsAreCommandLines() {
        assertEquals("EHLO client.example\r\nMAIL FROM:<a@example.org>\r\nRCPT TO:<b@example.net>\r\nDATA\r\n",
                written(SmtpRequest.ehlo("client.example"), SmtpRequest.mail("a@example.org"),
                        SmtpRequest.rcpt("b@example.net"), SmtpRequest.data(), LastSmtpContent.empty())
                        .replace(".\r\n", ""));
        assertEquals("AUTH PLAIN AGFsaWNlAHNlY3JldA==\r\nQUIT\r\n",
                written(SmtpRequest.auth("PLAIN", "AGFsaWNlAHNlY3JldA=="), SmtpRequest.quit()));
        assertEquals("XCLIENT\r\n", written(new SmtpRequest(SmtpCommand.valueOf("xclient"))));
    }

    @Test
    void smtp_01_aParameterWithCrOrLfIsRefusedWhenTheRequestIsMade() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SmtpRequest.rcpt("b@example.net>\r\nRCPT TO:<victim@example.com"));
        assertTrue(e.getMessage().contains("would inject a command"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SmtpRequest.mail("a@example.org\n"));
        assertThrows(IllegalArgumentException.class, () -> SmtpRequest.ehlo("a\0b"));
        assertThrows(IllegalArgumentException.class, () -> SmtpCommand.valueOf("MAIL FROM"));
        assertThrows(IllegalArgumentException.class, () -> SmtpCommand.valueOf(""));
    }

    @Test
    void smtp_02_theMessageIsDotStuffedAndItsLineEndsMadeCrlfSoNothingInItEndsIt() {
        String out = written(SmtpRequest.data(),
                new SmtpContent(ascii(".starts with a dot\r\nbare LF\nthen\n.\r\nsmuggled\r")),
                new SmtpContent(ascii("\n.\rbare CR\r")),
                new LastSmtpContent(ascii("last line without an end")));
        assertEquals("DATA\r\n..starts with a dot\r\nbare LF\r\nthen\r\n..\r\nsmuggled\r\n..\r\nbare CR\r\n"
                + "last line without an end\r\n.\r\n", out);
        assertEquals("DATA\r\nends well\r\n.\r\n", written(SmtpRequest.data(), new LastSmtpContent(ascii("ends well\r\n"))));
        assertEquals("DATA\r\n.\r\n", written(SmtpRequest.data(), LastSmtpContent.empty()));
    }

    @Test
    void requestsAndContentOutOfTurnFailTheWrite() {
        EmbeddedChannel ch = new EmbeddedChannel(new SmtpRequestEncoder());
        EncoderException outside = assertThrows(EncoderException.class, () -> ch.writeOutbound(LastSmtpContent.empty()));
        assertTrue(outside.getMessage().contains("send a DATA request first"), outside.getMessage());
        ch.writeOutbound(SmtpRequest.data());
        ((ByteBuf) ch.readOutbound()).release();
        EncoderException inside = assertThrows(EncoderException.class, () -> ch.writeOutbound(SmtpRequest.quit()));
        assertTrue(inside.getMessage().contains("end it with a LastSmtpContent first"), inside.getMessage());
        ch.finishAndReleaseAll();
    }

    @Test
    void repliesDecodeWholeByteByByteSplitAtEveryIndexAndInRandomPieces() {
        String stream = "220 mail.example ESMTP ready\r\n250-mail.example\r\n250-PIPELINING\r\n250-SIZE 10240000\n"
                + "250 8BITMIME\r\n354\r\n221 2.0.0 Bye\r\n";
        List<Object> expected = List.of(new SmtpResponse(220, List.of("mail.example ESMTP ready")),
                new SmtpResponse(250, List.of("mail.example", "PIPELINING", "SIZE 10240000", "8BITMIME")),
                new SmtpResponse(354, List.of("")), new SmtpResponse(221, List.of("2.0.0 Bye")));
        assertEquals(expected, decoded(List.of(stream), new SmtpResponseDecoder()));
        for (List<byte[]> way : Cuttings.of(stream.getBytes(StandardCharsets.US_ASCII), 50)) {
            List<String> pieces = way.stream().map(b -> new String(b, StandardCharsets.US_ASCII)).toList();
            assertEquals(expected, decoded(pieces, new SmtpResponseDecoder()), way.size() + " pieces");
        }
    }

    @Test
    void smtp_03_aReplyLineOrAReplyOverItsBoundFailsUnbuffered() {
        List<Object> longLine = decoded(List.of("250 " + "x".repeat(100), "y".repeat(100)), new SmtpResponseDecoder(64, 8));
        SmtpDecoderException e = assertInstanceOf(SmtpDecoderException.class, longLine.get(0));
        assertTrue(e.getMessage().contains("maxLineLength (64 bytes)"), e.getMessage());
        assertEquals(1, longLine.size(), "nothing after the failure is decoded");
        List<Object> manyLines = decoded(List.of("250-a\r\n".repeat(9) + "250 b\r\n"), new SmtpResponseDecoder(64, 8));
        assertTrue(assertInstanceOf(SmtpDecoderException.class, manyLines.get(0)).getMessage().contains("maxLines (8)"));
    }

    @Test
    void smtp_04_whatIsNotAReplyFailsAndEverythingAfterItIsDropped() {
        for (String bad : List.of("HTTP/1.1 200 OK\r\n", "25\r\n", "199 too low\r\n", "600 too high\r\n",
                "250x\r\n", "250-first\r\n354 another code\r\n")) {
            List<Object> got = decoded(List.of(bad, "250 OK\r\n"), new SmtpResponseDecoder());
            assertInstanceOf(SmtpDecoderException.class, got.get(0), bad);
            assertEquals(1, got.size(), "after " + bad.trim() + " the decoder stays broken");
        }
    }
}
