package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;
import io.rill.util.AsciiString;

/**
 * Decodes HPACK field blocks (RFC 7541) into {@link Http2Headers}, checking the fields as
 * RFC 9113 §8.2 and §8.3 require.
 *
 * <p>A block is a sequence of representations, told apart by their first bits (§6):
 * <pre>
 *   1xxxxxxx  indexed field                       index: 7-bit prefix integer
 *   01xxxxxx  literal with incremental indexing   name index: 6-bit prefix (0: literal name)
 *   001xxxxx  dynamic table size update           new size: 5-bit prefix
 *   0001xxxx  literal never indexed               name index: 4-bit prefix
 *   0000xxxx  literal without indexing            name index: 4-bit prefix
 * </pre>
 *
 * <p>Errors come in two kinds. Broken compression (a bad index, truncated input, an integer or
 * Huffman string that is malformed, a misplaced size update) is a connection error
 * COMPRESSION_ERROR, thrown at once: the table can no longer be trusted. A well-compressed but
 * malformed message (a bad field, a misplaced pseudo-header field) or a section over the list
 * size limit is a stream error: the decoder keeps decoding to the end of the block, so the
 * dynamic table stays in sync with the peer's, and throws then. Once a block is known to fail,
 * no more fields are added to the output, which bounds memory whatever the block expands to.
 *
 * <p>Not thread-safe: one decoder per connection, used on its event loop.
 */
final class HpackDecoder {

    /** RFC 7541 §5.1 leaves integers unbounded; anything above an int is an attack here. */
    private static final int MAX_INTEGER_SHIFT = 28;

    private final HpackDynamicTable table;
    /** The largest list size (RFC 9113 §6.5.2 octets) a block may decode to. */
    private long maxHeaderListSize;
    /** SETTINGS_HEADER_TABLE_SIZE as advertised and acknowledged: the most a size update may ask. */
    private long maxHeaderTableSize;
    /** Set when the limit fell below the table's capacity: the next block must start with an update. */
    private boolean sizeUpdateRequired;
    /** Where a Huffman string's code is copied from the block, grown to the longest seen. */
    private byte[] coded = new byte[256];
    /** Where Huffman strings are decoded before being copied out at their exact length. */
    private byte[] scratch = new byte[256];

    // The state of the block being decoded, reset by decode().
    private long listSize;
    private int pseudoHeadersSeen;
    private boolean regularFieldSeen;
    /** The first malformed-message problem of this block, or null. */
    private String problem;

    /**
     * @param maxHeaderListSize the SETTINGS_MAX_HEADER_LIST_SIZE this endpoint advertises
     * @param maxHeaderTableSize the dynamic table's starting capacity and the largest size update
     *     accepted: 4096 (the protocol's initial value) until this endpoint's SETTINGS is acknowledged
     */
    HpackDecoder(long maxHeaderListSize, int maxHeaderTableSize) {
        setMaxHeaderListSize(maxHeaderListSize);
        this.maxHeaderTableSize = checkTableSize(maxHeaderTableSize);
        table = new HpackDynamicTable(maxHeaderTableSize, false);
    }

    /**
     * Applies the SETTINGS_HEADER_TABLE_SIZE this endpoint advertised, once acknowledged. If it is
     * below the table's capacity the peer must shrink the table with a size update at the start of
     * its next block (RFC 7541 §4.2), else that block is a COMPRESSION_ERROR.
     */
    void setMaxHeaderTableSize(long max) {
        maxHeaderTableSize = checkTableSize(max);
        if (max < table.capacity()) {
            sizeUpdateRequired = true;
        }
    }

    /** Applies the SETTINGS_MAX_HEADER_LIST_SIZE this endpoint advertises. */
    void setMaxHeaderListSize(long max) {
        if (max < 0 || max > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("maxHeaderListSize: " + max + " (expected 0 to 2^32-1)");
        }
        maxHeaderListSize = max;
    }

    /** The dynamic table, for tests. */
    HpackDynamicTable table() {
        return table;
    }

