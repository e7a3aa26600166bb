package io.rill.buffer.pool;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR event {@code io.rill.ChunkAllocated}: the pooled allocator took a new chunk of memory from
 * the heap or the OS. A steady server allocates chunks only while it warms up; chunks allocated
 * under steady load mean the pool churns, which the matching {@code io.rill.ChunkFreed} events show.
 */
@Name("io.rill.ChunkAllocated")
@Label("Pool Chunk Allocated")
@Category({"Rill", "Buffer Pool"})
@Description("The pooled allocator took a new chunk of memory from the heap or the OS")
final class ChunkAllocatedEvent extends jdk.jfr.Event {

    @Label("Memory Kind")
    @Description("heap or direct")
    String memoryKind;

    @Label("Chunk Size")
    @DataAmount
    long chunkSize;

    @Label("Arena Chunks")
    @Description("Chunks the arena holds after this one")
    int arenaChunks;

    /** Commits one event if a recording wants it. Once per chunk; numChunks() takes the arena's lock, which is reentrant. */
    static void commit(PoolArena<?> arena, long chunkSize) {
        ChunkAllocatedEvent event = new ChunkAllocatedEvent();
        if (event.shouldCommit()) {
            event.memoryKind = arena instanceof PoolArena.Direct ? "direct" : "heap";
            event.chunkSize = chunkSize;
            event.arenaChunks = arena.numChunks();
            event.commit();
        }
    }
}
