package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.HpackTestSupport.decode;
import static io.rill.handler.codec.http2.HpackTestSupport.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Broken compression: each case is a connection error COMPRESSION_ERROR (RFC 7541 §2.3.3, §4.2,
 * §5.1, §5.2; RFC 9113 §4.3), thrown as soon as it is seen.
 */
class HpackDecoderErrorsTest {

    private final HpackDecoder decoder = new HpackDecoder(8192, 4096);

    private Http2Exception compressionError(String hex) {
        Http2Exception e = assertThrows(Http2Exception.class, () -> decode(decoder, hex));
        assertEquals(Http2Error.COMPRESSION_ERROR, e.error(), e.getMessage());
        assertFalse(e.isStreamError(), e.getMessage());
        return e;
    }

    @Test
    void indexZeroIsACompressionError() {
        compressionError("80");
    }

    @Test
    void indexBeyondTheTablesIsACompressionError() {
        assertTrue(compressionError("be").getMessage().contains("index 62"));
    }

    @Test
    void literalNameIndexBeyondTheTablesIsACompressionError() {
        compressionError("7f 00 01 61"); // literal with indexing, name index 63, empty dynamic table
    }

    @Test
    void integerCutOffByTheEndOfTheBlockIsACompressionError() {
        compressionError("ff");
    }

    @Test
    void integerAboveTwoToTheThirtyOneIsACompressionError() {
        compressionError("ff ff ff ff ff 0f");
    }

    @Test
    void integerWithEndlessZeroContinuationsIsACompressionError() {
        compressionError("ff 80 80 80 80 80 80 00");
    }

    @Test
    void stringLongerThanTheRestOfTheBlockIsACompressionError() {
        compressionError("40 0a 63 75");
    }

    @Test
    void blockEndingWhereTheValueShouldStartIsACompressionError() {
        compressionError("41");
    }

    @Test
    void huffmanStringHoldingEosIsACompressionError() {
        compressionError("40 84 ff ff ff ff 01 61"); // 30 one-bits are EOS
    }

    @Test
    void huffmanPaddingOfAWholeByteIsACompressionError() throws Http2Exception {
        assertEquals(List.of("a: a"), fields(decode(decoder, "40 81 1f 01 61"))); // 'a' = 00011, padding 111
        compressionError("40 82 1f ff 01 61");
    }

    @Test
    void huffmanPaddingThatIsNotAllOnesIsACompressionError() {
        compressionError("40 81 1e 01 61");
    }

    @Test
    void tableSizeUpdateAfterAFieldIsACompressionError() {
        compressionError("82 20");
    }

    @Test
    void thirdTableSizeUpdateInABlockIsACompressionError() throws Http2Exception {
        assertEquals(List.of(":method: GET"), fields(decode(decoder, "20 3f e1 1f 82")));
        compressionError("20 20 20 82");
    }

    @Test
    void tableSizeUpdateAboveTheAdvertisedSizeIsACompressionError() {
        assertTrue(compressionError("3f e2 1f").getMessage().contains("4097")); // 31 + 0x62 + (0x1f << 7)
    }

    @Test
    void blockAfterALowerAdvertisedSizeMustStartWithASizeUpdate() throws Http2Exception {
        decoder.setMaxHeaderTableSize(100);
        compressionError("82");
        assertEquals(List.of(":method: GET"), fields(decode(decoder, "3f 45 82"))); // 31 + 69 = 100
        assertEquals(100, decoder.table().capacity());
        assertEquals(List.of(":method: GET"), fields(decode(decoder, "82")));
    }

    @Test
    void sizeUpdateShrinkingTheTableEvictsOldestEntries() throws Http2Exception {
        decode(decoder, "40 01 61 01 31 40 01 62 01 32"); // a: 1, b: 2 (34 octets each)
        decoder.setMaxHeaderTableSize(40);
        decode(decoder, "3f 09"); // 40: only the newest entry fits
        assertEquals(List.of("b: 2"), HpackTestSupport.entries(decoder.table()));
    }
}
