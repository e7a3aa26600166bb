package io.rill.buffer;

/**
 * The range checks shared by every kind of buffer and the messages they throw. A bad index or
 * length fails with an {@link IndexOutOfBoundsException} that names the index, the length and the
 * range it missed, so the one-line message in a log is enough to find the caller's mistake.
 */
final class IndexChecks {

    private IndexChecks() {
    }

    /** True unless {@code [index, index + length)} lies inside {@code [0, capacity)}. */
    static boolean isOutOfBounds(int index, int length, int capacity) {
        // Any negative term (including an overflowed index + length) means out of range.
        return (index | length | index + length | capacity - (index + length)) < 0;
    }

    /** Throws unless {@code [index, index + length)} lies inside {@code [0, capacity)} of {@code what}. */
    static void checkRange(String what, int index, int length, int capacity) {
        if (isOutOfBounds(index, length, capacity)) {
            throw new IndexOutOfBoundsException(outside(what + ' ', index, length, capacity));
        }
    }

    /** "index 6 and length 4 do not fit in [0, 8)", with {@code what} ("dst ") in front of "index". */
    static String outside(String what, int index, int length, int capacity) {
        return what + "index " + index + " and length " + length + " do not fit in [0, " + capacity + ')';
    }

    /** Why {@code length} bytes cannot be read from {@code buf}, naming both of its indexes. */
    static String notReadable(ByteBuf buf, int length) {
        return "cannot read " + length + " bytes: " + buf.readableBytes() + " readable between readerIndex "
                + buf.readerIndex() + " and writerIndex " + buf.writerIndex() + " of " + buf;
    }

    /** Throws unless {@code dst} can take {@code length} bytes at its writer index without growing. */
    static void checkDstWritable(ByteBuf dst, int length) {
        if (length > dst.writableBytes()) {
            throw new IndexOutOfBoundsException("cannot copy " + length + " bytes into dst: it has room for "
                    + dst.writableBytes() + " (" + dst + ')');
        }
    }

    /** Throws unless {@code src} has {@code length} readable bytes. */
    static void checkSrcReadable(ByteBuf src, int length) {
        if (length > src.readableBytes()) {
            throw new IndexOutOfBoundsException("cannot copy " + length + " bytes from src: it has "
                    + src.readableBytes() + " readable (" + src + ')');
        }
    }
}
