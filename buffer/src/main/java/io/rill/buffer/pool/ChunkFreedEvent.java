package io.rill.buffer.pool;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR event {@code io.rill.ChunkFreed}: the pooled allocator gave an idle chunk's memory back.
 * Paired with {@code io.rill.ChunkAllocated}, it shows whether the pool breathes with the load or churns.
 */
@Name("io.rill.ChunkFreed")
@Label("Pool Chunk Freed")
@Category({"Rill", "Buffer Pool"})
@Description("The pooled allocator gave an idle chunk's memory back")
final class ChunkFreedEvent extends jdk.jfr.Event {

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
        ChunkFreedEvent event = new ChunkFreedEvent();
        if (event.shouldCommit()) {
            event.memoryKind = arena instanceof PoolArena.Direct ? "direct" : "heap";
            event.chunkSize = chunkSize;
            event.arenaChunks = arena.numChunks();
            event.commit();
        }
    }
}
