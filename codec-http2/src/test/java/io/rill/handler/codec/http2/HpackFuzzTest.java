package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz target for the HPACK decoder (package-private, hence here). The fuzzer's pieces are a
 * sequence of field blocks sharing one dynamic table, as on a connection. Only an
 * {@link Http2Exception} escapes; after a connection error (COMPRESSION_ERROR) nothing more is
 * decoded, after a stream error the next block still is. The dynamic table never holds more than
 * its capacity, a section is never kept past the list limit (docs/security-cases.md, cases H2-17
 * and H2-18), and every section decoded, encoded again by {@link HpackEncoder} and decoded by a
 * fresh decoder, gives the same fields.
 */
class HpackFuzzTest {

    private static final int LIST_LIMIT = 1024;
    private static final int TABLE_SIZE = 256;

    @FuzzTest
    void decodeBlocks(byte[] input) throws Http2Exception {
        FuzzLeaks.assertNoneReported();
        HpackDecoder decoder = new HpackDecoder(LIST_LIMIT, TABLE_SIZE);
        List<Http2Headers> sections = new ArrayList<>();
        for (byte[] block : FuzzInput.pieces(input)) {
            Http2Headers out = new Http2Headers();
            ByteBuf in = Unpooled.wrappedBuffer(block);
            try {
                decoder.decode(1, in, out);
                sections.add(out);
            } catch (Http2Exception e) {
                if (!e.isStreamError()) {
                    break;
                }
            } finally {
                in.release();
            }
            assertTrue(decoder.table().size() <= decoder.table().capacity(), "dynamic table over its capacity");
            assertTrue(decoder.table().capacity() <= TABLE_SIZE, "dynamic table grew past SETTINGS_HEADER_TABLE_SIZE");
            long listSize = 0;
            for (int i = 0; i < out.size(); i++) {
                listSize += out.nameAt(i).length() + out.valueAt(i).length() + 32;
            }
            long size = listSize;
            assertTrue(size <= LIST_LIMIT + 32 + 2L * TABLE_SIZE, () -> "kept a section of " + size + " octets");
        }

        HpackEncoder encoder = new HpackEncoder(HpackEncoder.SensitivityPolicy.DEFAULT, TABLE_SIZE, true);
        HpackDecoder fresh = new HpackDecoder(1 << 20, TABLE_SIZE);
        for (Http2Headers section : sections) {
            ByteBuf block = Unpooled.buffer();
            try {
                encoder.encode(section, block);
                Http2Headers again = new Http2Headers();
                fresh.decode(1, block, again);
                assertEquals(section, again, "decode, encode, decode");
            } finally {
                block.release();
            }
        }
    }
}
