package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackDecoderValidationTest.block;
import static io.rill.handler.codec.http2.HpackDecoderValidationTest.literal;
import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/**
 * SETTINGS_MAX_HEADER_LIST_SIZE is enforced while decoding (RFC 9113 §6.5.2, §10.5.1): the fields
 * over the limit are never kept, the block is still decoded to its end, and the stream error
 * comes as a {@link HeaderListTooLargeException}.
 */
class HpackHeaderListLimitTest {

    private static final int LIMIT = 8192;

    /** Sum of name + value + 32 over the fields. */
    private static long listSize(Http2Headers headers) {
        long size = 0;
        for (int i = 0; i < headers.size(); i++) {
            size += headers.nameAt(i).length() + headers.valueAt(i).length() + 32;
        }
        return size;
    }

    @Test
    void oversizedHeaderListIsAStreamErrorAndTheTableStaysInSync() throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(1000, 4096);
        byte[][] parts = new byte[20][];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = literal("x-field-" + i, "v".repeat(60)); // 9 + 60 + 32 = 101 octets, 102 from x-field-10
        }
        Http2Headers out = new Http2Headers();
        ByteBuf in = Unpooled.wrappedBuffer(block(parts));
        HeaderListTooLargeException e;
        try {
            e = assertThrows(HeaderListTooLargeException.class, () -> decoder.decode(7, in, out));
            assertEquals(0, in.readableBytes(), "the whole block was read");
        } finally {
            in.release();
        }
        assertEquals(7, e.streamId());
        assertEquals(Http2Error.PROTOCOL_ERROR, e.error());
        assertEquals(1000, e.limit());
        assertEquals(10 * 101 + 10 * 102, e.size());
        assertTrue(listSize(out) <= 1000, "kept " + listSize(out));
        assertEquals(9, out.size(), "9 * 101 = 909 fits, the tenth field would make 1010");
        assertEquals("x-field-19: " + "v".repeat(60), decoder.table().name(1) + ": " + decoder.table().value(1));
        assertEquals(List.of("x-field-19: " + "v".repeat(60)), fields(decode(decoder, "be")));
    }

    /**
     * The HPACK bomb (docs/security-cases.md, case H2-18; the CVE-2016-6581 class): one field fills the dynamic
     * table, then a 16 KiB block refers to it 16384 times, one octet each, which would decode to
     * 64 MiB of fields. Memory stays bounded: the output never holds more than the limit, and an
     * indexed field allocates nothing (it shares the table's strings), so the rest of the bomb
     * costs CPU linear in its 16 KiB and no memory.
     */
    @Test
    void hpackBombEndsInTheHeaderListErrorWithBoundedMemory() throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(LIMIT, 4096);
        byte[] big = new byte[4063];
        Arrays.fill(big, (byte) 'a');
        ByteBuf first = Unpooled.buffer();
        first.writeBytes(new byte[] {0x40, 0x01, 'x'});
        HpackEncoder.writeInteger(first, 0, 7, 4063); // a raw string's length: 7-bit prefix, H bit clear
        first.writeBytes(big);
        byte[] firstBlock = new byte[first.readableBytes()];
        first.readBytes(firstBlock);
        first.release();
        assertEquals(1, decode(decoder, firstBlock).size());
        assertEquals(4096, decoder.table().size(), "one entry fills the table");

        byte[] bomb = new byte[16384];
        Arrays.fill(bomb, (byte) 0xbe);
        Http2Headers out2 = new Http2Headers();
        ByteBuf again = Unpooled.wrappedBuffer(bomb);
        HeaderListTooLargeException e;
        try {
            e = assertThrows(HeaderListTooLargeException.class, () -> decoder.decode(11, again, out2));
            assertEquals(0, again.readableBytes(), "the whole block was read");
        } finally {
            again.release();
        }
        assertEquals(16384L * 4096, e.size());
        assertEquals(LIMIT, e.limit());
        assertTrue(listSize(out2) <= LIMIT, "kept " + listSize(out2));
        assertEquals(2, out2.size());
        assertEquals(1, decode(decoder, "be").size(), "the table is still in sync");
    }

    @Test
    void listExactlyAtTheLimitIsAccepted() throws Http2Exception {
        HpackDecoder decoder = new HpackDecoder(42, 4096); // ":method: GET" = 7 + 3 + 32
        assertEquals(1, decode(decoder, "82").size());
        assertThrows(HeaderListTooLargeException.class, () -> decode(decoder, "8287"));
    }
}
