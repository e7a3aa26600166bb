package io.rill.buffer.pool;

/**
 * One large block of memory (4 MiB by default) cut into pages, handed out as <em>runs</em> of
 * consecutive pages. Normal allocations take a run each; small ones take an element of a slab
 * run ({@link PoolSubpage}).
 *
 * <pre>
 *  memory:  | page 0 | page 1 | page 2 | page 3 | page 4 | page 5 | ... | page n-1 |
 *           +--------+--------+--------+--------+--------+--------+     +----------+
 *           |  run A (2 pages) |  slab B (1)  |   free  | run C (3 pages ...
 *                                 |
 *                                 +-- elements of 48 bytes, one bit each in B's bitmap
 *
 *  freePages bitmap: bit p set  &lt;=&gt;  page p is free (n bits, n = chunkSize / pageSize)
 * </pre>
 *
 * Finding a run is first-fit over the bitmap, skipping 64 pages at a time where a word is full;
 * freeing sets the bits back, which merges neighbouring free runs for free. With 512 pages per
 * chunk the scan touches at most 8 words, and it only runs under the arena lock on a
 * thread-cache miss.
 *
 * <p>An allocation is identified by a {@code long} handle:
 *
 * <pre>
 *   63            49 48            34  33  32 31                          0
 *  +----------------+----------------+---+---+-----------------------------+
 *  | runOffset (15) |  runPages (15) | 0 | S |  bitmapIdx (32)             |
 *  +----------------+----------------+---+---+-----------------------------+
 *   runOffset: first page of the run       S: 1 if the run is a slab and
 *   runPages:  pages in the run               bitmapIdx names the element
 * </pre>
 *
 * The byte offset of an allocation in {@link #memory} is
 * {@code runOffset * pageSize + bitmapIdx * elementSize}. All methods except the static handle
 * helpers must be called with the owning arena's lock held.
 *
 * @param <T> {@code byte[]} or a direct {@link java.nio.ByteBuffer}
 */
public final class PoolChunk<T> {

    private static final int OFFSET_SHIFT = 49;
    private static final int PAGES_SHIFT = 34;
    private static final long SUBPAGE_BIT = 1L << 32;
    private static final long FIFTEEN_BITS = 0x7fff;

    /** The arena this chunk belongs to (null in bookkeeping tests). */
    final PoolArena<T> arena;
    /** The memory, chunkSize bytes; never resized. */
    public final T memory;
    final int pageShift;
    final int pages;
    /** Bit p set when page p is free. */
    private final long[] freeMap;
    /** Slabs by their first page, so freeing an element finds its slab. */
    final PoolSubpage<T>[] slabs;
    /** Number of set bits in freeMap. */
    private int freePages;
    /** When the arena saw this chunk become entirely free (its ticker's time); meaningful only while it is. */
    long emptySinceNanos;

    /**
     * A chunk that is one huge allocation, too large for any size class: it has no pages and
     * only lets the buffer that holds it find its arena, like every pooled buffer.
     */
    static <T> PoolChunk<T> huge(PoolArena<T> arena, T memory) {
        return new PoolChunk<>(arena, memory, 1, 0);
    }

    /**
     * A chunk over {@code memory}, every page free.
     *
     * @param arena the arena that owns the chunk
     * @param memory the chunk's memory, {@code chunkSize} bytes
     * @param pageSize the page size, a power of two
     * @param chunkSize the chunk size, a multiple of {@code pageSize}
     */
    @SuppressWarnings("unchecked")
    public PoolChunk(PoolArena<T> arena, T memory, int pageSize, int chunkSize) {
        this.arena = arena;
        this.memory = memory;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        this.pages = chunkSize >> pageShift;
        this.freeMap = new long[(pages + 63) >>> 6];
        this.slabs = new PoolSubpage[pages];
        freeRun(0, pages);
    }

    // ------------------------------------------------------------------ handles

    /**
     * {@return a handle with the given fields, laid out as drawn above}
     *
     * @param runOffset the run's first page
     * @param runPages the run's length in pages
     * @param slab whether the run is a slab of small elements
     * @param bitmapIdx the element index inside the slab; 0 for a plain run
     */
    public static long handle(int runOffset, int runPages, boolean slab, int bitmapIdx) {
        return (long) runOffset << OFFSET_SHIFT | (long) runPages << PAGES_SHIFT
                | (slab ? SUBPAGE_BIT : 0) | bitmapIdx & 0xffffffffL;
    }

    /**
     * {@return the first page of the run in {@code handle}}
     *
     * @param handle an allocation handle
     */
    public static int runOffset(long handle) {
        return (int) (handle >>> OFFSET_SHIFT & FIFTEEN_BITS);
    }

