package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.encode;
import static io.rill.handler.codec.http2.HpackTestSupport.entries;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static io.rill.handler.codec.http2.HpackTestSupport.headers;
import static io.rill.handler.codec.http2.HpackTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http2.HpackEncoder.SensitivityPolicy;
import io.rill.util.AsciiString;

/** The encoder's choices: table size updates, never-indexed fields, indexing and its limits. */
class HpackEncoderTest {

    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder(1 << 20, 4096);

    @Test
    void aLowerPeerTableSizeIsAnnouncedAtTheStartOfTheNextBlockOnly() throws Http2Exception {
        encoder.setMaxHeaderTableSize(100);
        decoder.setMaxHeaderTableSize(100);
        byte[] block = encode(encoder, headers(":method", "GET"));
        assertEquals("3f4582", hex(block)); // update to 31 + 69 = 100, then :method GET
        decode(decoder, block);
        assertEquals(100, decoder.table().capacity());
        assertEquals("82", hex(encode(encoder, headers(":method", "GET"))));
    }

    @Test
    void aSizeReducedThenRaisedBetweenBlocksSendsTheMinimumThenTheFinalSize() throws Http2Exception {
        decode(decoder, encode(encoder, headers("x-a", "1")));
        assertEquals(1, decoder.table().length());
        encoder.setMaxHeaderTableSize(0);
        encoder.setMaxHeaderTableSize(4096);
        byte[] block = encode(encoder, headers(":method", "GET"));
        assertEquals("203fe11f82", hex(block)); // 0, then 31 + 0x61 + (0x1f << 7) = 4096
        decode(decoder, block);
        assertEquals(0, decoder.table().length(), "the peer evicted what the encoder evicted");
        assertEquals(4096, decoder.table().capacity());
    }

    @Test
    void aPeerSizeAboveTheEncodersCapChangesNothing() {
        encoder.setMaxHeaderTableSize(65536);
        assertEquals("82", hex(encode(encoder, headers(":method", "GET"))));
        assertEquals(4096, encoder.table().capacity());
    }

    @Test
    void anEncoderCappedBelow4096AnnouncesItsSizeInItsFirstBlock() {
        HpackEncoder small = new HpackEncoder(SensitivityPolicy.DEFAULT, 256, true);
        assertEquals("3fe10182", hex(encode(small, headers(":method", "GET"))));
    }

    @Test
    void authorizationIsNeverIndexed() throws Http2Exception {
        byte[] block = encode(encoder, headers("authorization", "Basic dXNlcjpwYXNz"));
        assertEquals("1f08", hex(block).substring(0, 4)); // never indexed, name index 23 (15 + 8)
        assertEquals(0, encoder.table().length());
        assertEquals(List.of("authorization: Basic dXNlcjpwYXNz"), fields(decode(decoder, block)));
        assertEquals(0, decoder.table().length());
    }

    @Test
    void shortCookiesAreNeverIndexedLongOnesAre() {
        assertEquals(0x10, encode(encoder, headers("cookie", "sid=1234"))[0] & 0xF0);
        assertEquals(0, encoder.table().length());
        String longCookie = "session=0123456789abcdef0123456789abcdef";
        assertEquals(0x40, encode(encoder, headers("cookie", longCookie))[0] & 0xC0);
        assertEquals(List.of("cookie: " + longCookie), entries(encoder.table()));
    }

    @Test
    void setCookieIsNeverIndexed() {
        assertEquals(0x10, encode(encoder, headers("set-cookie", "id=a3fWa; Max-Age=2592000; Secure"))[0] & 0xF0);
        assertEquals(0, encoder.table().length());
    }

    @Test
    void aSensitiveFieldUsesADynamicNameIndexWhenTheNameIsThere() throws Http2Exception {
        HpackEncoder custom = new HpackEncoder((name, value) -> AsciiString.contentEquals(value, "secret"));
        encode(custom, headers("x-token", "public"));
        byte[] block = encode(custom, headers("x-token", "secret"));
        assertEquals("1f2f", hex(block).substring(0, 4)); // never indexed, name index 62 (15 + 47)
        decode(decoder, encode(new HpackEncoder(), headers("x-token", "public")));
        assertEquals(List.of("x-token: secret"), fields(decode(decoder, block)));
    }

    @Test
    void aRepeatedSectionIsSentAsOneOctetPerField() {
        Http2Headers request = headers(":method", "GET", ":scheme", "https", ":path", "/api/items?page=2",
                ":authority", "api.example.com", "user-agent", "curl/8.5.0", "accept", "application/json",
                "x-request-id", "3f1c2a");
        encode(encoder, request);
        assertEquals(request.size(), encode(encoder, request).length);
    }

    @Test
    void aFieldLargerThanTheTableIsNotIndexedAndKeepsTheTable() throws Http2Exception {
        encode(encoder, headers("x-a", "1"));
        byte[] block = encode(encoder, headers("x-big", "z".repeat(5000)));
        assertEquals(0x00, block[0] & 0xF0, "a literal without indexing");
        assertEquals(List.of("x-a: 1"), entries(encoder.table()));
    }

    @Test
    void stringsAreHuffmanCodedOnlyWhenShorter() {
        // "www.example.com" is 12 octets in Huffman code; "\u00ff\u00fe" would take 26 + 26 bits
        assertEquals("418cf1e3c2e5f23a6ba0ab90f4ff",
                hex(encode(encoder, headers(":authority", "www.example.com"))));
        assertEquals("40017802fffe", hex(encode(encoder, headers("x", "\u00ff\u00fe"))));
    }

    @Test
    void evictionKeepsEncoderAndDecoderTablesEqual() throws Http2Exception {
        HpackEncoder small = new HpackEncoder(SensitivityPolicy.NONE, 200, true);
        HpackDecoder peer = new HpackDecoder(1 << 20, 4096);
        for (int i = 0; i < 50; i++) {
            Http2Headers h = headers("x-n" + (i % 7), "value-" + i, "x-n" + ((i + 3) % 7), "value-" + (i / 2));
            Http2Headers out = decode(peer, encode(small, h));
            assertEquals(fields(h), fields(out));
            assertEquals(entries(small.table()), entries(peer.table()));
            assertTrue(peer.table().size() <= 200);
        }
    }
}
