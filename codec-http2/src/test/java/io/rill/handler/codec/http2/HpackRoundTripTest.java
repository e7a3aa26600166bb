package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.encode;
import static io.rill.handler.codec.http2.HpackTestSupport.entries;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** Encoder to decoder: Huffman over every octet, and random header sets with table size changes. */
class HpackRoundTripTest {

    @Test
    void huffmanRoundTripsAll256OctetValues() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
            assertArrayEquals(new byte[] {(byte) i}, huffmanRoundTrip(new byte[] {(byte) i}), "octet " + i);
        }
        assertArrayEquals(all, huffmanRoundTrip(all));
    }

    private static byte[] huffmanRoundTrip(byte[] octets) {
        io.rill.util.AsciiString s = new io.rill.util.AsciiString(octets);
        ByteBuf buf = Unpooled.buffer();
        try {
            HpackHuffman.encode(s, buf);
            assertEquals(HpackHuffman.encodedLength(s), buf.readableBytes());
            byte[] coded = new byte[buf.readableBytes()];
            buf.readBytes(coded);
            byte[] dst = new byte[coded.length * 8 / 5];
            int n = HpackHuffman.decode(coded, 0, coded.length, dst);
            return java.util.Arrays.copyOf(dst, n);
        } finally {
            buf.release();
        }
    }

    /**
     * 3000 random sections (names from the static table and a small custom pool, so values repeat
     * and indexes get used), with the table size changed every so often as SETTINGS would: the
     * decoded fields equal the sent ones, and both tables hold the same entries after every block.
     */
    @Test
    void randomHeaderSetsRoundTripThroughTableSizeChanges() throws Http2Exception {
        Random random = new Random(20261125);
        HpackEncoder encoder = new HpackEncoder(HpackEncoder.SensitivityPolicy.DEFAULT);
        HpackDecoder decoder = new HpackDecoder(1 << 20, 4096);
        for (int round = 0; round < 3000; round++) {
            if (random.nextInt(40) == 0) {
                int size = new int[] {0, 64, 256, 1000, 4096, 8192}[random.nextInt(6)];
                decoder.setMaxHeaderTableSize(size); // acknowledged SETTINGS: the decoder accepts up to it
                encoder.setMaxHeaderTableSize(size);
                if (random.nextBoolean()) {
                    int other = random.nextInt(4097);
                    decoder.setMaxHeaderTableSize(Math.max(size, other));
                    encoder.setMaxHeaderTableSize(other);
                    decoder.setMaxHeaderTableSize(other);
                }
            }
            Http2Headers sent = HpackSamples.randomSection(random);
            Http2Headers received = decode(decoder, encode(encoder, sent));
            assertEquals(fields(sent), fields(received), "round " + round);
            assertEquals(entries(encoder.table()), entries(decoder.table()), "tables after round " + round);
        }
    }
}
