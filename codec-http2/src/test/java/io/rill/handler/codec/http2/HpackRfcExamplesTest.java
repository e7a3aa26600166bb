package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.encode;
import static io.rill.handler.codec.http2.HpackTestSupport.entries;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static io.rill.handler.codec.http2.HpackTestSupport.headers;
import static io.rill.handler.codec.http2.HpackTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.handler.codec.http2.HpackEncoder.SensitivityPolicy;

/**
 * The examples of RFC 7541 Appendix C, decoded to the fields and dynamic tables the RFC shows,
 * and encoded back to the RFC's bytes where the RFC's choices are ours (every field indexed, the
 * static table first, Huffman when shorter).
 */
class HpackRfcExamplesTest {

    private static final String[] REQUEST_1 = {
        ":method", "GET", ":scheme", "http", ":path", "/", ":authority", "www.example.com"};
    private static final String[] REQUEST_2 = {
        ":method", "GET", ":scheme", "http", ":path", "/", ":authority", "www.example.com",
        "cache-control", "no-cache"};
    private static final String[] REQUEST_3 = {
        ":method", "GET", ":scheme", "https", ":path", "/index.html", ":authority", "www.example.com",
        "custom-key", "custom-value"};
    private static final List<List<String>> REQUEST_TABLES = List.of(
            List.of(":authority: www.example.com"),
            List.of("cache-control: no-cache", ":authority: www.example.com"),
            List.of("custom-key: custom-value", "cache-control: no-cache", ":authority: www.example.com"));
    private static final long[] REQUEST_TABLE_SIZES = {57, 110, 164};

    private static final String DATE_1 = "Mon, 21 Oct 2013 20:13:21 GMT";
    private static final String DATE_2 = "Mon, 21 Oct 2013 20:13:22 GMT";
    private static final String LOCATION = "https://www.example.com";
    private static final String COOKIE = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";
    private static final String[] RESPONSE_1 = {
        ":status", "302", "cache-control", "private", "date", DATE_1, "location", LOCATION};
    private static final String[] RESPONSE_2 = {
        ":status", "307", "cache-control", "private", "date", DATE_1, "location", LOCATION};
    private static final String[] RESPONSE_3 = {
        ":status", "200", "cache-control", "private", "date", DATE_2, "location", LOCATION,
        "content-encoding", "gzip", "set-cookie", COOKIE};
    private static final List<List<String>> RESPONSE_TABLES = List.of(
            List.of("location: " + LOCATION, "date: " + DATE_1, "cache-control: private", ":status: 302"),
            List.of(":status: 307", "location: " + LOCATION, "date: " + DATE_1, "cache-control: private"),
            List.of("set-cookie: " + COOKIE, "content-encoding: gzip", "date: " + DATE_2));
    private static final long[] RESPONSE_TABLE_SIZES = {222, 222, 215};

    @Test
    void c21LiteralWithIndexingEntersTheTable() throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(8192, 4096);
        Http2Headers out = decode(decoder, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572");
        assertEquals(List.of("custom-key: custom-header"), fields(out));
        assertEquals(List.of("custom-key: custom-header"), entries(decoder.table()));
        assertEquals(55, decoder.table().size());
    }

