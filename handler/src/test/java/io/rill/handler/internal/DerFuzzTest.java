package io.rill.handler.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.security.GeneralSecurityException;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.fuzz.FuzzInput;

/**
 * Fuzz target for {@link DerReader}: a walk over any bytes (entering every SEQUENCE, SET and
 * context-specific constructed element, reading integers and object identifiers where their
 * tags say) throws nothing but a {@link GeneralSecurityException}; an element's {@code encoded()}
 * bytes read again give the same tag and contents; and integers and object identifiers written
 * again by {@link DerWriter} read back the same.
 */
class DerFuzzTest {

    /** Deeper nesting than any key or certificate Rill reads; the walk is recursive. */
    private static final int MAX_DEPTH = 32;

    @FuzzTest
    void walk(byte[] input) {
        try {
            walk(new DerReader(FuzzInput.payload(input)), 0);
        } catch (GeneralSecurityException expected) {
            // malformed DER
        }
    }

    private static void walk(DerReader reader, int depth) throws GeneralSecurityException {
        while (reader.hasMore()) {
            int tag = reader.peekTag();
            byte[] encoded = reader.encoded();
            DerReader alone = new DerReader(encoded);
            assertEquals(tag, alone.peekTag(), "encoded() keeps the tag");
            byte[] contents = alone.contents(tag);
            assertEquals(false, alone.hasMore(), "encoded() is exactly one element");
            DerReader inner = new DerReader(encoded);
            if (tag == DerReader.TAG_INTEGER) {
                BigInteger value = inner.integer();
                assertEquals(value, new DerReader(DerWriter.integer(value)).integer(), "integer, DER, integer");
            } else if (tag == DerReader.TAG_OID) {
                String oid = inner.oid();
                String again;
                try {
                    again = new DerReader(DerWriter.oid(oid)).oid();
                } catch (IllegalArgumentException e) {
                    throw new AssertionError("DerWriter refuses an OID DerReader produced: " + oid, e);
                }
                assertEquals(oid, again, "oid, DER, oid");
            } else if ((tag == DerReader.TAG_SEQUENCE || tag == DerReader.TAG_SET || (tag & 0xE0) == 0xA0)
                    && depth < MAX_DEPTH) {
                walk(inner.constructed(tag), depth + 1);
            } else {
                assertArrayEquals(contents, inner.contents(tag));
            }
        }
    }
}
