package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * Encodes {@link Http2Headers} into HPACK field blocks (RFC 7541).
 *
 * <p>Each field becomes, in order of preference: an indexed field when the static table (first)
 * or the dynamic table has both its name and value; else a literal with incremental indexing,
 * naming the field by index when a table has the name, which inserts it into the dynamic table;
 * a literal without indexing when the field is larger than the whole table (inserting it would
 * only empty the table). Fields the {@link SensitivityPolicy} calls sensitive are literals never
 * indexed (§6.2.3, §7.1.3): they stay out of the table, so no later field can be used to probe
 * their value by compression (CRIME-style attacks), and intermediaries must not index them either.
 * A string is Huffman-coded when that is strictly shorter.
 *
 * <p>The table's size is the smaller of the peer's SETTINGS_HEADER_TABLE_SIZE and this encoder's
 * own cap; a change is announced at the start of the next block (§4.2), with the smallest size
 * reached in between first when the size went down and back up, so the peer evicts what we did.
 *
 * <p>Encoding allocates nothing beyond the copies of fields stored in the dynamic table (none
 * when names and values are already {@link AsciiString}s). Not thread-safe: one encoder per
 * connection, used on its event loop.
 */
final class HpackEncoder {

    /** Which fields are never indexed. */
    @FunctionalInterface
    interface SensitivityPolicy {

        /**
         * {@code authorization} and {@code proxy-authorization} always; {@code cookie} values
         * shorter than 20 octets, which §7.1.3 says are easy to guess by brute force; and
         * {@code set-cookie} always: it carries session secrets, and its values are unique per
         * response, so indexing them would only push useful entries out of the table.
         */
        SensitivityPolicy DEFAULT = (name, value) -> switch (name.length()) {
            case 6 -> AsciiString.contentEquals(name, "cookie") && value.length() < 20;
            case 10 -> AsciiString.contentEquals(name, "set-cookie");
            case 13 -> AsciiString.contentEquals(name, "authorization");
            case 19 -> AsciiString.contentEquals(name, "proxy-authorization");
            default -> false;
        };

        /** Nothing is sensitive: every field may be indexed (RFC 7541's examples encode so). */
        SensitivityPolicy NONE = (name, value) -> false;

        /**
         * @param name the field name, lower case
         * @param value the field value
         * @return whether to send the field as a never-indexed literal
         */
        boolean isSensitive(CharSequence name, CharSequence value);
    }

    /** SETTINGS_HEADER_TABLE_SIZE's initial value (RFC 9113 §6.5.2), which the peer's decoder starts with. */
    static final int DEFAULT_TABLE_SIZE = 4096;

    private final HpackDynamicTable table;
    private final SensitivityPolicy sensitivity;
    /** The most table this encoder is willing to keep, whatever the peer allows. */
    private final long tableSizeCap;
    private final boolean huffman;
    /** The smallest table size since the last block, or -1 if the size has not changed since. */
    private long pendingMinSize = -1;

    /** A 4096-octet table, Huffman coding, and {@link SensitivityPolicy#DEFAULT}. */
    HpackEncoder() {
        this(SensitivityPolicy.DEFAULT);
    }

    /** A 4096-octet table and Huffman coding. */
    HpackEncoder(SensitivityPolicy sensitivity) {
        this(sensitivity, DEFAULT_TABLE_SIZE, true);
    }

    /**
     * @param tableSizeCap the largest dynamic table to keep; below 4096 it is announced in the first block
     * @param huffman whether to Huffman-code strings when that is shorter (off only to test raw literals)
     */
    HpackEncoder(SensitivityPolicy sensitivity, int tableSizeCap, boolean huffman) {
        if (tableSizeCap < 0) {
            throw new IllegalArgumentException("tableSizeCap: " + tableSizeCap + " (expected >= 0)");
        }
        this.sensitivity = sensitivity;
        this.tableSizeCap = tableSizeCap;
        this.huffman = huffman;
        long size = Math.min(DEFAULT_TABLE_SIZE, tableSizeCap);
        table = new HpackDynamicTable(size, true);
        if (size != DEFAULT_TABLE_SIZE) {
            pendingMinSize = size;
        }
    }