    /**
     * {@return the number of pages of the run in {@code handle}}
     *
     * @param handle an allocation handle
     */
    public static int runPages(long handle) {
        return (int) (handle >>> PAGES_SHIFT & FIFTEEN_BITS);
    }

    /**
     * {@return true if {@code handle} names an element of a slab}
     *
     * @param handle an allocation handle
     */
    public static boolean isSlab(long handle) {
        return (handle & SUBPAGE_BIT) != 0;
    }

    /**
     * {@return the element index inside the slab, for a slab handle}
     *
     * @param handle an allocation handle
     */
    public static int bitmapIdx(long handle) {
        return (int) handle;
    }

    /**
     * Where the allocation {@code handle} starts in {@link #memory}.
     *
     * @param handle the allocation
     * @param elementSize the slab's element size; ignored for a plain run
     * @return the byte offset
     */
    public int offset(long handle, int elementSize) {
        return (runOffset(handle) << pageShift) + (isSlab(handle) ? bitmapIdx(handle) * elementSize : 0);
    }

    // ------------------------------------------------------------------ runs

    /**
     * Reserves {@code runPages} consecutive pages; returns the run's handle, or -1 if no gap is big enough.
     *
     * @param runPages the number of pages wanted
     * @return the handle, or -1
     */
    public long allocateRun(int runPages) {
        if (runPages <= 0 || runPages > freePages) {
            return -1;
        }
        int start = nextFree(0);
        while (start >= 0 && start + runPages <= pages) {
            int end = nextUsed(start, start + runPages);
            if (end - start >= runPages) {
                setRange(start, runPages, false);
                freePages -= runPages;
                return handle(start, runPages, false, 0);
            }
            start = nextFree(end);
        }
        return -1;
    }

    /**
     * Frees a run that {@link #allocateRun} returned; throws if any of its pages is already free.
     *
     * @param runOffset the run's first page
     * @param runPages the run's length in pages
     */
    public void freeAllocatedRun(int runOffset, int runPages) {
        int firstFree = nextFree(runOffset);
        if (runOffset < 0 || runOffset + runPages > pages || firstFree >= 0 && firstFree < runOffset + runPages) {
            throw new IllegalStateException("run of " + runPages + " pages at " + runOffset + " is not in use in " + this);
        }
        freeRun(runOffset, runPages);
    }

    private void freeRun(int runOffset, int runPages) {
        setRange(runOffset, runPages, true);
        freePages += runPages;
    }

    /** First free page at or after {@code from}, or -1. */
    private int nextFree(int from) {
        if (from >= pages) {
            return -1;
        }
        int word = from >>> 6;
        long bits = freeMap[word] & -1L << (from & 63);
        while (bits == 0) {
            if (++word == freeMap.length) {
                return -1;
            }
            bits = freeMap[word];
        }
        int page = (word << 6) + Long.numberOfTrailingZeros(bits);
        return page < pages ? page : -1;
    }

    /** First used page in {@code [from, limit)}, or {@code limit} if all are free. */
    private int nextUsed(int from, int limit) {
        for (int p = from; p < limit; ) {
            int word = p >>> 6;
            long used = ~freeMap[word] & -1L << (p & 63);
            if (used != 0) {
                return Math.min(limit, (word << 6) + Long.numberOfTrailingZeros(used));
            }
            p = (word + 1) << 6;
        }
        return limit;
    }

    private void setRange(int from, int count, boolean free) {
        for (int p = from, end = from + count; p < end; ) {
            int word = p >>> 6;
            int bit = p & 63;
            int n = Math.min(64 - bit, end - p);
            long mask = (n == 64 ? -1L : (1L << n) - 1) << bit;
            freeMap[word] = free ? freeMap[word] | mask : freeMap[word] & ~mask;
            p += n;
        }
    }

    // ------------------------------------------------------------------ state

    /** {@return true if this chunk is a single huge allocation (see {@code huge})} */
    public boolean isHuge() {
        return pages == 0;
    }

    /** {@return the arena this chunk belongs to} */
    public PoolArena<T> arena() {
        return arena;
    }

    /** {@return the number of free pages} */
    public int freePages() {
        return freePages;
    }

    /** {@return the number of pages in this chunk} */
    public int pages() {
        return pages;
    }

    /** {@return true if no page is in use} */
    public boolean isEmpty() {
        return freePages == pages;
    }

    /** {@return the percentage of pages in use} */
    public int usage() {
        return 100 - (int) (100L * freePages / pages);
    }

    @Override
    public String toString() {
        return "PoolChunk(" + (pages - freePages) + "/" + pages + " pages used)";
    }
}
