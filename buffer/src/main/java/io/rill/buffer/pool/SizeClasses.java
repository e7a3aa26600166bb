package io.rill.buffer.pool;

/**
 * The sizes the pool hands out. Requests are rounded up to the next class so that freed
 * regions can be reused by any request of the same class.
 *
 * <p>Classes follow jemalloc's spacing: 16, 32, 48, 64, then four classes per doubling,
 * {@code 2^g + j * 2^(g-2)} for {@code j = 1..4} (80, 96, 112, 128, 160, 192, 224, 256, 320,
 * ...), up to the chunk size. Rounding up therefore wastes less than a fifth of a region
 * (at most {@code 2^(g-2) - 1} bytes on top of more than {@code 2^g}), and the index of a size
 * is a closed formula, no table walk.
 *
 * <p>Classes below four pages are <em>small</em>: they are cut from slabs (runs of pages
 * holding equal elements, see {@link PoolSubpage}). The others are <em>normal</em>: each is a
 * whole run of pages (all normal classes are multiples of the page size). Requests above the
 * chunk size are <em>huge</em> and not pooled.
 */
public final class SizeClasses {

    private static final int QUANTUM_SHIFT = 4;
    /** Below 64 the classes are multiples of the 16-byte quantum. */
    private static final int FIRST_GROUP_SHIFT = 6;

    private final int pageSize;
    private final int pageShift;
    private final int chunkSize;
    /** sizes[i]: size of class i, increasing; the last is chunkSize. */
    private final int[] sizes;
    /** runPages[i]: pages of the run a region (normal) or a slab (small) of class i occupies. */
    private final int[] runPages;
    /** Classes [0, smallCount) are small. */
    private final int smallCount;

    /**
     * The size classes for {@code chunkSize}-byte chunks of {@code pageSize}-byte pages.
     *
     * @param pageSize a power of two of at least 4096
     * @param chunkSize a power of two, 4 to 32768 pages
     * @throws IllegalArgumentException if either size is out of range
     */
    public SizeClasses(int pageSize, int chunkSize) {
        if (pageSize < 4096 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize: " + pageSize + " (expected: power of two >= 4096)");
        }
        if (chunkSize < pageSize * 4 || Integer.bitCount(chunkSize) != 1 || chunkSize / pageSize > 1 << 15) {
            throw new IllegalArgumentException("chunkSize: " + chunkSize
                    + " (expected: power of two, 4 to 32768 pages of " + pageSize + ")");
        }
        this.pageSize = pageSize;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        this.chunkSize = chunkSize;
        int count = indexOfFormula(chunkSize) + 1;
        sizes = new int[count];
        runPages = new int[count];
        int small = 0;
        for (int i = 0; i < count; i++) {
            int size = sizeOfFormula(i);
            sizes[i] = size;
            if (size < 4 * pageSize) {
                small++;
                runPages[i] = lcm(size, pageSize) >> pageShift;
            } else {
                runPages[i] = size >> pageShift;
            }
        }
        smallCount = small;
    }

    private static int indexOfFormula(int size) {
        if (size <= 1 << FIRST_GROUP_SHIFT) {
            return size <= 0 ? 0 : size - 1 >> QUANTUM_SHIFT;
        }
        int g = 31 - Integer.numberOfLeadingZeros(size - 1);
        return 4 + (g - FIRST_GROUP_SHIFT) * 4 + (size - 1 - (1 << g) >> g - 2);
    }

    private static int sizeOfFormula(int index) {
        if (index < 4) {
            return index + 1 << QUANTUM_SHIFT;
        }
        int g = FIRST_GROUP_SHIFT + (index - 4) / 4;
        int j = (index - 4) % 4 + 1;
        return (1 << g) + j * (1 << g - 2);
    }

    private static int lcm(int a, int b) {
        int x = a;
        int y = b;
        while (y != 0) {
            int t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }

    /**
     * The class serving {@code size} bytes, or -1 if {@code size} is above the chunk size (huge).
     *
     * @param size the number of bytes asked for
     * @return the class index, or -1
     */
    public int sizeIndex(int size) {
        return size > chunkSize ? -1 : indexOfFormula(size);
    }

    /**
     * The size of class {@code index}.
     *
     * @param index a class index
     * @return the size in bytes
     */
    public int size(int index) {
        return sizes[index];
    }

    /**
     * Pages per run of class {@code index}: the slab for small classes, the region for normal ones.
     *
     * @param index a class index
     * @return the number of pages
     */
    public int runPages(int index) {
        return runPages[index];
    }

    /**
     * {@return true if class {@code index} is small: served by an element of a slab}
     *
     * @param index a class index
     */
    public boolean isSmall(int index) {
        return index < smallCount;
    }

    /** {@return the number of classes} */
    public int count() {
        return sizes.length;
    }

    /** {@return the number of small classes; they are indexes {@code [0, smallCount())}} */
    public int smallCount() {
        return smallCount;
    }

    /** {@return the page size in bytes} */
    public int pageSize() {
        return pageSize;
    }

    /** {@return log2 of the page size} */
    public int pageShift() {
        return pageShift;
    }

    /** {@return the chunk size in bytes} */
    public int chunkSize() {
        return chunkSize;
    }
}