    /**
     * Applies the peer's SETTINGS_HEADER_TABLE_SIZE: the table shrinks at once (evicting) or may
     * grow, and the next block starts with the size update(s) that tell the peer.
     */
    void setMaxHeaderTableSize(long peerMax) {
        if (peerMax < 0 || peerMax > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("SETTINGS_HEADER_TABLE_SIZE: " + peerMax + " (expected 0 to 2^32-1)");
        }
        long size = Math.min(peerMax, tableSizeCap);
        if (size == table.capacity() && pendingMinSize < 0) {
            return;
        }
        pendingMinSize = pendingMinSize < 0 ? size : Math.min(pendingMinSize, size);
        table.setCapacity(size);
    }

    /** The dynamic table, for tests. */
    HpackDynamicTable table() {
        return table;
    }

    /**
     * Appends the field block of {@code headers} to {@code out}.
     *
     * @param headers the fields, sent in their order
     * @param out the buffer to write to; it grows as needed
     */
    void encode(Http2Headers headers, ByteBuf out) {
        if (pendingMinSize >= 0) {
            if (pendingMinSize < table.capacity()) {
                writeInteger(out, 0x20, 5, pendingMinSize);
            }
            writeInteger(out, 0x20, 5, table.capacity());
            pendingMinSize = -1;
        }
        for (int i = 0, n = headers.size(); i < n; i++) {
            encodeField(headers.nameAt(i), headers.valueAt(i), out);
        }
    }

    private void encodeField(CharSequence name, CharSequence value, ByteBuf out) {
        int nameHash = HpackStrings.hash(name);
        int staticIndex = HpackStaticTable.nameIndex(name, nameHash);
        if (sensitivity.isSensitive(name, value)) {
            int nameIndex = staticIndex != 0 ? staticIndex : dynamicNameIndex(name, nameHash, value);
            writeLiteral(out, 0x10, 4, nameIndex, name, value);
            return;
        }
        if (staticIndex != 0) {
            int fieldIndex = HpackStaticTable.fieldIndex(staticIndex, value);
            if (fieldIndex != 0) {
                writeInteger(out, 0x80, 7, fieldIndex);
                return;
            }
        }
        int valueHash = HpackStrings.hash(value);
        int found = table.length() == 0 ? 0 : table.find(name, nameHash, value, valueHash);
        if (found > 0) {
            writeInteger(out, 0x80, 7, HpackStaticTable.LENGTH + found);
            return;
        }
        int nameIndex = staticIndex != 0 ? staticIndex : found < 0 ? HpackStaticTable.LENGTH - found : 0;
        if (HpackDynamicTable.entrySize(name, value) > table.capacity()) {
            writeLiteral(out, 0x00, 4, nameIndex, name, value);
            return;
        }
        writeLiteral(out, 0x40, 6, nameIndex, name, value);
        table.add(HpackStrings.octets(name), HpackStrings.octets(value), nameHash, valueHash);
    }

    private int dynamicNameIndex(CharSequence name, int nameHash, CharSequence value) {
        int found = table.length() == 0 ? 0 : table.find(name, nameHash, value, HpackStrings.hash(value));
        return found == 0 ? 0 : HpackStaticTable.LENGTH + Math.abs(found);
    }

    /** A literal representation: its pattern and name index (0: the name follows as a string), then the value. */
    private void writeLiteral(ByteBuf out, int pattern, int prefixBits, int nameIndex, CharSequence name,
            CharSequence value) {
        writeInteger(out, pattern, prefixBits, nameIndex);
        if (nameIndex == 0) {
            writeString(out, name);
        }
        writeString(out, value);
    }

    /** A string literal (§5.2), Huffman-coded if that is strictly shorter. */
    private void writeString(ByteBuf out, CharSequence s) {
        int length = s.length();
        if (huffman && length > 0) {
            int coded = HpackHuffman.encodedLength(s);
            if (coded < length) {
                writeInteger(out, 0x80, 7, coded);
                HpackHuffman.encode(s, out);
                return;
            }
        }
        writeInteger(out, 0x00, 7, length);
        HpackStrings.writeRaw(s, out);
    }

    /** An integer with an N-bit prefix (§5.1), the first octet's other bits set to {@code pattern}. */
    static void writeInteger(ByteBuf out, int pattern, int prefixBits, long value) {
        int prefixMax = (1 << prefixBits) - 1;
        if (value < prefixMax) {
            out.writeByte(pattern | (int) value);
            return;
        }
        out.writeByte(pattern | prefixMax);
        long rest = value - prefixMax;
        while (rest >= 0x80) {
            out.writeByte((int) (rest & 0x7F | 0x80));
            rest >>>= 7;
        }
        out.writeByte((int) rest);
    }
}
