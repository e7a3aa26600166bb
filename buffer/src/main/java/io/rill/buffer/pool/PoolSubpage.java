package io.rill.buffer.pool;

/**
 * A slab: a run of pages split into equal elements of one small size class, with one bit per
 * element (set = in use). Slabs with free elements are linked into their arena's list for the
 * class, so a small allocation is: first slab of the list, first clear bit. Guarded by the
 * arena lock.
 *
 * @param <T> the memory type
 */
final class PoolSubpage<T> {

    final PoolChunk<T> chunk;
    final int runOffset;
    final int runPages;
    final int elementSize;
    final int sizeIdx;
    /** Bit i set when element i is in use. */
    private final long[] bitmap;
    final int maxElements;
    /** Free elements; 0 means the slab is off its arena list. */
    int numAvail;
    /** Hint: an element index that may be free (the last one freed). */
    private int nextAvail;
    /** Arena list links; a list head is a sentinel with chunk == null. */
    PoolSubpage<T> prev;
    PoolSubpage<T> next;

    /** A list head (sentinel) for one size class. */
    PoolSubpage(int sizeIdx) {
        this.chunk = null;
        this.runOffset = -1;
        this.runPages = 0;
        this.elementSize = 0;
        this.sizeIdx = sizeIdx;
        this.bitmap = null;
        this.maxElements = 0;
        prev = next = this;
    }

    PoolSubpage(PoolChunk<T> chunk, int runOffset, int runPages, int elementSize, int sizeIdx, int pageShift) {
        this.chunk = chunk;
        this.runOffset = runOffset;
        this.runPages = runPages;
        this.elementSize = elementSize;
        this.sizeIdx = sizeIdx;
        this.maxElements = (runPages << pageShift) / elementSize;
        this.bitmap = new long[(maxElements + 63) >>> 6];
        this.numAvail = maxElements;
    }

    /** Takes a free element and returns its handle; the caller checked {@code numAvail > 0}. */
    long allocate() {
        int idx = findFree();
        bitmap[idx >>> 6] |= 1L << idx;
        numAvail--;
        nextAvail = -1;
        return PoolChunk.handle(runOffset, runPages, true, idx);
    }

    private int findFree() {
        int hint = nextAvail;
        if (hint >= 0 && (bitmap[hint >>> 6] & 1L << hint) == 0) {
            return hint;
        }
        for (int w = 0; w < bitmap.length; w++) {
            long free = ~bitmap[w];
            if (free != 0) {
                int idx = (w << 6) + Long.numberOfTrailingZeros(free);
                if (idx < maxElements) {
                    return idx;
                }
            }
        }
        throw new IllegalStateException("slab full: " + this);
    }

    /** Frees element {@code idx}; throws if it was not in use (a double free). */
    void free(int idx) {
        long bit = 1L << idx;
        if (idx < 0 || idx >= maxElements || (bitmap[idx >>> 6] & bit) == 0) {
            throw new IllegalStateException("element " + idx + " of " + this + " is not in use");
        }
        bitmap[idx >>> 6] &= ~bit;
        numAvail++;
        nextAvail = idx;
    }

    void insertAfter(PoolSubpage<T> head) {
        prev = head;
        next = head.next;
        head.next.prev = this;
        head.next = this;
    }

    void unlink() {
        prev.next = next;
        next.prev = prev;
        prev = next = null;
    }

    boolean isLinked() {
        return next != null;
    }

    @Override
    public String toString() {
        return "slab(page " + runOffset + ", " + (maxElements - numAvail) + "/" + maxElements + " x " + elementSize + " B)";
    }
}
