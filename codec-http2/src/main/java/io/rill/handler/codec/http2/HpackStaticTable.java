package io.rill.handler.codec.http2;

import io.rill.util.AsciiString;

/**
 * The 61 entries of the HPACK static table (RFC 7541 Appendix A), indexes 1 to 61, and a lookup
 * from a field to its index for the encoder.
 *
 * <p>The lookup hashes the name into a small open-addressing table of first indexes; entries
 * with the same name are adjacent in Appendix A (the {@code :method}, {@code :path},
 * {@code :scheme} and {@code :status} runs), so the values are scanned from there.
 */
final class HpackStaticTable {

    /** Index 61, the last static entry; dynamic entries start at 62. */
    static final int LENGTH = 61;

    private static final String[] ENTRIES = {
        /*  1 */ ":authority", "",
        /*  2 */ ":method", "GET",
        /*  3 */ ":method", "POST",
        /*  4 */ ":path", "/",
        /*  5 */ ":path", "/index.html",
        /*  6 */ ":scheme", "http",
        /*  7 */ ":scheme", "https",
        /*  8 */ ":status", "200",
        /*  9 */ ":status", "204",
        /* 10 */ ":status", "206",
        /* 11 */ ":status", "304",
        /* 12 */ ":status", "400",
        /* 13 */ ":status", "404",
        /* 14 */ ":status", "500",
        /* 15 */ "accept-charset", "",
        /* 16 */ "accept-encoding", "gzip, deflate",
        /* 17 */ "accept-language", "",
        /* 18 */ "accept-ranges", "",
        /* 19 */ "accept", "",
        /* 20 */ "access-control-allow-origin", "",
        /* 21 */ "age", "",
        /* 22 */ "allow", "",
        /* 23 */ "authorization", "",
        /* 24 */ "cache-control", "",
        /* 25 */ "content-disposition", "",
        /* 26 */ "content-encoding", "",
        /* 27 */ "content-language", "",
        /* 28 */ "content-length", "",
        /* 29 */ "content-location", "",
        /* 30 */ "content-range", "",
        /* 31 */ "content-type", "",
        /* 32 */ "cookie", "",
        /* 33 */ "date", "",
        /* 34 */ "etag", "",
        /* 35 */ "expect", "",
        /* 36 */ "expires", "",
        /* 37 */ "from", "",
        /* 38 */ "host", "",
        /* 39 */ "if-match", "",
        /* 40 */ "if-modified-since", "",
        /* 41 */ "if-none-match", "",
        /* 42 */ "if-range", "",
        /* 43 */ "if-unmodified-since", "",
        /* 44 */ "last-modified", "",
        /* 45 */ "link", "",
        /* 46 */ "location", "",
        /* 47 */ "max-forwards", "",
        /* 48 */ "proxy-authenticate", "",
        /* 49 */ "proxy-authorization", "",
        /* 50 */ "range", "",
        /* 51 */ "referer", "",
        /* 52 */ "refresh", "",
        /* 53 */ "retry-after", "",
        /* 54 */ "server", "",
        /* 55 */ "set-cookie", "",
        /* 56 */ "strict-transport-security", "",
        /* 57 */ "transfer-encoding", "",
        /* 58 */ "user-agent", "",
        /* 59 */ "vary", "",
        /* 60 */ "via", "",
        /* 61 */ "www-authenticate", "",
    };

    /** Slots of the name lookup: a power of two, more than twice the distinct names. */
    private static final int SLOTS = 128;

    /** {@code NAMES[i]}, {@code VALUES[i]}: entry i; index 0 is unused. */
    private static final AsciiString[] NAMES = new AsciiString[LENGTH + 1];
    private static final AsciiString[] VALUES = new AsciiString[LENGTH + 1];
    /** {@link HpackStrings#hash} of each entry's name, compared before the octets. */
    private static final int[] NAME_HASHES = new int[LENGTH + 1];
    /** Open addressing by name hash: the first index with that name, 0 for an empty slot. */
    private static final byte[] FIRST_INDEX_BY_NAME = new byte[SLOTS];

    static {
        for (int i = 1; i <= LENGTH; i++) {
            String name = ENTRIES[(i - 1) * 2];
            NAMES[i] = i > 1 && name.equals(NAMES[i - 1].toString()) ? NAMES[i - 1] : shared(name);
            VALUES[i] = AsciiString.cached(ENTRIES[(i - 1) * 2 + 1]);
            NAME_HASHES[i] = HpackStrings.hash(NAMES[i]);
            if (NAMES[i] != NAMES[i - 1]) {
                int slot = HpackStrings.hash(NAMES[i]) & SLOTS - 1;
                while (FIRST_INDEX_BY_NAME[slot] != 0) {
                    slot = slot + 1 & SLOTS - 1;
                }
                FIRST_INDEX_BY_NAME[slot] = (byte) i;
            }
        }
    }

    private HpackStaticTable() {
    }

    /** {@link Http2Headers}' constant for a pseudo-header name, so decoded names compare by identity. */
    private static AsciiString shared(String name) {
        for (AsciiString pseudo : new AsciiString[] {
            Http2Headers.AUTHORITY, Http2Headers.METHOD, Http2Headers.PATH, Http2Headers.SCHEME, Http2Headers.STATUS}) {
            if (pseudo.contentEquals(name)) {
                return pseudo;
            }
        }
        return AsciiString.cached(name);
    }

    /** The name of entry {@code index}, 1 to {@link #LENGTH}; one shared instance per distinct name. */
    static AsciiString name(int index) {
        return NAMES[index];
    }

    /** The value of entry {@code index}, 1 to {@link #LENGTH}; empty for name-only entries. */
    static AsciiString value(int index) {
        return VALUES[index];
    }

    /**
     * The first index whose name is {@code name}.
     *
     * @param hash {@link HpackStrings#hash} of {@code name}
     * @return the index, or 0 if no entry has that name
     */
    static int nameIndex(CharSequence name, int hash) {
        for (int slot = hash & SLOTS - 1; ; slot = slot + 1 & SLOTS - 1) {
            int index = FIRST_INDEX_BY_NAME[slot];
            if (index == 0 || NAME_HASHES[index] == hash && HpackStrings.sameOctets(NAMES[index], name)) {
                return index;
            }
        }
    }

    /**
     * The index of the entry with both {@code name} and {@code value}.
     *
     * @param nameIndex {@link #nameIndex} of the name, not 0
     * @return the index, or 0 if no entry has that value for that name
     */
    static int fieldIndex(int nameIndex, CharSequence value) {
        AsciiString name = NAMES[nameIndex];
        for (int i = nameIndex; i <= LENGTH && NAMES[i] == name; i++) {
            if (HpackStrings.sameOctets(VALUES[i], value)) {
                return i;
            }
        }
        return 0;
    }
}
