package io.rill.buffer;

/**
 * Visits bytes of a {@link ByteBuf} in {@code forEachByte}/{@code forEachByteDesc}: return
 * true to continue, false to stop at the current byte (whose index the loop then returns).
 * The constants cover the searches protocol decoders need every day.
 */
@FunctionalInterface
public interface ByteProcessor {

    /**
     * Returns false to stop the scan at {@code value}.
     *
     * @param value the next byte
     * @return true to go on, false to stop here
     */
    boolean process(byte value);

    /**
     * Stops at the first byte equal to {@code target}.
     *
     * @param target the byte to find
     * @return the processor
     */
    static ByteProcessor find(byte target) {
        return b -> b != target;
    }

    /**
     * Stops at the first byte not equal to {@code target}.
     *
     * @param target the byte to skip
     * @return the processor
     */
    static ByteProcessor findNon(byte target) {
        return b -> b == target;
    }

    /** Stops at the first NUL byte. */
    ByteProcessor FIND_NUL = find((byte) 0);
    /** Stops at the first byte that is not NUL. */
    ByteProcessor FIND_NON_NUL = findNon((byte) 0);
    /** Stops at the first CR. */
    ByteProcessor FIND_CR = find((byte) '\r');
    /** Stops at the first byte that is not CR. */
    ByteProcessor FIND_NON_CR = findNon((byte) '\r');
    /** Stops at the first LF. */
    ByteProcessor FIND_LF = find((byte) '\n');
    /** Stops at the first byte that is not LF. */
    ByteProcessor FIND_NON_LF = findNon((byte) '\n');
    /** Stops at the first {@code ';'}. */
    ByteProcessor FIND_SEMI_COLON = find((byte) ';');
    /** Stops at the first {@code ','}. */
    ByteProcessor FIND_COMMA = find((byte) ',');
    /** Stops at the first space (0x20). */
    ByteProcessor FIND_ASCII_SPACE = find((byte) ' ');
    /** Stops at CR or LF: the end of a line in either convention. */
    ByteProcessor FIND_CRLF = b -> b != '\r' && b != '\n';
    /** Stops at the first byte that is neither CR nor LF. */
    ByteProcessor FIND_NON_CRLF = b -> b == '\r' || b == '\n';
    /** Stops at space or horizontal tab (RFC 9110 whitespace). */
    ByteProcessor FIND_LINEAR_WHITESPACE = b -> b != ' ' && b != '\t';
    /** Stops at the first byte that is neither space nor horizontal tab. */
    ByteProcessor FIND_NON_LINEAR_WHITESPACE = b -> b == ' ' || b == '\t';
}