    /**
     * Decodes one complete field block, reading {@code block} to its end (it stays owned by the caller).
     *
     * @param streamId the stream the block belongs to, named by stream errors
     * @param out where the fields go, in order
     * @throws Http2Exception a connection error COMPRESSION_ERROR if the block cannot be decoded; a
     *     stream error PROTOCOL_ERROR naming the field if the message is malformed; a
     *     {@link HeaderListTooLargeException} if the section is over the list size limit
     */
    void decode(int streamId, ByteBuf block, Http2Headers out) throws Http2Exception {
        listSize = 0;
        pseudoHeadersSeen = 0;
        regularFieldSeen = false;
        problem = null;
        int sizeUpdates = 0;
        boolean atStart = true;
        while (block.isReadable()) {
            int first = block.getUnsignedByte(block.readerIndex());
            if ((first & 0x80) != 0) {
                int index = readInteger(block, 7);
                if (index == 0) {
                    throw compressionError("indexed field with index 0");
                }
                requireNoPendingSizeUpdate();
                if (index <= HpackStaticTable.LENGTH) {
                    field(HpackStaticTable.name(index), HpackStaticTable.value(index), true, 0, out);
                } else {
                    int i = dynamicIndex(index);
                    field(table.name(i), table.value(i), false, i, out);
                }
            } else if ((first & 0x40) != 0) {
                requireNoPendingSizeUpdate();
                literal(block, 6, true, out);
            } else if ((first & 0x20) != 0) {
                if (!atStart) {
                    throw compressionError("dynamic table size update after the start of the block (RFC 7541 §4.2)");
                }
                if (++sizeUpdates > 2) {
                    throw compressionError("more than two dynamic table size updates at the start of a block");
                }
                int size = readInteger(block, 5);
                if (size > maxHeaderTableSize) {
                    throw compressionError("dynamic table size update to " + size
                            + " is over SETTINGS_HEADER_TABLE_SIZE " + maxHeaderTableSize);
                }
                table.setCapacity(size);
                sizeUpdateRequired = false;
                continue;
            } else {
                requireNoPendingSizeUpdate();
                literal(block, 4, false, out);
            }
            atStart = false;
        }
        if (problem != null) {
            throw Http2HeaderChecks.malformed(streamId, problem);
        }
        if (listSize > maxHeaderListSize) {
            throw new HeaderListTooLargeException(streamId, maxHeaderListSize, listSize);
        }
    }

    private void requireNoPendingSizeUpdate() throws Http2Exception {
        if (sizeUpdateRequired) {
            throw compressionError("the block does not start with the dynamic table size update that "
                    + "SETTINGS_HEADER_TABLE_SIZE " + maxHeaderTableSize + " requires (RFC 7541 §4.2)");
        }
    }

    /** A literal field: name by index or literal, then a literal value; indexed if {@code index}. */
    private void literal(ByteBuf block, int prefixBits, boolean index, Http2Headers out) throws Http2Exception {
        int nameIndex = readInteger(block, prefixBits);
        AsciiString name;
        boolean staticName = false;
        if (nameIndex == 0) {
            name = readString(block);
        } else if (nameIndex <= HpackStaticTable.LENGTH) {
            name = HpackStaticTable.name(nameIndex);
            staticName = true;
        } else {
            name = table.name(dynamicIndex(nameIndex));
        }
        AsciiString value = readString(block);
        int inserted = 0;
        if (index) {
            table.add(name, value, 0, 0);
            // a field larger than the table empties it instead of entering it (RFC 7541 §4.4)
            inserted = table.length() > 0 && table.name(1) == name && table.value(1) == value ? 1 : 0;
        }
        field(name, value, staticName, inserted, out);
    }

    /**
     * Counts a decoded field against the list size, checks it, and adds it to {@code out} unless
     * the block already failed.
     *
     * @param dynamicIndex the field's dynamic table entry, whose checks are done once and noted
     *     there (an entry lives on across blocks); 0 if it has none
     */
    private void field(AsciiString name, AsciiString value, boolean staticName, int dynamicIndex,
            Http2Headers out) {
        listSize += HpackDynamicTable.entrySize(name, value);
        if (problem == null) {
            problem = fieldProblem(name, value, staticName, dynamicIndex);
        }
        if (problem == null && listSize <= maxHeaderListSize) {
            out.add(name, value);
        }
    }

