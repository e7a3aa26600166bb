package io.rill.channel;

import java.util.Arrays;

/**
 * Predicts the next read size from the previous ones: grows fast, shrinks slowly.
 *
 * <p>Sizes come from a table: multiples of 16 up to 512, then powers of two, clamped to
 * [minimum, maximum]. A read that fills its buffer (or a burst that reads at least the
 * prediction) jumps {@value #GROW_STEPS} table steps up at once, because a too-small buffer costs
 * a system call per chunk. Shrinking by one step needs two bursts in a row that would have
 * fit the next size down without filling it, so one short message does not undo what a bulk
 * transfer learned, and messages of a fixed size settle on a buffer they do not fill.
 * Defaults: minimum 64, initial 2048, maximum 65536.
 */
public final class AdaptiveRecvByteBufAllocator implements RecvByteBufAllocator {

    static final int GROW_STEPS = 4;
    private static final int[] SIZES = sizeTable();

    /** Index into {@link #SIZES} of the smallest size allowed. */
    private final int minIndex;
    /** Index of the largest size allowed; ≥ minIndex. */
    private final int maxIndex;
    /** Index of the first prediction of a new handle. */
    private final int initialIndex;

    /** An allocator that predicts between 64 bytes and 64 KiB, starting at 2 KiB. */
    public AdaptiveRecvByteBufAllocator() {
        this(64, 2048, 65536);
    }

    /**
     * An allocator that predicts between {@code minimum} and {@code maximum} bytes.
     *
     * @param minimum the smallest buffer it hands out
     * @param initial the size of the first read
     * @param maximum the largest buffer it hands out
     * @throws IllegalArgumentException unless {@code 0 < minimum <= initial <= maximum}
     */
    public AdaptiveRecvByteBufAllocator(int minimum, int initial, int maximum) {
        if (minimum <= 0 || initial < minimum || maximum < initial) {
            throw new IllegalArgumentException("expected 0 < minimum <= initial <= maximum, got "
                    + minimum + ", " + initial + ", " + maximum);
        }
        this.minIndex = indexAtLeast(minimum);
        int max = indexAtLeast(maximum);
        this.maxIndex = SIZES[max] > maximum ? max - 1 : max;
        this.initialIndex = Math.min(Math.max(indexAtLeast(initial), minIndex), maxIndex);
    }

    private static int[] sizeTable() {
        int[] table = new int[31 + 23];
        int n = 0;
        for (int size = 16; size < 512; size += 16) {
            table[n++] = size;
        }
        for (int size = 512; size > 0; size <<= 1) {
            table[n++] = size;
        }
        return Arrays.copyOf(table, n);
    }

    /** Index of the first size ≥ {@code size} (the last index if none is). */
    private static int indexAtLeast(int size) {
        int i = Arrays.binarySearch(SIZES, size);
        return i >= 0 ? i : Math.min(-i - 1, SIZES.length - 1);
    }

    @Override
    public Handle newHandle() {
        return new AdaptiveHandle();
    }

    private final class AdaptiveHandle extends ReadBurstHandle {
        /** Current prediction, as an index into SIZES within [minIndex, maxIndex]. */
        private int index = initialIndex;
        /** True after one burst that would have fit a smaller buffer; a second one shrinks. */
        private boolean shrinkPending;

        @Override
        public int guess() {
            return SIZES[index];
        }

        @Override
        public void lastBytesRead(int bytes) {
            // A read that filled the buffer says "more was waiting": grow now, within the burst.
            if (bytes > 0 && bytes == attemptedBytesRead()) {
                record(bytes);
            }
            super.lastBytesRead(bytes);
        }

        @Override
        public void readComplete() {
            record(totalBytesRead());
        }

        private void record(int actual) {
            // Strictly smaller: a burst that would exactly fill the next size down would, with
            // that size, cost a second read that finds nothing (and a buffer thrown away).
            if (actual < SIZES[Math.max(index - 1, minIndex)] && index > minIndex) {
                if (shrinkPending) {
                    index--;
                    shrinkPending = false;
                } else {
                    shrinkPending = true;
                }
            } else if (actual >= SIZES[index]) {
                index = Math.min(index + GROW_STEPS, maxIndex);
                shrinkPending = false;
            }
        }
    }
}
