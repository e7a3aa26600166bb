package io.rill.buffer.pool;

import io.rill.util.concurrent.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import jdk.jfr.FlightRecorder;

/**
 * Where one {@link PoolArena} finds free space: its chunks, in two lists, with the first-fit
 * search for a run among them, and per small size class the slabs that have a free element.
 * Every method runs under the arena's lock.
 *
 * <pre>
 *   chunks:      [c0] [c1] ... [cn]    some page in use; first-fit scans them, oldest first
 *   emptyChunks: [e0] [e1] ... [ek]    no page in use; e0 emptied first, each stamped with when
 * </pre>
 *
 * A chunk whose last run is freed moves to the tail of {@code emptyChunks}. A run that fits in
 * no chunk of the first list takes the most recently emptied chunk back (the likeliest to be
 * still resident) before new memory is allocated. {@link #pollIdle} takes chunks from the head of
 * {@code emptyChunks} that stayed empty for the idle time, which is the hysteresis: a load that
 * keeps emptying and refilling a chunk reuses it instead of paying for fresh memory and its page
 * faults each time, and a burst's chunks still go back once it is over.
 *
 * @param <T> {@code byte[]} or a direct {@link java.nio.ByteBuffer}
 */
final class ArenaChunks<T> {

    private final PoolArena<T> arena;
    private final SizeClasses sizes;
    /** The clock of {@link PoolChunk#emptySinceNanos}. */
    private final Ticker ticker;
    /** Chunks with a page in use, in creation order; first-fit favours older, fuller chunks. */
    private final List<PoolChunk<T>> chunks = new ArrayList<>();
    /** Chunks with no page in use, in the order they emptied. */
    private final ArrayDeque<PoolChunk<T>> emptyChunks = new ArrayDeque<>();

    /**
     * The second result of {@link #allocateRun}: the chunk its returned handle belongs to (a handle
     * names pages, not its chunk). Read only under the lock right after that call, by the two
     * allocation paths, before anything else can allocate; cleared when that chunk empties so it
     * never keeps a freed chunk reachable. A field, not a returned pair, so allocating makes no object.
     */
    private PoolChunk<T> lastChunk;
    /** Per small class, the sentinel of the list of slabs with free elements. */
    private final PoolSubpage<T>[] slabHeads;

    @SuppressWarnings("unchecked")
    ArenaChunks(PoolArena<T> arena, SizeClasses sizes, Ticker ticker) {
        this.arena = arena;
        this.sizes = sizes;
        this.ticker = ticker;
        this.slabHeads = new PoolSubpage[sizes.smallCount()];
        for (int i = 0; i < slabHeads.length; i++) {
            slabHeads[i] = new PoolSubpage<>(i);
        }
    }

    /** {@return the chunk of the handle the last {@link #allocateRun} returned} */
    PoolChunk<T> lastChunk() {
        return lastChunk;
    }

    /** A run of {@code runPages} from the first chunk that has one, else a reused empty or a new chunk. */
    long allocateRun(int runPages) {
        for (int i = 0, n = chunks.size(); i < n; i++) {
            PoolChunk<T> chunk = chunks.get(i);
            long handle = chunk.allocateRun(runPages);
            if (handle >= 0) {
                lastChunk = chunk;
                return handle;
            }
        }
        PoolChunk<T> chunk = emptyChunks.pollLast();
        boolean fresh = chunk == null;
        if (fresh) {
            chunk = new PoolChunk<>(arena, arena.newMemory(sizes.chunkSize()), sizes.pageSize(), sizes.chunkSize());
        }
        chunks.add(chunk);
        if (fresh) {
            if (FlightRecorder.isInitialized()) { // see PoolArena.freeIdleChunks
                ChunkAllocatedEvent.commit(arena, sizes.chunkSize());
            }
        }
        lastChunk = chunk;
        return chunk.allocateRun(runPages);
    }

    /** {@return a slab of class {@code sizeIdx} with a free element: the first listed, else a new one} */
    PoolSubpage<T> slabWithRoom(int sizeIdx) {
        PoolSubpage<T> head = slabHeads[sizeIdx];
        PoolSubpage<T> slab = head.next;
        if (slab == head) {
            int runPages = sizes.runPages(sizeIdx);
            long run = allocateRun(runPages);
            PoolChunk<T> chunk = lastChunk;
            int runOffset = PoolChunk.runOffset(run);
            slab = new PoolSubpage<>(chunk, runOffset, runPages, sizes.size(sizeIdx), sizeIdx, sizes.pageShift());
            chunk.slabs[runOffset] = slab;
            slab.insertAfter(head);
        }
        return slab;
    }

    /**
     * Frees the slab element {@code handle} of {@code chunk}: a slab that was full is listed
     * again, and one left empty gives its run back to the chunk.
     */
    void freeElement(PoolChunk<T> chunk, long handle, int sizeIdx) {
        PoolSubpage<T> slab = chunk.slabs[PoolChunk.runOffset(handle)];
        if (slab == null || slab.sizeIdx != sizeIdx) {
            throw new IllegalStateException("no slab of class " + sizeIdx + " at handle " + Long.toHexString(handle));
        }
        slab.free(PoolChunk.bitmapIdx(handle));
        if (!slab.isLinked()) {
            slab.insertAfter(slabHeads[sizeIdx]);
        }
        // An empty slab gives its run back at once, so chunks can empty and be dropped;
        // thread caches absorb the churn this would otherwise cause.
        if (slab.numAvail == slab.maxElements) {
            slab.unlink();
            chunk.slabs[slab.runOffset] = null;
            chunk.freeAllocatedRun(slab.runOffset, slab.runPages);
        }
    }

    /** After a run of {@code chunk} was freed: an empty chunk moves to the tail of the empty list. */
    void runFreed(PoolChunk<T> chunk) {
        if (chunk.isEmpty()) {
            chunks.remove(chunk);
            chunk.emptySinceNanos = ticker.nanoTime();
            emptyChunks.addLast(chunk);
            if (lastChunk == chunk) {
                lastChunk = null;
            }
        }
    }

    /**
     * Takes out the chunks that have been empty for at least {@code idleNanos}, oldest first.
     *
     * @return the chunks, now in neither list, or null if there are none
     */
    List<PoolChunk<T>> pollIdle(long idleNanos) {
        List<PoolChunk<T>> idle = null;
        long now = ticker.nanoTime();
        for (PoolChunk<T> first = emptyChunks.peekFirst();
             first != null && now - first.emptySinceNanos >= idleNanos; first = emptyChunks.peekFirst()) {
            if (idle == null) {
                idle = new ArrayList<>();
            }
            idle.add(emptyChunks.pollFirst());
        }
        return idle;
    }

    /** {@return the number of chunks, empty ones included} */
    int size() {
        return chunks.size() + emptyChunks.size();
    }

    /** {@return the number of chunks with no page in use} */
    int emptySize() {
        return emptyChunks.size();
    }

    /** {@return the usage percentage of each chunk: those in use oldest first, then a 0 per empty chunk} */
    List<Integer> usages() {
        List<Integer> usages = new ArrayList<>(chunks.size() + emptyChunks.size());
        for (PoolChunk<T> chunk : chunks) {
            usages.add(chunk.usage());
        }
        for (int i = 0; i < emptyChunks.size(); i++) {
            usages.add(0);
        }
        return usages;
    }
}
