package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Malformed messages (RFC 9113 §8.2.1, §8.2.2, §8.3): each is a stream error PROTOCOL_ERROR
 * naming the field, thrown after the whole block was decoded, so the dynamic table keeps every
 * entry the block inserted (checked by a field inserted after the bad one and used afterwards).
 */
class HpackDecoderValidationTest {

    private final HpackDecoder decoder = new HpackDecoder(8192, 4096);

    /** A literal with incremental indexing and a literal name, raw strings. */
    static byte[] literal(String name, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x40);
        for (String s : new String[] {name, value}) {
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            out.write(b.length); // tests keep strings under 127 octets: a one-octet length
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    static byte[] block(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Decodes {@code bad} followed by an indexed {@code after: sync}, expects the malformed message. */
    private void rejects(byte[] bad, String messagePart) throws Http2Exception {
        byte[] block = block(bad, literal("after", "sync"));
        Http2Exception e = assertThrows(Http2Exception.class, () -> decode(decoder, block));
        assertEquals(Http2Error.PROTOCOL_ERROR, e.error(), e.getMessage());
        assertEquals(3, e.streamId());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
        assertEquals(List.of("after: sync"), fields(decode(decoder, new byte[] {(byte) 0xbe})),
                "the table is in sync after the malformed block");
    }

    @Test
    void upperCaseNameIsMalformed() throws Http2Exception {
        rejects(literal("X-Custom", "1"), "upper-case field name 'X-Custom'");
    }

    @Test
    void nameWithANonTokenCharacterIsMalformed() throws Http2Exception {
        rejects(literal("x custom", "1"), "field name 'x custom'");
        rejects(literal("x\"q", "1"), "field name 'x\"q'");
        rejects(literal("x:y", "1"), "field name 'x:y'");
    }

    @Test
    void aLongBadNameIsQuotedCutShort() throws Http2Exception {
        String name = "X".repeat(100);
        rejects(literal(name, "1"), "upper-case field name '" + "X".repeat(64) + "...' (100 characters)");
    }

    @Test
    void emptyNameIsMalformed() throws Http2Exception {
        rejects(literal("", "1"), "empty field name");
    }

    @Test
    void valueWithNulIsMalformed() throws Http2Exception {
        rejects(literal("x-a", "1\u00002"), "field 'x-a' has a value with NUL, CR or LF");
    }

    @Test
    void valueWithCrIsMalformed() throws Http2Exception {
        rejects(literal("x-a", "1\r2"), "field 'x-a' has a value with NUL, CR or LF");
    }

    @Test
    void valueWithLfIsMalformed() throws Http2Exception {
        rejects(literal("x-a", "1\n2"), "field 'x-a' has a value with NUL, CR or LF");
    }

    @Test
    void valueWithLeadingSpaceIsMalformed() throws Http2Exception {
        rejects(literal("x-a", " 1"), "field 'x-a' has a value with leading or trailing white space");
    }

    @Test
    void valueWithTrailingTabIsMalformed() throws Http2Exception {
        rejects(literal("x-a", "1\t"), "field 'x-a' has a value with leading or trailing white space");
    }

    @Test
    void valueWithInnerSpaceIsFine() throws Http2Exception {
        assertEquals(List.of("x-a: 1 2"), fields(decode(decoder, literal("x-a", "1 2"))));
    }

    @ParameterizedTest(name = "connection-specific field {0} is malformed")
    @ValueSource(strings = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"})
    void connectionSpecificFieldIsMalformed(String name) throws Http2Exception {
        rejects(literal(name, "x"), "connection-specific field '" + name + "'");
    }

    @Test
    void teOtherThanTrailersIsMalformed() throws Http2Exception {
        rejects(literal("te", "gzip"), "field 'te' with a value other than 'trailers': 'gzip'");
    }

    @Test
    void teTrailersIsFine() throws Http2Exception {
        assertEquals(List.of("te: trailers"), fields(decode(decoder, literal("te", "trailers"))));
    }

    @Test
    void pseudoHeaderAfterARegularFieldIsMalformed() throws Http2Exception {
        rejects(block(literal("x-a", "1"), new byte[] {(byte) 0x82}), "pseudo-header field ':method' after a regular field");
    }

    @Test
    void unknownPseudoHeaderIsMalformed() throws Http2Exception {
        rejects(literal(":foo", "1"), "unknown pseudo-header field ':foo'");
    }

    @Test
    void duplicatedPseudoHeaderIsMalformed() throws Http2Exception {
        rejects(new byte[] {(byte) 0x84, (byte) 0x85}, "duplicated pseudo-header field ':path'");
    }

    @Test
    void aMalformedEntryIsRejectedEachTimeItIsReferenced() throws Http2Exception {
        rejects(literal("x-a", " padded"), "field 'x-a' has a value with leading or trailing white space");
        byte[] again = {(byte) 0xbf}; // index 63: the bad entry, now second newest
        for (int i = 0; i < 2; i++) {
            Http2Exception e = assertThrows(Http2Exception.class, () -> decode(decoder, again));
            assertTrue(e.getMessage().contains("field 'x-a'"), e.getMessage());
        }
    }

    @Test
    void malformedFieldIsNotAddedNorAnythingAfterIt() {
        Http2Headers out = new Http2Headers();
        io.rill.buffer.ByteBuf in = io.rill.buffer.Unpooled.wrappedBuffer(
                block(new byte[] {(byte) 0x82}, literal("X-Bad", "1"), literal("x-good", "2")));
        try {
            assertThrows(Http2Exception.class, () -> decoder.decode(5, in, out));
        } finally {
            in.release();
        }
        assertEquals(List.of(":method: GET"), fields(out));
    }
}
