package io.rill.handler.codec.redis;

import io.rill.buffer.ByteBuf;

/**
 * Writes decimal numbers into a buffer without a {@code String}: lengths, counts and integers are
 * on the path of every command and reply. Values below {@value #CACHED} come from a table of their
 * ASCII digits; others are written digit by digit from the end.
 */
final class RedisNumbers {

    /** Lengths and counts below this (keys, small values, argument counts) are looked up. */
    private static final int CACHED = 1024;
    private static final byte[][] DIGITS = new byte[CACHED][];

    static {
        for (int i = 0; i < CACHED; i++) {
            DIGITS[i] = Integer.toString(i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    private RedisNumbers() {
    }

    /** {@return how many characters {@code value} takes in decimal, its minus sign included} */
    static int digits(long value) {
        if (value < 0) {
            return value == Long.MIN_VALUE ? 20 : 1 + digits(-value);
        }
        int n = 1;
        for (long v = value; v >= 10; v /= 10) {
            n++;
        }
        return n;
    }

    static void writeDecimal(ByteBuf out, long value) {
        if (value >= 0 && value < CACHED) {
            out.writeBytes(DIGITS[(int) value]);
            return;
        }
        int n = digits(value);
        out.ensureWritable(n);
        int end = out.writerIndex() + n;
        int i = end;
        // Work on the negative value: Long.MIN_VALUE has no positive counterpart.
        long v = value < 0 ? value : -value;
        do {
            out.setByte(--i, (int) ('0' - v % 10));
            v /= 10;
        } while (v != 0);
        if (value < 0) {
            out.setByte(--i, '-');
        }
        out.writerIndex(end);
    }
}