    @Test
    void c22LiteralWithoutIndexingLeavesTheTableEmpty() throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(8192, 4096);
        assertEquals(List.of(":path: /sample/path"), fields(decode(decoder, "040c 2f73 616d 706c 652f 7061 7468")));
        assertEquals(0, decoder.table().length());
    }

    @Test
    void c23NeverIndexedLiteralLeavesTheTableEmptyAndIsWhatTheEncoderSendsForSensitiveFields()
            throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(8192, 4096);
        String block = "1008 7061 7373 776f 7264 0673 6563 7265 74";
        assertEquals(List.of("password: secret"), fields(decode(decoder, block)));
        assertEquals(0, decoder.table().length());

        HpackEncoder encoder = new HpackEncoder((name, value) -> name.toString().equals("password"), 4096, false);
        assertEquals(block.replace(" ", ""), hex(encode(encoder, headers("password", "secret"))));
    }

    @Test
    void c24IndexedField() throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(8192, 4096);
        assertEquals(List.of(":method: GET"), fields(decode(decoder, "82")));
        assertEquals(0, decoder.table().length());
    }

    @Test
    void c3RequestsWithoutHuffman() throws Http2Exception {
        checkSeries(4096, false, new String[] {
            "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "8286 84be 5808 6e6f 2d63 6163 6865",
            "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
        }, new String[][] {REQUEST_1, REQUEST_2, REQUEST_3}, REQUEST_TABLES, REQUEST_TABLE_SIZES);
    }

    @Test
    void c4RequestsWithHuffman() throws Http2Exception {
        checkSeries(4096, true, new String[] {
            "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
            "8286 84be 5886 a8eb 1064 9cbf",
            "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
        }, new String[][] {REQUEST_1, REQUEST_2, REQUEST_3}, REQUEST_TABLES, REQUEST_TABLE_SIZES);
    }

    @Test
    void c5ResponsesWithoutHuffmanEvictFromA256OctetTable() throws Http2Exception {
        checkSeries(256, false, new String[] {
            "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32"
                    + "3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "4803 3330 37c1 c0bf",
            "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970"
                    + "7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61"
                    + "6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
        }, new String[][] {RESPONSE_1, RESPONSE_2, RESPONSE_3}, RESPONSE_TABLES, RESPONSE_TABLE_SIZES);
    }

    /**
     * The RFC Huffman-codes {@code 307} although the code is no shorter (3 octets either way); this
     * encoder sends it raw, sparing the peer a Huffman decode, so its second block differs there.
     */
    @Test
    void c6ResponsesWithHuffmanEvictFromA256OctetTable() throws Http2Exception {
        String[] blocks = {
            "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad"
                    + "1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
            "4883 640e ffc1 c0bf",
            "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2"
                    + "e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
        };
        String[] encoded = {blocks[0], "4803 3330 37c1 c0bf", blocks[2]};
        checkSeries(256, true, blocks, encoded, new String[][] {RESPONSE_1, RESPONSE_2, RESPONSE_3},
                RESPONSE_TABLES, RESPONSE_TABLE_SIZES);
    }

    /**
     * Decodes the blocks in order, checking fields and table after each, then encodes the field
     * lists with a fresh encoder and checks the bytes. A table smaller than 4096 octets is
     * announced by the encoder's first block with a size update, which the RFC's examples leave out
     * (they start from a peer that already agreed on 256): the test expects it in front.
     */
    private static void checkSeries(int tableSize, boolean huffman, String[] blocks, String[][] fieldLists,
            List<List<String>> tables, long[] tableSizes) throws Http2Exception {
        checkSeries(tableSize, huffman, blocks, blocks, fieldLists, tables, tableSizes);
    }

    private static void checkSeries(int tableSize, boolean huffman, String[] blocks, String[] encoded,
            String[][] fieldLists, List<List<String>> tables, long[] tableSizes) throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(8192, tableSize);
        for (int i = 0; i < blocks.length; i++) {
            Http2Headers out = decode(decoder, blocks[i]);
            assertEquals(fields(headers(fieldLists[i])), fields(out), "fields of block " + (i + 1));
            assertEquals(tables.get(i), entries(decoder.table()), "table after block " + (i + 1));
            assertEquals(tableSizes[i], decoder.table().size(), "table size after block " + (i + 1));
        }
        HpackEncoder encoder = new HpackEncoder(SensitivityPolicy.NONE, tableSize, huffman);
        for (int i = 0; i < blocks.length; i++) {
            String expected = encoded[i].replace(" ", "");
            if (i == 0 && tableSize < HpackEncoder.DEFAULT_TABLE_SIZE) {
                expected = sizeUpdate(tableSize) + expected;
            }
            assertEquals(expected, hex(encode(encoder, headers(fieldLists[i]))), "encoding of block " + (i + 1));
            assertEquals(tables.get(i), entries(encoder.table()), "encoder table after block " + (i + 1));
        }
    }

    /** A dynamic table size update to {@code size} (RFC 7541 §6.3), as hex. */
    private static String sizeUpdate(int size) {
        io.rill.buffer.ByteBuf buf = io.rill.buffer.Unpooled.buffer();
        try {
            HpackEncoder.writeInteger(buf, 0x20, 5, size);
            byte[] b = new byte[buf.readableBytes()];
            buf.readBytes(b);
            return hex(b);
        } finally {
            buf.release();
        }
    }
}