    private String fieldProblem(AsciiString name, AsciiString value, boolean staticName, int dynamicIndex) {
        boolean pseudo = !name.isEmpty() && name.byteAt(0) == ':';
        String problem = pseudo ? pseudoHeaderProblem(name) : null;
        if (!pseudo) {
            regularFieldSeen = true;
        }
        if (problem != null || dynamicIndex != 0 && table.isChecked(dynamicIndex)) {
            return problem;
        }
        if (!pseudo && !staticName) {
            problem = Http2HeaderChecks.regularNameProblem(name);
        }
        if (problem == null) {
            problem = Http2HeaderChecks.valueProblem(name, value);
        }
        if (problem == null && dynamicIndex != 0) {
            table.markChecked(dynamicIndex);
        }
        return problem;
    }

    /** The order, duplicate and name rules of pseudo-header fields (RFC 9113 §8.3). */
    private String pseudoHeaderProblem(AsciiString name) {
        if (regularFieldSeen) {
            return "pseudo-header field " + Http2HeaderChecks.quote(name) + " after a regular field";
        }
        int bit = Http2HeaderChecks.pseudoHeaderBit(name);
        if (bit == 0) {
            return "unknown pseudo-header field " + Http2HeaderChecks.quote(name);
        }
        if ((pseudoHeadersSeen & bit) != 0) {
            return "duplicated pseudo-header field " + Http2HeaderChecks.quote(name);
        }
        pseudoHeadersSeen |= bit;
        return null;
    }

    /** The dynamic table's relative index for HPACK index {@code index}, which is above the static table. */
    private int dynamicIndex(int index) throws Http2Exception {
        int i = index - HpackStaticTable.LENGTH;
        if (i > table.length()) {
            throw compressionError("index " + index + " is beyond the tables (" + HpackStaticTable.LENGTH
                    + " static entries, " + table.length() + " dynamic)");
        }
        return i;
    }

    /** A string literal (§5.2): H bit, 7-bit prefix length, then raw or Huffman-coded octets. */
    private AsciiString readString(ByteBuf block) throws Http2Exception {
        if (!block.isReadable()) {
            throw compressionError("block ends where a string literal should start");
        }
        boolean huffman = (block.getByte(block.readerIndex()) & 0x80) != 0;
        int length = readInteger(block, 7);
        if (length > block.readableBytes()) {
            throw compressionError("string literal of " + length + " octets, only " + block.readableBytes()
                    + " left in the block");
        }
        if (!huffman) {
            byte[] raw = new byte[length];
            block.readBytes(raw);
            return new AsciiString(raw, false);
        }
        // one bulk copy in, then array reads: cheaper than a buffer call per octet
        if (coded.length < length) {
            coded = new byte[Math.max(length, coded.length * 2)];
        }
        block.readBytes(coded, 0, length);
        // 5 bits is the shortest code, so length octets hold at most length * 8 / 5 symbols
        int most = (int) (length * 8L / 5);
        if (scratch.length < most) {
            scratch = new byte[Math.max(most, scratch.length * 2)];
        }
        int decoded = HpackHuffman.decode(coded, 0, length, scratch);
        if (decoded < 0) {
            throw compressionError("invalid Huffman string: it holds EOS, or its padding is longer than 7 bits"
                    + " or not all ones (RFC 7541 §5.2)");
        }
        return new AsciiString(scratch, 0, decoded, true);
    }

    /** An integer with an N-bit prefix (§5.1); above {@link Integer#MAX_VALUE} is an error. */
    static int readInteger(ByteBuf block, int prefixBits) throws Http2Exception {
        int prefixMax = (1 << prefixBits) - 1;
        int value = block.readByte() & prefixMax;
        if (value < prefixMax) {
            return value;
        }
        long total = value;
        for (int shift = 0; ; shift += 7) {
            if (!block.isReadable()) {
                throw compressionError("block ends inside an integer");
            }
            if (shift > MAX_INTEGER_SHIFT) {
                throw compressionError("integer longer than 5 continuation octets");
            }
            int b = block.readByte();
            total += (long) (b & 0x7F) << shift;
            if (total > Integer.MAX_VALUE) {
                throw compressionError("integer over 2^31-1");
            }
            if ((b & 0x80) == 0) {
                return (int) total;
            }
        }
    }

    private static long checkTableSize(long size) {
        if (size < 0 || size > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("maxHeaderTableSize: " + size + " (expected 0 to 2^32-1)");
        }
        return size;
    }

    private static Http2Exception compressionError(String message) {
        return Http2Exception.connectionError(Http2Error.COMPRESSION_ERROR, message);
    }
}
